#!/usr/bin/env node
import { serveStdio } from '@modelcontextprotocol/server/stdio'
import { pino } from 'pino'
import { loadConfig } from './config.ts'
import { loadDataset } from './data/dataset/load-dataset.ts'
import { endpointAnswers } from './http/endpoint-answers.ts'
import { mcpServerFactory } from './mcp/mcp-server.ts'
import { ServedFiles } from './http/answers/served-files.ts'
import { checkDataDir, exitOnStartUpMistake } from './start-up-checks.ts'

/*
 * `npm run mcp` and the package's `enem-api-mcp`: the MCP tools of POST /mcp over stdio, for a
 * desktop assistant that starts the server itself, on a local dataset folder (ENEM_DATA_DIR; the
 * built-in sample without it). stdout carries the protocol and nothing else: the log goes to stderr.
 * The records' image addresses are built from PUBLIC_URL, as the HTTP server builds them: point it
 * at a server that serves the same dataset (`npm start` beside this, by default) for the links to open.
 */

async function main (): Promise<void> {
  let config
  try {
    config = loadConfig()
    await checkDataDir(config)
  } catch (error) {
    exitOnStartUpMistake(error)
  }
  const startedAt = performance.now()
  const log = pino({ name: 'enem-api-mcp', level: config.logLevel }, pino.destination({ fd: 2, sync: true }))
  const dataset = await loadDataset(config.dataDirs, { filesBaseUrl: `${config.publicUrl}/files` })
  if (dataset.catalog === null) {
    log.fatal(`${config.dataDir} has errors, refusing to start: ${dataset.report.summaryLine()}; \`npm run check-data -- ${config.dataDir}\` lists them all`)
    process.exit(1)
  }
  const { answers } = endpointAnswers(dataset.catalog)
  const files = new ServedFiles(dataset.servableFiles, `${config.publicUrl}/files`)
  const handle = serveStdio(mcpServerFactory({ answers, files, catalog: dataset.catalog, log }), {
    onerror: (error) => { log.error({ err: error }, 'MCP transport error') }
  })
  log.info({
    dataDir: config.dataDir,
    sample: config.usingSampleData,
    exams: dataset.catalog.listExams().length,
    questions: dataset.catalog.questionCount,
    readyMs: Math.round(performance.now() - startedAt)
  }, config.usingSampleData ? 'serving MCP on stdio from the built-in SAMPLE dataset (set ENEM_DATA_DIR to serve a full one)' : 'serving MCP on stdio')
  const stop = () => { handle.close().finally(() => process.exit(0)) }
  process.on('SIGTERM', stop)
  process.on('SIGINT', stop)
  // The client closing its end of the pipe ends the session: nothing else keeps the process.
  process.stdin.on('end', stop)
}

await main().catch((error: unknown) => {
  process.stderr.write(`The MCP server failed to start: ${error instanceof Error ? error.stack : String(error)}\n`)
  process.exit(1)
})
