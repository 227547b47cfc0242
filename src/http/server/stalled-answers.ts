import type { Server } from 'node:http'
import type { ServerSocket } from './server-socket.ts'
import { KernelSendQueues } from './kernel-send-queues.ts'

/** Where an answer stood at the last sweep, and since when it has not moved. */
interface AnswerProgress {
  /** Bytes whose writes completed (handed to the kernel). */
  flushed: number
  /** Bytes libuv still holds, not yet taken by the kernel. */
  queued: number
  /** What the kernel held unacknowledged when the answer last advanced, once writes have stopped completing. */
  unacknowledged: number | undefined
  since: number
}

/**
 * Least a client must take of an answer waiting on the kernel, within the stall timeout, to count
 * as reading it (at the default 10 s, 1.6 KB/s; a steady reader of 16 KB/s takes a hundred times
 * that). Less is what a slow-read attack takes: a few bytes every few seconds through a receive
 * window of a few bytes, which would otherwise hold the connection for good.
 */
export const MIN_TAKEN_BYTES = 16 * 1024

/**
 * Kernel memory a connection may hold for a client that takes nothing for the whole stall timeout:
 * past it, the stall allowed is LARGE_QUEUE_STALL_MS. Linux lets one connection's send buffer grow
 * to megabytes, so stalled readers of big answers (the export) on a few addresses held over a
 * gigabyte of kernel memory for the ten seconds of the default timeout. Node cannot set a TCP
 * socket's send buffer (SO_SNDBUF), so the bound is on time.
 */
export const LARGE_QUEUE_BYTES = 1024 * 1024
/** The stall allowed a connection the kernel holds LARGE_QUEUE_BYTES or more for (at most the stall timeout). */
export const LARGE_QUEUE_STALL_MS = 3_000

/**
 * Resets a connection whose answer has not advanced for `stallTimeoutMs`: a client that stopped
 * reading. Node's idle timer cannot tell: it starts over whenever a write completes, so a client
 * that reads a few bytes now and then (slow-read attacks) would hold its connection, and a slot,
 * for good.
 *
 * Progress is the client taking bytes. While writes complete (or libuv's queue shrinks) that shows
 * in Node's own numbers. Once the kernel's send buffer is full, though, a write completes only
 * when a large part of it has drained, and at a slow steady pace that can take longer than the
 * timeout (a reader of the 4 MB export at 64 KB/s was cut off with its last 160 KB unsent). So a
 * connection whose writes have stopped completing is measured in the kernel: its unacknowledged
 * bytes (KernelSendQueues) shrink only as the client acknowledges what it read. A client reading
 * at a steady pace therefore advances, and only one that takes less than MIN_TAKEN_BYTES in the
 * whole timeout is cut. Without the kernel's tables (not Linux), only Node's numbers are watched.
 *
 * A connection for which the kernel holds LARGE_QUEUE_BYTES or more is allowed a shorter stall
 * (LARGE_QUEUE_STALL_MS): that memory is the kernel's, outside any bound of the process.
 *
 * The cut is a reset (RST), not a close: a close would leave the megabytes still queued for that
 * client in the kernel, which keeps trying to deliver them to a reader that takes nothing. One
 * sweep every fraction of the timeout checks every connection: nothing runs per request, and the
 * kernel's tables are read only while some answer waits on the kernel, in KernelSendQueues' worker
 * thread; what they say is acted on when they come.
 */
export function resetStalledAnswers (server: Server, stallTimeoutMs: number, kernel: KernelSendQueues = new KernelSendQueues()): void {
  const sockets = new Set<ServerSocket>()
  const progress = new WeakMap<ServerSocket, AnswerProgress>()
  /**
   * Connections whose idle or keep-alive timeout Node fired while it had nothing left to write, with
   * the bytes they had read then: the kernel may still hold bytes for their client.
   */
  const timedOut = new WeakMap<ServerSocket, number>()
  server.on('connection', (socket: ServerSocket) => {
    sockets.add(socket)
    socket.once('close', () => sockets.delete(socket))
  })
  // Node closes a connection whose timeout fires (unless a listener here says otherwise), handing
  // whatever the kernel still holds for it to the kernel, which keeps trying to deliver it to a
  // client that may take nothing. Such a connection stays open, watched like an answer waiting on
  // the kernel: closed once its client has taken everything (at once when the kernel holds
  // nothing for it: the next look is asked for now), reset if it stalls.
  server.on('timeout', (socket: ServerSocket) => {
    if (socket.writableLength !== 0 || !kernel.available) {
      socket.destroy()
      return
    }
    timedOut.set(socket, socket.bytesRead)
    progress.set(socket, { flushed: socket.bytesWritten, queued: 0, unacknowledged: undefined, since: Date.now() })
    look()
  })

  /** Answers whose writes have not moved since the last sweep, and timed-out connections the kernel still holds bytes for. */
  const waitingOnTheKernel = (now: number): ServerSocket[] => {
    const waiting: ServerSocket[] = []
    for (const socket of sockets) {
      const pending = socket.writableLength
      const queued = socket._handle?.writeQueueSize ?? 0
      if (pending === 0 && queued === 0) {
        if (timedOut.has(socket)) waiting.push(socket)
        else progress.delete(socket)
        continue
      }
      // A new answer on it: Node's timers watch it again.
      timedOut.delete(socket)
      const flushed = socket.bytesWritten - pending
      const last = progress.get(socket)
      if (last === undefined || flushed !== last.flushed || queued < last.queued) {
        progress.set(socket, { flushed, queued, unacknowledged: undefined, since: now })
      } else {
        last.queued = queued
        waiting.push(socket)
      }
    }
    return waiting
  }

  /** What the kernel holds of each waiting answer, asked of its worker: one question at a time, another after it if asked meanwhile. */
  let looking = false
  let lookAgain = false
  const look = (): void => {
    if (looking) {
      lookAgain = true
      return
    }
    const waiting = waitingOnTheKernel(Date.now())
    if (waiting.length === 0) return
    looking = true
    kernel.unacknowledgedBytes(waiting).then((unacknowledged) => { judge(waiting, unacknowledged, Date.now()) }, () => {}).finally(() => {
      looking = false
      if (lookAgain) {
        lookAgain = false
        look()
      }
    })
  }

  /** Closes or resets what the kernel's numbers say has ended or stalled. */
  const judge = (waiting: readonly ServerSocket[], unacknowledged: ReadonlyMap<ServerSocket, number>, now: number): void => {
    for (const socket of waiting) {
      const last = progress.get(socket)
      if (last === undefined || socket.destroyed) continue
      const bytes = unacknowledged.get(socket)
      const readAtTimeout = timedOut.get(socket)
      if (readAtTimeout !== undefined && socket.bytesRead !== readAtTimeout) {
        // A request came since Node's timeout fired (the kernel was asked meanwhile): the connection is in use again.
        timedOut.delete(socket)
        progress.delete(socket)
        continue
      }
      if (readAtTimeout !== undefined && (bytes === undefined || bytes === 0)) {
        // Its client has taken everything: the close Node's timeout meant.
        socket.destroy()
        continue
      }
      if (bytes !== undefined) {
        // The first look after writes stopped completing only sets the mark the client must take bytes from.
        const taken = last.unacknowledged === undefined ? 0 : last.unacknowledged - bytes
        if (last.unacknowledged === undefined || taken >= MIN_TAKEN_BYTES) last.unacknowledged = bytes
        if (taken >= MIN_TAKEN_BYTES) {
          last.since = now
          keepIdleTimerOff(socket)
        }
      }
      const allowed = bytes !== undefined && bytes >= LARGE_QUEUE_BYTES ? Math.min(stallTimeoutMs, LARGE_QUEUE_STALL_MS) : stallTimeoutMs
      if (now - last.since >= allowed) socket.resetAndDestroy()
    }
  }

  const sweep = setInterval(look, Math.min(1_000, Math.max(50, Math.floor(Math.min(stallTimeoutMs, LARGE_QUEUE_STALL_MS) / 4))))
  sweep.unref()
  server.once('close', () => {
    clearInterval(sweep)
    kernel.close()
  })
}

/**
 * Starts the connection's idle timer over. Node restarts it only when a write completes or libuv's
 * queue shrinks, so a client taking an answer at 16 KB/s, while the kernel's full buffer drains
 * too slowly to take more, looks idle to it: after the idle timeout (30 s) the connection was
 * closed with the rest of the answer unsent. Progress seen in the kernel counts as activity too.
 */
function keepIdleTimerOff (socket: ServerSocket): void {
  const timeout = socket.timeout
  if (timeout !== undefined && timeout > 0) socket.setTimeout(timeout)
}
