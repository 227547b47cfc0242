import { STATUS_CODES, type IncomingHttpHeaders, type IncomingMessage, type ServerOptions, type ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import type { ConnectionError, FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { ApiError, errorBody, methodNotAllowed, sendError, type ErrorStatus } from './errors.ts'
import { ERROR_ANSWER_HEADERS } from './response-headers.ts'
import { logRequest } from './plugins/request-logging.ts'

/**
 * How long a client may take, at the socket level. Exported so tests can shorten them; the
 * server runs with SERVER_TIMEOUTS.
 */
export interface ServerTimeouts {
  /** To send the complete request headers, from its first byte (slow-loris guard). Then 408 and the connection is closed. */
  headersMs: number
  /** To send the complete request. The API takes no bodies, so this is the headers' time too. */
  requestMs: number
  /** Of silence on a connection before it is dropped. */
  idleMs: number
  /** An idle keep-alive connection is kept this long for the client's next request. */
  keepAliveMs: number
  /** How often Node checks the headers and request timeouts: a slow client is cut off up to this much late. */
  checkIntervalMs: number
}

export const SERVER_TIMEOUTS: ServerTimeouts = {
  headersMs: 10_000,
  requestMs: 10_000,
  idleMs: 30_000,
  keepAliveMs: 5_000,
  checkIntervalMs: 1_000
}

/**
 * Longest request line plus headers Node's parser accepts; past it, 431. Twice Node's default, so
 * that a long URL (well past MAX_URL_LENGTH) still reaches the app and gets the clearer 414.
 */
export const MAX_HEADER_BYTES = 32 * 1024

/** Longest request target (path and query) answered; every real address of the API is far shorter. */
export const MAX_URL_LENGTH = 8 * 1024

/**
 * Node's own options for the HTTP server: its timeouts and header limit. Fastify hands them to
 * http.createServer.
 */
export function httpServerOptions (timeouts: ServerTimeouts): ServerOptions {
  return {
    headersTimeout: timeouts.headersMs,
    requestTimeout: timeouts.requestMs,
    connectionsCheckingInterval: timeouts.checkIntervalMs,
    maxHeaderSize: MAX_HEADER_BYTES,
    // Node would answer a missing Host with a bare 400 of its own; the app answers it with the contract's body.
    requireHostHeader: false
  }
}

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
  reply.header('connection', 'close')
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

/**
 * Fastify's `frameworkErrors`: a path it cannot route (malformed percent-encoding, a parameter
 * longer than the router accepts) gets the contract's error body. No hook runs for these answers,
 * so the headers and the access-log line the hooks would give are added here.
 */
export function frameworkErrorHandler (publicUrl: string) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    let status: ErrorStatus = 400
    let message = 'The path cannot be routed'
    if (error.code === 'FST_ERR_BAD_URL') {
      message = 'The path has malformed percent-encoding'
    } else if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
      // Fastify's own message repeats the whole path, which may be kilobytes long.
      status = 414
      message = 'A path segment is too long'
    }
    reply.raw.once('finish', () => logRequest(request, reply))
    sendError(reply.headers(ERROR_ANSWER_HEADERS), publicUrl, status, message)
  }
}

/** The socket of a server-side connection, with the response Node is writing on it, if any. */
interface ServerSocket extends Socket {
  _httpMessage?: { headersSent: boolean } | null
}

/** How long a refused client gets to read the answer before its connection is dropped. */
const LINGER_MS = 1_000

/**
 * Fastify's `clientErrorHandler`, for requests Node's HTTP parser refuses before Fastify sees
 * them. Fastify's default answers with its own JSON shape; this one answers with the contract's
 * error body (400 for an unparseable request, 431 for headers over MAX_HEADER_BYTES) and a bare
 * 408 for a client too slow to send its headers (it is gone or hostile; nobody reads a body).
 * The connection is closed after the answer: the parser cannot find the next request in it.
 */
export function clientErrorHandler (publicUrl: string) {
  const answered = new WeakSet<Socket>()
  return function (this: FastifyInstance, error: ConnectionError, socket: ServerSocket): void {
    if (error.code === 'ECONNRESET' || socket.destroyed) return
    if (answered.has(socket)) {
      socket.destroy()
      return
    }
    answered.add(socket)
    const status = error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : (error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400)
    this.log.info({ statusCode: status, clientError: error.code, ip: socket.remoteAddress }, 'request refused by the HTTP parser')
    // A response already under way (a request that timed out while its answer was being sent) cannot get a second one.
    if (!socket.writable || socket._httpMessage?.headersSent === true) {
      socket.destroy()
      return
    }
    if (status === 408) {
      answerAndClose(socket, `HTTP/1.1 408 ${STATUS_CODES[408]}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`)
      return
    }
    const message = status === 431
      ? `The request line and headers are larger than ${MAX_HEADER_BYTES} bytes`
      : 'The request is not valid HTTP/1.1'
    answerAndClose(socket, rawErrorResponse(publicUrl, status, message))
  }
}

/**
 * Writes a last answer and closes. Closing at once, with the client's unread request bytes still
 * queued, would reset the connection and could discard the answer on its side: it gets a moment.
 */
function answerAndClose (socket: Socket, response: string): void {
  socket.end(response)
  const linger = setTimeout(() => socket.destroy(), LINGER_MS)
  linger.unref()
  socket.once('close', () => clearTimeout(linger))
  socket.resume()
}

/** A whole HTTP response carrying the contract's error body, for a socket no Fastify reply owns. */
function rawErrorResponse (publicUrl: string, status: ErrorStatus, message: string, extraHeaders: Record<string, string> = {}): string {
  const body = JSON.stringify(errorBody(publicUrl, status, message))
  const headers = Object.entries({ ...ERROR_ANSWER_HEADERS, ...extraHeaders }).map(([name, value]) => `${name}: ${value}\r\n`).join('')
  return `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\n${headers}` +
    `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
}
