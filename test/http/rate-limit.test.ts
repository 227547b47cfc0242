import { test } from 'node:test'
import assert from 'node:assert/strict'
import Fastify from 'fastify'
import { buildTestApp, type ErrorResponseBody } from '../helper.ts'
import { ApiError } from '../../src/http/errors.ts'
import { installErrorHandling } from '../../src/http/plugins/error-handling.ts'
import { rateLimit } from '../../src/http/plugins/rate-limit.ts'

const COUNTED_URLS = ['/v1/exams', '/v1/exams/2020', '/v1/exams/2020/questions?limit=2', '/v1/exams/2020/questions/1']

function rateLimitHeaders (headers: Record<string, unknown>) {
  return {
    limit: headers['ratelimit-limit'],
    remaining: headers['ratelimit-remaining'],
    reset: headers['ratelimit-reset']
  }
}

test('every counted answer carries RateLimit-Limit/-Remaining/-Reset, errors included; past the limit: 429, Retry-After in seconds, the contract body', async (t) => {
  const app = await buildTestApp({ RATE_LIMIT_MAX: '6', RATE_LIMIT_WINDOW: '60s' })
  t.after(() => app.close())
  // Success, 404 (unknown year), 422 (out of range), 400 (grammar), HEAD: each one counts and says so.
  const urls = ['/v1/exams', '/v1/exams/1999', '/v1/exams/2020/questions?limit=0', '/v1/exams/abc', '/v1/exams/2020/questions/1']
  const statuses = [200, 404, 422, 400, 200]
  for (const [i, url] of urls.entries()) {
    const response = await app.inject(url)
    assert.equal(response.statusCode, statuses[i], url)
    assert.deepEqual(rateLimitHeaders(response.headers), { limit: '6', remaining: String(5 - i), reset: '60' }, url)
    assert.equal(response.headers['retry-after'], undefined, url)
  }
  const head = await app.inject({ method: 'HEAD', url: '/v1/exams/2020' })
  assert.equal(head.statusCode, 200)
  assert.equal(head.headers['ratelimit-remaining'], '0')

  const refused = await app.inject('/v1/exams/2020')
  assert.equal(refused.statusCode, 429)
  assert.deepEqual(rateLimitHeaders(refused.headers), { limit: '6', remaining: '0', reset: '60' })
  assert.equal(refused.headers['retry-after'], '60', 'seconds, not milliseconds')
  assert.equal(refused.headers['content-type'], 'application/json; charset=utf-8')
  assert.equal(refused.headers['cache-control'], 'no-store')
  const body = refused.json<ErrorResponseBody>()
  assert.deepEqual(Object.keys(body.error).sort(), ['code', 'docUrl', 'message'])
  assert.equal(body.error.code, 'rate_limit_exceeded')
  assert.equal(body.error.docUrl, 'http://api.test/docs#errors-rate-limit-exceeded')
  assert.equal(body.error.message, 'Too many requests: at most 6 per 60 seconds from one client; retry in 60 s. To read every question, download /v1/export/questions.jsonl (one request) instead of paging.')
})

test('one quota per client across all exam routes; the window ends and a fresh one begins', async (t) => {
  t.mock.timers.enable({ apis: ['Date'], now: Date.parse('2026-01-01T00:00:00Z') })
  const app = await buildTestApp({ RATE_LIMIT_MAX: String(COUNTED_URLS.length), RATE_LIMIT_WINDOW: '10s' })
  t.after(() => app.close())
  for (const url of COUNTED_URLS) assert.equal((await app.inject(url)).statusCode, 200, url)
  t.mock.timers.tick(4_000)
  const refused = await app.inject('/v1/exams')
  assert.equal(refused.statusCode, 429)
  assert.equal(refused.headers['retry-after'], '6', 'what is left of the window, in seconds')
  assert.equal(refused.headers['ratelimit-reset'], '6')
  t.mock.timers.tick(6_000)
  const fresh = await app.inject('/v1/exams')
  assert.equal(fresh.statusCode, 200)
  assert.deepEqual(rateLimitHeaders(fresh.headers), { limit: String(COUNTED_URLS.length), remaining: String(COUNTED_URLS.length - 1), reset: '10' })
})

test('files, docs, health checks, the OpenAPI document, preflights of other paths and unknown paths are not counted', async (t) => {
  const app = await buildTestApp({ RATE_LIMIT_MAX: '2' })
  t.after(() => app.close())
  const notCounted = ['/healthz', '/readyz', '/docs', '/v1', '/v1/openapi.json', '/', '/files/2020/nope.png', '/nope', '/v1/nope']
  for (let round = 0; round < 3; round++) {
    for (const url of notCounted) {
      const response = await app.inject(url)
      assert.equal(response.headers['ratelimit-limit'], undefined, url)
      assert.notEqual(response.statusCode, 429, url)
    }
    // A preflight of the API is counted (test/http/cors.test.ts); of another path, not.
    const preflight = await app.inject({ method: 'OPTIONS', url: '/files/2020/nope.png', headers: { origin: 'https://example.org', 'access-control-request-method': 'GET' } })
    assert.equal(preflight.statusCode, 204)
    assert.equal(preflight.headers['ratelimit-limit'], undefined)
  }
  const first = await app.inject('/v1/exams')
  assert.equal(first.headers['ratelimit-remaining'], '1', 'nothing above used the quota')
})

test('RATE_LIMIT_MAX=0 turns limiting off: no RateLimit headers and no 429', async (t) => {
  const app = await buildTestApp({ RATE_LIMIT_MAX: '0' })
  t.after(() => app.close())
  for (let i = 0; i < 50; i++) {
    const response = await app.inject('/v1/exams')
    assert.equal(response.statusCode, 200)
    assert.equal(response.headers['ratelimit-limit'], undefined)
  }
})

test('by default a spoofed X-Forwarded-For does not buy a fresh quota: the socket address is the client', async (t) => {
  const app = await buildTestApp({ RATE_LIMIT_MAX: '2' })
  t.after(() => app.close())
  const statuses = []
  for (let i = 0; i < 4; i++) {
    const response = await app.inject({ url: '/v1/exams', remoteAddress: '192.0.2.10', headers: { 'x-forwarded-for': `198.51.100.${i}` } })
    statuses.push(response.statusCode)
  }
  assert.deepEqual(statuses, [200, 200, 429, 429])
  // Another socket address is another client.
  assert.equal((await app.inject({ url: '/v1/exams', remoteAddress: '192.0.2.11' })).statusCode, 200)
})

test('with TRUST_PROXY naming the proxy, X-Forwarded-For from it is believed, and from anyone else is not', async (t) => {
  const app = await buildTestApp({ RATE_LIMIT_MAX: '1', TRUST_PROXY: '10.0.0.0/8' })
  t.after(() => app.close())
  const viaProxy = (client: string) => app.inject({ url: '/v1/exams', remoteAddress: '10.1.2.3', headers: { 'x-forwarded-for': client } })
  assert.equal((await viaProxy('198.51.100.1')).statusCode, 200)
  assert.equal((await viaProxy('198.51.100.2')).statusCode, 200, 'another client behind the same proxy has its own quota')
  assert.equal((await viaProxy('198.51.100.1')).statusCode, 429)
  // A client talking to us directly cannot pretend to be someone else.
  const direct = (client: string) => app.inject({ url: '/v1/exams', remoteAddress: '192.0.2.20', headers: { 'x-forwarded-for': client } })
  assert.equal((await direct('198.51.100.3')).statusCode, 200)
  assert.equal((await direct('198.51.100.4')).statusCode, 429)
})

test('with TRUST_PROXY=true the X-Forwarded-For client is believed whoever sends it', async (t) => {
  const app = await buildTestApp({ RATE_LIMIT_MAX: '1', TRUST_PROXY: 'true' })
  t.after(() => app.close())
  for (let i = 0; i < 3; i++) {
    const response = await app.inject({ url: '/v1/exams', remoteAddress: '192.0.2.30', headers: { 'x-forwarded-for': `198.51.100.${i}` } })
    assert.equal(response.statusCode, 200)
  }
})

test('IPv6 clients are counted per /64, so one host cannot rotate through its own addresses', async (t) => {
  const app = await buildTestApp({ RATE_LIMIT_MAX: '2' })
  t.after(() => app.close())
  const statuses = []
  for (const address of ['2001:db8:1:2::1', '2001:db8:1:2::2', '2001:db8:1:2:abcd::3']) {
    statuses.push((await app.inject({ url: '/v1/exams', remoteAddress: address })).statusCode)
  }
  assert.deepEqual(statuses, [200, 200, 429])
  assert.equal((await app.inject({ url: '/v1/exams', remoteAddress: '2001:db8:1:3::1' })).statusCode, 200, 'another /64')
})

test('the in-memory store is bounded: past its size the least recently seen clients are forgotten, not kept', async (t) => {
  const app = Fastify()
  installErrorHandling(app, 'http://api.test')
  await app.register(rateLimit, { max: 2, windowMs: 60_000, localStoreMaxClients: 10 })
  app.get('/counted', async () => ({ ok: true }))
  await app.ready()
  t.after(() => app.close())
  const from = (remoteAddress: string) => app.inject({ url: '/counted', remoteAddress })

  assert.equal((await from('192.0.2.1')).headers['ratelimit-remaining'], '1')
  // Ten other clients push the first one out of the ten-entry store.
  for (let i = 0; i < 10; i++) await from(`198.51.100.${i}`)
  assert.equal((await from('192.0.2.1')).headers['ratelimit-remaining'], '1', 'counted afresh: its old counter was dropped')
  // Within the bound, counters are kept.
  assert.equal((await from('192.0.2.1')).headers['ratelimit-remaining'], '0')
  assert.equal((await from('192.0.2.1')).statusCode, 429)
})

test('the 429 is produced by the app error handler from an ApiError', async (t) => {
  // Guard against the limiter answering by itself: its body would not be the contract's.
  const app = Fastify()
  let seen: unknown
  app.setErrorHandler(async (error, _request, reply) => {
    seen = error
    return reply.code(429).send({ handled: true })
  })
  await app.register(rateLimit, { max: 1, windowMs: 60_000 })
  app.get('/counted', async () => ({ ok: true }))
  await app.ready()
  t.after(() => app.close())
  await app.inject('/counted')
  const refused = await app.inject('/counted')
  assert.deepEqual(refused.json(), { handled: true })
  assert.ok(seen instanceof ApiError)
  assert.equal(seen.statusCode, 429)
  assert.equal(refused.headers['retry-after'], '60')
})

test('the plugin refuses a max or window it cannot enforce, at registration', async () => {
  for (const options of [{ max: 0, windowMs: 1000 }, { max: 1.5, windowMs: 1000 }, { max: 5, windowMs: 0 }]) {
    const app = Fastify()
    await assert.rejects(async () => {
      await app.register(rateLimit, options)
      await app.ready()
    }, /rate limit/)
    await app.close()
  }
})
