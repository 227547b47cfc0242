import { spawnSync, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import http, { type IncomingHttpHeaders } from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { CannedAnswer, CeilingReady } from './ceiling-server.ts'
import type { LoadResult } from './load.ts'
import { BROWSER_ACCEPT_ENCODING, costlyRequests } from './costly-requests.ts'
import { autocannonGenerator, wrkGenerator, type LoadGenerator } from './load-generators.ts'
import { cpuUs, freePort, hasTaskset, rssMb, SERVER_CORE, spawnPinned, stopProcess } from './processes.ts'
import { bytesPerRequest, composeReport, computeTargets, fmt, median, summarise, writeResults, type Machine, type RunResult, type StartUp, type WorkerComparison } from './report.ts'
import { startCommand, startEnvironment } from './start-command.ts'
import { uniformInt } from 'pure-rand/distribution/uniformInt'
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus'

/*
 * `npm run bench`: our production build against a bare node:http server answering the very same
 * bytes from memory (the ceiling), with the same load generator, alternating between the two so
 * that whatever else the machine is doing falls on both alike. Every figure is a median of runs.
 * bench/results.md says how to read the table.
 */

const ROOT = fileURLToPath(new URL('..', import.meta.url))
/** How the server is started: as `npm start` starts it. */
const START_COMMAND = startCommand(ROOT)
/** The environment `npm start` adds (MALLOC_ARENA_MAX). */
const START_ENVIRONMENT = startEnvironment(ROOT)
const RESULTS_DIR = path.join(ROOT, 'bench', 'results')

function envNumber (name: string, fallback: number): number {
  const raw = process.env[name]
  if (raw === undefined || raw === '') return fallback
  const value = Number(raw)
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, got ${JSON.stringify(raw)}`)
  return value
}

const CONNECTIONS = envNumber('BENCH_CONNECTIONS', 32)
// More, shorter runs: on a shared VM the machine's speed drifts by ±20% over tens of seconds, and
// a median of five paired runs moves less than one of three.
const RUNS = envNumber('BENCH_RUNS', 5)
const RUN_SECONDS = envNumber('BENCH_SECONDS', 3)
const WARMUP_SECONDS = 1
/** The 1-vs-2-worker comparison is a side question: shorter runs keep the whole bench near five minutes. */
const WORKER_RUN_SECONDS = envNumber('BENCH_WORKER_SECONDS', 3)
/** Rate limiting stays on (every counted request pays for it) with a limit no run can reach. */
const RATE_LIMIT_MAX = '1000000000'
/** Request logs are not part of the contract; BENCH_LOG_LEVEL=info measures what they cost. */
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'warn'
const STARTUP_SAMPLES = 3
/** While working on one endpoint: BENCH_ONLY="single question,10-item page" and BENCH_WORKERS=0 make the bench quick. */
const ONLY = process.env.BENCH_ONLY === undefined || process.env.BENCH_ONLY === '' ? undefined : process.env.BENCH_ONLY.split(',').map((name) => name.trim())
const COMPARE_WORKERS = process.env.BENCH_WORKERS !== '0'

const log = (text: string) => process.stdout.write(`${text}\n`)

// ---------------------------------------------------------------------------------------------
// The machine
const hasWrk = spawnSync('wrk', ['--version']).error === undefined
const loaderName = process.env.BENCH_LOADER ?? (hasWrk ? 'wrk' : 'autocannon')
if (loaderName !== 'wrk' && loaderName !== 'autocannon') throw new Error(`BENCH_LOADER must be wrk or autocannon, got ${loaderName}`)

function cpuModel (): string {
  try {
    const line = readFileSync('/proc/cpuinfo', 'utf8').split('\n').find((text) => text.startsWith('model name'))
    return line?.split(':')[1]?.trim() ?? os.cpus()[0]?.model ?? 'unknown'
  } catch {
    return os.cpus()[0]?.model ?? 'unknown'
  }
}

/** The machine, as the report gives it. */
function describeMachine (): Machine {
  return {
    cores: os.availableParallelism(),
    cpu: cpuModel(),
    node: process.version,
    loader: loaderName,
    pinning: hasTaskset ? 'server on core 0, load generator on core 1 (taskset)' : 'none (taskset unavailable or a single core)',
    rateLimitStore: process.env.REDIS_URL === undefined || process.env.REDIS_URL === '' ? 'memory' : 'redis'
  }
}

function resolveDataDir (): { dataDir: string | undefined, label: string } {
  const fromEnv = process.env.ENEM_DATA_DIR
  if (fromEnv !== undefined && fromEnv !== '') return { dataDir: path.resolve(fromEnv), label: path.resolve(fromEnv) }
  // Where CI and the developers' machines keep the full dataset, beside the repository.
  const sibling = path.resolve(ROOT, '..', 'shared', 'enem-data')
  if (existsSync(path.join(sibling, 'exams.json'))) return { dataDir: sibling, label: sibling }
  return { dataDir: undefined, label: 'the built-in SAMPLE dataset (set ENEM_DATA_DIR for the full one)' }
}

// ---------------------------------------------------------------------------------------------
// The server

interface RawResponse {
  status: number
  headers: IncomingHttpHeaders
  body: Buffer
}

/** A request (a GET unless `body` is given: then a POST of it) that hands back the bytes as sent (fetch would decompress them). */
function getRaw (port: number, url: string, headers: Record<string, string> = {}, body?: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port, path: url, headers, agent: false, method: body === undefined ? 'GET' : 'POST' }, (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }))
      response.on('error', reject)
    })
    request.on('error', reject)
    request.setTimeout(5_000, () => request.destroy(new Error(`${request.method} ${url} timed out`)))
    request.end(body)
  })
}

async function getJson (port: number, url: string): Promise<unknown> {
  const response = await getRaw(port, url)
  if (response.status !== 200) throw new Error(`GET ${url}: expected 200, got ${response.status}`)
  return JSON.parse(response.body.toString('utf8'))
}

function delay (ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

interface ServerProcess {
  child: ChildProcess
  pid: number
  port: number
  workers: number
  /** From spawn to the first 200 on /readyz. */
  startupMs: number
}

/** `cacheDir`: the start-up cache's folder (CACHE_DIR); by default none, so every start is a cold one. */
async function startServer ({ workers, pinned, dataDir, cacheDir = 'off' }: { workers: number, pinned: boolean, dataDir: string | undefined, cacheDir?: string }): Promise<ServerProcess> {
  const port = await freePort()
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...START_ENVIRONMENT,
    PORT: String(port),
    HOST: '127.0.0.1',
    RATE_LIMIT_MAX,
    LOG_LEVEL,
    WEB_CONCURRENCY: String(workers),
    NODE_ENV: 'production',
    CACHE_DIR: cacheDir
  }
  if (dataDir === undefined) delete env.ENEM_DATA_DIR
  else env.ENEM_DATA_DIR = dataDir
  let stderr = ''
  const startedAt = performance.now()
  const child = spawnPinned(pinned ? SERVER_CORE : [], process.execPath, START_COMMAND.slice(1), {
    cwd: ROOT,
    env,
    // Logs go nowhere: a pipe would make this process (on the load generator's core) drain them.
    stdio: ['ignore', 'ignore', 'pipe']
  })
  child.stderr?.on('data', (chunk: Buffer) => { stderr += chunk.toString() })
  let exited = false
  child.once('exit', () => { exited = true })
  for (;;) {
    if (exited) throw new Error(`server exited during start-up: ${stderr.trim()}`)
    try {
      const response = await getRaw(port, '/readyz')
      if (response.status === 200) break
    } catch {
      // Not listening yet.
    }
    if (performance.now() - startedAt > 30_000) throw new Error('server not ready after 30 s')
    await delay(5)
  }
  return { child, pid: child.pid!, port, workers, startupMs: performance.now() - startedAt }
}

// ---------------------------------------------------------------------------------------------
// What is measured

interface Scenario {
  name: string
  url: string
  headers: Record<string, string>
  expectStatus: number
  /** The targets: JSON endpoints must keep p99 under 5 ms (or `p99TargetMs`); some have a ratio to reach. */
  json: boolean
  ratioTarget?: number
  p99TargetMs?: number
  /** Least share of the single question's requests per second (ours, same run) this scenario must reach. */
  singleQuestionShareTarget?: number
  /** Paths sent in turn, one per request (`url` is the first); each is captured for the ceiling. */
  paths?: string[]
  /** A JSON body: every request is a POST of it (`headers` give its Content-Type). */
  body?: string
  /**
   * Never send our server a path of `paths` twice, over the warm-up and every run: each request is
   * its first (a search no cache has seen). The ceiling, which keeps nothing, gets only the first
   * CEILING_PATHS of them, in turn.
   */
  unrepeated?: boolean
  /** Of an unrepeated scenario, how many paths the ceiling answers, when not CEILING_PATHS (exports are megabytes each). */
  ceilingPathCount?: number
  /** Most server CPU per request this scenario may cost, in single questions' CPU per request (same run). */
  singleQuestionCpuTarget?: number
  /** The Content-Encoding its answers must have (`identity` for none); for `Accept-Encoding: br` alone, br unless it says otherwise. */
  expectEncoding?: string
  /** The row whose CPU per request is that unit: `single question gzip/br` unless it says otherwise. */
  cpuUnitRow?: string
  /** singleQuestionCpuTarget is also met by costing no more than the ceiling answering the same bytes (a one-off answer of megabytes). */
  orCeilingCpu?: boolean
  /** Most server CPU per request this scenario may cost: the sum of these rows' (what one answer of it replaces). */
  cpuAtMostRows?: readonly string[]
  /** Most server CPU per request this scenario may cost, in the ceiling's CPU per request for the same bytes (same rounds). */
  ceilingCpuTarget?: number
  /**
   * Of an unrepeated row whose cost is its bytes (megabytes each), its ratio to the ceiling compares
   * CPU per byte answered: the ceiling answers only the first of its paths, whose answers may average
   * another size than those ours answered (multi-year exports: 1,237 KB against 1,258 KB). Not for
   * small answers, whose cost is mostly per request.
   */
  ceilingPerByte?: boolean
}

/** Paths of an unrepeated scenario captured for the ceiling: enough to stand for the sizes of the rest. */
const CEILING_PATHS = 1000

/** The paths the ceiling answers (and so are captured from our server): of an unrepeated scenario, its first CEILING_PATHS. */
function ceilingPaths (scenario: Scenario): string[] {
  if (scenario.paths === undefined) return [scenario.url]
  return scenario.unrepeated === true ? scenario.paths.slice(0, scenario.ceilingPathCount ?? CEILING_PATHS) : scenario.paths
}

interface QuestionRecord {
  index: number
  files: string[]
  alternatives: Array<{ file: string | null }>
}

/** Picks real URLs from what the server holds, so the bench runs on any dataset. */
async function discoverScenarios (port: number): Promise<Scenario[]> {
  const exams = await getJson(port, '/v1/exams') as Array<{ year: number }>
  // 2020 is the contract's example exam; any other dataset uses its newest exam.
  const year = exams.find((exam) => exam.year === 2020)?.year ?? exams[0]!.year
  const detail = await getJson(port, `/v1/exams/${year}`) as { questions: Array<{ index: number }> }
  const firstIndex = detail.questions[0]!.index

  let imagePath: string | undefined
  // The first question with two figures or more in `files` (else the first with one): get_question carries them as images (issue 60).
  let figured: QuestionRecord | undefined
  for (let offset = 0; figured === undefined || figured.files.length < 2; offset += 50) {
    const page = await getJson(port, `/v1/exams/${year}/questions?limit=50&offset=${offset}`) as { questions: QuestionRecord[], metadata: { hasMore: boolean } }
    for (const question of page.questions) {
      const address = question.files[0] ?? question.alternatives.find((alternative) => alternative.file !== null)?.file
      if (imagePath === undefined && address !== undefined && address !== null) imagePath = new URL(address).pathname
      if (question.files.length > (figured?.files.length ?? 0) && (figured === undefined || figured.files.length < 2)) figured = question
    }
    if (!page.metadata.hasMore) break
  }

  const scenarios: Scenario[] = [
    { name: 'single question', url: `/v1/exams/${year}/questions/${firstIndex}`, headers: {}, expectStatus: 200, json: true, ratioTarget: 0.8 },
    { name: 'exam detail', url: `/v1/exams/${year}`, headers: {}, expectStatus: 200, json: true, ratioTarget: 0.8 },
    { name: '10-item page', url: `/v1/exams/${year}/questions?limit=10&offset=10`, headers: {}, expectStatus: 200, json: true, ratioTarget: 0.6 },
    { name: '50-item page', url: `/v1/exams/${year}/questions?limit=50&offset=50`, headers: {}, expectStatus: 200, json: true },
    { name: 'exam list', url: '/v1/exams', headers: {}, expectStatus: 200, json: true }
  ]
  if (imagePath !== undefined) scenarios.push({ name: 'image (/files)', url: imagePath, headers: {}, expectStatus: 200, json: false })
  scenarios.push(
    { name: '404 error', url: `/v1/exams/${year}/questions/999`, headers: {}, expectStatus: 404, json: true },
    { name: 'single question, br', url: `/v1/exams/${year}/questions/${firstIndex}`, headers: { 'accept-encoding': 'br' }, expectStatus: 200, json: true }
  )
  const exported = await getRaw(port, '/v1/export/questions.jsonl')
  if (exported.status !== 200) throw new Error(`GET /v1/export/questions.jsonl: expected 200, got ${exported.status}`)
  const exportText = exported.body.toString('utf8')
  scenarios.push(...findingScenarios(exportText, exams))
  scenarios.push(await scoresScenario(port, year))
  scenarios.push(...refusedBodyScenarios(year))
  scenarios.push(...mcpScenarios(year, firstIndex))
  if (figured !== undefined) scenarios.push(...figureScenarios(year, figured))
  // Generating the costly rows' paths is work of the bench's own process that raised the server's CPU
  // per request in the rows measured after it (bench/results.md): done only when one of them runs.
  if (ONLY === undefined || ONLY.some((name) => COSTLY_ROW_NAMES.includes(name))) {
    scenarios.push(...costlyScenarios(exportText, exams, `/v1/exams/${year}/questions/${firstIndex}`))
  }
  return scenarios
}

/** The names of costlyScenarios' rows. */
const COSTLY_ROW_NAMES = ['single question gzip/br', 'common-word search gzip/br (unrepeated)', 'common-word search br only (unrepeated)', 'stop-word phrase gzip/br (unrepeated)', 'random unseeded count=50 gzip/br', 'multi-year export gzip/br (unrepeated)']

/**
 * Distinct costly requests the costly rows may send, one per request: more than our server answers
 * in a row's warm-up and runs on a quiet machine (the two common-word rows share the searches; the
 * phrases, cheaper, answer faster).
 */
const COSTLY_REQUEST_COUNT = 200_000
const COSTLY_PHRASE_COUNT = 600_000
/** Exports captured for the ceiling: each is megabytes. */
const EXPORT_CEILING_PATHS = 20

/**
 * The finding requests that cost most per request (bench/costly-requests.ts), each asked as a browser
 * asks (gzip or br), every one a first request; beside them the prepared single question asked the
 * same way, the unit their CPU per request is counted in.
 */
function costlyScenarios (exportText: string, exams: Array<{ year: number }>, singleQuestionUrl: string): Scenario[] {
  const costly = costlyRequests(exportText, exams.map((exam) => exam.year), COSTLY_REQUEST_COUNT, COSTLY_PHRASE_COUNT)
  const headers = { 'accept-encoding': BROWSER_ACCEPT_ENCODING }
  // A one-off answer: at most 10x a question, or at most what the bare server costs for the same bytes, whichever is larger (issue 45).
  const common = { headers, expectStatus: 200, json: true, singleQuestionCpuTarget: 10, orCeilingCpu: true }
  return [
    { name: COSTLY_ROW_NAMES[0]!, url: singleQuestionUrl, headers, expectStatus: 200, json: true },
    { name: COSTLY_ROW_NAMES[1]!, url: costly.commonWordSearches[0]!, paths: costly.commonWordSearches.slice(0, COSTLY_REQUEST_COUNT / 2), unrepeated: true, ...common, p99TargetMs: 50 },
    // A client that takes br alone gets a first search's bytes as they are (identity, which every client takes): the other half of the paths.
    { name: COSTLY_ROW_NAMES[2]!, url: costly.commonWordSearches.at(-1)!, paths: costly.commonWordSearches.slice(COSTLY_REQUEST_COUNT / 2).reverse(), unrepeated: true, ...common, headers: { 'accept-encoding': 'br' }, expectEncoding: 'identity', p99TargetMs: 50 },
    { name: COSTLY_ROW_NAMES[3]!, url: costly.stopWordPhrases[0]!, paths: costly.stopWordPhrases, unrepeated: true, ...common, p99TargetMs: 50 },
    { name: COSTLY_ROW_NAMES[4]!, url: '/v1/questions/random?count=50', ...common, p99TargetMs: 50 },
    { name: COSTLY_ROW_NAMES[5]!, url: costly.multiYearExports[0]!, paths: costly.multiYearExports, unrepeated: true, ceilingPathCount: EXPORT_CEILING_PATHS, ceilingPerByte: true, ...common, json: false }
  ]
}

/** POST /v1/scores of a full practice run: an answer at every one of the exam's 180 positions, in its first language. */
async function scoresScenario (port: number, year: number): Promise<Scenario> {
  const { languages } = await getJson(port, `/v1/exams/${year}`) as { languages: Array<{ value: string }> }
  const answers = Object.fromEntries(Array.from({ length: 180 }, (_, at) => [String(at + 1), 'ABCDE'[(at * 7) % 5]!]))
  const body = JSON.stringify({ year, ...(languages[0] === undefined ? {} : { language: languages[0].value }), answers })
  // Issue 32's share of the single question (0.5) was restated by issue 45 as a bound against the bare server's answer of the same bytes.
  return { name: 'scores (180 answers)', url: '/v1/scores', body, headers: { 'content-type': 'application/json' }, expectStatus: 200, json: true, ceilingCpuTarget: 4 }
}

/** Headers of an MCP client's POST (the 2025 era: no per-request envelope); the rows add the encodings they take. */
const MCP_AGENT_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }

/**
 * POST /mcp tool calls beside the REST answer of the same questions (issue 45: at most 3x its CPU;
 * check_answer at most 5x a single question): a search of 50 asked again, unseeded draws of 50 at
 * random and at a score (a new draw each time, as REST's), one question. Each MCP row has an
 * address of its own (the route ignores the query), so that the ceiling answers each row's bytes.
 */
function mcpScenarios (year: number, index: number): Scenario[] {
  const call = (name: string, args: Record<string, unknown>) => JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } })
  const rest = (name: string, url: string): Scenario => ({ name, url, headers: { 'accept-encoding': BROWSER_ACCEPT_ENCODING }, expectStatus: 200, json: true, p99TargetMs: 50 })
  const mcp = (name: string, row: string, body: string, unit: string, times: number, encoding: Record<string, string> = { 'accept-encoding': BROWSER_ACCEPT_ENCODING }): Scenario => ({ name, url: `/mcp?row=${row}`, body, headers: { ...MCP_AGENT_HEADERS, ...encoding }, expectStatus: 200, json: true, p99TargetMs: 50, singleQuestionCpuTarget: times, cpuUnitRow: unit })
  const plain = (name: string, url: string): Scenario => ({ name, url, headers: {}, expectStatus: 200, json: true, p99TargetMs: 50 })
  return [
    rest('REST search 50 gzip/br', '/v1/questions?q=energia&limit=50'),
    mcp('MCP search 50 gzip/br', 'search', call('search_questions', { q: 'energia', limit: 50 }), 'REST search 50 gzip/br', 3),
    rest('REST practice 50 gzip/br', '/v1/questions/practice?discipline=matematica&score=620&count=50'),
    mcp('MCP practice 50 gzip/br', 'practice', call('practice_questions', { discipline: 'matematica', score: 620, count: 50 }), 'REST practice 50 gzip/br', 3),
    rest('REST random 50 gzip/br', '/v1/questions/random?count=50'),
    mcp('MCP random 50 gzip/br', 'random', call('random_questions', { count: 50 }), 'REST random 50 gzip/br', 3),
    // Issue 60: the calls as agents make them (no compression asked, no seed), against the same REST requests.
    plain('REST practice 50 as agents', '/v1/questions/practice?discipline=linguagens&score=650&count=50'),
    mcp('MCP practice 50 as agents', 'agents-practice', call('practice_questions', { discipline: 'linguagens', score: 650, count: 50 }), 'REST practice 50 as agents', 3, {}),
    plain('REST search 50 as agents', '/v1/questions?q=texto&limit=50'),
    mcp('MCP search 50 as agents', 'agents-search', call('search_questions', { q: 'texto', limit: 50 }), 'REST search 50 as agents', 3, {}),
    plain('REST random 50 as agents', '/v1/questions/random?count=50'),
    mcp('MCP random 50 as agents', 'agents-random', call('random_questions', { count: 50 }), 'REST random 50 as agents', 3, {}),
    mcp('MCP get_question', 'question', call('get_question', { year, index }), 'single question', 3),
    mcp('MCP check_answer', 'check', call('check_answer', { year, index, answer: 'A' }), 'single question', 5)
  ]
}

/**
 * Issue 60: a get_question that carries its figures as images, beside what it replaces (the same
 * question's REST answer and each of its figures from /files, asked as agents ask: no compression).
 * Its bound is the sum of those rows, read off the table (the bench counts a row in one unit).
 */
function figureScenarios (year: number, question: QuestionRecord): Scenario[] {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_question', arguments: { year, index: question.index } } })
  return [
    { name: 'REST figure question as agents', url: `/v1/exams/${year}/questions/${question.index}`, headers: {}, expectStatus: 200, json: true },
    ...question.files.map((address, at): Scenario => ({ name: `figure ${at + 1} (/files) as agents`, url: new URL(address).pathname, headers: {}, expectStatus: 200, json: false })),
    // The bound is what it replaces: the question's REST answer and each /files answer of its figures.
    { name: 'MCP get_question with figures as agents', url: '/mcp?row=agents-figures', body, headers: MCP_AGENT_HEADERS, expectStatus: 200, json: true, cpuAtMostRows: ['REST figure question as agents', ...question.files.map((_, at) => `figure ${at + 1} (/files) as agents`)] }
  ]
}

/**
 * POST /v1/scores bodies that are refused (400), each costlier to refuse than to score before the
 * first error stopped validation: arrays nested 4,388 deep (the deepest that was a 400 and not a
 * 500), nested to the body limit inside an answer, and as many bad answers as fit in the limit.
 * Their CPU per request is counted in single questions' (the target: at most 10).
 */
function refusedBodyScenarios (year: number): Scenario[] {
  const limit = 16 * 1024
  const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth)
  const inAnswer = (depth: number) => `{"year":${year},"answers":{"1":${nested(depth)}}}`
  let depth = 4_388
  while (Buffer.byteLength(inAnswer(depth + 1)) <= limit) depth++
  const entries: string[] = []
  const badAnswers = () => `{"year":${year},"answers":{${entries.join(',')}}}`
  while (Buffer.byteLength(badAnswers()) < limit - 16) entries.push(`"${entries.length + 1}":"Z"`)
  // Each row its own address (the endpoint ignores the query), so that the ceiling, which answers by URL, answers each row's bytes.
  const common = { headers: { 'content-type': 'application/json' }, expectStatus: 400, json: true, singleQuestionCpuTarget: 10, cpuUnitRow: 'single question' }
  const constructors = `[${Array(900).fill('{"constructor":1}').join(',')}]`
  return [
    { name: 'refused body: arrays nested 4388 deep', url: '/v1/scores?refused=nested', body: nested(4_388), ...common },
    { name: 'refused body: 900 constructor objects', url: '/v1/scores?refused=constructors', body: constructors, ...common },
    { name: 'refused body: an answer nested to 16 KiB', url: '/v1/scores?refused=answer-nested', body: inAnswer(depth), ...common },
    { name: 'refused body: bad answers to 16 KiB', url: '/v1/scores?refused=bad-answers', body: badAnswers(), ...common }
  ]
}

/**
 * Distinct search queries the unrepeated search row may send, one per request: more than one server
 * answers over the row's warm-up and runs, so that no query reaches it twice.
 */
const SEARCH_QUERY_COUNT = 400_000
/** Queries the repeated search row sends in turn: a search answered before, from the caches. */
const REPEATED_SEARCH_COUNT = 1000
/** Distinct seeds the seeded random row sends, one per request. */
const SEED_COUNT = 1000

/**
 * The rows of the endpoints that find questions: search over many distinct real queries (1 to 3
 * consecutive words of a question of the dataset, drawn with a fixed seed, so every run sends the
 * same ones), random draws with and without a seed, a filtered page, and the export.
 */
function findingScenarios (exportText: string, exams: Array<{ year: number }>): Scenario[] {
  // Questions common to every language view, so each query names a question the default lists hold.
  const texts = exportText.split('\n').filter((line) => line !== '')
    .map((line) => JSON.parse(line) as { language: string | null, context: string | null, alternativesIntroduction: string | null })
    .filter((record) => record.language === null)
    .map((record) => `${record.context ?? ''} ${record.alternativesIntroduction ?? ''}`.replace(/!\[[^\]]*\]\([^)]*\)/g, ' ').match(/\p{L}{3,}/gu) ?? [])
    .filter((words) => words.length >= 3)
  const rng = xoroshiro128plus(20_261_123)
  const queries = new Set<string>()
  for (let attempt = 0; queries.size < SEARCH_QUERY_COUNT && attempt < SEARCH_QUERY_COUNT * 5; attempt++) {
    const words = texts[uniformInt(rng, 0, texts.length - 1)]!
    const length = uniformInt(rng, 1, 3)
    const start = uniformInt(rng, 0, words.length - length)
    queries.add(words.slice(start, start + length).join(' ').toLowerCase())
  }
  const searchPaths = [...queries].map((query) => `/v1/questions?q=${encodeURIComponent(query)}`)
  const repeatedPaths = searchPaths.slice(0, REPEATED_SEARCH_COUNT)
  const seededPaths = Array.from({ length: SEED_COUNT }, (_, seed) => `/v1/questions/random?seed=${seed}`)
  // Practice draws over the four areas and scores from 400 to 799, one seed each: what a score's `practice` address asks, with a seed.
  const areas = ['linguagens', 'ciencias-humanas', 'ciencias-natureza', 'matematica']
  const practicePaths = Array.from({ length: SEED_COUNT }, (_, seed) => `/v1/questions/practice?discipline=${areas[seed % areas.length]}&score=${400 + ((seed * 7) % 400)}&seed=${seed}`)
  const years = exams.map((exam) => exam.year).sort((a, b) => a - b)
  const filter = `year=${years[Math.floor(years.length / 2)]}-${years.at(-1)}&discipline=matematica&hasImages=false`
  // Names without commas, so BENCH_ONLY can name them.
  return [
    { name: 'search (unrepeated)', url: searchPaths[0]!, paths: searchPaths, unrepeated: true, headers: {}, expectStatus: 200, json: true, p99TargetMs: 10, singleQuestionShareTarget: 0.25 },
    { name: `search (${repeatedPaths.length} repeated)`, url: repeatedPaths[0]!, paths: repeatedPaths, headers: {}, expectStatus: 200, json: true, p99TargetMs: 10 },
    { name: `random seeded (${SEED_COUNT} seeds)`, url: seededPaths[0]!, paths: seededPaths, headers: {}, expectStatus: 200, json: true, singleQuestionShareTarget: 0.5 },
    { name: 'random unseeded', url: '/v1/questions/random', headers: {}, expectStatus: 200, json: true, singleQuestionShareTarget: 0.5 },
    { name: 'filtered page', url: `/v1/questions?${filter}&limit=10&offset=10`, headers: {}, expectStatus: 200, json: true, singleQuestionShareTarget: 0.5 },
    { name: 'skills', url: '/v1/skills', headers: {}, expectStatus: 200, json: true, singleQuestionShareTarget: 0.8 },
    { name: `practice seeded (${SEED_COUNT} draws)`, url: practicePaths[0]!, paths: practicePaths, headers: {}, expectStatus: 200, json: true, singleQuestionShareTarget: 0.3 },
    { name: 'practice unseeded', url: '/v1/questions/practice?discipline=matematica&score=620', headers: {}, expectStatus: 200, json: true },
    { name: 'export gzip', url: '/v1/export/questions.jsonl', headers: { 'accept-encoding': 'gzip' }, expectStatus: 200, json: false }
  ]
}

/** Headers the ceiling does not copy: Node's http module writes its own. */
const HOP_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length'])

interface Capture {
  /** One per path of the scenario. */
  answers: CannedAnswer[]
  /** The median over the paths. */
  bodyBytes: number
  headers: IncomingHttpHeaders
}

/** Captures every path of a scenario, one after another (a search row has over a thousand). */
async function capture (port: number, scenario: Scenario): Promise<Capture> {
  const captures: Capture[] = []
  for (const url of ceilingPaths(scenario)) captures.push(await captureOne(port, { ...scenario, url }))
  return {
    answers: captures.flatMap((one) => one.answers),
    bodyBytes: median(captures.map((one) => one.bodyBytes)),
    headers: captures[0]!.headers
  }
}

async function captureOne (port: number, scenario: Scenario): Promise<Capture> {
  const response = await getRaw(port, scenario.url, scenario.headers, scenario.body)
  if (response.status !== scenario.expectStatus) {
    throw new Error(`${scenario.name}: ${scenario.body === undefined ? 'GET' : 'POST'} ${scenario.url} answered ${response.status}, expected ${scenario.expectStatus}`)
  }
  const expectedEncoding = scenario.expectEncoding ?? (scenario.headers['accept-encoding'] === 'br' ? 'br' : undefined)
  if (expectedEncoding !== undefined && (response.headers['content-encoding'] ?? 'identity') !== expectedEncoding) {
    throw new Error(`${scenario.name}: expected a ${expectedEncoding} answer, got ${response.headers['content-encoding'] ?? 'identity'}`)
  }
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(response.headers)) {
    if (value === undefined || HOP_HEADERS.has(name)) continue
    headers[name] = Array.isArray(value) ? value.join(', ') : value
  }
  return {
    answers: [{ url: scenario.url, encoded: scenario.headers['accept-encoding'] !== undefined, status: response.status, headers, bodyBase64: response.body.toString('base64') }],
    bodyBytes: response.body.length,
    headers: response.headers
  }
}

async function startCeiling (answers: CannedAnswer[], pinned: boolean): Promise<{ child: ChildProcess, port: number }> {
  const child = spawnPinned(pinned ? SERVER_CORE : [], process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench', 'ceiling-server.ts')], {
    cwd: ROOT,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc']
  })
  const ready = new Promise<CeilingReady>((resolve, reject) => {
    child.once('message', (message: unknown) => resolve(message as CeilingReady))
    child.once('exit', (code) => reject(new Error(`ceiling server exited (${code})`)))
  })
  child.send(answers)
  return { child, port: (await ready).port }
}

// ---------------------------------------------------------------------------------------------
// Measuring

interface Contender {
  label: string
  port: number
  /** The process whose CPU time is counted (with its children). */
  pid: number
  pinned: boolean
  /** Whether this scenario starts with a warm-up run (the ceiling's one code path needs it only once). */
  warmUp?: boolean
  /** Whether it keeps answers (caches) that a repeated path could hit: our server does, the ceiling does not. */
  keepsAnswers: boolean
}

/**
 * Runs each contender on one scenario, alternating (and swapping who goes first) so drift hits all
 * alike. With `unit`, each round also runs that scenario on the first contender (ours), right
 * after its run of this one: the row's CPU counted in the unit's is then a ratio of two figures
 * taken a few seconds apart, not minutes (the machine's speed moved a single question's cost by
 * 1.7x between two rows of one bench run: bench/results.md).
 */
async function measure (loader: LoadGenerator, scenario: Scenario, contenders: Contender[], seconds: number, unit?: Scenario): Promise<Measured> {
  // One list for the whole scenario: the load generator writes one script per list.
  const pathsForCeiling = scenario.paths === undefined ? undefined : ceilingPaths(scenario)
  // Of an unrepeated scenario, how far into its paths each contender that keeps answers has been sent
  // (the ceiling's paths were sent to ours when they were captured).
  const sent = contenders.map(() => (scenario.unrepeated === true ? pathsForCeiling!.length : 0))
  // A scenario's requests to one contender: its paths from `startAt`, or its one request over and over.
  const load = (contender: Contender, sending: Scenario, durationSeconds: number, paths: string[] | undefined, startAt: number) => loader.run({
    url: `http://127.0.0.1:${contender.port}${sending.url}`,
    connections: CONNECTIONS,
    durationSeconds,
    headers: sending.headers,
    body: sending.body,
    paths,
    startAt
  }, contender.pinned)
  const run = async (i: number, durationSeconds: number): Promise<LoadResult> => {
    const contender = contenders[i]!
    const unrepeated = scenario.unrepeated === true && contender.keepsAnswers
    const result = await load(contender, scenario, durationSeconds, contender.keepsAnswers ? scenario.paths : pathsForCeiling, unrepeated ? sent[i]! : 0)
    // The load generator may have sent one more request per connection than it saw answered.
    if (unrepeated) sent[i]! += result.requests + CONNECTIONS
    return result
  }
  for (const [i, contender] of contenders.entries()) if (contender.warmUp !== false) await run(i, WARMUP_SECONDS)
  const runs: RunResult[][] = contenders.map(() => [])
  const unitRuns: RunResult[] = []
  const measured = async (contender: Contender, go: () => Promise<LoadResult>): Promise<RunResult> => {
    const cpuBefore = cpuUs(contender.pid)
    const result = await go()
    return { ...result, cpuUsPerRequest: (cpuUs(contender.pid) - cpuBefore) / Math.max(1, result.requests) }
  }
  for (let round = 0; round < RUNS; round++) {
    const order = round % 2 === 0 ? contenders.map((_, i) => i) : contenders.map((_, i) => contenders.length - 1 - i)
    for (const i of order) {
      runs[i]!.push(await measured(contenders[i]!, () => run(i, seconds)))
      if (i === 0 && unit !== undefined) unitRuns.push(await measured(contenders[0]!, () => load(contenders[0]!, unit, seconds, unit.paths, 0)))
    }
  }
  return { runs, unitRuns, pathsSent: Math.max(...sent) }
}

interface Measured {
  /** Each contender's runs, in the order the contenders were given. */
  runs: RunResult[][]
  /** The unit's runs on the first contender, one per round (none without a unit). */
  unitRuns: RunResult[]
  /** Of an unrepeated scenario: the most paths one server that keeps answers was sent (at most one per request); 0 otherwise. */
  pathsSent: number
}

/**
 * 1 worker against 2 (WEB_CONCURRENCY), alternating, neither pinned: with two cores the load
 * generator shares them with the workers, which the report says.
 */
async function compareWorkers (loader: LoadGenerator, scenarios: Scenario[], dataDir: string | undefined): Promise<WorkerComparison | undefined> {
  const compared = scenarios.filter((scenario) => scenario.name === 'single question' || scenario.name === '10-item page')
  if (compared.length === 0) return undefined
  const one = await startServer({ workers: 1, pinned: false, dataDir })
  const two = await startServer({ workers: 2, pinned: false, dataDir })
  const results = []
  for (const scenario of compared) {
    const [oneRuns, twoRuns] = (await measure(loader, scenario, [
      { label: '1 worker', port: one.port, pid: one.pid, pinned: false, keepsAnswers: true },
      { label: '2 workers', port: two.port, pid: two.pid, pinned: false, keepsAnswers: true }
    ], WORKER_RUN_SECONDS)).runs
    const oneWorker = summarise(oneRuns!)
    const twoWorkers = summarise(twoRuns!)
    results.push({ name: scenario.name, url: scenario.url, oneWorker, twoWorkers, speedup: twoWorkers.requestsPerSecond / oneWorker.requestsPerSecond })
    process.stdout.write(`bench: ${scenario.name.padEnd(20)} 1 worker ${fmt.rps(oneWorker.requestsPerSecond)}/s | 2 workers ${fmt.rps(twoWorkers.requestsPerSecond)}/s (unpinned)\n`)
  }
  const memory = rssMb(two.pid)
  await stopProcess(one.child)
  await stopProcess(two.child)
  return { startupMs: two.startupMs, rssMb: memory.rssMb, processes: memory.processes, scenarios: results }
}

/** Start-up: the median of a few cold starts, the last of which is the server we load. */
/**
 * Start-up, spawn to the first 200 of /readyz: a cold start (an empty start-up cache, CACHE_DIR),
 * then restarts, which read what the cold one kept; the last restart is the server we load.
 */
async function measureStartup (dataDir: string | undefined): Promise<{ ours: ServerProcess, startup: StartUp }> {
  const cacheDir = mkdtempSync(path.join(os.tmpdir(), 'enem-bench-cache-'))
  process.once('exit', () => rmSync(cacheDir, { recursive: true, force: true }))
  const cold = await startServer({ workers: 1, pinned: true, dataDir, cacheDir })
  await stopProcess(cold.child)
  // The worker writes the index's file after handing the index over: a restart before it is there would be a second cold start.
  for (let waited = 0; waited < 30_000 && !readdirSync(cacheDir).some((name) => name.startsWith('search-index-') && name.endsWith('.bin')); waited += 50) await delay(50)
  const restartRuns: number[] = []
  for (let i = 1; i < STARTUP_SAMPLES; i++) {
    const server = await startServer({ workers: 1, pinned: true, dataDir, cacheDir })
    restartRuns.push(server.startupMs)
    await stopProcess(server.child)
  }
  const ours = await startServer({ workers: 1, pinned: true, dataDir, cacheDir })
  restartRuns.push(ours.startupMs)
  log(`bench: start-up to first ready /readyz: cold ${cold.startupMs.toFixed(0)} ms; restarts (start-up cache) ${restartRuns.map((ms) => ms.toFixed(0)).join(', ')} ms`)
  return { ours, startup: { coldMs: cold.startupMs, restartRuns, restartMs: median(restartRuns) } }
}

/** One scenario, ours against the ceiling (which warms up only when `warmUpCeiling`). */
async function measureAgainstCeiling (loader: LoadGenerator, scenario: Scenario, captured: Capture, ours: ServerProcess, ceiling: { child: ChildProcess, port: number }, warmUpCeiling: boolean, unit: Scenario | undefined) {
  const { runs: [ourRuns, ceilingRuns], unitRuns, pathsSent } = await measure(loader, scenario, [
    { label: 'ours', port: ours.port, pid: ours.pid, pinned: true, keepsAnswers: true },
    { label: 'ceiling', port: ceiling.port, pid: ceiling.child.pid!, pinned: true, warmUp: warmUpCeiling, keepsAnswers: false }
  ], RUN_SECONDS, unit)
  const oursSummary = summarise(ourRuns!)
  const ceilingSummary = summarise(ceilingRuns!)
  // Each round runs ours and the ceiling back to back, so a round's ratio compares the two at
  // one machine speed; the figure is the median of the rounds' ratios.
  const ratio = median(ourRuns!.map((run, round) => run.requestsPerSecond / ceilingRuns![round]!.requestsPerSecond))
  // See Scenario's ceilingPerByte: the ceiling's cost of the same bytes, where its answers average another size than ours.
  const perByte = (run: RunResult) => scenario.ceilingPerByte === true ? run.cpuUsPerRequest / bytesPerRequest([run]) : run.cpuUsPerRequest
  const cpuRatio = median(ourRuns!.map((run, round) => perByte(ceilingRuns![round]!) / perByte(run)))
  // The row's CPU in its unit's, per round (each unit run right after the row's): the median of the rounds' ratios.
  const unitPaired = unit === undefined ? undefined : { name: unit.name, cpuUsPerRequest: median(unitRuns.map((run) => run.cpuUsPerRequest)), times: median(ourRuns!.map((run, round) => run.cpuUsPerRequest / unitRuns[round]!.cpuUsPerRequest)) }
  log(`bench: ${scenario.name.padEnd(20)} ours ${fmt.rps(oursSummary.requestsPerSecond)}/s p99 ${fmt.ms(oursSummary.p99Ms)} ms ${fmt.us(oursSummary.cpuUsPerRequest)} us CPU/req | ceiling ${fmt.rps(ceilingSummary.requestsPerSecond)}/s ${fmt.us(ceilingSummary.cpuUsPerRequest)} us CPU/req | ratio ${ratio.toFixed(2)}, CPU ratio ${cpuRatio.toFixed(2)} (runs: ${ourRuns!.map((run) => fmt.rps(run.requestsPerSecond)).join(', ')} / ${ceilingRuns!.map((run) => fmt.rps(run.requestsPerSecond)).join(', ')})${unitPaired === undefined ? '' : ` | ${unitPaired.name} beside it ${fmt.us(unitPaired.cpuUsPerRequest)} us CPU/req, ${unitPaired.times.toFixed(1)}x`}`)
  return { ...scenario, paths: undefined, pathCount: scenario.paths?.length, pathsSent, bodyBytes: captured.bodyBytes, ours: { summary: oursSummary, runs: ourRuns }, ceiling: { summary: ceilingSummary, runs: ceilingRuns }, ratio, cpuRatio, unitPaired }
}

// ---------------------------------------------------------------------------------------------

async function main (): Promise<void> {
  if (!existsSync(path.join(ROOT, 'dist', 'server.js'))) throw new Error('dist/server.js is missing: run `npm run build` (npm run bench does)')
  const benchStartedAt = performance.now()
  const { dataDir, label: dataLabel } = resolveDataDir()
  const machine = describeMachine()
  log(`bench: ${machine.cores} cores, ${machine.cpu}, Node ${machine.node}; load generator ${machine.loader}; ${machine.pinning}`)
  log(`bench: dataset ${dataLabel}; ${CONNECTIONS} connections, ${RUNS} runs x ${RUN_SECONDS} s after ${WARMUP_SECONDS} s warm-up, alternating ours/ceiling; LOG_LEVEL=${LOG_LEVEL}, RATE_LIMIT_MAX=${RATE_LIMIT_MAX} (${machine.rateLimitStore} store)`)

  const loader = loaderName === 'wrk' ? wrkGenerator() : autocannonGenerator(ROOT)
  const { ours, startup } = await measureStartup(dataDir)

  const discovered = await discoverScenarios(ours.port)
  const scenarios = discovered.filter((scenario) => ONLY === undefined || ONLY.includes(scenario.name))
  // The unit a row's CPU is counted in, run beside it in each round (found among every scenario, BENCH_ONLY or not).
  const unitOf = (scenario: Scenario): Scenario | undefined => scenario.singleQuestionCpuTarget === undefined
    ? undefined
    : discovered.find((one) => one.name === (scenario.cpuUnitRow ?? 'single question gzip/br'))
  const captures: Capture[] = []
  for (const scenario of scenarios) captures.push(await capture(ours.port, scenario))
  const sample = captures[0]!.headers
  const contract = {
    rateLimitHeaders: sample['ratelimit-limit'] !== undefined,
    cors: sample['access-control-allow-origin'] !== undefined,
    etag: sample.etag !== undefined
  }
  log(`bench: answers carry RateLimit-* ${contract.rateLimitHeaders ? 'yes' : 'NO (rate limiting not active in this build)'}, CORS ${contract.cors ? 'yes' : 'NO'}, ETag ${contract.etag ? 'yes' : 'NO'}`)
  const ceiling = await startCeiling(captures.flatMap((one) => one.answers), true)

  const results = []
  for (const [i, scenario] of scenarios.entries()) results.push(await measureAgainstCeiling(loader, scenario, captures[i]!, ours, ceiling, i === 0, unitOf(scenario)))
  const memory = rssMb(ours.pid)
  await stopProcess(ours.child)
  await stopProcess(ceiling.child)

  const workers = COMPARE_WORKERS ? await compareWorkers(loader, scenarios, dataDir) : undefined
  await loader.close()

  // -------------------------------------------------------------------------------------------
  const targets = computeTargets(results, startup, memory)
  const settings = { connections: CONNECTIONS, runs: RUNS, runSeconds: RUN_SECONDS, warmupSeconds: WARMUP_SECONDS, workerRunSeconds: WORKER_RUN_SECONDS, rateLimitMax: RATE_LIMIT_MAX, logLevel: LOG_LEVEL, dataset: dataLabel }
  const outcome = { date: new Date().toISOString(), machine, settings, startCommand: START_COMMAND, contract, startup, memory, results, workers, targets }
  const report = composeReport(outcome, performance.now() - benchStartedAt)
  log(`\n${report}`)
  writeResults(RESULTS_DIR, report, outcome)
  log(`bench: wrote ${path.relative(ROOT, path.join(RESULTS_DIR, 'latest.json'))} and latest.md`)
}

await main()
