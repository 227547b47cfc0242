import type { FastifyInstance } from 'fastify'
import { sendError } from '../plugins/error-handling.ts'
import { NO_STORE } from '../response-headers.ts'

export interface HealthRoutesOptions {
  publicUrl: string
  /** False once shutdown has begun, so load balancers stop sending traffic before the process exits. */
  isReady: () => boolean
}

/** Liveness and readiness probes; not rate limited, not cached. */
export async function healthRoutes (app: FastifyInstance, { publicUrl, isReady }: HealthRoutesOptions): Promise<void> {
  app.get('/healthz', { schema: { hide: true } }, async (_request, reply) => {
    reply.header('cache-control', NO_STORE)
    return { status: 'ok' }
  })
  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    reply.header('cache-control', NO_STORE)
    if (!isReady()) return sendError(reply, publicUrl, 503, 'The server is shutting down')
    return { status: 'ready' }
  })
}
