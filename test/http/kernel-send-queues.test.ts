import { test } from 'node:test'
import assert from 'node:assert/strict'
import net from 'node:net'
import { once } from 'node:events'
import { setTimeout as sleep } from 'node:timers/promises'
import { KernelSendQueues } from '../../src/http/server/kernel-send-queues.ts'
import type { ServerSocket } from '../../src/http/server/server-socket.ts'

const kernel = new KernelSendQueues()

test('the kernel\'s unacknowledged bytes of a connection: what the peer has not taken, none once it has read all', {
  skip: kernel.available ? false : 'no /proc/net/tcp (not Linux)'
}, async (t) => {
  const server = net.createServer()
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  t.after(() => server.close())
  const accepted = once(server, 'connection') as Promise<[ServerSocket]>
  const client = net.connect((server.address() as net.AddressInfo).port, '127.0.0.1')
  client.pause()
  t.after(() => client.destroy())
  const [socket] = await accepted
  t.after(() => socket.destroy())
  t.after(() => kernel.close())

  // Far more than the kernel's buffers take: the client reads nothing yet.
  const sent = 16 * 1024 * 1024
  socket.write(Buffer.alloc(sent))
  await sleep(200)
  const held = (await kernel.unacknowledgedBytes([socket])).get(socket)
  assert.ok(held !== undefined && held > 0, `unacknowledged: ${held}`)
  assert.ok(held <= sent - (socket._handle?.writeQueueSize ?? 0), 'never more than the kernel was handed')
  // Still nothing taken: the same number.
  await sleep(200)
  assert.equal((await kernel.unacknowledgedBytes([socket])).get(socket), held)

  let received = 0
  const allReceived = new Promise<void>((resolve) => client.on('data', (chunk: Buffer) => {
    received += chunk.length
    if (received >= sent) resolve()
  }))
  client.resume()
  await allReceived
  let left = (await kernel.unacknowledgedBytes([socket])).get(socket)
  for (const deadline = Date.now() + 2_000; left !== 0 && Date.now() < deadline; await sleep(20)) left = (await kernel.unacknowledgedBytes([socket])).get(socket)
  assert.equal(left, 0)

  // A socket the kernel no longer lists is left out.
  socket.destroy()
  await once(socket, 'close')
  assert.equal((await kernel.unacknowledgedBytes([socket])).has(socket), false)
})

test('without the kernel\'s tables nothing is reported', async () => {
  const socket = new net.Socket() as ServerSocket
  assert.equal((await new KernelSendQueues(false).unacknowledgedBytes([socket])).size, 0)
})
