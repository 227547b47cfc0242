import { test, type TestContext } from 'node:test'
import assert from 'node:assert/strict'
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import net from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { once } from 'node:events'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { NO_REDIS_MESSAGE, TEST_REDIS, deleteKeys, redisReachable, redisUrl, requireRedis, testKeyPrefix, uniqueKeyPrefix } from './redis.ts'
import { TcpProxy } from './tcp-proxy.ts'

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url))

interface LogLine { level: number, msg: string, [field: string]: unknown }

interface ServerProcess {
  child: ChildProcess
  port: number
  logs: LogLine[]
  exit: Promise<{ code: number | null, signal: NodeJS.Signals | null }>
  waitForLog: (msg: string) => Promise<LogLine>
}

/**
 * Starts `node --import tsx src/server.ts` (or, with `build`, the production bundle
 * `node dist/server.js`) on a port the system picks (the server logs it with "ready"), with the
 * built-in sample dataset. The process is killed when the test ends, whatever happened.
 */
async function startServer (t: TestContext, env: Record<string, string>, { build = false } = {}): Promise<ServerProcess> {
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    PUBLIC_URL: 'http://api.test',
    LOG_LEVEL: 'info',
    ENEM_DATA_DIR: '',
    WEB_CONCURRENCY: '1',
    ...env
  }
  delete childEnv.NODE_TEST_CONTEXT
  const entry = build ? ['dist/server.js'] : ['--import', 'tsx', 'src/server.ts']
  const child = spawn(process.execPath, entry, { cwd: REPO_ROOT, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] })
  const exit = once(child, 'exit').then(([code, signal]) => ({ code: code as number | null, signal: signal as NodeJS.Signals | null }))
  t.after(() => { if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL') })

  const logs: LogLine[] = []
  const waiters: Array<{ msg: string, resolve: (line: LogLine) => void }> = []
  let stderr = ''
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => { stderr += chunk })
  createInterface({ input: child.stdout! }).on('line', (text) => {
    let line: LogLine
    try {
      line = JSON.parse(text)
    } catch {
      return
    }
    logs.push(line)
    for (const waiter of waiters.filter((w) => w.msg === line.msg)) {
      waiters.splice(waiters.indexOf(waiter), 1)
      waiter.resolve(line)
    }
  })
  const waitForLog = (msg: string) => {
    const seen = logs.find((line) => line.msg === msg)
    if (seen !== undefined) return Promise.resolve(seen)
    return new Promise<LogLine>((resolve, reject) => {
      waiters.push({ msg, resolve })
      // Settling a promise twice is harmless: once the line is seen, this rejection is ignored.
      exit.then(({ code }) => reject(new Error(`server exited (${code}) before logging "${msg}": ${stderr}`)), reject)
    })
  }
  const ready = await waitForLog('ready')
  assert.equal(typeof ready.port, 'number')
  return { child, port: Number(ready.port), logs, exit, waitForLog }
}

/** Resolves with the error code of a TCP connection attempt, or 'connected'. */
function tryConnect (port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1')
    socket.once('connect', () => { socket.destroy(); resolve('connected') })
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'))
  })
}

test('two server processes on one Redis allow exactly RATE_LIMIT_MAX requests per window from one client, together', async (t) => {
  if (!await requireRedis(t)) return
  const keyPrefix = testKeyPrefix(t)
  const env = { RATE_LIMIT_MAX: '10', RATE_LIMIT_WINDOW: '1m', REDIS_URL: redisUrl(keyPrefix) }
  const servers = await Promise.all([startServer(t, env), startServer(t, env)])
  const get = (i: number) => fetch(`http://127.0.0.1:${servers[i % 2]!.port}/v1/exams`)

  // In turn: each answer's remaining count continues where the other replica's left off.
  const remaining = []
  for (let i = 0; i < 4; i++) {
    const response = await get(i)
    await response.arrayBuffer()
    assert.equal(response.status, 200)
    remaining.push(response.headers.get('ratelimit-remaining'))
  }
  assert.deepEqual(remaining, ['9', '8', '7', '6'])

  // At once, to both: exactly the 6 left are served, whichever replica gets them.
  const burst = await Promise.all(Array.from({ length: 20 }, async (_, i) => {
    const response = await get(i)
    await response.arrayBuffer()
    return response
  }))
  assert.equal(burst.filter((response) => response.status === 200).length, 6)
  const refused = burst.filter((response) => response.status === 429)
  assert.equal(refused.length, 14)
  for (const response of refused) {
    const retryAfter = Number(response.headers.get('retry-after'))
    assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter} is in seconds, within the window`)
  }
})

test('SIGTERM: the in-flight request finishes, new connections are refused, Redis is closed, exit code 0', async (t) => {
  if (!await requireRedis(t)) return
  const keyPrefix = testKeyPrefix(t)
  // Redis behind a proxy we can stall: a request waiting on its rate-limit count is in flight for as long as we like.
  const proxy = await TcpProxy.start(TEST_REDIS)
  t.after(() => proxy.close())
  const server = await startServer(t, { RATE_LIMIT_MAX: '100', REDIS_URL: redisUrl(keyPrefix, proxy.port), SHUTDOWN_DRAIN_DELAY: '0' })
  const warmUp = await fetch(`http://127.0.0.1:${server.port}/v1/exams`)
  assert.equal(warmUp.headers.get('ratelimit-remaining'), '99')
  await warmUp.arrayBuffer()

  proxy.hold()
  const inFlight = fetch(`http://127.0.0.1:${server.port}/v1/exams/2020`).then(async (response) => ({ status: response.status, body: await response.text() }))
  await proxy.whenHeld()

  const signalledAt = Date.now()
  server.child.kill('SIGTERM')
  await server.waitForLog('shutting down')
  // The listener closes as soon as shutdown begins; the answer still in progress does not keep it open.
  // (An attempt racing the close may be accepted and then reset; the next ones are refused.)
  let attempt = await tryConnect(server.port)
  while (attempt !== 'ECONNREFUSED' && Date.now() - signalledAt < 10_000) attempt = await tryConnect(server.port)
  assert.equal(attempt, 'ECONNREFUSED')
  assert.equal(server.child.exitCode, null, 'still running: it waits for the request in flight')

  proxy.release()
  const { status, body } = await inFlight
  assert.equal(status, 200)
  assert.equal(JSON.parse(body).year, 2020)

  const { code } = await server.exit
  assert.equal(code, 0)
  assert.ok(Date.now() - signalledAt < 10_000, 'within the 10 s grace period')
  const messages = server.logs.map((line) => line.msg)
  assert.ok(messages.includes('Redis connection closed'))
  assert.ok(messages.includes('stopped'))
  assert.equal(proxy.openConnections, 0)
})

test('SIGTERM without Redis: idle and half-sent connections do not hold the exit up', async (t) => {
  const server = await startServer(t, { RATE_LIMIT_MAX: '100', SHUTDOWN_DRAIN_DELAY: '0' })
  // A keep-alive connection between requests, and one that has sent half its headers.
  const idle = net.connect(server.port, '127.0.0.1')
  await once(idle, 'connect')
  idle.write('GET /healthz HTTP/1.1\r\nHost: api.test\r\n\r\n')
  await once(idle, 'data')
  const halfSent = net.connect(server.port, '127.0.0.1')
  await once(halfSent, 'connect')
  halfSent.write('GET /v1/exams HTTP/1.1\r\nHost: api')
  for (const socket of [idle, halfSent]) socket.on('error', () => {})

  const signalledAt = Date.now()
  server.child.kill('SIGTERM')
  const { code } = await server.exit
  assert.equal(code, 0)
  assert.ok(Date.now() - signalledAt < 10_000, 'well before the headers timeout or the grace period would end it')
  idle.destroy()
  halfSent.destroy()
})

test('the access log has one JSON line per request, with its id, method, URL, status and response time', async (t) => {
  const server = await startServer(t, { RATE_LIMIT_MAX: '100' })
  for (const path of ['/v1/exams', '/v1/exams/1999', '/healthz']) await (await fetch(`http://127.0.0.1:${server.port}${path}`)).arrayBuffer()
  server.child.kill('SIGTERM')
  await server.exit
  const requests = server.logs.filter((line) => line.msg === 'request')
  assert.deepEqual(requests.map((line) => [line.method, line.url, line.statusCode]), [
    ['GET', '/v1/exams', 200], ['GET', '/v1/exams/1999', 404], ['GET', '/healthz', 200]
  ])
  for (const line of requests) {
    assert.equal(typeof line.reqId, 'string')
    assert.equal(typeof line.responseTimeMs, 'number')
  }
  assert.equal(new Set(requests.map((line) => line.reqId)).size, 3)
  assert.ok(!server.logs.some((line) => line.msg === 'incoming request' || line.msg === 'request completed'), 'Fastify\'s two lines per request are off')
})

test('the production bundle (npm run build) starts and serves, and loads Scalar and ioredis when first needed', async (t) => {
  const built = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build.ts'], { cwd: REPO_ROOT, encoding: 'utf8' })
  assert.equal(built.status, 0, built.stderr)
  const redisUp = await redisReachable()
  const keyPrefix = uniqueKeyPrefix()
  t.after(() => redisUp ? deleteKeys(keyPrefix) : undefined)
  const server = await startServer(t, { RATE_LIMIT_MAX: '100', ...(redisUp ? { REDIS_URL: redisUrl(keyPrefix) } : {}) }, { build: true })
  const base = `http://127.0.0.1:${server.port}`

  const question = await fetch(`${base}/v1/exams/2020/questions/12?language=ingles`)
  assert.equal(question.status, 200)
  assert.equal((await question.json() as { index: number }).index, 12)
  assert.equal(question.headers.get('ratelimit-remaining'), '99')
  const missing = await fetch(`${base}/v1/exams/1999`)
  assert.equal(missing.status, 404)
  assert.equal((await missing.json() as { error: { code: string } }).error.code, 'not_found')
  const docs = await fetch(`${base}/docs`)
  assert.equal(docs.status, 200)
  assert.match(await docs.text(), /<html/i)
  const openapi = await fetch(`${base}/v1/openapi.json`)
  assert.equal((await openapi.json() as { openapi: string }).openapi, '3.1.0')
  // The question browser's client is the one the build wrote to dist/web/ (src/http/routes/question-browser.ts).
  const browserPage = await fetch(`${base}/`)
  assert.equal(browserPage.status, 200)
  const script = /src="(assets\/question-browser\.[^"]+\.js)"/.exec(await browserPage.text())?.[1]
  assert.ok(script !== undefined, 'the page names its script')
  assert.equal((await fetch(`${base}/${script}`)).status, 200)

  server.child.kill('SIGTERM')
  assert.equal((await server.exit).code, 0)
  if (redisUp) assert.ok(server.logs.some((line) => line.msg === 'Redis connection closed'), 'counted in Redis through the lazily loaded ioredis')
  else t.diagnostic(NO_REDIS_MESSAGE)
})

test('the dataset-warnings line names a data check that runs where the bundle runs, even with no scripts/ or npm project around it (the container)', async (t) => {
  const built = spawnSync(process.execPath, ['scripts/ensure-build.js'], { cwd: REPO_ROOT, encoding: 'utf8' })
  assert.equal(built.status, 0, built.stderr)
  const server = await startServer(t, {}, { build: true })
  const warning = server.logs.find((line) => String(line.msg).startsWith('dataset warnings:'))
  assert.ok(warning !== undefined, 'the sample has warnings, and the start says so')
  const command = /`([^`]+)`/.exec(String(warning.msg))?.[1]
  assert.ok(command !== undefined, `the line names a command in backquotes: ${String(warning.msg)}`)
  server.child.kill('SIGTERM')
  await server.exit

  // Run from an empty folder: nothing of the repository's npm project or scripts/ to lean on.
  const elsewhere = mkdtempSync(path.join(tmpdir(), 'enem-check-data-'))
  t.after(() => rmSync(elsewhere, { recursive: true, force: true }))
  const checked = spawnSync('sh', ['-c', command], {
    cwd: elsewhere,
    encoding: 'utf8',
    env: { ...process.env, PATH: `${path.dirname(process.execPath)}:${process.env.PATH}`, ENEM_DATA_DIR: '' }
  })
  assert.equal(checked.status, 0, `${command}: ${checked.stderr}`)
  assert.match(checked.stdout, /^Summary: 0 errors, \d+ warnings/m)
  assert.match(checked.stdout, new RegExp(`^Dataset: ${path.join(REPO_ROOT, 'data/sample')}$`, 'm'))
})
