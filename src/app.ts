import { METHODS } from 'node:http'
import type { FastifyInstance, FastifyReply, FastifyServerOptions } from 'fastify'
import fastifyPlugin from 'fastify-plugin'
import type {} from '@fastify/swagger'
import type { Config } from './config.ts'
import type { Catalog } from './data/catalog.ts'
import { installErrorHandling, sendError } from './http/errors.ts'
import { installRequestGuard } from './http/plugins/request-guard.ts'
import { PreparedCatalog } from './http/prepared-catalog.ts'
import { examRoutes } from './http/routes/exams.ts'
import { fileRoutes } from './http/routes/files.ts'
import { healthRoutes } from './http/routes/health.ts'
import { openApi } from './http/plugins/openapi.ts'
import { docsRoutes } from './http/routes/docs.ts'

export interface AppOptions {
  config: Config
  catalog: Catalog
  servableFiles: ReadonlySet<string>
  /** Readiness, for /readyz; the server flips it off when shutdown begins. */
  isReady?: () => boolean
}

/** Cache-Control of successful JSON answers: the data only changes with a redeploy. */
export const JSON_CACHE_CONTROL = 'public, max-age=3600'

/** Only these are served; every other method on a known path is 405 (API.md). */
export const ALLOWED_METHODS = ['GET', 'HEAD', 'OPTIONS'] as const
const REFUSED_METHODS = METHODS.filter((method) => !(ALLOWED_METHODS as readonly string[]).includes(method) && method !== 'CONNECT')

/** Longest path parameter accepted; longer is a grammar error anyway, so refuse it before routing. */
const MAX_PARAM_LENGTH = 100

/**
 * Fastify's own options for the app: routing, limits, logging and how framework-level
 * errors (a malformed URL) become the contract's error body. Shared by the server and the tests.
 */
export function serverOptions (config: Config): FastifyServerOptions {
  return {
    logger: config.logLevel === 'silent' ? false : { level: config.logLevel },
    // Fastify accepts a hop count at run time; its type declaration lacks it.
    trustProxy: config.trustProxy as FastifyServerOptions['trustProxy'],
    routerOptions: {
      ignoreTrailingSlash: true,
      caseSensitive: true,
      maxParamLength: MAX_PARAM_LENGTH
    },
    // The API takes no request bodies; anything sent with one is refused without buffering much.
    bodyLimit: 1024,
    requestIdHeader: false,
    return503OnClosing: true,
    connectionTimeout: 30_000,
    keepAliveTimeout: 5_000,
    requestTimeout: 10_000,
    frameworkErrors: (error, _request, reply) => {
      const status = error.code === 'FST_ERR_BAD_URL' ? 400 : (error.statusCode === 414 ? 414 : 400)
      const message = error.code === 'FST_ERR_BAD_URL' ? 'The path has malformed percent-encoding' : error.message
      sendError(reply as FastifyReply, config.publicUrl, status, message)
    }
  }
}

/**
 * The whole API as one plugin: tests build it with `inject`, the server adds the process concerns
 * (listening, signals). Registered without encapsulation so its error handling covers every path.
 */
export const app = fastifyPlugin(async (fastify: FastifyInstance, { config, catalog, servableFiles, isReady }: AppOptions) => {
  const prepared = new PreparedCatalog(catalog)

  installErrorHandling(fastify, config.publicUrl)
  installRequestGuard(fastify)
  fastify.addHook('onSend', async (_request, reply) => {
    reply.header('x-content-type-options', 'nosniff')
    if (reply.statusCode >= 400) reply.header('cache-control', 'no-store')
  })

  const knownPaths: string[] = []
  fastify.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method]
    if (methods.includes('GET')) knownPaths.push(route.url)
  })

  // Before the routes: @fastify/swagger builds the document from the routes it sees registered.
  await fastify.register(openApi, { publicUrl: config.publicUrl, cacheControl: JSON_CACHE_CONTROL, rateLimit: config.rateLimit })
  await fastify.register(examRoutes, { prefix: '/v1', catalog, prepared, cacheControl: JSON_CACHE_CONTROL })
  await fastify.register(fileRoutes, { dataDir: config.dataDir, servableFiles })
  await fastify.register(healthRoutes, { publicUrl: config.publicUrl, isReady: isReady ?? (() => true) })
  await fastify.register(docsRoutes, { publicUrl: config.publicUrl, cacheControl: JSON_CACHE_CONTROL })
  fastify.get('/', { schema: { hide: true } }, async (_request, reply) => reply.redirect('/docs', 302))

  for (const url of knownPaths) {
    fastify.route({
      method: REFUSED_METHODS.filter((method) => fastify.supportedMethods.includes(method)),
      url,
      schema: { hide: true },
      handler: async (request, reply) => {
        reply.header('allow', ALLOWED_METHODS.join(', '))
        return sendError(reply, config.publicUrl, 405, `Method ${request.method} is not allowed; use ${ALLOWED_METHODS.join(', ')}`)
      }
    })
  }
}, { name: 'enem-api', fastify: '5.x' })
