import { test, type TestContext } from 'node:test'
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import net from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import Fastify from 'fastify'
import { installErrorHandling } from '../../src/http/plugins/error-handling.ts'
import { rateLimit } from '../../src/http/plugins/rate-limit.ts'
import { deadPort } from '../redis.ts'

/*
 * A Redis that is connected but frozen (SIGSTOP: the TCP connection stays up, nothing answers)
 * made every counted request wait the whole command timeout. The breaker must open after a few
 * timeouts, count in memory meanwhile, say so once, and close once Redis answers again.
 * The test starts its own redis-server on a free port: the shared one is never stopped.
 */

interface LogLine { level: number, msg: string }

function answersPing (port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1')
    const done = (result: boolean) => { socket.destroy(); resolve(result) }
    socket.setTimeout(500, () => done(false))
    socket.once('error', () => done(false))
    socket.once('connect', () => socket.write('PING\r\n'))
    socket.once('data', (chunk: Buffer) => done(chunk.toString().startsWith('+PONG')))
  })
}

/** A redis-server of the test's own, stopped (and continued first, if frozen) when the test ends. */
async function startOwnRedis (t: TestContext): Promise<{ port: number, pid: number }> {
  const port = await deadPort()
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' })
  const exited = once(child, 'exit')
  t.after(async () => {
    if (child.exitCode !== null) return
    child.kill('SIGCONT')
    child.kill('SIGKILL')
    await exited
  })
  const deadline = Date.now() + 10_000
  while (!await answersPing(port)) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`redis-server did not start on port ${port} (is it installed?)`)
    await sleep(50)
  }
  return { port, pid: child.pid! }
}

async function eventually (what: string, condition: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 10_000
  while (!await condition()) {
    if (Date.now() > deadline) assert.fail(`timed out waiting until ${what}`)
    await sleep(50)
  }
}

test('a frozen Redis trips the breaker: counting moves to memory, one log line each way', { timeout: 60_000 }, async (t) => {
  const redis = await startOwnRedis(t)
  const logs: LogLine[] = []
  const app = Fastify({ logger: { level: 'info', stream: { write: (line: string) => { logs.push(JSON.parse(line)) } } } })
  installErrorHandling(app, 'http://api.test')
  await app.register(rateLimit, { max: 1_000, windowMs: 60_000, redisUrl: `redis://127.0.0.1:${redis.port}`, redisBreaker: { timeoutsToOpen: 3, openMs: 500 } })
  app.get('/counted', async () => ({ ok: true }))
  await app.ready()
  t.after(() => app.close())
  // The limiter plugin alone on a bare Fastify, with a route of the test's own: there is no server
  // request listener (no fast path) to go through, and what is under test is the plugin's store.
  const remaining = async () => {
    const response = await app.inject({ url: '/counted', remoteAddress: '192.0.2.1' })
    assert.equal(response.statusCode, 200)
    return Number(response.headers['ratelimit-remaining'])
  }
  const opened = () => logs.filter((line) => line.msg.startsWith('Redis is not answering in time'))
  const closed = () => logs.filter((line) => line.msg.startsWith('Redis answers in time again'))

  assert.equal(await remaining(), 999, 'counted in Redis')
  process.kill(redis.pid, 'SIGSTOP')

  // A few requests wait out the command timeout (and are served); then the breaker opens.
  for (let i = 0; i < 3; i++) await remaining()
  assert.equal(opened().length, 1, 'the breaker opened, and said so once')
  // Open: requests no longer wait on Redis; they are counted in memory, so the quota still runs down.
  const inMemory: number[] = []
  for (let i = 0; i < 20; i++) inMemory.push(await remaining())
  for (let i = 1; i < inMemory.length; i++) assert.equal(inMemory[i], inMemory[i - 1]! - 1, `counted: ${inMemory.join(',')}`)
  // Probes keep failing while Redis is frozen: still one line.
  await sleep(1_500)
  await remaining()
  assert.equal(opened().length, 1)
  assert.equal(closed().length, 0)

  process.kill(redis.pid, 'SIGCONT')
  // The next probe (after openMs, started by a request) finds Redis answering; the breaker closes.
  await eventually('the breaker closes', async () => {
    await remaining()
    return closed().length === 1
  })
  // Counted in Redis again: its own count, which saw only the first request and what came since closing.
  const again = await remaining()
  assert.ok(again > inMemory.at(-1)!, `back to Redis's count (${again}), not memory's (${inMemory.at(-1)})`)
  assert.equal(opened().length, 1)
  assert.equal(closed().length, 1)
})
