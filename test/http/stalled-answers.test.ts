import { test, type TestContext } from 'node:test'
import assert from 'node:assert/strict'
import { EventEmitter } from 'node:events'
import type { Server } from 'node:http'
import { MIN_TAKEN_BYTES, resetStalledAnswers } from '../../src/http/server/stalled-answers.ts'
import { KernelSendQueues } from '../../src/http/server/kernel-send-queues.ts'
import type { ServerSocket } from '../../src/http/server/server-socket.ts'

/**
 * An answer whose writes have stopped completing (Node holds the rest, the kernel's buffer is
 * full), and a kernel that reports its unacknowledged bytes shrinking by `takenPerSweep` at each
 * look: what a client reading at that pace leaves. Time is mocked; the sweep runs as the server's.
 */
function stalledAnswer (t: TestContext, stallTimeoutMs: number, takenPerSweep: number): { advance: (ms: number) => void, resets: () => number } {
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
  kernel.unacknowledgedBytes = (sockets) => {
    unacknowledged -= takenPerSweep
    return new Map(sockets.map((one) => [one, unacknowledged]))
  }
  const server = new EventEmitter() as Server
  resetStalledAnswers(server, stallTimeoutMs, kernel)
  server.emit('connection', socket)
  // In small steps: one mocked tick runs every due callback at the tick's end time.
  const advance = (ms: number) => { for (let step = 0; step < ms; step += 50) t.mock.timers.tick(50) }
  return { advance, resets: () => resets }
}

test('an answer the client keeps taking, at MIN_TAKEN_BYTES per sweep, is never reset', (t) => {
  const { advance, resets } = stalledAnswer(t, 1_000, MIN_TAKEN_BYTES)
  advance(20_000)
  assert.equal(resets(), 0)
})

for (const [takenPerSweep, reader] of [[8, 'takes a few bytes of now and then (a slow-read attack)'], [0, 'takes nothing of']] as const) {
  test(`an answer the client ${reader} is reset after the stall timeout`, (t) => {
    const { advance, resets } = stalledAnswer(t, 1_000, takenPerSweep)
    advance(900)
    assert.equal(resets(), 0, 'not before the timeout')
    advance(1_000)
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
    _handle: { writeQueueSize: 0 },
    destroy: () => { closes.destroyed++; socket.emit('close') },
    resetAndDestroy: () => { closes.reset++; socket.emit('close') }
  }) as unknown as ServerSocket
  const kernel = new KernelSendQueues(true)
  kernel.unacknowledgedBytes = (sockets) => new Map(sockets.map((one) => [one, unacknowledged]))
  const server = new EventEmitter() as Server
  resetStalledAnswers(server, stallTimeoutMs, kernel)
  server.emit('connection', socket)
  server.emit('timeout', socket)
  kernel.unacknowledgedBytes = (sockets) => {
    unacknowledged = Math.max(0, unacknowledged - takenPerSweep)
    return new Map(sockets.map((one) => [one, unacknowledged]))
  }
  const advance = (ms: number) => { for (let step = 0; step < ms; step += 50) t.mock.timers.tick(50) }
  return { advance, closes }
}

test('a timed-out connection the kernel holds nothing for is closed at once, as Node would', (t) => {
  const { closes } = timedOutConnection(t, 1_000, 0, 0)
  assert.deepEqual(closes, { destroyed: 1, reset: 0 })
})

test('a timed-out connection whose client still takes what the kernel holds is closed once it has taken it all', (t) => {
  const { advance, closes } = timedOutConnection(t, 1_000, 10 * MIN_TAKEN_BYTES, MIN_TAKEN_BYTES)
  assert.deepEqual(closes, { destroyed: 0, reset: 0 }, 'kept while the client takes its bytes')
  advance(10_000)
  assert.deepEqual(closes, { destroyed: 1, reset: 0 })
})

test('a timed-out connection whose client takes nothing of what the kernel holds is reset after the stall timeout', (t) => {
  const { advance, closes } = timedOutConnection(t, 1_000, 4 * 1024 * 1024, 0)
  advance(900)
  assert.deepEqual(closes, { destroyed: 0, reset: 0 })
  advance(1_000)
  assert.equal(closes.destroyed, 0)
  assert.ok(closes.reset >= 1)
})
