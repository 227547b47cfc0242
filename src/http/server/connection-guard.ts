import type { Server } from 'node:http'
import type { ServerSocket } from './server-socket.ts'
import type { Config } from '../../config.ts'

/** Where an answer stood at the last sweep, and since when it has not moved. */
interface WriteProgress {
  flushed: number
  queued: number
  since: number
}

/**
 * Caps the connections held at once (past `max`, new ones are closed as they arrive, before a
 * descriptor limit is reached and every file read fails with them) and drops a connection whose
 * answer has not advanced for `stallTimeoutMs`. Node's idle timer cannot do the latter: it starts
 * over whenever a write completes, so a client that reads a few bytes now and then (slow-read
 * attacks) holds its connection, and a slot, for good. Progress is what the kernel has taken from
 * us: bytes whose writes completed, or a shrinking libuv queue. A client that reads nothing leaves
 * both still. One sweep every fraction of the timeout checks every connection: nothing runs per
 * request, and a sweep only looks at numbers Node keeps anyway.
 */
export function guardConnections (server: Server, { max, stallTimeoutMs }: Config['connections']): void {
  server.maxConnections = max
  const sockets = new Set<ServerSocket>()
  const progress = new WeakMap<ServerSocket, WriteProgress>()
  server.on('connection', (socket: ServerSocket) => {
    sockets.add(socket)
    socket.once('close', () => sockets.delete(socket))
  })
  const sweep = setInterval(() => {
    const now = Date.now()
    for (const socket of sockets) {
      const pending = socket.writableLength
      const queued = socket._handle?.writeQueueSize ?? 0
      if (pending === 0 && queued === 0) {
        progress.delete(socket)
        continue
      }
      const flushed = socket.bytesWritten - pending
      const last = progress.get(socket)
      if (last === undefined || flushed !== last.flushed || queued < last.queued) {
        progress.set(socket, { flushed, queued, since: now })
      } else if (now - last.since >= stallTimeoutMs) {
        socket.destroy()
      } else {
        last.queued = queued
      }
    }
  }, Math.min(1_000, Math.max(50, Math.floor(stallTimeoutMs / 4))))
  sweep.unref()
  server.once('close', () => clearInterval(sweep))
}
