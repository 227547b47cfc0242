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
  /** The largest body any route reads, in bytes: a client announcing more is not told to send it (no `100 Continue`). */
  maxBodyBytes: number
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
export function installRequestLimits (app: FastifyInstance, { allowedMethods, publicUrl, maxBodyBytes }: RequestLimitsOptions): void {
  keepHalfClosedConnections(app.server)
  app.server.on('connection', lingerBeforeClosing)
  // `Expect: 100-continue` asks whether to send the body: not when it is larger than any route reads
  // (the 413 comes at once, and the client keeps its body). Node would say `100 Continue` to all.
  app.server.on('checkContinue', (request: IncomingMessage, response: ServerResponse) => {
    if (!(declaredLength(request.headers) > maxBodyBytes)) response.writeContinue()
    app.server.emit('request', request, response)
  })
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
  // A route that takes a body (POST /v1/scores) reads it, within its own bodyLimit, if it can read it
  // as it is: plain bytes, in UTF-8 (JSON's encoding); refused before a byte of it is read.
  if (request.routeOptions.schema?.body !== undefined) {
    const problem = bodyEncodingProblem(request.headers)
    if (problem === undefined) return undefined
    reply.header('connection', 'close')
    return new ApiError(415, problem)
  }
  reply.header('connection', 'close')
  const routeAllows = (request.routeOptions.config as { allowedMethods?: readonly string[] } | undefined)?.allowedMethods
  if (routeAllows !== undefined) return methodNotAllowed(request.method, routeAllows)
  if (!request.is404 && !allowedMethods.includes(request.method)) {
    return methodNotAllowed(request.method, allowedMethods)
  }
  return new ApiError(413, 'Request bodies are not accepted')
}

/**
 * Why a body cannot be read as the JSON it should be, or undefined: a Content-Encoding (gzip, or
 * any but identity; it would be parsed as if plain), or a charset other than UTF-8 (JSON is UTF-8,
 * RFC 8259; a UTF-16 body would be read as garbage).
 */
export function bodyEncodingProblem (headers: IncomingHttpHeaders): string | undefined {
  const encoding = headers['content-encoding']?.trim().toLowerCase()
  if (encoding !== undefined && encoding !== '' && encoding !== 'identity') {
    return `Content-Encoding ${JSON.stringify(encoding.slice(0, 40))} is not accepted: send the body uncompressed`
  }
  const charset = /;\s*charset\s*=\s*"?([^";\s]*)/i.exec(headers['content-type'] ?? '')?.[1]?.toLowerCase()
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
    return `charset ${JSON.stringify(charset.slice(0, 40))} is not accepted: a JSON body is UTF-8`
  }
  return undefined
}

/** The Content-Length a request declares, NaN without one (or with a malformed one, which Node refuses anyway). */
function declaredLength (headers: IncomingHttpHeaders): number {
  return headers['content-length'] === undefined ? Number.NaN : Number(headers['content-length'])
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
