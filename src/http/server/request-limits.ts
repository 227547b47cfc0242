import { STATUS_CODES, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerOptions, type ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import type { ServerSocket } from './server-socket.ts'
import type { ConnectionError, FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Config } from '../../config.ts'
import { ApiError, errorBody, methodNotAllowed, sendError, type ErrorStatus } from '../errors.ts'
import { ERROR_ANSWER_HEADERS } from '../response-headers.ts'
import { logRequest } from '../access-log.ts'

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
  /** The connection cap and the stalled-answer timeout (guardConnections); absent, neither applies. */
  connections?: Config['connections'] | undefined
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
export function installRequestLimits (app: FastifyInstance, { allowedMethods, publicUrl, connections }: RequestLimitsOptions): void {
  keepHalfClosedConnections(app.server)
  app.server.on('connection', lingerBeforeClosing)
  if (connections !== undefined) guardConnections(app.server, connections)
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
function keepHalfClosedConnections (server: HalfOpenServer): void {
  server.httpAllowHalfOpen = true
}

/** Connections closing after their last answer, still reading (and dropping) what the client sends. */
const lingering = new WeakSet<Socket>()

/**
 * How a connection closes after its last answer (`Connection: close`, either side's): Node's own
 * socket.destroySoon closes the descriptor as soon as the answer is handed to the kernel. Bytes the
 * client sent that were not read yet (a trailing newline, a body sent after `100 Continue`, the
 * next pipelined request) then make the kernel reset the connection, and a reset discards what it
 * still had to send: the client got `100 Continue`, then a reset instead of its answer. Instead the
 * server sends its FIN, reads and drops whatever still comes, and closes once the client closes
 * its side, or after LINGER_MS (as Apache's and nginx's lingering close do).
 */
function lingerBeforeClosing (socket: Socket): void {
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
    // A lingering connection's late bytes are dropped unparsed (lingerBeforeClosing): nothing to answer.
    if (error.code === 'ECONNRESET' || socket.destroyed || lingering.has(socket)) return
    // Bytes after a request that said `Connection: close` (a trailing newline, say) while its answer
    // is still being sent: the answer finishes and the connection closes then, lingering.
    if (error.code === 'HPE_CLOSED_CONNECTION' && socket._httpMessage !== null && socket._httpMessage !== undefined) return
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
