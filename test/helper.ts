import type { RequestListener } from 'node:http'
import type { AddressInfo } from 'node:net'
import Fastify, { type FastifyInstance, type InjectOptions } from 'fastify'
import { inject, type Response as InjectResponse } from 'light-my-request'
import { app, serverOptions } from '../src/app.ts'
import { loadConfig, type Config } from '../src/config.ts'
import { loadDataset, type LoadedDataset } from '../src/data/dataset/load-dataset.ts'
import type { Endpoint } from '../src/http/endpoints.ts'
import { SERVER_TIMEOUTS, type ServerTimeouts } from '../src/http/http-server-options.ts'

/** The full dataset's folder when the run has one (CI sets ENEM_DATA_DIR=../shared/enem-data). */
export const FULL_DATA_DIR = process.env.ENEM_DATA_DIR === undefined || process.env.ENEM_DATA_DIR === ''
  ? undefined
  : process.env.ENEM_DATA_DIR

export const TEST_PUBLIC_URL = 'http://api.test'

const datasets = new Map<string, Promise<LoadedDataset>>()

/** Loads a dataset once per test file and folder. */
export function loadTestDataset (config: Config): Promise<LoadedDataset> {
  const key = `${config.dataDir}|${config.publicUrl}`
  let loaded = datasets.get(key)
  if (loaded === undefined) {
    loaded = loadDataset(config.dataDirs, { filesBaseUrl: `${config.publicUrl}/files` })
    datasets.set(key, loaded)
  }
  return loaded
}

/** What a test may change in the app it builds, beyond the environment. */
export interface BuildOptions {
  /** The JSON endpoints, instead of src/http/endpoints.ts's table. */
  endpoints?: readonly Endpoint[]
  /** The server's timeouts, instead of SERVER_TIMEOUTS. */
  timeouts?: ServerTimeouts
  /**
   * A dataset of the test's own, instead of the one loaded once per file and shared by every app
   * the file builds: for a test that breaks the catalog it serves.
   */
  dataset?: LoadedDataset
}

/** One line of the app's log, as JSON. */
export interface LogLine { level: number, msg: string, [field: string]: unknown }

/** An app built for a test, with what it lets the test see. */
export interface BuiltApp {
  app: FastifyInstance
  /** Requests Fastify's pipeline has seen so far (the fast path's answers are not among them). */
  fastifySaw: () => number
  /** The log lines, at env's LOG_LEVEL (default silent: none), kept here instead of written out. */
  logs: LogLine[]
}

/**
 * Builds the app as the server does, without listening, on the sample dataset unless
 * `env.ENEM_DATA_DIR` says otherwise, counting the requests Fastify sees and keeping its log lines.
 * Rate limiting is off unless `env` turns it on.
 */
export async function buildCountedApp (env: Record<string, string> = {}, options: BuildOptions = {}): Promise<BuiltApp> {
  const config = loadConfig({ PUBLIC_URL: TEST_PUBLIC_URL, LOG_LEVEL: 'silent', RATE_LIMIT_MAX: '0', ...env })
  const dataset = options.dataset ?? await loadTestDataset(config)
  if (dataset.catalog === null) throw new Error(`test dataset has errors: ${dataset.report.summaryLine()}`)
  const fastifyOptions = serverOptions(config, options.timeouts ?? SERVER_TIMEOUTS)
  const logs: LogLine[] = []
  // The level comes from LOG_LEVEL through serverOptions; only the destination changes here.
  const logger = typeof fastifyOptions.logger === 'object'
    ? { ...fastifyOptions.logger, stream: { write: (line: string) => { logs.push(JSON.parse(line) as LogLine) } } }
    : false
  const fastify = Fastify({ ...fastifyOptions, logger })
  let seen = 0
  fastify.addHook('onRequest', (_request, _reply, done) => {
    seen++
    done()
  })
  await fastify.register(app, {
    config,
    catalog: dataset.catalog,
    servableFiles: dataset.servableFiles,
    credits: dataset.credits,
    ...(options.endpoints === undefined ? {} : { endpoints: options.endpoints })
  })
  await fastify.ready()
  return { app: fastify, fastifySaw: () => seen, logs }
}

/**
 * Builds the app as the server does, without listening (use `inject`), on the sample dataset
 * unless `env.ENEM_DATA_DIR` says otherwise. Rate limiting is off unless `env` turns it on.
 * @example const app = await buildTestApp(); const res = await app.inject('/v1/exams')
 */
export async function buildTestApp (env: Record<string, string> = {}, options: BuildOptions = {}): Promise<FastifyInstance> {
  return (await buildCountedApp(env, options)).app
}

/** Whatever registers a function to run when a test (or, with node:test's `after`, the file) ends. */
export interface Cleanup {
  after: (fn: () => unknown) => void
}

/** Sends one request and resolves with the whole answer (light-my-request's Response). */
export type SendRequest = (options: InjectOptions | string) => Promise<InjectResponse>

export interface TestServer extends BuiltApp {
  /**
   * Sends a request as a client would meet the server: through the server's own request
   * listener (the fast path first, then Fastify), in memory, without a socket.
   */
  request: SendRequest
  /** Sends a request through Fastify's pipeline alone (`app.inject`), skipping the fast path. */
  injectIntoFastify: SendRequest
  /**
   * Listens on a free loopback port and resolves with it, for what only a real socket shows (the
   * HTTP parser, raw paths, timeouts); the app still closes when the test ends.
   */
  listen: () => Promise<number>
}

/**
 * Builds the app as the server does and closes it when `t` ends. Requests go through the
 * server's real request listener, as in production: `app.inject` alone would skip the fast path.
 * @example test('...', async (t) => { const { request } = await build(t); const res = await request('/v1/exams') })
 * @example const server = await build({ after })   // one server for a whole file (node:test's after)
 * @example const { request, logs } = await build(t, { LOG_LEVEL: 'info' })   // the log lines, kept
 * @example const { request, fastifySaw } = await build(t, {}, { endpoints })  // another table; which path answered
 * @example const port = await (await build(t)).listen()   // a real socket
 */
export async function build (t: Cleanup, env: Record<string, string> = {}, options: BuildOptions = {}): Promise<TestServer> {
  const built = await buildCountedApp(env, options)
  const { app } = built
  t.after(() => app.close())
  const listen = async () => {
    await app.listen({ port: 0, host: '127.0.0.1' })
    return (app.server.address() as AddressInfo).port
  }
  return { ...built, request: frontDoor(app), injectIntoFastify: (request) => app.inject(request), listen }
}

/** Sends requests through the request listener of a ready app's server: the fast path, then Fastify. */
export function frontDoor (app: FastifyInstance): SendRequest {
  // The listener the server was created with (Node adds it first): what every client request meets.
  const listener = app.server.listeners('request')[0] as RequestListener
  return (options) => inject(listener, options)
}

/** Both request paths of the server, for case tables that must hold on each. */
export function requestPaths (server: TestServer): Array<[name: string, send: SendRequest]> {
  return [['through the front door', server.request], ['through Fastify alone', server.injectIntoFastify]]
}

/** The error body's shape, for assertions. */
export interface ErrorResponseBody {
  error: { code: string, message: string, docUrl: string }
}
