import { test } from 'node:test'
import assert from 'node:assert/strict'
import type { LogLevel } from '../../src/config.ts'
import { build, type Cleanup } from '../helper.ts'

/** The app with its log lines kept, at `level`, rate limiting off unless `env` turns it on. */
function buildLogged (t: Cleanup, level: LogLevel, env: Record<string, string> = {}) {
  return build(t, { LOG_LEVEL: level, ...env })
}

test('one access-log line per request, whatever answers it: routes, errors, the limiter, the router, the not-found handler', async (t) => {
  const { request, logs } = await buildLogged(t, 'info', { RATE_LIMIT_MAX: '1' })
  const requests: Array<[string, string, number]> = [
    ['GET', '/v1/exams', 200],
    ['GET', '/v1/exams', 429],
    ['HEAD', '/healthz', 200],
    ['GET', '/v1/exams/%zz', 400],
    ['GET', `/v1/exams/${'1'.repeat(200)}`, 414],
    ['GET', '/nope?x=1', 404],
    ['DELETE', '/v1/exams', 405],
    // A preflight of the API counts against the quota (spent above); of another path, not.
    ['OPTIONS', '/v1/exams', 429],
    ['OPTIONS', '/healthz', 204]
  ]
  for (const [method, url, status] of requests) {
    assert.equal((await request({ method: method as 'GET', url })).statusCode, status, url)
  }
  const lines = logs.filter((line) => line.msg === 'request')
  assert.deepEqual(lines.map((line) => [line.method, line.url, line.statusCode]), requests)
  for (const line of lines) {
    assert.equal(line.level, 30)
    assert.match(String(line.reqId), /^req-/)
    assert.equal(typeof line.responseTimeMs, 'number')
    assert.equal(line.ip, '127.0.0.1')
  }
  assert.equal(new Set(lines.map((line) => line.reqId)).size, requests.length)
  assert.ok(!logs.some((line) => line.msg === 'incoming request' || line.msg === 'request completed'))
})

test('a huge URL is logged cut short', async (t) => {
  const { request, logs } = await buildLogged(t, 'info')
  await request(`/nope?q=${'a'.repeat(5_000)}`)
  const line = logs.find((entry) => entry.msg === 'request')
  assert.ok(line !== undefined)
  assert.ok(String(line.url).length <= 1_025)
})

test('LOG_LEVEL=warn leaves the access log out', async (t) => {
  const { request, logs } = await buildLogged(t, 'warn')
  await request('/v1/exams')
  await request('/nope')
  assert.deepEqual(logs, [])
})
