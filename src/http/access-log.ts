import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify'

/*
 * The access log's line and request ids, shared by the request-logging plugin (requests Fastify
 * answers), the fast path (requests it never sees) and the request limits (answers no hook sees).
 */

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

/** Writes the one access-log line of a request, whichever path answered it (the fast path, or logRequest for Fastify's). */
export function writeAccessLog (log: FastifyBaseLogger, reqId: string | undefined, method: string, url: string, statusCode: number, elapsedMs: number, ip: string | undefined): void {
  log.info({
    // Under Fastify the id is bound to request.log already.
    ...(reqId === undefined ? {} : { reqId }),
    method,
    url: url.length > MAX_LOGGED_URL_LENGTH ? `${url.slice(0, MAX_LOGGED_URL_LENGTH)}…` : url,
    statusCode,
    responseTimeMs: Math.round(elapsedMs * 100) / 100,
    ip
  }, 'request')
}

/**
 * Writes the one access-log line of a request: its id (bound to `request.log`), method, URL,
 * status, response time and client address. Exported for answers that no hook sees.
 */
export function logRequest (request: FastifyRequest, reply: FastifyReply): void {
  writeAccessLog(request.log, undefined, request.method, request.url, reply.statusCode, reply.elapsedTime, request.ip)
}

/** Whether this logger writes access-log lines (they are written at info). */
export function logsRequests (log: FastifyBaseLogger): boolean {
  return !QUIETER_THAN_INFO.has(log.level)
}
