import { test } from 'node:test'
import assert from 'node:assert/strict'
import net from 'node:net'
import { ENDPOINTS, type Endpoint } from '../../src/http/endpoints.ts'
import { PreparedBody } from '../../src/http/answers/prepared-body.ts'
import { KernelSendQueues } from '../../src/http/server/kernel-send-queues.ts'
import { LARGE_QUEUE_STALL_MS } from '../../src/http/server/stalled-answers.ts'
import { build } from '../helper.ts'

/*
 * Issue 32, item 6: stalled readers of big answers on several addresses held over a gigabyte of
 * kernel TCP memory for the whole stall timeout (~11 s). A connection the kernel holds a megabyte
 * or more for is now reset after a shorter stall. Through the real listener, on a real socket:
 * clients that ask for a 48 MB answer and never read it.
 */

const STALL_TIMEOUT_MS = 30_000
const big = new PreparedBody(Buffer.alloc(48 * 1024 * 1024, 'x'), { compress: false })
const listExams = ENDPOINTS.find((endpoint) => endpoint.operationId === 'listExams')!
const endpoints: Endpoint[] = [...ENDPOINTS, { ...listExams, path: '/test-large-answer', operationId: 'testLargeAnswer', answer: () => big }]

/** Asks for the large answer and never reads (the socket is paused: nothing is taken from the kernel). */
function stalledReader (port: number, localAddress: string): net.Socket {
  const socket = net.connect({ port, host: '127.0.0.1', localAddress }, () => {
    socket.write('GET /v1/test-large-answer HTTP/1.1\r\nHost: api.test\r\n\r\n')
    socket.pause()
  })
  socket.on('error', () => {})
  return socket
}

test(`stalled readers of a large answer are reset after ${LARGE_QUEUE_STALL_MS} ms of stall, not the ${STALL_TIMEOUT_MS} ms allowed a small one`, { skip: new KernelSendQueues().available ? false : 'needs the kernel\'s TCP tables (Linux)', timeout: 60_000 }, async (t) => {
  const server = await build(t, { RESPONSE_STALL_TIMEOUT: String(STALL_TIMEOUT_MS) }, { endpoints })
  const port = await server.listen()
  // Seen from the server: a paused client would notice the reset only when it next reads.
  const startedAt = Date.now()
  const closed: Array<Promise<number>> = []
  server.app.server.on('connection', (socket: net.Socket) => {
    closed.push(new Promise((resolve) => socket.once('close', () => resolve(Date.now() - startedAt))))
  })
  const clients = ['127.0.0.2', '127.0.0.3', '127.0.0.4'].map((address) => stalledReader(port, address))
  t.after(() => { for (const client of clients) client.destroy() })
  while (closed.length < clients.length) await new Promise((resolve) => setTimeout(resolve, 20))
  const cutAfter = await Promise.race([Promise.all(closed), new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), LARGE_QUEUE_STALL_MS + 10_000).unref())])
  assert.notEqual(cutAfter, 'late', `not cut within ${LARGE_QUEUE_STALL_MS + 10_000} ms`)
  for (const ms of cutAfter as number[]) {
    assert.ok(ms >= LARGE_QUEUE_STALL_MS, `cut after ${ms} ms: not before the shorter stall`)
    assert.ok(ms < LARGE_QUEUE_STALL_MS + 5_000, `cut after ${ms} ms, long before the ${STALL_TIMEOUT_MS} ms stall timeout`)
  }
})
