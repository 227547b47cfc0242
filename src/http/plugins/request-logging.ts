import type { FastifyInstance } from 'fastify'
import fastifyPlugin from 'fastify-plugin'
import { logRequest, logsRequests } from '../access-log.ts'

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
