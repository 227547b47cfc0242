import fastifyCors from '@fastify/cors'
import type { FastifyInstance } from 'fastify'
import fastifyPlugin from 'fastify-plugin'
import { CORS_HEADERS, EXPOSED_HEADERS } from '../response-headers.ts'
import { validAddressOr } from '../client-address.ts'
import type { RequestCounter } from '../rate-limit/request-counter.ts'

/** How long browsers may reuse a preflight answer (they cap it themselves: Chrome at 2 hours). */
const PREFLIGHT_MAX_AGE_SECONDS = 24 * 60 * 60

/**
 * Longest Access-Control-Allow-Headers echoed back: a browser asks for the few headers a page sets.
 * A longer list (8 KB of names made up to make every preflight answer large) gets the wildcard,
 * which lets any header through for requests without credentials, as every request here is.
 */
const MAX_ECHOED_HEADERS_LENGTH = 1024

/** The key of a preflight whose socket is already gone (it cannot be answered anyway). */
const UNKNOWN_CLIENT = 'unknown'

export interface CorsOptions {
  /** Methods announced in preflight answers. */
  methods: readonly string[]
  /** Whether a preflight of this request target (the API's, /mcp's) counts against its client's quota, as the request it precedes does. */
  counted?: (url: string) => boolean
  /** The rate limiter's counter, once registered (after this plugin); none when rate limiting is off. */
  requestCounter?: () => RequestCounter | undefined
}

/**
 * CORS for every response, preflights answered 204 on any path. Preflights without an Origin
 * (curl, health checkers) get the same 204 rather than @fastify/cors's strict-mode 400. A
 * preflight of a counted path (/v1's, /mcp) counts against its client's quota like any request of it (a client over
 * its limit gets the 429), and the request headers it asks for are echoed back only up to a bound.
 * @see https://github.com/fastify/fastify-cors
 */
export const cors = fastifyPlugin(async (app: FastifyInstance, { methods, counted, requestCounter }: CorsOptions) => {
  // Before @fastify/cors's own hook, which answers the preflight. Callback-style: an async hook costs a promise and a microtask.
  app.addHook('onRequest', (request, reply, done) => {
    const counter = request.method === 'OPTIONS' && counted?.(request.url) === true ? requestCounter?.() : undefined
    if (counter === undefined) {
      done()
      return
    }
    counter.count(validAddressOr(request.ip, request.socket.remoteAddress) ?? UNKNOWN_CLIENT, (state) => {
      reply.headers({ 'ratelimit-limit': state.limit, 'ratelimit-remaining': state.remaining, 'ratelimit-reset': state.resetSeconds })
      done(state.exceeded ? counter.refusal(state.resetSeconds) : undefined)
    })
  })
  await app.register(fastifyCors, {
    origin: CORS_HEADERS['access-control-allow-origin'],
    methods: [...methods],
    exposedHeaders: [...EXPOSED_HEADERS],
    strictPreflight: false,
    maxAge: PREFLIGHT_MAX_AGE_SECONDS,
    hideOptionsRoute: true
  })
  // Callback-style: an async hook costs a promise and a microtask on every answer.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.method === 'OPTIONS') {
      const echoed = reply.getHeader('access-control-allow-headers')
      if (typeof echoed === 'string' && echoed.length > MAX_ECHOED_HEADERS_LENGTH) reply.header('access-control-allow-headers', '*')
    }
    done(null, payload)
  })
}, { name: 'enem-cors', fastify: '5.x' })
