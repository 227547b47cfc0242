import { after, test } from 'node:test'
import assert from 'node:assert/strict'
import type { AddressInfo } from 'node:net'
import type { InjectOptions } from 'fastify'
import { build } from '../helper.ts'
import { rawRequest } from '../raw-http.ts'

const EXPOSED = 'ETag, Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset'

const server = await build({ after }, { RATE_LIMIT_MAX: '3' })
const { app } = server
await app.listen({ port: 0, host: '127.0.0.1' })
const { port } = app.server.address() as AddressInfo
const samplePage = (await server.request({ url: '/v1/exams/2020/questions?limit=50', remoteAddress: '192.0.2.99' })).json<{ questions: Array<{ files: string[] }> }>()
const fileAddress = samplePage.questions.flatMap((question) => question.files)[0]
assert.ok(fileAddress !== undefined, 'the sample dataset has question files')
const filePath = new URL(fileAddress).pathname

function assertCors (headers: Record<string, unknown>, what: string): void {
  assert.equal(headers['access-control-allow-origin'], '*', what)
  assert.equal(headers['access-control-expose-headers'], EXPOSED, what)
  assert.equal(headers.vary?.toString().toLowerCase().includes('origin') ?? false, false, `${what}: the answer does not depend on Origin`)
}

test('every answer allows any origin and exposes ETag, Retry-After and the RateLimit headers: successes, errors, files', async () => {
  const cases: Array<[InjectOptions, number]> = [
    [{ url: '/v1/exams', remoteAddress: '192.0.2.1' }, 200],
    [{ url: '/v1/exams/1999', remoteAddress: '192.0.2.1' }, 404],
    [{ url: '/v1/exams/2020/questions?limit=0', remoteAddress: '192.0.2.1' }, 422],
    [{ url: '/v1/exams/2020', remoteAddress: '192.0.2.1' }, 429],
    [{ url: '/v1/exams/abc', remoteAddress: '192.0.2.2' }, 400],
    [{ url: '/v1/exams/%zz' }, 400],
    [{ url: '/v1/exams/20%0020' }, 400],
    [{ url: `/v1/exams/${'9'.repeat(200)}` }, 414],
    [{ url: `/v1/exams?q=${'a'.repeat(9000)}` }, 414],
    [{ url: '/nope' }, 404],
    [{ url: '/v1/exams', method: 'DELETE' }, 405],
    [{ url: '/v1/exams', headers: { 'content-length': '3' }, payload: 'abc', remoteAddress: '192.0.2.3' }, 413],
    [{ url: filePath }, 200],
    [{ url: '/files/2020/none.png' }, 404],
    [{ url: '/healthz' }, 200],
    [{ url: '/', headers: { origin: 'https://example.org' } }, 200]
  ]
  for (const [options, status] of cases) {
    const response = await server.request({ ...options, headers: { origin: 'https://example.org', ...options.headers } })
    const what = `${options.method ?? 'GET'} ${options.url?.toString().slice(0, 50)}`
    assert.equal(response.statusCode, status, what)
    assertCors(response.headers, what)
  }
})

test('a 304 keeps the CORS headers, so a browser revalidating from script can use its cached copy', async () => {
  const { headers } = await server.request({ url: '/v1/exams/2023', remoteAddress: '192.0.2.4' })
  const cached = await server.request({ url: '/v1/exams/2023', remoteAddress: '192.0.2.4', headers: { 'if-none-match': String(headers.etag) } })
  assert.equal(cached.statusCode, 304)
  assertCors(cached.headers, '304')
})

test('preflight: 204 with GET, HEAD, OPTIONS, POST (for /v1/scores), with or without Origin, on any path', async () => {
  const variants: Array<Record<string, string>> = [
    { origin: 'https://example.org', 'access-control-request-method': 'GET', 'access-control-request-headers': 'if-none-match' },
    { origin: 'https://example.org' },
    {}
  ]
  let client = 0
  for (const url of ['/v1/exams', '/v1/exams/2020/questions?limit=5', '/files/2020/x.png', '/healthz']) {
    for (const headers of variants) {
      // A client of its own each: preflights of the API are counted (the test below).
      const response = await server.request({ method: 'OPTIONS', url, headers, remoteAddress: `192.0.2.${50 + client++}` })
      const what = `OPTIONS ${url} ${JSON.stringify(headers)}`
      assert.equal(response.statusCode, 204, what)
      assert.equal(response.body, '', what)
      assert.equal(response.headers['access-control-allow-methods'], 'GET, HEAD, OPTIONS, POST', what)
      assert.equal(response.headers['access-control-allow-origin'], '*', what)
      assert.equal(response.headers['access-control-max-age'], '86400', what)
      assert.equal(response.headers['ratelimit-limit'], url.startsWith('/v1/') ? '3' : undefined, what)
      assert.equal(response.headers['x-content-type-options'], 'nosniff', what)
      if (headers['access-control-request-headers'] !== undefined) {
        assert.equal(response.headers['access-control-allow-headers'], 'if-none-match', what)
      }
    }
  }
})

test('over real HTTP: preflight without Origin, and the parser\'s own 431, carry the CORS headers', async () => {
  const preflight = await rawRequest(port, 'OPTIONS /v1/exams HTTP/1.1\r\nHost: api.test\r\nConnection: close\r\n\r\n')
  assert.equal(preflight.status, 204)
  assertCors(preflight.headers, 'preflight')
  const tooLarge = await rawRequest(port, `GET /v1/exams HTTP/1.1\r\nHost: api.test\r\nX-Big: ${'a'.repeat(40_000)}\r\n\r\n`)
  assert.equal(tooLarge.status, 431)
  assertCors(tooLarge.headers, '431')
})

test('preflights of the API count against the client\'s quota (they were never limited): over it, the contract\'s 429 with CORS headers; other paths\' are not counted', async () => {
  const preflight = { origin: 'https://example.org', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' }
  const statuses: number[] = []
  for (let count = 0; count < 4; count++) statuses.push((await server.request({ method: 'OPTIONS', url: '/v1/scores', headers: preflight, remoteAddress: '192.0.2.20' })).statusCode)
  assert.deepEqual(statuses, [204, 204, 204, 429])
  const refused = await server.request({ method: 'OPTIONS', url: '/v1/exams', headers: preflight, remoteAddress: '192.0.2.20' })
  assert.equal(refused.statusCode, 429)
  assert.equal(refused.json<{ error: { code: string } }>().error.code, 'rate_limit_exceeded')
  assert.ok(Number(refused.headers['retry-after']) >= 1)
  assertCors(refused.headers, 'the 429 of a preflight')
  // The preflights used the quota of the client's requests too.
  assert.equal((await server.request({ url: '/v1/exams', remoteAddress: '192.0.2.20' })).statusCode, 429)
  for (let count = 0; count < 5; count++) {
    assert.equal((await server.request({ method: 'OPTIONS', url: '/healthz', headers: preflight, remoteAddress: '192.0.2.21' })).statusCode, 204)
  }
})

test('preflights of /mcp count against the same quota as the tool calls they precede (a page calls /mcp across origins); /mcpx is another path', async () => {
  const preflight = { origin: 'https://example.org', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, mcp-protocol-version' }
  const statuses: number[] = []
  for (const url of ['/mcp', '/mcp?x=1', '/mcp/', '/mcp']) statuses.push((await server.request({ method: 'OPTIONS', url, headers: preflight, remoteAddress: '192.0.2.30' })).statusCode)
  assert.deepEqual(statuses, [204, 204, 204, 429])
  // The quota the preflights spent is the one of /v1 too.
  assert.equal((await server.request({ url: '/v1/exams', remoteAddress: '192.0.2.30' })).statusCode, 429)
  for (let count = 0; count < 5; count++) {
    const other = await server.request({ method: 'OPTIONS', url: '/mcpx', headers: preflight, remoteAddress: '192.0.2.31' })
    assert.equal(other.statusCode, 204)
    assert.equal(other.headers['ratelimit-limit'], undefined)
  }
})

test('over real HTTP: a preflight asking for 8 KB of request headers is not echoed back: a bounded answer, the wildcard', async () => {
  const names = Array.from({ length: 700 }, (_, at) => `x-made-up-${at}`).join(', ')
  assert.ok(names.length > 8_000)
  const asked = await rawRequest(port, `OPTIONS /healthz HTTP/1.1\r\nHost: api.test\r\nOrigin: https://example.org\r\nAccess-Control-Request-Method: POST\r\nAccess-Control-Request-Headers: ${names}\r\nConnection: close\r\n\r\n`)
  assert.equal(asked.status, 204)
  assert.equal(asked.headers['access-control-allow-headers'], '*')
  const usual = await rawRequest(port, 'OPTIONS /healthz HTTP/1.1\r\nHost: api.test\r\nOrigin: https://example.org\r\nAccess-Control-Request-Method: POST\r\nAccess-Control-Request-Headers: content-type, if-none-match\r\nConnection: close\r\n\r\n')
  assert.equal(usual.headers['access-control-allow-headers'], 'content-type, if-none-match')
})
