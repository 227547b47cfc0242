import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fastifyPlugin from 'fastify-plugin'

/** Longest URL written to the log; hostile requests can carry kilobytes of it. */
const MAX_LOGGED_URL_LENGTH = 1024

/**
 * Writes the one access-log line of a request: its id (bound to `request.log`), method, URL,
 * status, response time and client address. Exported for answers that no hook sees.
 */
export function logRequest (request: FastifyRequest, reply: FastifyReply): void {
  const url = request.url.length > MAX_LOGGED_URL_LENGTH ? `${request.url.slice(0, MAX_LOGGED_URL_LENGTH)}…` : request.url
  request.log.info({
    method: request.method,
    url,
    statusCode: reply.statusCode,
    responseTimeMs: Math.round(reply.elapsedTime * 100) / 100,
    ip: request.ip
  }, 'request')
}

const QUIETER_THAN_INFO = new Set(['warn', 'error', 'fatal', 'silent'])

/**
 * One structured line per request, written when the answer has been sent. Fastify's own request
 * logging (an "incoming request" and a "request completed" line each) is turned off in
 * serverOptions.
 */
export const requestLogging = fastifyPlugin(async (app: FastifyInstance) => {
  // Below info nothing would be written: no hook at all then.
  if (QUIETER_THAN_INFO.has(app.log.level)) return
  app.addHook('onResponse', (request, reply, done) => {
    logRequest(request, reply)
    done()
  })
}, { name: 'enem-request-logging', fastify: '5.x' })
