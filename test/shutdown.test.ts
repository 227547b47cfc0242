import { test, type TestContext } from 'node:test'
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { once } from 'node:events'
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { request as httpRequest, Agent } from 'node:http'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { setTimeout as sleep } from 'node:timers/promises'
import { SAMPLE_DATA_DIR } from '../src/config.ts'
import { rawRequest } from './raw-http.ts'

/*
 * SIGTERM under load, on a real server process with a real client: /readyz fails at once, the
 * server serves on through the drain delay, then finishes every answer in flight and exits 0.
 * The client behaves as a load balancer's traffic does: it stops sending new requests once it
 * has seen /readyz fail, and every request it did send must be answered in full, none reset.
 */

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url))
/** An image a record names (the only files /files serves), its bytes replaced by the test's. */
const BIG_FILE = '2020/questions/12/0a1b2c3d-0000-4000-8000-000000000008.png'
const BIG_FILE_BYTES = 4 * 1024 * 1024

interface LogLine { msg: string, [field: string]: unknown }

async function startServer (t: TestContext, dataDir: string) {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    PUBLIC_URL: 'http://api.test',
    LOG_LEVEL: 'info',
    ENEM_DATA_DIR: dataDir,
    WEB_CONCURRENCY: '1',
    RATE_LIMIT_MAX: '0',
    REDIS_URL: '',
    // Long enough for the health check below to get a turn on a loaded 2-core machine, where 40
    // clients reading a 4 MB file can hold one round trip for over a second.
    SHUTDOWN_DRAIN_DELAY: '4s'
  }
  delete env.NODE_TEST_CONTEXT
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] })
  t.after(() => { if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL') })
  const exit = once(child, 'exit').then(([code]) => code as number | null)
  const logs: LogLine[] = []
  const port = await new Promise<number>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (text) => {
      try {
        const line = JSON.parse(text) as LogLine
        logs.push(line)
        if (line.msg === 'ready') resolve(Number(line.port))
      } catch {}
    })
    exit.then((code) => reject(new Error(`server exited (${code}) before it was ready`)), reject)
  })
  return { child, port, exit, logs }
}

interface Outcome { status: number, bytes: number, expected: number | undefined, error?: string }

/** One GET through `agent`, read to the end. */
function get (port: number, agent: Agent, target: string): Promise<Outcome> {
  return new Promise((resolve) => {
    const request = httpRequest({ host: '127.0.0.1', port, path: target, agent, headers: { host: 'api.test', 'accept-encoding': 'identity' } }, (response) => {
      let bytes = 0
      response.on('data', (chunk: Buffer) => { bytes += chunk.length })
      response.on('end', () => resolve({ status: response.statusCode ?? 0, bytes, expected: Number(response.headers['content-length']) }))
      response.on('error', (error: NodeJS.ErrnoException) => resolve({ status: response.statusCode ?? 0, bytes, expected: undefined, error: error.code ?? error.message }))
    })
    request.on('error', (error: NodeJS.ErrnoException) => resolve({ status: 0, bytes: 0, expected: undefined, error: error.code ?? error.message }))
    request.end()
  })
}

test('SIGTERM under load: /readyz fails at once, every request sent is answered in full, none is reset, exit 0', { timeout: 60_000 }, async (t) => {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'enem-shutdown-'))
  t.after(() => rm(dataDir, { recursive: true, force: true }))
  await cp(SAMPLE_DATA_DIR, dataDir, { recursive: true })
  await writeFile(path.join(dataDir, BIG_FILE), randomBytes(BIG_FILE_BYTES))
  const server = await startServer(t, dataDir)
  const { port } = server

  // Keep-alive clients, as a balancer's connections to a replica are.
  const agent = new Agent({ keepAlive: true, maxSockets: 48 })
  t.after(() => agent.destroy())
  const targets = ['/v1/exams', '/v1/exams/2020', '/v1/exams/2020/questions?limit=5', '/v1/exams/2020/questions/12', `/files/${BIG_FILE}`]
  let balancerStopped = false
  let signalledAt = 0
  const outcomes: Outcome[] = []
  let sentAfterSignal = 0
  const worker = async (offset: number) => {
    for (let i = offset; ; i++) {
      if (balancerStopped) return
      if (signalledAt !== 0) sentAfterSignal++
      outcomes.push(await get(port, agent, targets[i % targets.length]!))
    }
  }
  const workers = Array.from({ length: 40 }, (_, i) => worker(i))

  // The balancer's health check, on a connection of its own.
  const readiness: number[] = []
  const healthCheck = (async () => {
    while (!balancerStopped) {
      const response = await rawRequest(port, 'GET /readyz HTTP/1.1\r\nHost: api.test\r\nConnection: close\r\n\r\n').catch(() => ({ status: 0 }))
      readiness.push(response.status)
      if (response.status !== 200 && signalledAt !== 0) balancerStopped = true
      await sleep(20)
    }
  })()

  await sleep(1_000)
  const servedBefore = outcomes.length
  signalledAt = Date.now()
  server.child.kill('SIGTERM')
  // While draining: a keep-alive request is answered, and told to close its connection.
  const drained = await rawRequest(port, 'GET /v1/exams HTTP/1.1\r\nHost: api.test\r\n\r\n', { untilClosed: true })
  await Promise.all([...workers, healthCheck])
  const code = await server.exit

  const failed = outcomes.filter((outcome) => outcome.error !== undefined || outcome.status !== 200 || outcome.bytes !== outcome.expected)
  const resets = failed.filter((outcome) => outcome.error === 'ECONNRESET').length
  t.diagnostic(`${servedBefore} answers before SIGTERM, ${outcomes.length} in all; ${sentAfterSignal} requests sent after it; ${resets} resets; readiness ${JSON.stringify(readiness.slice(-3))}`)
  assert.ok(servedBefore > 0)
  assert.ok(sentAfterSignal > 0, 'requests were in flight, or sent, after SIGTERM')
  assert.deepEqual(failed.slice(0, 5), [], `${failed.length} of ${outcomes.length} requests failed (${resets} reset)`)
  // The balancer stops at the first check that is not 200 once it has signalled: a 503, answered while
  // the server still serves (a refused connection would mean the drain delay passed unseen).
  assert.equal(readiness.at(-1), 503, `/readyz: ${JSON.stringify(readiness.slice(-5))}`)
  assert.equal(drained.status, 200)
  assert.equal(drained.headers.connection, 'close')
  assert.ok(drained.closed)
  assert.equal(code, 0)
  const messages = server.logs.map((line) => line.msg)
  assert.ok(messages.includes('shutting down') && messages.includes('stopped'))
})
