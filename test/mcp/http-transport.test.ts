import { test } from 'node:test'
import assert from 'node:assert/strict'
import Fastify, { type FastifyInstance, type InjectOptions } from 'fastify'
import { app as appPlugin, serverOptions } from '../../src/app.ts'
import { loadConfig } from '../../src/config.ts'
import { MCP_ENDPOINT } from '../../src/http/endpoints.ts'
import { build, loadTestDataset, type ErrorResponseBody } from '../helper.ts'
import { redisUrl, requireRedis, testKeyPrefix } from '../redis.ts'

/*
 * POST /mcp as HTTP: what is refused before the protocol (with the API's error body), what the
 * answers look like (JSON, no session), and that it counts against the same rate limit as /v1.
 * The tools themselves: ./tools.test.ts.
 */

const PUBLIC_URL = 'https://enem.example.org'
const JSON_RPC_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }

/** A 2025-era tools/call, answerable without a handshake since the server keeps no session. */
function toolCall (id: number, name = 'list_exams', args: Record<string, unknown> = {}): Record<string, unknown> {
  return { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } }
}

function mcpRequest (body: unknown, headers: Record<string, string> = {}, extra: Partial<InjectOptions> = {}): InjectOptions {
  return { method: 'POST', url: '/mcp', headers: { ...JSON_RPC_HEADERS, ...headers }, payload: typeof body === 'string' ? body : JSON.stringify(body), ...extra }
}

test('GET and DELETE /mcp are 405 with Allow and the API\'s error body: the server keeps no session and streams nothing', async (t) => {
  const { request } = await build(t, { PUBLIC_URL })
  for (const method of ['GET', 'DELETE'] as const) {
    const answer = await request({ method, url: '/mcp', headers: { accept: 'text/event-stream' } })
    assert.equal(answer.statusCode, 405, method)
    assert.equal(answer.headers.allow, 'POST, OPTIONS')
    assert.equal(answer.json<ErrorResponseBody>().error.code, 'method_not_allowed')
  }
})

test('a tools/call answers JSON with no session id and no-store, on the route the endpoint table names', async (t) => {
  const { request } = await build(t, { PUBLIC_URL })
  assert.equal(MCP_ENDPOINT.path, '/mcp')
  const answer = await request(mcpRequest(toolCall(1)))
  assert.equal(answer.statusCode, 200, answer.body)
  assert.match(String(answer.headers['content-type']), /^application\/json/)
  assert.equal(answer.headers['mcp-session-id'], undefined)
  assert.equal(answer.headers['cache-control'], 'no-store')
  const exams = (await request('/v1/exams')).json<unknown>()
  assert.deepEqual(answer.json<{ result: { structuredContent: unknown } }>().result.structuredContent, { exams })
})

test('an Origin or Host of another site is 403 with the API\'s error body (DNS-rebinding protection); this server\'s own and loopback pass', async (t) => {
  const { request } = await build(t, { PUBLIC_URL })
  const refused: Array<Record<string, string>> = [
    { origin: 'http://evil.example.com' },
    { origin: 'https://enem.example.org.evil.example.com' },
    { origin: 'null' },
    { host: 'evil.example.com' },
    { host: 'evil.example.com', origin: 'http://evil.example.com' }
  ]
  for (const headers of refused) {
    const answer = await request(mcpRequest(toolCall(1), headers))
    assert.equal(answer.statusCode, 403, JSON.stringify(headers))
    const { error } = answer.json<ErrorResponseBody>()
    assert.equal(error.code, 'forbidden')
    assert.match(error.message, /DNS-rebinding protection/)
  }
  const allowed: Array<Record<string, string>> = [
    {},
    { origin: PUBLIC_URL },
    { host: 'enem.example.org', origin: PUBLIC_URL },
    { host: '127.0.0.1:3000', origin: 'http://localhost:5173' },
    { host: '[::1]:3000', origin: 'http://[::1]:8080' }
  ]
  for (const headers of allowed) {
    assert.equal((await request(mcpRequest(toolCall(1), headers))).statusCode, 200, JSON.stringify(headers))
  }
})

test('a body over 16 KiB is 413, another content type 415, a JSON-RPC batch 400: the API\'s error bodies, before the protocol', async (t) => {
  const { request } = await build(t, { PUBLIC_URL })
  // Under the bound: the protocol answers (a tool's refusal of an argument it does not take is still an answer).
  const justUnder = toolCall(1, 'search_questions', { q: 'x'.repeat(100), pad: 'a'.repeat(MCP_ENDPOINT.bodyLimit - 300) })
  assert.ok(JSON.stringify(justUnder).length <= MCP_ENDPOINT.bodyLimit)
  assert.equal((await request(mcpRequest(justUnder))).statusCode, 200)

  const over = toolCall(1, 'search_questions', { pad: 'a'.repeat(MCP_ENDPOINT.bodyLimit) })
  const tooLarge = await request(mcpRequest(over))
  assert.equal(tooLarge.statusCode, 413)
  assert.equal(tooLarge.json<ErrorResponseBody>().error.message, `The request body is larger than ${MCP_ENDPOINT.bodyLimit} bytes`)

  const text = await request(mcpRequest(JSON.stringify(toolCall(1)), { 'content-type': 'text/plain' }))
  assert.equal(text.statusCode, 415)
  assert.equal(text.json<ErrorResponseBody>().error.code, 'unsupported_media_type')

  const batch = await request(mcpRequest([toolCall(1), toolCall(2)]))
  assert.equal(batch.statusCode, 400)
  assert.match(batch.json<ErrorResponseBody>().error.message, /batch/)
})

test('a flood of tool calls counts against the same quota as /v1: one per request, then 429 on both', async (t) => {
  const { request } = await build(t, { PUBLIC_URL, RATE_LIMIT_MAX: '4', RATE_LIMIT_WINDOW: '60s' })
  const remaining: unknown[] = []
  for (const send of [() => request('/v1/exams'), () => request(mcpRequest(toolCall(1))), () => request('/v1/exams'), () => request(mcpRequest(toolCall(2, 'search_questions', { q: 'água' })))]) {
    const answer = await send()
    assert.equal(answer.statusCode, 200)
    remaining.push(answer.headers['ratelimit-remaining'])
  }
  assert.deepEqual(remaining, ['3', '2', '1', '0'])
  const refused = await request(mcpRequest(toolCall(3)))
  assert.equal(refused.statusCode, 429)
  assert.ok(Number(refused.headers['retry-after']) > 0)
  assert.equal(refused.json<ErrorResponseBody>().error.code, 'rate_limit_exceeded')
  assert.equal((await request('/v1/exams')).statusCode, 429)
})

/** The app as the server builds it, answering by inject (as the Redis tests of /v1 do). */
async function replica (env: Record<string, string>): Promise<FastifyInstance> {
  const config = loadConfig({ PUBLIC_URL, LOG_LEVEL: 'silent', ...env })
  const dataset = await loadTestDataset(config)
  if (dataset.catalog === null) throw new Error('test dataset has errors')
  const app = Fastify(serverOptions(config))
  await app.register(appPlugin, { config, catalog: dataset.catalog, servableFiles: dataset.servableFiles })
  await app.ready()
  return app
}

test('tool calls spread over two replicas on one Redis share one limit per client', async (t) => {
  if (!await requireRedis(t)) return
  const env = { RATE_LIMIT_MAX: '5', RATE_LIMIT_WINDOW: '60s', REDIS_URL: redisUrl(testKeyPrefix(t)) }
  const replicas = [await replica(env), await replica(env)]
  t.after(() => Promise.all(replicas.map((app) => app.close())))
  const statuses: number[] = []
  for (let i = 0; i < 8; i++) {
    statuses.push((await replicas[i % 2]!.inject(mcpRequest(toolCall(i), {}, { remoteAddress: '192.0.2.1' }))).statusCode)
  }
  assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429, 429, 429])
  // /v1 on either replica: the same client's quota, spent.
  assert.equal((await replicas[1]!.inject({ url: '/v1/exams', remoteAddress: '192.0.2.1' })).statusCode, 429)
  assert.equal((await replicas[0]!.inject(mcpRequest(toolCall(9), {}, { remoteAddress: '192.0.2.2' }))).statusCode, 200, 'another client, its own quota')
})

test('every /mcp request is one access-log line, like a /v1 request', async (t) => {
  const { request, logs } = await build(t, { PUBLIC_URL, LOG_LEVEL: 'info' })
  await request(mcpRequest(toolCall(1)))
  await request(mcpRequest(toolCall(2), { origin: 'http://evil.example.com' }))
  const lines = logs.filter((line) => line.msg === 'request' && line.url === '/mcp')
  assert.deepEqual(lines.map((line) => [line.method, line.statusCode]), [['POST', 200], ['POST', 403]])
})

test('a client\'s refusals are logged in one short line without a stack: a modern version without Mcp-Method, a 15 KB method name in body and header', async (t) => {
  const { request, logs } = await build(t, { PUBLIC_URL, LOG_LEVEL: 'info' })
  const envelope = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'x', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} }
  const longName = 'm'.repeat(15_000)
  const refused = [
    mcpRequest({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: envelope } }, { 'mcp-protocol-version': '2026-07-28' }),
    mcpRequest({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { 'mcp-protocol-version': '2026-07-28' }),
    mcpRequest({ jsonrpc: '2.0', id: 1, method: longName, params: { _meta: envelope } }, { 'mcp-protocol-version': '2026-07-28', 'mcp-method': `x${longName}` }),
    mcpRequest({ jsonrpc: '2.0', id: 1, method: longName, params: {} })
  ]
  for (const call of refused) {
    const before = logs.length
    const answer = await request(call)
    assert.ok(answer.statusCode === 400 || answer.statusCode === 200, String(answer.statusCode))
    const lines = logs.slice(before)
    assert.ok(lines.length >= 1, 'the request is logged')
    for (const line of lines) {
      const written = JSON.stringify(line)
      assert.ok(written.length <= 2048, `a line of ${written.length} bytes: ${written.slice(0, 200)}`)
      assert.doesNotMatch(written, /"stack"|\bat [\w.]+ \(/, 'no stack trace')
    }
  }
})

test('protocol errors are the protocol\'s: a non-string protocolVersion is -32602 in one short line, not an internal error with a dump; over-deep or over-full JSON speaks of the body, not of scores', async (t) => {
  const { request } = await build(t, { PUBLIC_URL })
  for (const protocolVersion of [5, null, { v: 1 }, ['2025-11-25']]) {
    const answer = await request(mcpRequest({ jsonrpc: '2.0', id: 7, method: 'initialize', params: { protocolVersion, capabilities: {}, clientInfo: { name: 'x', version: '1' } } }))
    const { id, error } = answer.json<{ id: number, error: { code: number, message: string } }>()
    assert.equal(id, 7)
    assert.equal(error.code, -32602, JSON.stringify(protocolVersion))
    assert.match(error.message, /^Invalid params: params\.protocolVersion: /)
    assert.ok(error.message.length < 200 && !error.message.includes('\n'), error.message)
  }
  // The most arrays and objects an accepted message holds: score_answers with an exam's 180 answers.
  const whole = await request(mcpRequest(toolCall(8, 'score_answers', { year: 2023, answers: Array.from({ length: 180 }, (_, at) => ({ index: at + 1, answer: 'A' })) })))
  assert.equal(whole.statusCode, 200)
  assert.equal(whole.json<{ id: number }>().id, 8)
  const many = await request(mcpRequest(toolCall(9, 'score_answers', { year: 2023, answers: Array.from({ length: 300 }, (_, at) => ({ index: at + 1, answer: 'A' })) })))
  assert.equal(many.statusCode, 400)
  assert.equal(many.json<ErrorResponseBody>().error.message, 'The body holds more than 256 arrays and objects')
  const deep = await request(mcpRequest('['.repeat(40) + ']'.repeat(40)))
  assert.equal(deep.statusCode, 400)
  const { message } = deep.json<ErrorResponseBody>().error
  assert.match(message, /nests arrays or objects more than 32 deep/)
  assert.doesNotMatch(message, /score/)
})
