import Fastify, { type FastifyInstance } from 'fastify'
import { app, serverOptions } from '../src/app.ts'
import { loadConfig, type Config } from '../src/config.ts'
import { loadDataset, type LoadedDataset } from '../src/data/load-dataset.ts'

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
    loaded = loadDataset(config.dataDir, { filesBaseUrl: `${config.publicUrl}/files` })
    datasets.set(key, loaded)
  }
  return loaded
}

/**
 * Builds the app as the server does, without listening (use `inject`), on the sample dataset
 * unless `env.ENEM_DATA_DIR` says otherwise. Rate limiting is off unless `env` turns it on.
 * @example const app = await buildTestApp(); const res = await app.inject('/v1/exams')
 */
export async function buildTestApp (env: Record<string, string> = {}): Promise<FastifyInstance> {
  const config = loadConfig({ PUBLIC_URL: TEST_PUBLIC_URL, LOG_LEVEL: 'silent', RATE_LIMIT_MAX: '0', ...env })
  const dataset = await loadTestDataset(config)
  if (dataset.catalog === null) throw new Error(`test dataset has errors: ${dataset.report.summaryLine()}`)
  const fastify = Fastify(serverOptions(config))
  await fastify.register(app, { config, catalog: dataset.catalog, servableFiles: dataset.servableFiles })
  await fastify.ready()
  return fastify
}

/** The error body's shape, for assertions. */
export interface ErrorResponseBody {
  error: { code: string, message: string, docUrl: string }
}
