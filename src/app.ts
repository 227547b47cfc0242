import { METHODS, type Server } from 'node:http'
import { LogController, type FastifyHttpOptions, type FastifyInstance } from 'fastify'
import fastifyPlugin from 'fastify-plugin'
import type {} from '@fastify/swagger'
import type { Config } from './config.ts'
import type { Catalog } from './data/catalog.ts'
import { methodNotAllowed } from './http/errors.ts'
import { installErrorHandling } from './http/plugins/error-handling.ts'
import { installRequestGuard } from './http/plugins/request-guard.ts'
import { cors } from './http/plugins/cors.ts'
import { jsonBody, jsonTextParser } from './http/plugins/json-body.ts'
import { rateLimit } from './http/plugins/rate-limit.ts'
import type { RequestCounter } from './http/rate-limit/request-counter.ts'
import { requestLogging } from './http/plugins/request-logging.ts'
import { logsRequests, nextRequestId } from './http/access-log.ts'
import { installGracefulClose } from './http/server/graceful-close.ts'
import { installRequestLimits } from './http/server/request-limits.ts'
import { guardConnections } from './http/server/connection-guard.ts'
import { SERVER_TIMEOUTS, httpServerOptions, type ServerTimeouts } from './http/http-server-options.ts'
import { clientErrorHandler, frameworkErrorHandler } from './http/server/parser-error-answers.ts'
import { endpointAnswers } from './http/endpoint-answers.ts'
import { API_BASE, ENDPOINTS, MCP_ENDPOINT, type Endpoint } from './http/endpoints.ts'
import { BULK_READS } from './http/error-descriptions.ts'
import { everyAnswerHeaders } from './http/response-headers.ts'
import { FastPath, fastPathServerFactory, installFastPath } from './http/server/fast-path.ts'
import { FairTurns } from './http/server/fair-turns.ts'
import { trustProxyFunction } from './http/client-address.ts'
import { apiRoutes } from './http/routes/api-routes.ts'
import { fileRoutes } from './http/routes/files.ts'
import { ServedFiles } from './http/answers/served-files.ts'
import { predecessorPaths } from './http/routes/predecessor-paths.ts'
import { healthRoutes } from './http/routes/health.ts'
import { openApi } from './http/plugins/openapi.ts'
import type { DataCredit } from './data/dataset/dataset-manifest.ts'
import { docsRoutes } from './http/routes/docs.ts'
import { questionBrowserRoutes } from './http/routes/question-browser.ts'
import { jsonSerializerCompiler, typeBoxValidatorCompiler } from './http/schemas/compilers.ts'
import { StartUpCache } from './data/dataset/start-up-cache.ts'
import { mcpServerFactory } from './mcp/mcp-server.ts'
import { PreparedResults } from './mcp/prepared-results.ts'
import { mcpTransport } from './mcp/http-transport.ts'
import { McpEndpoint } from './mcp/mcp-endpoint.ts'
import { terminalLogDestination, type LogDestination } from './log-destination.ts'

export interface AppOptions {
  config: Config
  catalog: Catalog
  /** The files `/files` may serve, each with the dataset folder that holds it (LoadedDataset.servableFiles). */
  servableFiles: ReadonlyMap<string, string>
  /** The sources of the exams served, credited by the page and the OpenAPI document (LoadedDataset.credits). */
  credits?: readonly DataCredit[] | null
  /** Readiness, for /readyz; the server flips it off when shutdown begins. */
  isReady?: () => boolean
  /** The JSON endpoints (src/http/endpoints.ts's table), unless a test gives its own. */
  endpoints?: readonly Endpoint[]
}

/** Only these are served; every other method on a known path is 405. */
export const ALLOWED_METHODS = ['GET', 'HEAD', 'OPTIONS'] as const
const REFUSED_METHODS = METHODS.filter((method) => !(ALLOWED_METHODS as readonly string[]).includes(method) && method !== 'CONNECT')
/** What a POST endpoint of the table (POST /v1/scores) answers; every other method on its path is 405. */
export const POST_ALLOWED_METHODS = ['POST', 'OPTIONS'] as const
const REFUSED_ON_POST_PATHS = METHODS.filter((method) => !(POST_ALLOWED_METHODS as readonly string[]).includes(method) && method !== 'CONNECT')

/**
 * How long a plugin or an onReady hook may take. Fastify's default (10 s) is shorter than the
 * search index's build on a loaded machine, which the server waits for before it listens (`app`).
 */
const START_UP_STEP_TIMEOUT_MS = 120_000

/**
 * The request targets the rate limit counts (the routes of its scope below: /v1's and /mcp), so
 * that their preflights count too: a preflight is a request a page makes before each of them.
 */
function countedByRateLimit (url: string): boolean {
  if (url.startsWith(`${API_BASE}/`)) return true
  return url.startsWith(MCP_ENDPOINT.path) && (url.length === MCP_ENDPOINT.path.length || url[MCP_ENDPOINT.path.length] === '?' || url[MCP_ENDPOINT.path.length] === '/')
}

/** Longest path parameter accepted; longer is a grammar error anyway, so refuse it before routing. */
const MAX_PARAM_LENGTH = 100

function withStream (stream: LogDestination | undefined): { stream?: LogDestination } {
  return stream === undefined ? {} : { stream }
}

/**
 * Fastify's own options for the app: routing, limits, logging and how framework-level
 * errors (a malformed URL) become the contract's error body. Shared by the server and the tests.
 */
export function serverOptions (config: Config, timeouts: ServerTimeouts = SERVER_TIMEOUTS): FastifyHttpOptions<Server> {
  const server = {
    connectionTimeout: timeouts.idleMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    requestTimeout: timeouts.requestMs,
    http: httpServerOptions(timeouts)
  }
  return {
    ...server,
    // JSON lines, or readable ones when a person runs the server in a terminal (src/log-destination.ts).
    logger: config.logLevel === 'silent' ? false : { level: config.logLevel, ...withStream(terminalLogDestination()) },
    // One access-log line per request comes from the request-logging plugin instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    trustProxy: config.trustProxy === false ? false : trustProxyFunction(config.trustProxy),
    genReqId: nextRequestId,
    pluginTimeout: START_UP_STEP_TIMEOUT_MS,
    // The server Fastify would make, with the fast path in front of Fastify's pipeline (src/http/server/fast-path.ts).
    serverFactory: fastPathServerFactory(server),
    routerOptions: {
      ignoreTrailingSlash: true,
      caseSensitive: true,
      maxParamLength: MAX_PARAM_LENGTH
    },
    // The API takes no request bodies; anything sent with one is refused without buffering much.
    bodyLimit: 1024,
    requestIdHeader: false,
    // A request that arrives while the server closes is still answered, with `Connection: close` (src/http/server/graceful-close.ts).
    return503OnClosing: false,
    clientErrorHandler: clientErrorHandler(config.publicUrl, timeouts.requestMs),
    frameworkErrors: frameworkErrorHandler(config.publicUrl)
  }
}

/**
 * The whole API as one plugin: tests build it with `inject`, the server adds the process concerns
 * (listening, signals). Registered without encapsulation so its error handling covers every path.
 */
export const app = fastifyPlugin(async (fastify: FastifyInstance, { config, catalog, servableFiles, credits = null, isReady, endpoints }: AppOptions) => {
  const { prepared, answers } = endpointAnswers(catalog)
  // The search index is built in a worker thread from now on, while the rest of start-up runs; the
  // server listens (and /readyz answers 200) only once it is in place and the export's costly
  // compression is done off the loop (onReady below), so that no request ever waits for either and
  // none is held while they are made.
  // What a start before this one made from the same data at a cost (src/data/dataset/start-up-cache.ts).
  const { cache, problem } = StartUpCache.open(config.cacheDir)
  if (problem !== undefined) fastify.log.warn(`CACHE_DIR: ${problem}; every start makes the search index and the export's compression anew`)
  const searchIndexBuilt = answers.finding.finder.buildSearchIndex(cache)
  let requestCounter: RequestCounter | undefined
  // The very function serverOptions gave Fastify (compiled once per setting), so every part names the same client.
  const trustProxy = trustProxyFunction(config.trustProxy)

  fastify.setValidatorCompiler(typeBoxValidatorCompiler)
  fastify.setSerializerCompiler(jsonSerializerCompiler)
  installErrorHandling(fastify, config.publicUrl)
  // The one body the API reads (POST /v1/scores) is JSON, nested within bounds: any other type is 415, not a string to validate.
  await fastify.register(jsonBody)
  // First, so their hooks see (and their headers reach) every request, even one refused just below.
  await fastify.register(cors, { methods: [...ALLOWED_METHODS, 'POST'], counted: countedByRateLimit, requestCounter: () => requestCounter })
  // The headers every answer carries, the fast path's too (everyAnswerHeaders): also on an answer sent
  // before @fastify/cors's onRequest hook ran (an earlier hook refused it), which a browser would
  // otherwise hide from the page. Callback-style: an async hook costs a promise and a microtask per answer.
  fastify.addHook('onSend', (_request, reply, payload, done) => {
    reply.headers(everyAnswerHeaders(reply.statusCode))
    done(null, payload)
  })
  await fastify.register(requestLogging)
  const maxBodyBytes = Math.max(0, ...(endpoints ?? ENDPOINTS).map((endpoint) => endpoint.body?.limit ?? 0))
  installRequestLimits(fastify, { allowedMethods: ALLOWED_METHODS, publicUrl: config.publicUrl, maxBodyBytes })
  guardConnections(fastify.server, config.connections, trustProxy)
  installGracefulClose(fastify)
  installRequestGuard(fastify)

  const knownPaths: string[] = []
  const postPaths: string[] = []
  fastify.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method]
    if (methods.includes('GET')) knownPaths.push(route.url)
    else if (route.method === 'POST') postPaths.push(route.url)
  })

  // Before the routes: @fastify/swagger builds the document from the routes it sees registered.
  // Costly work of a request body (a tool call, a scores body) takes turns among clients, one budget per pass of the loop for all of it.
  const turns = new FairTurns()
  // One cache of the dataset's files for /files and the MCP tools' figures: the same bytes, read once.
  const files = new ServedFiles(servableFiles, `${config.publicUrl}/files`)
  const mcpPrepared = new PreparedResults({ answers, files, log: fastify.log })
  const mcpEndpoint = new McpEndpoint({ factory: mcpServerFactory({ answers, files, catalog, log: fastify.log }), prepared: mcpPrepared, publicUrl: config.publicUrl, log: fastify.log, turns })
  await fastify.register(openApi, { publicUrl: config.publicUrl, rateLimit: config.rateLimit, endpoints, credits })
  await fastify.register(async (counted) => {
    // The limiter counts the routes of this scope only, /v1 and /mcp with one quota per client: files,
    // docs, health checks and the OpenAPI document are not counted.
    if (config.rateLimit.max > 0) {
      await counted.register(rateLimit, { ...config.rateLimit, redisUrl: config.redisUrl, refusalAdvice: BULK_READS })
      requestCounter = counted.requestCounter
    }
    await counted.register(apiRoutes, { answers, endpoints, prefix: API_BASE })
    await counted.register(mcpTransport, { endpoint: mcpEndpoint })
  })
  await fastify.register(fileRoutes, { files })
  await fastify.register(predecessorPaths)
  await fastify.register(healthRoutes, { publicUrl: config.publicUrl, isReady: isReady ?? (() => true) })
  await fastify.register(docsRoutes, { publicUrl: config.publicUrl })
  await fastify.register(questionBrowserRoutes, { publicUrl: config.publicUrl, credits })

  for (const url of knownPaths) {
    fastify.route({
      method: REFUSED_METHODS.filter((method) => fastify.supportedMethods.includes(method)),
      url,
      schema: { hide: true },
      handler: async (request) => {
        throw methodNotAllowed(request.method, ALLOWED_METHODS)
      }
    })
  }
  for (const url of postPaths) {
    fastify.route({
      method: REFUSED_ON_POST_PATHS.filter((method) => fastify.supportedMethods.includes(method)),
      url,
      schema: { hide: true },
      // A body sent with a refused method is refused as 405 too (src/http/server/request-limits.ts reads this).
      config: { allowedMethods: POST_ALLOWED_METHODS },
      handler: async (request) => {
        throw methodNotAllowed(request.method, POST_ALLOWED_METHODS)
      }
    })
  }

  const fastPath = new FastPath({
    answers,
    endpoints,
    publicUrl: config.publicUrl,
    trustProxy,
    requestCounter,
    accessLog: logsRequests(fastify.log) ? fastify.log : undefined,
    errorLog: fastify.log,
    parseJson: jsonTextParser(),
    bodyRoutes: [mcpEndpoint],
    turns
  })
  // A server made elsewhere (a test's own) simply has no fast path: Fastify answers everything.
  fastify.addHook('onReady', async () => {
    const [origin] = await Promise.all([searchIndexBuilt, answers.finding.prepareExportAhead(cache)])
    fastify.log.info(`search index ${origin === 'cache' ? `read from the start-up cache (${cache.dir})` : 'built'}`)
    installFastPath(fastify.server, fastPath)
  })
  fastify.addHook('preClose', (done) => {
    fastPath.close()
    prepared.stopBackground()
    mcpPrepared.stopBackground()
    answers.finding.finder.stopBuilding()
    done()
  })
  // The question bodies are made a little at a time once the server listens, not during start-up.
  fastify.addHook('onListen', (done) => {
    // Its promise only says when it is done, which nothing here waits for.
    prepared.prepareInBackground()
    // And the MCP tools' text and key-withheld JSON of every record, the same way.
    mcpPrepared.prepareInBackground(catalog.listExams().flatMap((exam) => exam.questions)).catch((error: unknown) => { fastify.log.error({ err: error }, 'preparing the MCP questions failed') })
    done()
  })
}, { name: 'enem-api', fastify: '5.x' })
