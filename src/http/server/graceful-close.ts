import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { FastifyInstance } from 'fastify'
import type { ServerSocket } from './server-socket.ts'

/**
 * How long a connection without an answer in progress is kept once closing begins: one just
 * accepted may be about to deliver its request, and a keep-alive client may have sent its next
 * one already. Such a request is still answered (with `Connection: close`); the connection is
 * dropped only if none has come by then.
 */
const CLOSE_GRACE_MS = 1_000

/**
 * Makes closing the app wait for answers in progress and for nothing else. Node's server.close()
 * spares a connection that has begun sending a request without finishing its headers, and stops
 * enforcing the headers timeout from then on, so one slow (or hostile) client would hold the exit
 * up until the shutdown grace period ends, and the process would exit as failed. When closing
 * begins, a connection answering is closed as soon as its answer has been sent; any other gets
 * CLOSE_GRACE_MS for a request already on its way (Node's own server.close() would destroy it at
 * once, resetting that request), then is dropped unless it is answering by then.
 *
 * Nothing runs per request: which connections are answering is read off Node's own record
 * (`socket._httpMessage`) when closing begins. A per-request listener showed in the
 * profile of a fast-path answer.
 */
export function installGracefulClose (app: FastifyInstance): void {
  const connections = new Set<ServerSocket>()
  let closing = false

  app.server.on('connection', (socket: ServerSocket) => {
    connections.add(socket)
    socket.once('close', () => connections.delete(socket))
    // Accepted after closing began (before the listener closed): its request is on its way too.
    if (closing) closeWithGrace(socket)
  })
  // Called by Node's server.close() and by Fastify's: the preClose hook below closes those connections, more gently.
  app.server.closeIdleConnections = () => {}

  // preClose runs right before Fastify closes the listener.
  app.addHook('preClose', async () => {
    closing = true
    for (const socket of connections) closeWithGrace(socket)
  })
}

/** Closes the connection after its answer in progress, or, without one, unless one has begun within CLOSE_GRACE_MS. */
function closeWithGrace (socket: ServerSocket): void {
  if (closeAfterAnswer(socket)) return
  const grace = setTimeout(() => { if (!closeAfterAnswer(socket)) socket.destroy() }, CLOSE_GRACE_MS)
  grace.unref()
  socket.once('close', () => clearTimeout(grace))
}

/** Closes the connection once the answer in progress on it has been sent; false when there is none. */
function closeAfterAnswer (socket: ServerSocket): boolean {
  const response = socket._httpMessage
  if (response === null || response === undefined) return false
  // Flushes the answer, then closes: no next request is taken on a closing server.
  response.once('close', () => socket.destroySoon())
  return true
}

/**
 * The first step of a shutdown, while the server still accepts connections: every answer from now
 * on, whichever path sends it (src/http/server/fast-path.ts or Fastify), says `Connection: close` and
 * ends its connection once sent, so keep-alive clients reconnect (to another replica, once the
 * balancer has seen /readyz fail) instead of holding a connection the server is about to close.
 * Added only then, ahead of the server's own request listener: nothing runs per request before.
 */
export function startDraining (server: Server): void {
  server.prependListener('request', markLastAnswer)
}

function markLastAnswer (_request: IncomingMessage, response: ServerResponse): void {
  // Node then writes `Connection: close` and closes the connection after this answer.
  response.shouldKeepAlive = false
}
