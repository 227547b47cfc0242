import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fastifyPlugin from 'fastify-plugin'

/** Longest URL written to the log; hostile requests can carry kilobytes of it. */
const MAX_LOGGED_URL_LENGTH = 1024

const QUIETER_THAN_INFO = new Set(['warn', 'error', 'fatal', 'silent'])

let lastRequestId = 0

/**
 * Fastify's `genReqId`, shared with the fast path, whose requests Fastify never sees: ids stay
 * unique across both. Same form as Fastify's own (`req-` and a base-36 counter).
 */
export function nextRequestId (): string {
  lastRequestId = (lastRequestId + 1) % Number.MAX_SAFE_INTEGER
  return `req-${lastRequestId.toString(36)}`
}

/** The fields of the one access-log line of a request, from whichever path answered it. */
export function accessLogEntry (reqId: string | undefined, method: string, url: string, statusCode: number, elapsedMs: number, ip: string | undefined) {
  return {
    // Under Fastify the id is bound to request.log already.
    ...(reqId === undefined ? {} : { reqId }),
    method,
    url: url.length > MAX_LOGGED_URL_LENGTH ? `${url.slice(0, MAX_LOGGED_URL_LENGTH)}…` : url,
    statusCode,
    responseTimeMs: Math.round(elapsedMs * 100) / 100,
    ip
  }
}

/**
 * Writes the one access-log line of a request: its id (bound to `request.log`), method, URL,
 * status, response time and client address. Exported for answers that no hook sees.
 */
export function logRequest (request: FastifyRequest, reply: FastifyReply): void {
  request.log.info(accessLogEntry(undefined, request.method, request.url, reply.statusCode, reply.elapsedTime, request.ip), 'request')
}

/** Whether this logger writes access-log lines (they are written at info). */
export function logsRequests (log: FastifyBaseLogger): boolean {
  return !QUIETER_THAN_INFO.has(log.level)
}

/**
 * One structured line per request, written when the answer has been sent. Fastify's own request
 * logging (an "incoming request" and a "request completed" line each) is turned off in
 * serverOptions.
 */
export const requestLogging = fastifyPlugin(async (app: FastifyInstance) => {
  // Below info nothing would be written: no hook at all then.
  if (!logsRequests(app.log)) return
  app.addHook('onResponse', (request, reply, done) => {
    logRequest(request, reply)
    done()
  })
}, { name: 'enem-request-logging', fastify: '5.x' })
