import fastifyCors from '@fastify/cors'
import type { FastifyInstance } from 'fastify'
import fastifyPlugin from 'fastify-plugin'
import { CORS_HEADERS, EXPOSED_HEADERS } from '../response-headers.ts'

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
}, { name: 'enem-cors', fastify: '5.x' })
