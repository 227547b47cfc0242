import { test } from 'node:test'
import assert from 'node:assert/strict'
import net, { type AddressInfo } from 'node:net'
import { once } from 'node:events'
import { setTimeout as sleep } from 'node:timers/promises'
import { randomBytes } from 'node:crypto'
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import { SAMPLE_DATA_DIR, loadConfig } from '../../src/config.ts'
import { FULL_DATA_DIR, build, buildTestApp } from '../helper.ts'
import { SERVER_TIMEOUTS } from '../../src/http/http-server-options.ts'
import { parseResponse, rawRequest } from '../raw-http.ts'

async function listening (env: Record<string, string>): Promise<{ app: FastifyInstance, port: number }> {
  const app = await buildTestApp(env)
  await app.listen({ port: 0, host: '127.0.0.1' })
  return { app, port: (app.server.address() as AddressInfo).port }
}

/** Path of a file far larger than the kernel's socket buffers, in a copy of the sample dataset. */
/** An image a record names (the only files /files serves), its bytes replaced by the test's. */
const BIG_FILE = '2020/questions/12/0a1b2c3d-0000-4000-8000-000000000008.png'
const BIG_FILE_BYTES = 24 * 1024 * 1024

/** A copy of the sample dataset with BIG_FILE's bytes in it; removed when the test ends. */
async function datasetWithBigFile (t: { after: (fn: () => Promise<void>) => void }): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'enem-big-file-'))
  t.after(() => rm(dir, { recursive: true, force: true }))
  await cp(SAMPLE_DATA_DIR, dir, { recursive: true })
  await writeFile(path.join(dir, BIG_FILE), randomBytes(BIG_FILE_BYTES))
  return dir
}

function connectionCount (app: FastifyInstance): Promise<number> {
  return new Promise((resolve, reject) => app.server.getConnections((error, count) => error === null ? resolve(count) : reject(error)))
}

test('a slow reader is dropped once its answer stops advancing, though it reads now and then', async (t) => {
  const { app, port } = await listening({ RESPONSE_STALL_TIMEOUT: '1s', ENEM_DATA_DIR: await datasetWithBigFile(t) })
  t.after(() => app.close())

  const socket = net.connect(port, '127.0.0.1')
  await once(socket, 'connect')
  socket.on('error', () => {})
  socket.pause()
  socket.write(`GET /files/${BIG_FILE} HTTP/1.1\r\nHost: api.test\r\n\r\n`)

  // Reads a little every 2 s: each read lets the answer advance, so Node's idle timer (which
  // restarts whenever a write completes) never ends the connection. The stall timeout must. The
  // client only notices once it has read what the kernel still holds, so the server's count says it.
  let received = 0
  let lastRead = Date.now()
  const deadline = Date.now() + 20_000
  while (await connectionCount(app) > 0 && Date.now() < deadline) {
    await sleep(100)
    if (Date.now() - lastRead < 2_000) continue
    lastRead = Date.now()
    let chunk: Buffer | null
    while ((chunk = socket.read() as Buffer | null) !== null) received += chunk.length
  }
  const dropped = await connectionCount(app) === 0
  socket.destroy()
  assert.ok(dropped, `the server kept the connection for 20 s of slow reading (${received} bytes read)`)
  assert.ok(received < BIG_FILE_BYTES, 'dropped before the whole answer was read')
  // The server still serves everyone else.
  assert.equal((await rawRequest(port, 'GET /healthz HTTP/1.1\r\nHost: api.test\r\nConnection: close\r\n\r\n')).status, 200)
})

test('a client that reads at its own pace, however large the answer, is not dropped', async (t) => {
  const { app, port } = await listening({ RESPONSE_STALL_TIMEOUT: '1s', ENEM_DATA_DIR: await datasetWithBigFile(t) })
  t.after(() => app.close())
  const response = await fetch(`http://127.0.0.1:${port}/files/${BIG_FILE}`)
  assert.equal(response.status, 200)
  assert.equal((await response.arrayBuffer()).byteLength, BIG_FILE_BYTES)
})

test('connections past MAX_CONNECTIONS are closed as they arrive; a freed slot is taken again', async (t) => {
  // Every slot open to one address (the test's): the cap of the whole process is what is tested.
  const { app, port } = await listening({ MAX_CONNECTIONS: '3', MAX_CONNECTIONS_PER_CLIENT: '3' })
  t.after(() => app.close())
  const held: net.Socket[] = []
  for (let i = 0; i < 3; i++) {
    const socket = net.connect(port, '127.0.0.1')
    await once(socket, 'connect')
    socket.on('error', () => {})
    held.push(socket)
  }
  // Let the server accept them all before the fourth arrives.
  while (await connectionCount(app) < 3) await sleep(10)

  const refused = await rawRequest(port, 'GET /healthz HTTP/1.1\r\nHost: api.test\r\n\r\n')
  assert.equal(refused.status, 0, 'the fourth connection is closed without an answer')
  // The held ones are served.
  held[0]!.write('GET /healthz HTTP/1.1\r\nHost: api.test\r\n\r\n')
  const [answer] = await once(held[0]!, 'data') as [Buffer]
  assert.match(answer.toString('latin1'), /^HTTP\/1\.1 200/)

  held.pop()!.destroy()
  while (await connectionCount(app) > 2) await sleep(10)
  assert.equal((await rawRequest(port, 'GET /healthz HTTP/1.1\r\nHost: api.test\r\nConnection: close\r\n\r\n')).status, 200)
  for (const socket of held) socket.destroy()
})

/**
 * A keep-alive connection from `localAddress` that asks for /healthz and stays open: its status,
 * or 0 when the server closed it without an answer.
 */
async function heldConnection (port: number, localAddress: string): Promise<{ socket: net.Socket, status: number }> {
  const socket = net.connect({ port, host: '127.0.0.1', localAddress })
  socket.on('error', () => {})
  const chunks: Buffer[] = []
  const answered = new Promise<number>((resolve) => {
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk)
      const response = parseResponse(Buffer.concat(chunks), false, false)
      if (response !== undefined) resolve(response.status)
    })
    socket.once('close', () => resolve(0))
  })
  socket.once('connect', () => socket.write('GET /healthz HTTP/1.1\r\nHost: api.test\r\n\r\n'))
  return { socket, status: await answered }
}

const HEALTHZ_CLOSE = 'GET /healthz HTTP/1.1\r\nHost: api.test\r\nConnection: close\r\n\r\n'

test('one address holding its connection cap leaves room for another address', async (t) => {
  const env = { MAX_CONNECTIONS: '4', MAX_CONNECTIONS_PER_CLIENT: '2' }
  const { maxPerClient } = loadConfig(env).connections
  const port = await (await build(t, env)).listen()
  // 127.0.0.2 opens every slot there is, one after the other, keeping each open.
  const holder: Array<{ socket: net.Socket, status: number }> = []
  for (let i = 0; i < 4; i++) holder.push(await heldConnection(port, '127.0.0.2'))
  t.after(() => { for (const { socket } of holder) socket.destroy() })
  assert.deepEqual(holder.map(({ status }) => status), [...Array(4).keys()].map((i) => i < maxPerClient ? 200 : 0),
    'the holder gets its share, and its connections past it are closed unanswered')

  // Another address is answered, while the holder keeps its connections.
  assert.equal((await rawRequest(port, HEALTHZ_CLOSE, { localAddress: '127.0.0.1' })).status, 200)
  assert.equal((await rawRequest(port, HEALTHZ_CLOSE, { localAddress: '127.0.0.3' })).status, 200)

  // A slot the holder frees is its own again.
  holder.shift()!.socket.destroy()
  let again = 0
  for (const deadline = Date.now() + 5_000; again !== 200 && Date.now() < deadline; await sleep(20)) {
    again = (await rawRequest(port, HEALTHZ_CLOSE, { localAddress: '127.0.0.2' })).status
  }
  assert.equal(again, 200)
})

test('a proxy TRUST_PROXY names is not capped per address: it carries many clients', async (t) => {
  const env = { MAX_CONNECTIONS: '6', MAX_CONNECTIONS_PER_CLIENT: '2', TRUST_PROXY: '127.0.0.4' }
  const { maxPerClient } = loadConfig(env).connections
  const port = await (await build(t, env)).listen()
  const proxy: Array<{ socket: net.Socket, status: number }> = []
  for (let i = 0; i < maxPerClient + 2; i++) proxy.push(await heldConnection(port, '127.0.0.4'))
  t.after(() => { for (const { socket } of proxy) socket.destroy() })
  assert.deepEqual(proxy.map(({ status }) => status), proxy.map(() => 200))
  // Any other peer still is.
  const other: Array<{ socket: net.Socket, status: number }> = []
  for (let i = 0; i < maxPerClient + 1; i++) other.push(await heldConnection(port, '127.0.0.5'))
  t.after(() => { for (const { socket } of other) socket.destroy() })
  assert.equal(other.filter(({ status }) => status === 200).length, maxPerClient)
})

const EXPORT_REQUEST = 'GET /v1/export/questions.jsonl HTTP/1.1\r\nHost: api.test\r\nAccept-Encoding: identity\r\nConnection: close\r\n\r\n'

/**
 * Reads the export off a raw socket at `bytesPerSecond`, a slice every 100 ms: the socket stays
 * paused otherwise, so its receive buffer stays as small as a slow reader's is. Resolves with every
 * byte received once the server has closed, or rejects at `deadline`.
 */
async function readSteadily (port: number, bytesPerSecond: number, deadline: number): Promise<{ bytes: Buffer, error: string | undefined }> {
  const socket = net.connect(port, '127.0.0.1')
  await once(socket, 'connect')
  socket.pause()
  let error: string | undefined
  socket.on('error', (failure: NodeJS.ErrnoException) => { error = failure.code })
  socket.write(EXPORT_REQUEST)
  const chunks: Buffer[] = []
  const slice = Math.round(bytesPerSecond / 10)
  try {
    while (!socket.closed || socket.readableLength > 0) {
      if (Date.now() > deadline) throw new Error(`still reading at the deadline, ${chunks.reduce((sum, chunk) => sum + chunk.length, 0)} bytes in`)
      await sleep(100)
      let budget = slice
      let chunk: Buffer | null
      while (budget > 0 && (chunk = socket.read(Math.min(budget, Math.max(1, socket.readableLength))) as Buffer | null) !== null) {
        chunks.push(chunk)
        budget -= chunk.length
      }
    }
  } finally {
    socket.destroy()
  }
  return { bytes: Buffer.concat(chunks), error }
}

test('a reader at a steady 64 KB/s receives every byte of the uncompressed export', {
  skip: FULL_DATA_DIR === undefined ? 'needs an export larger than the kernel\'s socket buffers: set ENEM_DATA_DIR to the full dataset' : false
}, async (t) => {
  // The default stall timeout, as served. On loopback the client's kernel reopens its window a segment
  // (64 KiB) at a time, so the server sees the reader's progress in bursts one to two seconds apart at this pace.
  // A short idle timeout: a write to the kernel's full buffer completes only every twenty seconds or so at this
  // pace, and Node's idle timer, which only such writes restart, must not take the reader for an idle one either
  // (at the served 30 s that happens to a reader at 16 KB/s, which would make this test five minutes long).
  const timeouts = { ...SERVER_TIMEOUTS, idleMs: 5_000 }
  const port = await (await build(t, { ENEM_DATA_DIR: FULL_DATA_DIR! }, { timeouts })).listen()
  const atFullSpeed = await rawRequest(port, EXPORT_REQUEST, { timeoutMs: 30_000 })
  assert.equal(atFullSpeed.status, 200)
  const rate = 64 * 1024
  const expectedMs = atFullSpeed.body.length / rate * 1000
  const { bytes, error } = await readSteadily(port, rate, Date.now() + 2 * expectedMs + 20_000)
  assert.equal(error, undefined)
  const response = parseResponse(bytes, false, true)
  assert.equal(response?.status, 200)
  assert.equal(response.body.length, atFullSpeed.body.length)
  assert.ok(response.body.equals(atFullSpeed.body))
})

test('a client that stops reading is reset once the stall timeout has passed, its unsent bytes dropped', async (t) => {
  const stallTimeoutMs = loadConfig({ RESPONSE_STALL_TIMEOUT: '1s' }).connections.stallTimeoutMs
  const { app, port } = await listening({ RESPONSE_STALL_TIMEOUT: '1s', ENEM_DATA_DIR: await datasetWithBigFile(t) })
  t.after(() => app.close())
  const socket = net.connect(port, '127.0.0.1')
  await once(socket, 'connect')
  socket.pause()
  let error: string | undefined
  socket.on('error', (failure: NodeJS.ErrnoException) => { error = failure.code })
  socket.write(`GET /files/${BIG_FILE} HTTP/1.1\r\nHost: api.test\r\n\r\n`)
  const sentAt = Date.now()
  for (const deadline = sentAt + 20_000; await connectionCount(app) > 0 && Date.now() < deadline;) await sleep(50)
  assert.equal(await connectionCount(app), 0, 'the server let the connection go')
  assert.ok(Date.now() - sentAt >= stallTimeoutMs, 'not before the stall timeout')
  // What the client's kernel had received is still there to read; what the server's kernel still
  // held is not: a reset, not an orderly close after megabytes more.
  let received = 0
  socket.on('data', (chunk: Buffer) => { received += chunk.length })
  const closed = new Promise((resolve) => socket.once('close', resolve))
  socket.resume()
  await closed
  assert.equal(error, 'ECONNRESET')
  assert.ok(received < BIG_FILE_BYTES, `${received} bytes of ${BIG_FILE_BYTES} arrived`)
})

test('a client that stops reading near the end of an answer, the rest all in the kernel, is reset rather than left to the kernel', async (t) => {
  // A short keep-alive timeout: once the answer has been handed whole to the kernel, Node would close
  // the connection when it fires, leaving the kernel to deliver megabytes to a client that takes nothing.
  const timeouts = { ...SERVER_TIMEOUTS, keepAliveMs: 300 }
  const { app } = await build(t, { RESPONSE_STALL_TIMEOUT: '1s', ENEM_DATA_DIR: await datasetWithBigFile(t) }, { timeouts })
  await app.listen({ port: 0, host: '127.0.0.1' })
  const socket = net.connect((app.server.address() as AddressInfo).port, '127.0.0.1')
  await once(socket, 'connect')
  let error: string | undefined
  socket.on('error', (failure: NodeJS.ErrnoException) => { error = failure.code })
  socket.write(`GET /files/${BIG_FILE} HTTP/1.1\r\nHost: api.test\r\n\r\n`)
  // At full speed, then not at all, with about as much left as the kernel's buffers take.
  let received = 0
  await new Promise<void>((resolve) => {
    const take = (chunk: Buffer) => {
      received += chunk.length
      if (received < BIG_FILE_BYTES - 3 * 1024 * 1024) return
      socket.pause()
      socket.off('data', take)
      resolve()
    }
    socket.on('data', take)
  })
  for (const deadline = Date.now() + 20_000; await connectionCount(app) > 0 && Date.now() < deadline;) await sleep(50)
  assert.equal(await connectionCount(app), 0, 'the server let the connection go')
  const closed = new Promise((resolve) => socket.once('close', resolve))
  socket.on('data', (chunk: Buffer) => { received += chunk.length })
  socket.resume()
  await closed
  assert.equal(error, 'ECONNRESET')
  assert.ok(received < BIG_FILE_BYTES, `${received} bytes of ${BIG_FILE_BYTES} arrived`)
})
