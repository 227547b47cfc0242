import type { Server } from 'node:http'
import type { Socket } from 'node:net'

/** Node's own server state that its typings leave out. */
interface HalfOpenServer extends Server {
  httpAllowHalfOpen?: boolean
}

/**
 * Answers a client that half-closes its side once its request is sent (as `nc -N`, `curl
 * --no-keepalive` with some proxies, or a shell pipe do). Node's default drops such a request when
 * the client's FIN arrives and ends the connection, so an answer that waits on anything (Redis, a
 * file read, a stream) was never sent. With this, Node sends the answers of every request it has
 * read and then closes.
 */
export function keepHalfClosedConnections (server: HalfOpenServer): void {
  server.httpAllowHalfOpen = true
}

/** How long a closing connection (lingerBeforeClosing) or a refused client (answerAndClose) gets to read the answer before it is dropped. */
const LINGER_MS = 1_000

/** Connections closing after their last answer, still reading (and dropping) what the client sends. */
const lingering = new WeakSet<Socket>()

/** Whether the connection is closing after its last answer, reading and dropping what still comes (lingerBeforeClosing). */
export function isLingering (socket: Socket): boolean {
  return lingering.has(socket)
}

/**
 * How a connection closes after its last answer (`Connection: close`, either side's): Node's own
 * socket.destroySoon closes the descriptor as soon as the answer is handed to the kernel. Bytes the
 * client sent that were not read yet (a trailing newline, a body sent after `100 Continue`, the
 * next pipelined request) then make the kernel reset the connection, and a reset discards what it
 * still had to send: the client got `100 Continue`, then a reset instead of its answer. Instead the
 * server sends its FIN, reads and drops whatever still comes, and closes once the client closes
 * its side, or after LINGER_MS (as Apache's and nginx's lingering close do).
 */
export function lingerBeforeClosing (socket: Socket): void {
  socket.destroySoon = () => {
    if (socket.destroyed || lingering.has(socket)) return
    lingering.add(socket)
    socket.end()
    const linger = setTimeout(() => socket.destroy(), LINGER_MS)
    linger.unref()
    socket.once('close', () => clearTimeout(linger))
    socket.resume()
  }
}

/**
 * Writes a last answer and closes. Closing at once, with the client's unread request bytes still
 * queued, would reset the connection and could discard the answer on its side: it gets a moment.
 */
export function answerAndClose (socket: Socket, response: string): void {
  socket.end(response)
  const linger = setTimeout(() => socket.destroy(), LINGER_MS)
  linger.unref()
  socket.once('close', () => clearTimeout(linger))
  socket.resume()
}
