import { randomUUID } from 'node:crypto'
import type { TestContext } from 'node:test'
import net from 'node:net'
import { Redis } from 'ioredis'

/** The Redis the shared-limit tests use; CI starts one there (.ci/run). */
export const TEST_REDIS = { host: '127.0.0.1', port: 6379 }

/** Why these tests did not run, for t.skip: a machine without Redis must not report them as passing. */
export const NO_REDIS_MESSAGE = `SKIPPED, NOT PASSED: no Redis at ${TEST_REDIS.host}:${TEST_REDIS.port}; ` +
  'start one (redis-server) to run the shared rate-limit tests'

let reachable: Promise<boolean> | undefined

/** Whether a Redis answers PING at TEST_REDIS; asked once per test file. */
export function redisReachable (): Promise<boolean> {
  reachable ??= new Promise((resolve) => {
    const socket = net.connect(TEST_REDIS.port, TEST_REDIS.host)
    const done = (result: boolean) => {
      socket.destroy()
      resolve(result)
    }
    socket.setTimeout(1_000, () => done(false))
    socket.once('error', () => done(false))
    socket.once('connect', () => socket.write('PING\r\n'))
    socket.once('data', (chunk: Buffer) => done(chunk.toString().startsWith('+PONG')))
  })
  return reachable
}

/** Whether the test can run: without Redis it is reported as skipped, never as passed. */
export async function requireRedis (t: TestContext): Promise<boolean> {
  if (await redisReachable()) return true
  t.diagnostic(NO_REDIS_MESSAGE)
  t.skip(NO_REDIS_MESSAGE)
  return false
}

/** uniqueKeyPrefix for a test whose keys are deleted when it ends. */
export function testKeyPrefix (t: TestContext): string {
  const keyPrefix = uniqueKeyPrefix()
  t.after(() => deleteKeys(keyPrefix))
  return keyPrefix
}

/**
 * A key prefix of its own for one test, so tests running at the same time (or a second checkout
 * on the same machine) never share counters. Passed to the app through REDIS_URL's query, which
 * ioredis turns into its `keyPrefix` option.
 */
export function uniqueKeyPrefix (): string {
  return `enem-api-test:${randomUUID()}:`
}

/** REDIS_URL for an app under test: the given port (a proxy's, or Redis's own) and a unique key prefix. */
export function redisUrl (keyPrefix: string, port = TEST_REDIS.port): string {
  return `redis://${TEST_REDIS.host}:${port}/?keyPrefix=${encodeURIComponent(keyPrefix)}`
}

/** Deletes what a test left in Redis under its prefix. */
export async function deleteKeys (keyPrefix: string): Promise<void> {
  const redis = new Redis({ ...TEST_REDIS, lazyConnect: true, maxRetriesPerRequest: 1 })
  try {
    await redis.connect()
    const keys = await redis.keys(`${keyPrefix}*`)
    if (keys.length > 0) await redis.del(...keys)
  } finally {
    redis.disconnect()
  }
}

/** A port nothing listens on (bound, then released), for "Redis is down". */
export async function deadPort (): Promise<number> {
  const server = net.createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  const address = server.address()
  const port = typeof address === 'object' && address !== null ? address.port : 0
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}
