import { test } from 'node:test'
import assert from 'node:assert/strict'
import { setTimeout as sleep } from 'node:timers/promises'
import Fastify, { type FastifyInstance } from 'fastify'
import { app as appPlugin, serverOptions } from '../../src/app.ts'
import { loadConfig } from '../../src/config.ts'
import { TEST_PUBLIC_URL, loadTestDataset } from '../helper.ts'
import { TEST_REDIS, deadPort, redisUrl, requireRedis, testKeyPrefix, uniqueKeyPrefix } from '../redis.ts'
import { TcpProxy } from '../tcp-proxy.ts'

interface LogLine { level: number, msg: string }
const WARN = 40

/** The app as the server builds it, with its log lines collected. */
async function buildLoggedApp (env: Record<string, string>): Promise<{ app: FastifyInstance, logs: LogLine[] }> {
  const config = loadConfig({ PUBLIC_URL: TEST_PUBLIC_URL, LOG_LEVEL: 'info', ...env })
  const dataset = await loadTestDataset(config)
  if (dataset.catalog === null) throw new Error('test dataset has errors')
  const logs: LogLine[] = []
  const app = Fastify({
    ...serverOptions(config),
    logger: { level: 'info', stream: { write: (line: string) => { logs.push(JSON.parse(line)) } } }
  })
  await app.register(appPlugin, { config, catalog: dataset.catalog, servableFiles: dataset.servableFiles })
  await app.ready()
  return { app, logs }
}

/** Skips the test, loudly, when there is no Redis to test against. */
/** Waits for a condition that depends on reconnection timing; the bound is generous, not a measurement. */
async function eventually (what: string, condition: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 10_000
  while (!(await condition())) {
    if (Date.now() > deadline) assert.fail(`timed out waiting until ${what}`)
    await sleep(50)
  }
}

const outageWarnings = (logs: LogLine[]) => logs.filter((line) => line.level === WARN && line.msg.startsWith('Redis is unreachable'))
const recoveries = (logs: LogLine[]) => logs.filter((line) => line.msg.startsWith('Redis is reachable again'))

test('two apps on one Redis share one limit per client', async (t) => {
  if (!await requireRedis(t)) return
  const keyPrefix = testKeyPrefix(t)
  const env = { RATE_LIMIT_MAX: '5', RATE_LIMIT_WINDOW: '60s', REDIS_URL: redisUrl(keyPrefix) }
  const replicas = [await buildLoggedApp(env), await buildLoggedApp(env)]
  t.after(() => Promise.all(replicas.map(({ app }) => app.close())))

  const statuses: number[] = []
  const remaining: unknown[] = []
  for (let i = 0; i < 8; i++) {
    const response = await replicas[i % 2]!.app.inject({ url: '/v1/exams', remoteAddress: '192.0.2.1' })
    statuses.push(response.statusCode)
    remaining.push(response.headers['ratelimit-remaining'])
  }
  assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429, 429, 429])
  assert.deepEqual(remaining, ['4', '3', '2', '1', '0', '0', '0', '0'])
  // Another client, its own quota.
  assert.equal((await replicas[1]!.app.inject({ url: '/v1/exams', remoteAddress: '192.0.2.2' })).statusCode, 200)
})

test('Redis going away mid-run: requests are still served, one warning per outage, limiting resumes when it is back', async (t) => {
  if (!await requireRedis(t)) return
  const keyPrefix = testKeyPrefix(t)
  const proxy = await TcpProxy.start(TEST_REDIS)
  t.after(() => proxy.close())
  const { app, logs } = await buildLoggedApp({ RATE_LIMIT_MAX: '3', RATE_LIMIT_WINDOW: '60s', REDIS_URL: redisUrl(keyPrefix, proxy.port) })
  t.after(() => app.close())
  const request = () => app.inject({ url: '/v1/exams', remoteAddress: '192.0.2.1' })

  assert.equal((await request()).headers['ratelimit-remaining'], '2')
  assert.equal(outageWarnings(logs).length, 0)

  for (let outage = 1; outage <= 2; outage++) {
    await proxy.cut()
    // Far past the limit of 3, and all served: an outage must not become an outage of the API.
    for (let i = 0; i < 20; i++) assert.equal((await request()).statusCode, 200)
    // Reconnection attempts keep failing meanwhile; they must not add warnings either.
    await sleep(1_500)
    assert.equal(outageWarnings(logs).length, outage, `one warning for outage ${outage}, not one per request`)

    await proxy.restore()
    // Served uncounted, a request says the full quota remains; counted again, it says less.
    await eventually('Redis counts again', async () => (await request()).headers['ratelimit-remaining'] !== '3')
    assert.equal(recoveries(logs).length, outage)
    await eventually('the limit is enforced again', async () => (await request()).statusCode === 429)
    assert.equal(outageWarnings(logs).length, outage)
  }
})

test('Redis down at start-up: the app starts, serves and warns once', async (t) => {
  const port = await deadPort()
  const { app, logs } = await buildLoggedApp({ RATE_LIMIT_MAX: '2', REDIS_URL: redisUrl(uniqueKeyPrefix(), port) })
  t.after(() => app.close())
  for (let i = 0; i < 10; i++) assert.equal((await app.inject('/v1/exams')).statusCode, 200)
  await sleep(1_500)
  assert.equal(outageWarnings(logs).length, 1)
})

test('closing the app closes its Redis connection, so the process can exit', async (t) => {
  if (!await requireRedis(t)) return
  const proxy = await TcpProxy.start(TEST_REDIS)
  t.after(() => proxy.close())
  const { app, logs } = await buildLoggedApp({ RATE_LIMIT_MAX: '2', REDIS_URL: redisUrl(uniqueKeyPrefix(), proxy.port) })
  assert.equal(proxy.openConnections, 1)
  await app.close()
  await eventually('the connection is gone', async () => proxy.openConnections === 0)
  assert.ok(logs.some((line) => line.msg === 'Redis connection closed'))
  assert.equal(outageWarnings(logs).length, 0, 'a connection we closed is not an outage')
})
