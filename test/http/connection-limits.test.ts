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
import { SAMPLE_DATA_DIR } from '../../src/config.ts'
import { buildTestApp } from '../helper.ts'
import { rawRequest } from '../raw-http.ts'

async function listening (env: Record<string, string>): Promise<{ app: FastifyInstance, port: number }> {
  const app = await buildTestApp(env)
  await app.listen({ port: 0, host: '127.0.0.1' })
  return { app, port: (app.server.address() as AddressInfo).port }
}

/** Path of a file far larger than the kernel's socket buffers, in a copy of the sample dataset. */
const BIG_FILE = '2020/questions/12/big-file.bin'
const BIG_FILE_BYTES = 24 * 1024 * 1024

/** A copy of the sample dataset with BIG_FILE in it; removed when the test ends. */
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
  const { app, port } = await listening({ MAX_CONNECTIONS: '3' })
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
