import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { ApiError, methodNotAllowed } from '../errors.ts'
import { answerAndClose, keepHalfClosedConnections, lingerBeforeClosing } from './closing-connections.ts'
import { rawErrorResponse } from './parser-error-answers.ts'

/** Longest request target (path and query) answered; every real address of the API is far shorter. */
export const MAX_URL_LENGTH = 8 * 1024

export interface RequestLimitsOptions {
  /** The methods the API answers; a request with a body and another method on a known path is 405. */
  allowedMethods: readonly string[]
  /** Base of the docUrl in the error bodies written straight to the socket. */
  publicUrl: string
}

/**
 * Refuses, before routing matters: an HTTP/1.1 request without Host (400), an overlong request
 * target (414), and any request that carries a body (413; 405 for a refused method on a known
 * path, as without a body). Fastify would ignore a GET's body and Node would then read and discard
 * all of it, however large; answering with `Connection: close` drops the connection instead of
 * draining it. Also answers what Node would otherwise answer (or not) by itself: CONNECT, which
 * it would drop without a word, and an `Expect` other than 100-continue, which it would refuse
 * with a bare 417.
 */
export function installRequestLimits (app: FastifyInstance, { allowedMethods, publicUrl }: RequestLimitsOptions): void {
  keepHalfClosedConnections(app.server)
  app.server.on('connection', lingerBeforeClosing)
  // RFC 9110 lets a server ignore an expectation it does not know; the request is served as if it had none.
  app.server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => app.server.emit('request', request, response))
  app.server.on('connect', (request: IncomingMessage, socket: Socket) => {
    app.log.info({ method: request.method, url: request.url?.slice(0, 1024), statusCode: 405, ip: socket.remoteAddress }, 'request')
    const refusal = methodNotAllowed('CONNECT', allowedMethods)
    answerAndClose(socket, rawErrorResponse(publicUrl, 405, refusal.message, refusal.headers))
  })

  // Callback-style: this runs on every request, and an async hook costs a promise and a microtask.
  app.addHook('onRequest', (request, reply, done) => {
    done(requestLimitError(request, reply, allowedMethods))
  })
}

/** Why a request is refused before routing matters (framing, size, a body), or undefined. */
function requestLimitError (request: FastifyRequest, reply: FastifyReply, allowedMethods: readonly string[]): ApiError | undefined {
  if (lacksHost(request.raw)) {
    return new ApiError(400, 'An HTTP/1.1 request needs a Host header')
  }
  if (request.url.length > MAX_URL_LENGTH) {
    return new ApiError(414, `The request target is ${request.url.length} characters long; at most ${MAX_URL_LENGTH} are accepted`)
  }
  if (!declaresBody(request.headers)) return undefined
  // A route that takes a body (POST /v1/scores) reads it, within its own bodyLimit.
  if (request.routeOptions.schema?.body !== undefined) return undefined
  reply.header('connection', 'close')
  const routeAllows = (request.routeOptions.config as { allowedMethods?: readonly string[] } | undefined)?.allowedMethods
  if (routeAllows !== undefined) return methodNotAllowed(request.method, routeAllows)
  if (!request.is404 && !allowedMethods.includes(request.method)) {
    return methodNotAllowed(request.method, allowedMethods)
  }
  return new ApiError(413, 'Request bodies are not accepted')
}

/** Whether a request comes with a body (the API takes none). Shared with the fast path, which leaves such requests to these checks. */
export function declaresBody (headers: IncomingHttpHeaders): boolean {
  const { 'content-length': contentLength, 'transfer-encoding': transferEncoding } = headers
  return transferEncoding !== undefined || (contentLength !== undefined && Number(contentLength) !== 0)
}

/** An HTTP/1.1 request without the Host header the protocol requires. */
export function lacksHost (request: IncomingMessage): boolean {
  return request.httpVersion === '1.1' && request.headers.host === undefined
}
