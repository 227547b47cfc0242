import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import type { FastifyInstance } from 'fastify'

/**
 * Makes closing the app wait for answers in progress and for nothing else. Node's server.close()
 * spares a connection that has begun sending a request without finishing its headers, and stops
 * enforcing the headers timeout from then on, so one slow (or hostile) client would hold the exit
 * up until the shutdown grace period ends, and the process would exit as failed. When closing
 * begins, every connection without an answer in progress is dropped, and the others are closed as
 * soon as their answer has been sent (instead of waiting as idle keep-alive connections).
 */
export function installGracefulClose (app: FastifyInstance): void {
  const connections = new Set<Socket>()
  const answering = new Set<Socket>()
  let closing = false

  app.server.on('connection', (socket: Socket) => {
    if (closing) {
      socket.destroy()
      return
    }
    connections.add(socket)
    socket.once('close', () => {
      connections.delete(socket)
      answering.delete(socket)
    })
  })
  app.server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const { socket } = request
    answering.add(socket)
    response.once('close', () => {
      answering.delete(socket)
      // Flushes the answer, then closes: no next request is taken on a closing server.
      if (closing) socket.destroySoon()
    })
  })

  // preClose runs right before Fastify closes the listener.
  app.addHook('preClose', async () => {
    closing = true
    for (const socket of connections) {
      if (!answering.has(socket)) socket.destroy()
    }
  })
}
