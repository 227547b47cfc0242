import { test } from 'node:test'
import assert from 'node:assert/strict'
import type { InjectOptions } from 'fastify'
import { MCP_ENDPOINT } from '../../src/http/endpoints.ts'
import { buildCounted, compareBothWays } from '../http/both-ways.ts'

/*
 * POST /mcp on the fast path (src/http/server/fast-path.ts with src/mcp/mcp-endpoint.ts as its
 * body route): a request with plain headers that the DNS-rebinding rule admits is read and answered
 * before Fastify sees it, prepared tool calls and the SDK's answers alike, errors included; every
 * answer is compared, bytes and headers, with Fastify's route answering the same request. Anything
 * refused before its body is read stays Fastify's.
 */

const ACCEPT = 'application/json, text/event-stream'
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'test', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {}
}

function mcpPost (body: unknown, headers: Record<string, string> = {}, url: string = MCP_ENDPOINT.path): InjectOptions {
  return { method: 'POST', url, headers: { 'content-type': 'application/json', accept: ACCEPT, ...headers }, payload: typeof body === 'string' ? body : JSON.stringify(body) }
}

/** A tools/call of the 2025 era (no envelope). */
function legacyCall (name: string, args: Record<string, unknown>, headers: Record<string, string> = {}): InjectOptions {
  return mcpPost({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }, headers)
}

/** A tools/call of the 2026-07-28 revision, with its headers and envelope. */
function modernCall (name: string, args: Record<string, unknown>, headers: Record<string, string> = {}): InjectOptions {
  return mcpPost({ jsonrpc: '2.0', id: 'a', method: 'tools/call', params: { name, arguments: args, _meta: ENVELOPE } }, { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': name, ...headers })
}

const INITIALIZE = { jsonrpc: '2.0', id: 7, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }

/** Requests with plain headers: the fast path reads and answers each, with Fastify's status. */
const FAST: Array<[InjectOptions, number]> = [
  [legacyCall('get_question', { year: 2020, index: 1 }), 200],
  [legacyCall('get_question', { year: 2020, index: 1 }, { 'accept-encoding': 'gzip' }), 200],
  [legacyCall('get_question', { year: 2020, index: 1, reveal_answer: true }, { 'accept-encoding': 'br, gzip' }), 200],
  [legacyCall('check_answer', { year: 2020, index: 1, answer: 'A' }), 200],
  [legacyCall('search_questions', { q: 'agua', limit: 5 }, { 'accept-encoding': 'gzip, deflate, br' }), 200],
  [legacyCall('random_questions', { count: 3, seed: 42 }), 200],
  [legacyCall('list_exams', {}), 200],
  [legacyCall('get_question', { year: 1999, index: 1 }), 200],
  [legacyCall('get_question', { year: 2020, index: 1, colour: 'azul' }), 200],
  [legacyCall('no_such_tool', {}), 200],
  [modernCall('get_question', { year: 2020, index: 1 }), 200],
  [modernCall('search_questions', { q: 'agua', limit: 5 }, { 'accept-encoding': 'gzip' }), 200],
  [mcpPost(INITIALIZE), 200],
  [mcpPost(INITIALIZE, { 'accept-encoding': 'gzip' }), 200],
  [mcpPost({ jsonrpc: '2.0', id: 2, method: 'tools/list' }), 200],
  [mcpPost({ jsonrpc: '2.0', method: 'notifications/initialized' }), 202],
  [mcpPost({ jsonrpc: '2.0', id: 3, method: 'no/such/method' }), 200],
  [mcpPost({ jsonrpc: '2.0', id: 4, method: 'initialize', params: { protocolVersion: 2025, capabilities: {}, clientInfo: { name: 'x', version: '1' } } }), 200],
  [legacyCall('get_question', { year: 2020, index: 1 }, { accept: 'application/json' }), 406],
  [legacyCall('get_question', { year: 2020, index: 1 }, { origin: 'http://localhost:8080' }), 200],
  [mcpPost({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_exams', arguments: {} } }, {}, `${MCP_ENDPOINT.path}/`), 200],
  [mcpPost([INITIALIZE, INITIALIZE]), 400],
  [mcpPost('{"jsonrpc": "2.0",'), 400],
  [mcpPost('['.repeat(40) + ']'.repeat(40)), 400],
  [mcpPost('{"jsonrpc":"2.0","id":1,"method":"tools/list","__proto__":{"x":1}}'), 400]
]

/** Requests refused before their body is read, or with headers only Fastify weighs: Fastify's, with its status. */
const FASTIFY: Array<[InjectOptions, number]> = [
  [legacyCall('list_exams', {}, { origin: 'http://evil.example.com' }), 403],
  [legacyCall('list_exams', {}, { host: 'evil.example.com' }), 403],
  [legacyCall('list_exams', {}, { 'x-forwarded-host': 'localhost' }), 200],
  [legacyCall('list_exams', {}, { 'content-type': 'text/plain' }), 415],
  [legacyCall('list_exams', {}, { 'content-encoding': 'gzip' }), 415],
  [legacyCall('search_questions', { q: 'x', pad: 'a'.repeat(MCP_ENDPOINT.bodyLimit) }), 413]
]

test('POST /mcp with plain headers is the fast path\'s: prepared calls and the SDK\'s answers, errors included, exactly as the route gives them', async (t) => {
  const counted = await buildCounted(t)
  for (const [options, status] of FAST) {
    // Twice: a tool call's result is kept whole from its second call on.
    for (const round of [1, 2]) {
      const { fast, response } = await compareBothWays(counted, options, { compressedAlike: false })
      const label = `${String(options.payload).slice(0, 100)} ${JSON.stringify(options.headers)} (round ${round})`
      assert.equal(fast, true, `${label} should take the fast path`)
      assert.equal(response.statusCode, status, `${label}: ${response.body.slice(0, 200)}`)
      assert.equal(response.headers['cache-control'], status < 300 ? 'no-store' : response.headers['cache-control'], label)
    }
  }
})

test('a POST /mcp refused before its body is read, or with headers the fast path does not weigh, is Fastify\'s', async (t) => {
  const counted = await buildCounted(t)
  for (const [options, status] of FASTIFY) {
    const { fast, response } = await compareBothWays(counted, options)
    assert.equal(fast, false, `${JSON.stringify(options.headers)} should go to Fastify`)
    assert.equal(response.statusCode, status, JSON.stringify(options.headers))
  }
})

test('MCP calls on the fast path draw on the one quota per client, and past it get the same 429', async (t) => {
  const counted = await buildCounted(t, { RATE_LIMIT_MAX: '3' })
  const call = legacyCall('get_question', { year: 2020, index: 1 })
  const answers = [await counted.request(call), await counted.injectIntoFastify(call), await counted.request('/v1/exams')]
  assert.deepEqual(answers.map((answer) => [answer.statusCode, answer.headers['ratelimit-remaining']]), [[200, '2'], [200, '1'], [200, '0']])
  const before = counted.fastifySaw()
  const refused = await counted.request(call)
  assert.equal(counted.fastifySaw(), before, 'refused on the fast path')
  assert.equal(refused.statusCode, 429)
  assert.equal(refused.json<{ error: { code: string } }>().error.code, 'rate_limit_exceeded')
  const { fast, response } = await compareBothWays(counted, call)
  assert.equal(fast, true)
  assert.equal(response.statusCode, 429)
})

test('MCP calls on the fast path get the same one access-log line as Fastify\'s', async (t) => {
  const counted = await buildCounted(t, { LOG_LEVEL: 'info' })
  const posts = [legacyCall('get_question', { year: 2020, index: 1 }), mcpPost(INITIALIZE), mcpPost('[]')]
  for (const options of posts) await counted.request(options)
  const fastLines = counted.logs.filter((line) => line.msg === 'request').length
  for (const options of posts) await counted.injectIntoFastify(options)
  const lines = counted.logs.filter((line) => line.msg === 'request')
  assert.equal(fastLines, 3)
  const expected = [['POST', '/mcp', 200, '127.0.0.1'], ['POST', '/mcp', 200, '127.0.0.1'], ['POST', '/mcp', 400, '127.0.0.1']]
  assert.deepEqual(lines.map((line) => [line.method, line.url, line.statusCode, line.ip]), [...expected, ...expected])
  const keys = (line: Record<string, unknown>) => Object.keys(line).filter((key) => key !== 'time').sort()
  assert.deepEqual(lines.slice(0, 3).map(keys), lines.slice(3).map(keys))
})
