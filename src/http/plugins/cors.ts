import fastifyCors from '@fastify/cors'
import type { FastifyInstance } from 'fastify'
import fastifyPlugin from 'fastify-plugin'

/** Response headers a browser script may read: caching and rate-limit state. */
export const EXPOSED_HEADERS = ['ETag', 'Retry-After', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'] as const

/**
 * The CORS headers of every answer. A public read-only API without credentials: any origin may
 * read it, and the answer does not depend on the Origin, so it needs no `Vary: Origin` and a
 * CDN can cache one copy for everybody.
 */
export const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': EXPOSED_HEADERS.join(', ')
} as const

/** How long browsers may reuse a preflight answer (they cap it themselves: Chrome at 2 hours). */
const PREFLIGHT_MAX_AGE_SECONDS = 24 * 60 * 60

export interface CorsOptions {
  /** Methods announced in preflight answers. */
  methods: readonly string[]
}

/**
 * CORS for every response, preflights answered 204 on any path. Preflights without an Origin
 * (curl, health checkers) get the same 204 rather than @fastify/cors's strict-mode 400.
 * @see https://github.com/fastify/fastify-cors
 */
export const cors = fastifyPlugin(async (app: FastifyInstance, { methods }: CorsOptions) => {
  await app.register(fastifyCors, {
    origin: CORS_HEADERS['access-control-allow-origin'],
    methods: [...methods],
    exposedHeaders: [...EXPOSED_HEADERS],
    strictPreflight: false,
    maxAge: PREFLIGHT_MAX_AGE_SECONDS,
    hideOptionsRoute: true
  })
  // @fastify/cors adds its headers in an onRequest hook; an answer sent before that hook ran (an
  // earlier hook refused the request) would lack them, and a browser would hide the error from the page.
  // Callback-style: an async hook costs a promise and a microtask on every answer.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (!reply.hasHeader('access-control-allow-origin')) reply.headers(CORS_HEADERS)
    done(null, payload)
  })
}, { name: 'enem-cors', fastify: '5.x' })
