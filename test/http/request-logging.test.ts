import { test } from 'node:test'
import assert from 'node:assert/strict'
import Fastify, { type FastifyInstance } from 'fastify'
import { app as appPlugin, serverOptions } from '../../src/app.ts'
import { loadConfig, type LogLevel } from '../../src/config.ts'
import { TEST_PUBLIC_URL, loadTestDataset } from '../helper.ts'

interface LogLine { level: number, msg: string, [field: string]: unknown }

async function buildLoggedApp (level: LogLevel, env: Record<string, string> = {}): Promise<{ app: FastifyInstance, logs: LogLine[] }> {
  const config = loadConfig({ PUBLIC_URL: TEST_PUBLIC_URL, LOG_LEVEL: level, RATE_LIMIT_MAX: '0', ...env })
  const dataset = await loadTestDataset(config)
  if (dataset.catalog === null) throw new Error('test dataset has errors')
  const logs: LogLine[] = []
  const options = serverOptions(config)
  // The level comes from LOG_LEVEL through serverOptions; only the destination changes here.
  const logger = typeof options.logger === 'object' ? { ...options.logger, stream: { write: (line: string) => { logs.push(JSON.parse(line)) } } } : false
  const app = Fastify({ ...options, logger })
  await app.register(appPlugin, { config, catalog: dataset.catalog, servableFiles: dataset.servableFiles })
  await app.ready()
  return { app, logs }
}

test('one access-log line per request, whatever answers it: routes, errors, the limiter, the router, the not-found handler', async (t) => {
  const { app, logs } = await buildLoggedApp('info', { RATE_LIMIT_MAX: '1' })
  t.after(() => app.close())
  const requests: Array<[string, string, number]> = [
    ['GET', '/v1/exams', 200],
    ['GET', '/v1/exams', 429],
    ['HEAD', '/healthz', 200],
    ['GET', '/v1/exams/%zz', 400],
    ['GET', `/v1/exams/${'1'.repeat(200)}`, 414],
    ['GET', '/nope?x=1', 404],
    ['DELETE', '/v1/exams', 405],
    ['OPTIONS', '/v1/exams', 204]
  ]
  for (const [method, url, status] of requests) {
    assert.equal((await app.inject({ method: method as 'GET', url })).statusCode, status, url)
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
  const { app, logs } = await buildLoggedApp('info')
  t.after(() => app.close())
  await app.inject(`/nope?q=${'a'.repeat(5_000)}`)
  const line = logs.find((entry) => entry.msg === 'request')
  assert.ok(line !== undefined)
  assert.ok(String(line.url).length <= 1_025)
})

test('LOG_LEVEL=warn leaves the access log out', async (t) => {
  const { app, logs } = await buildLoggedApp('warn')
  t.after(() => app.close())
  await app.inject('/v1/exams')
  await app.inject('/nope')
  assert.deepEqual(logs, [])
})
