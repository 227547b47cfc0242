import { test, type TestContext } from 'node:test'
import assert from 'node:assert/strict'
import { EventEmitter } from 'node:events'
import type { Server } from 'node:http'
import { MIN_TAKEN_BYTES, resetStalledAnswers } from '../../src/http/server/stalled-answers.ts'
import { KernelSendQueues } from '../../src/http/server/kernel-send-queues.ts'
import type { ServerSocket } from '../../src/http/server/server-socket.ts'

/**
 * Moves mocked time on in small steps (one mocked tick runs every due callback at the tick's end
 * time), letting the kernel's answer to each look arrive before the next step, as its worker's would.
 */
function advancing (t: TestContext): (ms: number) => Promise<void> {
  return async (ms) => {
    for (let step = 0; step < ms; step += 50) {
      t.mock.timers.tick(50)
      await settled()
    }
  }
}

/** Once every answer already given has been acted on (promise callbacks run before an immediate). */
const settled = () => new Promise<void>((resolve) => setImmediate(resolve))

/**
 * An answer whose writes have stopped completing (Node holds the rest, the kernel's buffer is
 * full), and a kernel that reports its unacknowledged bytes shrinking by `takenPerSweep` at each
 * look: what a client reading at that pace leaves. Time is mocked; the sweep runs as the server's.
 */
function stalledAnswer (t: TestContext, stallTimeoutMs: number, takenPerSweep: number): { advance: (ms: number) => Promise<void>, resets: () => number } {
  t.mock.timers.enable({ apis: ['setInterval', 'Date'] })
  let unacknowledged = 4 * 1024 * 1024
  let resets = 0
  const socket = Object.assign(new EventEmitter(), {
    writableLength: 1024 * 1024,
    bytesWritten: 5 * 1024 * 1024,
    _handle: { writeQueueSize: 1024 * 1024 },
    destroyed: false,
    resetAndDestroy: () => { resets++ }
  }) as unknown as ServerSocket
  const kernel = new KernelSendQueues(true)
  kernel.unacknowledgedBytes = async (sockets) => {
    unacknowledged -= takenPerSweep
    return new Map(sockets.map((one) => [one, unacknowledged]))
  }
  const server = new EventEmitter() as Server
  resetStalledAnswers(server, stallTimeoutMs, kernel)
  server.emit('connection', socket)
  return { advance: advancing(t), resets: () => resets }
}

test('an answer the client keeps taking, at MIN_TAKEN_BYTES per sweep, is never reset', async (t) => {
  const { advance, resets } = stalledAnswer(t, 1_000, MIN_TAKEN_BYTES)
  await advance(20_000)
  assert.equal(resets(), 0)
})

for (const [takenPerSweep, reader] of [[8, 'takes a few bytes of now and then (a slow-read attack)'], [0, 'takes nothing of']] as const) {
  test(`an answer the client ${reader} is reset after the stall timeout`, async (t) => {
    const { advance, resets } = stalledAnswer(t, 1_000, takenPerSweep)
    await advance(900)
    assert.equal(resets(), 0, 'not before the timeout')
    await advance(1_000)
    assert.ok(resets() >= 1)
  })
}

/**
 * A connection whose answer has been handed whole to the kernel, when Node's idle or keep-alive
 * timeout fires, with `unacknowledged` bytes still in the kernel, shrinking by `takenPerSweep`.
 */
function timedOutConnection (t: TestContext, stallTimeoutMs: number, unacknowledged: number, takenPerSweep: number) {
  t.mock.timers.enable({ apis: ['setInterval', 'Date'] })
  const closes = { destroyed: 0, reset: 0 }
  const socket: ServerSocket = Object.assign(new EventEmitter(), {
    writableLength: 0,
    bytesWritten: 5 * 1024 * 1024,
    bytesRead: 300,
    destroyed: false,
    _handle: { writeQueueSize: 0 },
    destroy: () => { closes.destroyed++; socket.emit('close') },
    resetAndDestroy: () => { closes.reset++; socket.emit('close') }
  }) as unknown as ServerSocket
  const kernel = new KernelSendQueues(true)
  kernel.unacknowledgedBytes = async (sockets) => new Map(sockets.map((one) => [one, unacknowledged]))
  const server = new EventEmitter() as Server
  resetStalledAnswers(server, stallTimeoutMs, kernel)
  server.emit('connection', socket)
  server.emit('timeout', socket)
  kernel.unacknowledgedBytes = async (sockets) => {
    unacknowledged = Math.max(0, unacknowledged - takenPerSweep)
    return new Map(sockets.map((one) => [one, unacknowledged]))
  }
  return { advance: advancing(t), closes, socket }
}

test('a timed-out connection the kernel holds nothing for is closed at once (once the kernel has answered), as Node would', async (t) => {
  const { closes } = timedOutConnection(t, 1_000, 0, 0)
  await settled()
  assert.deepEqual(closes, { destroyed: 1, reset: 0 })
})

test('a timed-out connection whose client still takes what the kernel holds is closed once it has taken it all', async (t) => {
  const { advance, closes } = timedOutConnection(t, 1_000, 10 * MIN_TAKEN_BYTES, MIN_TAKEN_BYTES)
  await settled()
  assert.deepEqual(closes, { destroyed: 0, reset: 0 }, 'kept while the client takes its bytes')
  await advance(10_000)
  assert.deepEqual(closes, { destroyed: 1, reset: 0 })
})

test('a timed-out connection whose client takes nothing of what the kernel holds is reset after the stall timeout', async (t) => {
  const { advance, closes } = timedOutConnection(t, 1_000, 4 * 1024 * 1024, 0)
  await advance(900)
  assert.deepEqual(closes, { destroyed: 0, reset: 0 })
  await advance(1_000)
  assert.equal(closes.destroyed, 0)
  assert.ok(closes.reset >= 1)
})

test('a timed-out connection that receives a request before the kernel has answered stays open: it is in use again', async (t) => {
  const { closes, socket } = timedOutConnection(t, 1_000, 0, 0)
  ;(socket as { bytesRead: number }).bytesRead += 120
  await settled()
  assert.deepEqual(closes, { destroyed: 0, reset: 0 })
})
