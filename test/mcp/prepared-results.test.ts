import { after, test } from 'node:test'
import { recordFigures } from '../../src/data/record-figures.ts'
import { ServedFiles } from '../../src/http/answers/served-files.ts'
import assert from 'node:assert/strict'
import { gunzipSync } from 'node:zlib'
import Fastify, { type FastifyInstance } from 'fastify'
import { serverOptions } from '../../src/app.ts'
import { loadConfig } from '../../src/config.ts'
import { endpointAnswers } from '../../src/http/endpoint-answers.ts'
import { installErrorHandling } from '../../src/http/plugins/error-handling.ts'
import { jsonBody } from '../../src/http/plugins/json-body.ts'
import { mcpTransport } from '../../src/mcp/http-transport.ts'
import { McpEndpoint } from '../../src/mcp/mcp-endpoint.ts'
import { mcpServerFactory } from '../../src/mcp/mcp-server.ts'
import { PreparedResults } from '../../src/mcp/prepared-results.ts'
import { build, FULL_DATA_DIR, loadTestDataset, TEST_PUBLIC_URL } from '../helper.ts'

/*
 * The tool calls POST /mcp answers from prepared bytes (src/mcp/prepared-results.ts), held to the
 * SDK's own answers byte for byte: every call is sent to a server where the SDK answers everything
 * (the same transport without the prepared results) and given to the prepared results, for both
 * protocol eras, every tool, the key withheld and revealed, refusals, ids of every kind, a result
 * asked once and again (kept whole), gzip and not. The requests the prepared results must leave to
 * the SDK (odd headers, other methods, a malformed envelope) are checked to be left.
 */

const env = { PUBLIC_URL: TEST_PUBLIC_URL, LOG_LEVEL: 'silent', RATE_LIMIT_MAX: '0', ...(FULL_DATA_DIR === undefined ? {} : { ENEM_DATA_DIR: FULL_DATA_DIR }) }
const config = loadConfig(env)
const dataset = await loadTestDataset(config)
if (dataset.catalog === null) throw new Error('test dataset has errors')
const { answers } = endpointAnswers(dataset.catalog)
const files = new ServedFiles(dataset.servableFiles, `${config.publicUrl}/files`)

/** A server where the SDK answers every MCP request: the transport without prepared results. */
async function sdkOnlyServer (): Promise<FastifyInstance> {
  const app = Fastify(serverOptions(config))
  await app.register(jsonBody)
  installErrorHandling(app, config.publicUrl)
  await app.register(mcpTransport, { endpoint: new McpEndpoint({ factory: mcpServerFactory({ answers, files, catalog: dataset.catalog!, log: app.log }), publicUrl: config.publicUrl, log: app.log }) })
  await app.ready()
  return app
}
const sdk = await sdkOnlyServer()
after(() => sdk.close())
const prepared = new PreparedResults({ answers, files, log: sdk.log })

const ACCEPT = 'application/json, text/event-stream'
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'test', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {}
}

type Headers = Record<string, string>
interface Call { headers: Headers, message: Record<string, unknown> }

/** A tools/call as each era's clients send it. */
function toolCall (era: 'legacy' | 'modern', id: unknown, name: string, args: Record<string, unknown>): Call {
  if (era === 'legacy') return { headers: { accept: ACCEPT, 'mcp-protocol-version': '2025-11-25' }, message: { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } } }
  return {
    headers: { accept: ACCEPT, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': name },
    message: { method: 'tools/call', params: { name, arguments: args, _meta: ENVELOPE }, jsonrpc: '2.0', id }
  }
}

/** The SDK's answer: status, content type and body. */
async function sdkAnswer ({ headers, message }: Call): Promise<{ status: number, type: string | undefined, body: Buffer }> {
  const answer = await sdk.inject({ method: 'POST', url: '/mcp', headers: { 'content-type': 'application/json', ...headers }, payload: JSON.stringify(message) })
  return { status: answer.statusCode, type: answer.headers['content-type'] as string | undefined, body: answer.rawPayload }
}

/** The prepared answer to a call (which must be one), as sent uncompressed and as gzip. */
async function preparedBytes ({ headers, message }: Call): Promise<{ raw: Buffer, gzip: Buffer }> {
  const body = await prepared.answer(headers, message)
  assert.ok(body !== undefined, `a plain call is prepared: ${JSON.stringify(message).slice(0, 200)}`)
  return { raw: body.raw, gzip: body.encoded('gzip') }
}

/** Sends a call both ways (the prepared one twice: made, then kept) and compares every byte. */
async function assertSameAsSdk (call: Call): Promise<string> {
  const expected = await sdkAnswer(call)
  assert.equal(expected.status, 200, expected.body.toString())
  assert.equal(expected.type, 'application/json')
  for (let time = 0; time < 3; time++) {
    const { raw, gzip } = await preparedBytes(call)
    assert.equal(raw.toString('utf8'), expected.body.toString('utf8'), `${JSON.stringify(call.message).slice(0, 300)} (time ${time + 1})`)
    assert.ok(gunzipSync(gzip).equals(raw), 'its gzip inflates to the same bytes')
  }
  return expected.body.toString('utf8')
}

const exam = dataset.catalog.listExams().find((candidate) => candidate.summary.year === 2020) ?? dataset.catalog.listExams()[0]!
const year = exam.summary.year
const questions = exam.questions
const ids: unknown[] = [1, 0, -7, Number.MAX_SAFE_INTEGER, 'a', '', 'ção "quoted" \\ 😀']

/** Calls of every tool whose answer never changes: ordinary arguments, revealed or not, and refusals. */
const STEADY_CALLS: Array<[string, Record<string, unknown>]> = [
  ['list_exams', {}],
  ['list_skills', { discipline: 'matematica' }],
  ['search_questions', { q: 'energia', limit: 50 }],
  ['search_questions', { q: 'energia', limit: 5, offset: 3, reveal_answer: true }],
  ['search_questions', { q: 'zzzznothingmatcheszzzz' }],
  ['search_questions', { year: [year], discipline: 'matematica', limit: 7 }],
  ['search_questions', { q: 'água' }],
  ['random_questions', { count: 20, seed: 42 }],
  ['random_questions', { count: 3, seed: 7, reveal_answer: true }],
  ['practice_questions', { discipline: 'matematica', score: 620, count: 30, seed: 5 }],
  ['practice_questions', { discipline: 'linguagens', score: 500, seed: 9, reveal_answer: true }],
  ['get_question', { year, index: questions[0]!.index }],
  ['get_question', { year, index: questions[0]!.index, reveal_answer: true }],
  // Figures as image blocks: every figure-bearing question of the exam, and lists that ask for them (past the cap: named).
  ...questions.filter((question) => recordFigures(question).length > 0).map((question): [string, Record<string, unknown>] => ['get_question', { year, index: question.index, ...(question.language === null ? {} : { language: question.language }) }]),
  ['search_questions', { hasImages: true, figures: true, limit: 50 }],
  ['random_questions', { count: 5, seed: 1, figures: true }],
  ['get_question', { year, index: questions[0]!.index, figures: false }],
  ['check_answer', { year, index: questions[0]!.index, answer: 'A' }],
  ['check_answer', { year, index: questions[0]!.index, answer: 'Q' }],
  ['score_answers', { year, answers: [{ index: questions[0]!.index, answer: 'A' }, { index: questions[1]!.index, answer: 'B' }] }],
  // Refusals: a tool error, in the SDK's words for a result.
  ['get_question', { year: 1999, index: 1 }],
  ['get_question', { year, index: 999 }],
  ['search_questions', { limit: 0 }],
  ['search_questions', { nope: 1 }],
  ['practice_questions', { score: 620 }],
  ['random_questions', { count: 'many' }]
]

test('every tool\'s plain call, in both eras and with every kind of id: the prepared bytes are the SDK\'s, made and kept, and gzip inflates to them', async () => {
  for (const era of ['legacy', 'modern'] as const) {
    for (const [name, args] of STEADY_CALLS) await assertSameAsSdk(toolCall(era, 3, name, args))
    for (const id of ids) await assertSameAsSdk(toolCall(era, id, 'check_answer', { year, index: questions[0]!.index, answer: 'B' }))
  }
})

test('every question of an exam, with its key withheld and revealed, written as the SDK writes it (its text escaped in parts)', async () => {
  for (const question of questions) {
    const language = question.language === null ? {} : { language: question.language }
    for (const reveal of [false, true]) await assertSameAsSdk(toolCall(reveal ? 'modern' : 'legacy', question.index, 'get_question', { year, index: question.index, ...language, reveal_answer: reveal }))
  }
})

test('an unseeded draw is prepared afresh each time and is the SDK\'s answer to the same draw asked with its seed', async () => {
  for (const [name, args] of [['random_questions', { count: 50 }], ['practice_questions', { discipline: 'ciencias-natureza', score: 700, count: 50 }]] as const) {
    const seeds = new Set<number>()
    for (let time = 0; time < 4; time++) {
      const { raw } = await preparedBytes(toolCall('legacy', 1, name, args))
      const { seed } = (JSON.parse(raw.toString('utf8')) as { result: { structuredContent: { seed: number } } }).result.structuredContent
      seeds.add(seed)
      const expected = await sdkAnswer(toolCall('legacy', 1, name, { ...args, seed }))
      assert.equal(raw.toString('utf8'), expected.body.toString('utf8'), `${name} with seed ${seed}`)
    }
    assert.ok(seeds.size > 1, `${name}: an unseeded draw is drawn anew (seeds ${[...seeds].join(', ')})`)
  }
})

test('what the SDK must answer is left to it: other methods, odd or missing headers, a malformed message or envelope', () => {
  const plain = toolCall('legacy', 1, 'list_exams', {})
  const modern = toolCall('modern', 1, 'list_exams', {})
  const left: Call[] = [
    { ...plain, message: { ...plain.message, method: 'tools/list' } },
    { ...plain, message: { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } } } },
    { ...plain, message: { ...plain.message, jsonrpc: '1.0' } },
    { ...plain, message: { ...plain.message, id: 1.5 } },
    { ...plain, message: { ...plain.message, id: null } },
    { ...plain, message: { ...plain.message, extra: true } },
    { ...plain, message: { ...plain.message, params: { name: 'list_exams' } } },
    { ...plain, message: { ...plain.message, params: { name: 'list_exams', arguments: [] } } },
    { ...plain, message: { ...plain.message, params: { name: 'no_such_tool', arguments: {} } } },
    { ...plain, message: { ...plain.message, params: { name: 'list_exams', arguments: {}, _meta: { progressToken: 1 } } } },
    { ...plain, headers: { accept: 'application/json' } },
    { ...plain, headers: { accept: ACCEPT, 'mcp-protocol-version': '1999-01-01' } },
    { ...plain, headers: { ...plain.headers, 'mcp-method': 'tools/call' } },
    { ...modern, headers: { ...modern.headers, 'mcp-name': 'search_questions' } },
    { ...modern, headers: { ...modern.headers, 'mcp-name': ' list_exams' } },
    { ...modern, headers: { accept: ACCEPT, 'mcp-protocol-version': '2026-07-28', 'mcp-name': 'list_exams' } },
    { ...modern, headers: { accept: ACCEPT, 'mcp-method': 'tools/call', 'mcp-name': 'list_exams' } },
    { ...modern, message: { ...modern.message, params: { name: 'list_exams', arguments: {}, _meta: { ...ENVELOPE, 'io.modelcontextprotocol/protocolVersion': '2026-01-01' } } } },
    { ...modern, message: { ...modern.message, params: { name: 'list_exams', arguments: {}, _meta: { ...ENVELOPE, extra: 1 } } } },
    { ...modern, message: { ...modern.message, params: { name: 'list_exams', arguments: {}, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } } } }
  ]
  for (const call of left) assert.equal(prepared.answer(call.headers, call.message), undefined, JSON.stringify(call))
})

test('POST /mcp sends a prepared call gzip to a client that takes it, the bytes as they are to one that does not, never stored', async (t) => {
  const { request } = await build(t, env)
  const { headers, message } = toolCall('legacy', 5, 'search_questions', { q: 'energia', limit: 20 })
  const send = (acceptEncoding?: string) => request({ method: 'POST', url: '/mcp', headers: { 'content-type': 'application/json', ...headers, ...(acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding }) }, payload: JSON.stringify(message) })
  const plain = await send()
  assert.equal(plain.statusCode, 200)
  assert.equal(plain.headers['content-encoding'], undefined)
  assert.equal(plain.headers['cache-control'], 'no-store')
  assert.equal(plain.headers.vary, 'Accept-Encoding')
  assert.equal(plain.body, (await sdkAnswer({ headers, message })).body.toString('utf8'))
  for (const acceptEncoding of ['gzip', 'gzip, deflate, br, zstd']) {
    const compressed = await send(acceptEncoding)
    assert.equal(compressed.headers['content-encoding'], 'gzip', acceptEncoding)
    assert.ok(gunzipSync(compressed.rawPayload).equals(plain.rawPayload), acceptEncoding)
  }
  assert.equal((await send('br')).headers['content-encoding'], undefined, 'br alone: the bytes as they are, as a one-off REST answer')
  // An answer of the SDK (tools/list) is compressed too.
  const list = await request({ method: 'POST', url: '/mcp', headers: { 'content-type': 'application/json', accept: ACCEPT, 'accept-encoding': 'gzip' }, payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) })
  assert.equal(list.headers['content-encoding'], 'gzip')
  assert.equal((JSON.parse(gunzipSync(list.rawPayload).toString('utf8')) as { result: { tools: unknown[] } }).result.tools.length, 8)
})

test('a call\'s questions not made yet are pieces of work, one per question; made in pieces or at once, the answer is the same bytes', async () => {
  const atOnce = new PreparedResults({ answers, files, log: sdk.log })
  for (const [name, args] of [['random_questions', { count: 12, seed: 11 }], ['search_questions', { q: 'energia', limit: 9 }], ['random_questions', { count: 1, seed: 3 }], ['get_question', { year, index: questions[2]!.index }]] as const) {
    // Its own, so that no question of another call is made already.
    const inPieces = new PreparedResults({ answers, files, log: sdk.log })
    const { headers, message } = toolCall('legacy', 5, name, args)
    const begun = inPieces.begin(headers, message)
    assert.ok(begun !== undefined)
    const shown = (JSON.parse((await atOnce.answer(headers, message))!.raw.toString('utf8')) as { result: { structuredContent: { questions?: unknown[] } } }).result.structuredContent
    const count = name === 'get_question' ? 1 : shown.questions!.length
    assert.ok(count > 0, name)
    // Without gzip only the parts are made; with it, their deflated forms too, so the same questions are pieces again.
    const plain = inPieces.pieces(begun, false)
    assert.equal(plain.length, count, `${name}: one piece per question`)
    for (const piece of plain) piece()
    assert.equal(inPieces.pieces(begun, false).length, 0, `${name}: nothing left to make without gzip`)
    const deflating = inPieces.pieces(begun, true)
    assert.equal(deflating.length, count, `${name}: their deflated forms are left`)
    for (const piece of deflating) piece()
    assert.equal(inPieces.pieces(begun, true).length, 0)
    const made = inPieces.finish(begun)
    const reference = (await atOnce.answer(headers, message))!
    assert.deepEqual(made.raw, reference.raw, name)
    assert.deepEqual(gunzipSync(made.encoded('gzip')), reference.raw, name)
    assert.equal(made.raw.toString('utf8'), (await sdkAnswer({ headers, message })).body.toString('utf8'), `${name}: the SDK's bytes`)
  }
})
