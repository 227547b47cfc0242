import cluster from 'node:cluster'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import Fastify from 'fastify'
import { app, serverOptions } from './app.ts'
import { startClusterPrimary } from './cluster.ts'
import { loadConfig, type Config } from './config.ts'
import { loadDataset } from './data/dataset/load-dataset.ts'
import { startDraining } from './http/server/graceful-close.ts'
import { checkDataDir, checkListenAddress, describeListenError, exitOnStartUpMistake } from './start-up-checks.ts'

/** Dataset errors logged one by one at a refused start; check-data lists them all. */
const MAX_LOGGED_DATASET_ERRORS = 20

/** How long in-flight requests get to finish once the server has stopped accepting, before the process exits anyway. */
const SHUTDOWN_GRACE_MS = 10_000

/**
 * The data check as a command that runs where this server runs. The bundle (a production
 * install, the container, which has neither the sources nor scripts/ for `npm run`) has
 * dist/check-data.js beside it; from the sources, npm builds and runs it.
 * @example checkDataCommand('/data') // 'node /app/dist/check-data.js /data' in the container
 */
function checkDataCommand (dataDir: string): string {
  const quoted = /^[\w@%+=:,./-]+$/.test(dataDir) ? dataDir : `'${dataDir.replaceAll("'", "'\\''")}'`
  const here = fileURLToPath(import.meta.url)
  return path.basename(here) === 'server.js'
    ? `node ${path.join(path.dirname(here), 'check-data.js')} ${quoted}`
    : `npm run check-data -- ${quoted}`
}

async function main (): Promise<void> {
  let config: Config
  try {
    config = loadConfig()
    // Workers inherit what their primary checked already.
    if (cluster.isPrimary) {
      await checkListenAddress(config)
      await checkDataDir(config)
    }
  } catch (error) {
    // A start-up mistake is one line on stderr, before the dataset is read.
    exitOnStartUpMistake(error)
  }
  // WEB_CONCURRENCY > 1: this process only supervises the workers (src/cluster.ts); each worker runs the rest.
  if (startClusterPrimary(config)) return

  const startedAt = performance.now()
  const fastify = Fastify(serverOptions(config))
  const log = fastify.log
  const dataset = await loadDataset(config.dataDirs, { filesBaseUrl: `${config.publicUrl}/files` })
  if (dataset.catalog === null) {
    const { errors } = dataset.report
    for (const issue of errors.slice(0, MAX_LOGGED_DATASET_ERRORS)) log.error({ file: issue.file, field: issue.field, kind: issue.kind }, issue.message)
    const source = config.usingSampleData ? `the built-in sample dataset ${config.dataDir}` : `ENEM_DATA_DIR=${config.dataDir}`
    log.fatal(`${source} has errors, refusing to start: ${dataset.report.summaryLine()}; \`${checkDataCommand(config.dataDir)}\` lists them all`)
    process.exit(1)
  }
  log.info({
    dataDir: config.dataDir,
    folders: config.dataDirs.length,
    sample: config.usingSampleData,
    exams: dataset.catalog.listExams().length,
    questions: dataset.catalog.questionCount,
    loadMs: Math.round(performance.now() - startedAt)
  }, config.usingSampleData
    ? 'serving the built-in SAMPLE dataset (set ENEM_DATA_DIR to serve a full one)'
    : 'dataset loaded')
  if (dataset.report.warnings.length > 0) log.warn(`dataset warnings: ${dataset.report.summaryLine()} (details: \`${checkDataCommand(config.dataDir)}\`)`)
  for (const folder of dataset.folders) {
    for (const official of folder.official) {
      const of = config.dataDirs.length === 1 && official.application === 'regular' ? '' : ` (${folder.dir}, ${official.application})`
      log.info(`official corrections${of}: ${official.summaryLine()}`)
    }
  }

  let ready = true
  await fastify.register(app, { config, catalog: dataset.catalog, servableFiles: dataset.servableFiles, credits: dataset.credits, isReady: () => ready })
  try {
    await fastify.listen({ port: config.port, host: config.host })
  } catch (error) {
    // Checked before the dataset was read, but the port may have been taken since.
    log.fatal(describeListenError(error as NodeJS.ErrnoException, config))
    process.exit(1)
  }
  // The port actually bound: with PORT=0 the system picks one, and whoever started us reads it here.
  const address = fastify.server.address()
  const port = typeof address === 'object' && address !== null ? address.port : config.port
  log.info({ readyMs: Math.round(performance.now() - startedAt), publicUrl: config.publicUrl, port }, 'ready')

  // Shutdown: /readyz fails at once and the server serves on for the drain delay, every answer
  // saying `Connection: close`, so a balancer has time to notice and no client is cut off; then it
  // stops accepting, finishes the answers in flight (src/http/server/graceful-close.ts) and exits.
  // A second signal skips what is left of the drain delay.
  let stopping = false
  let closing = false
  const close = () => {
    if (closing) return
    closing = true
    log.info('no longer accepting connections; finishing the answers in flight')
    const timer = setTimeout(() => {
      log.error('in-flight requests did not finish in time, exiting')
      process.exit(1)
    }, SHUTDOWN_GRACE_MS)
    timer.unref()
    fastify.close().then(() => {
      log.info('stopped')
      process.exit(0)
    }, (error: unknown) => {
      log.error({ err: error }, 'error while shutting down')
      process.exit(1)
    })
  }
  const stop = (signal: string) => {
    if (stopping) {
      close()
      return
    }
    stopping = true
    ready = false
    startDraining(fastify.server)
    log.info({ signal, drainMs: config.shutdownDrainMs }, 'shutting down')
    setTimeout(close, config.shutdownDrainMs)
  }
  process.on('SIGTERM', () => stop('SIGTERM'))
  process.on('SIGINT', () => stop('SIGINT'))
}

await main().catch((error: unknown) => {
  // Not a mistake of configuration but a bug. Left uncaught, Node would first print the source
  // line that threw: in the minified bundle (dist/server.js) that line is the whole program.
  process.stderr.write(`The server failed to start: ${error instanceof Error ? error.stack : String(error)}\n`)
  process.exit(1)
})
