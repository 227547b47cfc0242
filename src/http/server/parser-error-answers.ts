import { STATUS_CODES } from 'node:http'
import type { Socket } from 'node:net'
import type { ConnectionError, FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { ServerSocket } from './server-socket.ts'
import { errorBody, type ErrorStatus } from '../errors.ts'
import { sendError } from '../plugins/error-handling.ts'
import { ERROR_ANSWER_HEADERS } from '../response-headers.ts'
import { logRequest } from '../access-log.ts'
import { MAX_HEADER_BYTES } from '../http-server-options.ts'
import { answerAndClose, isLingering } from './closing-connections.ts'

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

/**
 * Fastify's `clientErrorHandler`, for requests Node's HTTP parser refuses before Fastify sees
 * them. Fastify's default answers with its own JSON shape; this one answers with the contract's
 * error body: 400 for an unparseable request, 431 for headers over MAX_HEADER_BYTES, 408 for a
 * client too slow to send its headers or its body (a client that sent a slow body may read the answer).
 * The connection is closed after the answer: the parser cannot find the next request in it.
 */
export function clientErrorHandler (publicUrl: string, requestTimeoutMs: number) {
  const answered = new WeakSet<Socket>()
  return function (this: FastifyInstance, error: ConnectionError, socket: ServerSocket): void {
    // A lingering connection's late bytes are dropped unparsed (lingerBeforeClosing): nothing to answer.
    if (error.code === 'ECONNRESET' || socket.destroyed || isLingering(socket)) return
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
    const message = status === 408
      ? `The request did not arrive in time: its headers and body must be sent within ${requestTimeoutMs / 1000} s`
      : status === 431
        ? `The request line and headers are larger than ${MAX_HEADER_BYTES} bytes`
        : 'The request is not valid HTTP/1.1'
    answerAndClose(socket, rawErrorResponse(publicUrl, status, message))
  }
}

/** A whole HTTP response carrying the contract's error body, for a socket no Fastify reply owns. */
export function rawErrorResponse (publicUrl: string, status: ErrorStatus, message: string, extraHeaders: Record<string, string> = {}): string {
  const body = JSON.stringify(errorBody(publicUrl, status, message))
  const headers = Object.entries({ ...ERROR_ANSWER_HEADERS, ...extraHeaders }).map(([name, value]) => `${name}: ${value}\r\n`).join('')
  return `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\n${headers}` +
    `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
}
