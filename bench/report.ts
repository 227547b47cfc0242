import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import type { LoadResult } from './load.ts'

// ---------------------------------------------------------------------------------------------
// Figures

export function median (values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

export interface Summary {
  requestsPerSecond: number
  cpuUsPerRequest: number
  p50Ms: number
  p99Ms: number
  /** Summed over the runs, not a median: one error is one too many. */
  errors: number
  non2xx: number
  requests: number
  /** Bytes read per answer, headers included, over the runs. */
  bytesPerRequest: number
}

export function summarise (runs: RunResult[]): Summary {
  return {
    requestsPerSecond: median(runs.map((run) => run.requestsPerSecond)),
    cpuUsPerRequest: median(runs.map((run) => run.cpuUsPerRequest)),
    p50Ms: median(runs.map((run) => run.p50Ms)),
    p99Ms: median(runs.map((run) => run.p99Ms)),
    errors: runs.reduce((sum, run) => sum + run.errors, 0),
    non2xx: runs.reduce((sum, run) => sum + run.non2xx, 0),
    requests: runs.reduce((sum, run) => sum + run.requests, 0),
    bytesPerRequest: bytesPerRequest(runs)
  }
}

/** Bytes read per answer, headers included, over some runs. */
export function bytesPerRequest (runs: readonly LoadResult[]): number {
  return runs.reduce((sum, run) => sum + run.bytesRead, 0) / Math.max(1, runs.reduce((sum, run) => sum + run.requests, 0))
}

export interface Target {
  name: string
  /** The measured value, as printed. */
  value: string
  met: boolean
}

/**
 * A run's figures plus the server's CPU time per answered request: on a shared machine other
 * processes move requests/s a lot, CPU per request much less, so it is the steadier measure.
 */
export interface RunResult extends LoadResult {
  cpuUsPerRequest: number
}

export const fmt = {
  rps: (value: number) => Math.round(value).toLocaleString('en-US'),
  ms: (value: number) => value.toFixed(2),
  us: (value: number) => value.toFixed(1),
  mb: (value: number) => value.toFixed(0),
  kb: (bytes: number) => (bytes / 1000).toFixed(1)
}

export function table (headers: string[], rows: string[][]): string {
  const widths = headers.map((header, i) => Math.max(header.length, ...rows.map((row) => row[i]!.length)))
  const line = (cells: string[]) => `| ${cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join(' | ')} |`
  return [line(headers), `|${widths.map((width, i) => (i === 0 ? ':' : '-') + '-'.repeat(width) + (i === 0 ? '-' : ':')).join('|')}|`, ...rows.map(line)].join('\n')
}

// ---------------------------------------------------------------------------------------------
// The report

/** The machine the bench ran on, as the report and latest.json give it. */
export interface Machine {
  cores: number
  cpu: string
  node: string
  loader: string
  pinning: string
  rateLimitStore: string
}

/** The bench's settings, as latest.json gives them. */
export interface Settings {
  connections: number
  runs: number
  runSeconds: number
  warmupSeconds: number
  workerRunSeconds: number
  rateLimitMax: string
  logLevel: string
  dataset: string
}

/** Whether our answers carry the headers of the contract. */
export interface Contract {
  rateLimitHeaders: boolean
  cors: boolean
  etag: boolean
}

/** What the report reads of one scenario's figures, ours beside the ceiling's (run.ts's Scenario says what its targets mean). */
export interface ScenarioResult {
  name: string
  expectStatus: number
  json: boolean
  ratioTarget?: number
  p99TargetMs?: number
  singleQuestionShareTarget?: number
  singleQuestionCpuTarget?: number
  orCeilingCpu?: boolean
  cpuAtMostRows?: readonly string[]
  ceilingCpuTarget?: number
  unrepeated?: boolean
  ceilingPerByte?: boolean
  pathCount?: number
  pathsSent: number
  bodyBytes: number
  ours: { summary: Summary }
  ceiling: { summary: Summary }
  ratio: number
  cpuRatio: number
  /** The row whose CPU this one's is counted in (its cpuUnitRow), run beside it in each round: its name, its CPU per request, and this row's in it (median of the rounds' ratios). */
  unitPaired?: { name: string, cpuUsPerRequest: number, times: number } | undefined
}

/** 1 worker against 2, unpinned; start-up and memory are the 2-worker server's. */
export interface WorkerComparison {
  startupMs: number
  rssMb: number
  processes: number
  scenarios: Array<{ name: string, url: string, oneWorker: Summary, twoWorkers: Summary, speedup: number }>
}

/** Spawn to the first ready /readyz: with an empty start-up cache, and restarts that read it. */
export interface StartUp {
  coldMs: number
  restartRuns: number[]
  /** The median of the restarts. */
  restartMs: number
}

/** Everything the report and latest.json hold. */
export interface BenchOutcome {
  date: string
  machine: Machine
  settings: Settings
  /** How our server was started. */
  startCommand: string[]
  contract: Contract
  startup: StartUp
  memory: { rssMb: number, peakMb: number }
  results: ScenarioResult[]
  workers: WorkerComparison | undefined
  targets: Target[]
}

/** The targets each scenario, the start-up (median, in ms) and the memory after the load are held to. */
export function computeTargets (results: ScenarioResult[], startup: StartUp, memory: { rssMb: number }): Target[] {
  const targets: Target[] = []
  for (const result of results) {
    if (result.ratioTarget !== undefined) {
      targets.push({ name: `${result.name}: ratio to the ceiling >= ${result.ratioTarget}`, value: result.ratio.toFixed(2), met: result.ratio >= result.ratioTarget })
    }
    if (result.json) {
      const limit = result.p99TargetMs ?? 5
      targets.push({ name: `${result.name}: p99 < ${limit} ms`, value: `${fmt.ms(result.ours.summary.p99Ms)} ms`, met: result.ours.summary.p99Ms < limit })
    }
    const single = results.find((one) => one.name === 'single question')
    if (result.singleQuestionShareTarget !== undefined && single !== undefined) {
      const share = result.ours.summary.requestsPerSecond / single.ours.summary.requestsPerSecond
      targets.push({ name: `${result.name}: >= ${result.singleQuestionShareTarget} of the single question's req/s`, value: share.toFixed(2), met: share >= result.singleQuestionShareTarget })
    }
    if (result.singleQuestionCpuTarget !== undefined && result.unitPaired !== undefined) {
      const { name: unitRow, cpuUsPerRequest: unitUs, times } = result.unitPaired
      const value = `${times.toFixed(1)}x (${fmt.us(result.ours.summary.cpuUsPerRequest)} / ${fmt.us(unitUs)} us, the unit run beside it)`
      if (result.orCeilingCpu === true) {
        // cpuRatio is the ceiling's CPU over ours, per round: at least 1 when ours costs no more.
        const against = result.ceilingPerByte === true
          ? `the ceiling's per byte (answers of ${fmt.kb(result.ours.summary.bytesPerRequest)} KB on average, the ceiling's ${fmt.kb(result.ceiling.summary.bytesPerRequest)} KB)`
          : 'the ceiling\'s'
        targets.push({ name: `${result.name}: CPU per request <= ${result.singleQuestionCpuTarget}x the ${unitRow}'s, or <= the ceiling's for the same bytes`, value: `${value}; ${(1 / result.cpuRatio).toFixed(2)}x ${against}`, met: times <= result.singleQuestionCpuTarget || result.cpuRatio >= 1 })
      } else {
        targets.push({ name: `${result.name}: CPU per request <= ${result.singleQuestionCpuTarget}x the ${unitRow}'s`, value, met: times <= result.singleQuestionCpuTarget })
      }
    }
    if (result.cpuAtMostRows !== undefined) {
      const rows = result.cpuAtMostRows.map((name) => results.find((one) => one.name === name))
      const sum = rows.reduce((total, row) => total + (row?.ours.summary.cpuUsPerRequest ?? Number.NaN), 0)
      const us = result.ours.summary.cpuUsPerRequest
      targets.push({ name: `${result.name}: CPU per request <= the sum of what it replaces (${result.cpuAtMostRows.join(' + ')})`, value: `${fmt.us(us)} / ${fmt.us(sum)} us (${(us / sum).toFixed(2)}x)`, met: us <= sum })
    }
    if (result.ceilingCpuTarget !== undefined) {
      const times = 1 / result.cpuRatio
      targets.push({ name: `${result.name}: CPU per request <= ${result.ceilingCpuTarget}x the ceiling's for the same bytes`, value: `${times.toFixed(2)}x (${fmt.us(result.ours.summary.cpuUsPerRequest)} / ${fmt.us(result.ceiling.summary.cpuUsPerRequest)} us)`, met: times <= result.ceilingCpuTarget })
    }
    if (result.unrepeated === true && result.pathCount !== undefined) {
      targets.push({ name: `${result.name}: no path sent twice to our server`, value: `at most ${result.pathsSent.toLocaleString('en-US')} sent of ${result.pathCount.toLocaleString('en-US')}`, met: result.pathsSent <= result.pathCount })
    }
    const bad = result.ours.summary.errors + (result.expectStatus === 200 ? result.ours.summary.non2xx : 0)
    targets.push({ name: `${result.name}: no errors${result.expectStatus === 200 ? ', no non-2xx' : ''}`, value: String(bad), met: bad === 0 })
  }
  targets.push({ name: 'a restart ready in under 1.5 s (start-up cache)', value: `${startup.restartMs.toFixed(0)} ms (cold: ${startup.coldMs.toFixed(0)} ms)`, met: startup.restartMs < 1500 })
  targets.push({ name: 'RSS after load under 250 MB', value: `${fmt.mb(memory.rssMb)} MB`, met: memory.rssMb < 250 })
  return targets
}

/** The main table: every scenario, ours beside the ceiling. */
function resultsTable (results: ScenarioResult[]): string {
  return table(
    ['endpoint', 'bytes', 'ours req/s', 'p50 ms', 'p99 ms', 'err/non-2xx', 'CPU us/req', 'ceiling req/s', 'p50 ms', 'p99 ms', 'err/non-2xx', 'CPU us/req', 'ratio', 'CPU ratio'],
    results.map((result) => [
      result.name,
      String(result.bodyBytes),
      fmt.rps(result.ours.summary.requestsPerSecond),
      fmt.ms(result.ours.summary.p50Ms),
      fmt.ms(result.ours.summary.p99Ms),
      `${result.ours.summary.errors}/${result.ours.summary.non2xx}${result.expectStatus === 200 ? '' : ' (expected)'}`,
      fmt.us(result.ours.summary.cpuUsPerRequest),
      fmt.rps(result.ceiling.summary.requestsPerSecond),
      fmt.ms(result.ceiling.summary.p50Ms),
      fmt.ms(result.ceiling.summary.p99Ms),
      `${result.ceiling.summary.errors}/${result.ceiling.summary.non2xx}`,
      fmt.us(result.ceiling.summary.cpuUsPerRequest),
      result.ratio.toFixed(2),
      result.cpuRatio.toFixed(2)
    ])
  )
}

/** The 1-worker-against-2 table. */
function workersTable (workers: WorkerComparison): string {
  return table(
    ['endpoint (unpinned)', '1 worker req/s', 'p99 ms', 'CPU us/req', '2 workers req/s', 'p99 ms', 'CPU us/req', 'err/non-2xx', 'speed-up'],
    workers.scenarios.map((result) => [
      result.name,
      fmt.rps(result.oneWorker.requestsPerSecond),
      fmt.ms(result.oneWorker.p99Ms),
      fmt.us(result.oneWorker.cpuUsPerRequest),
      fmt.rps(result.twoWorkers.requestsPerSecond),
      fmt.ms(result.twoWorkers.p99Ms),
      fmt.us(result.twoWorkers.cpuUsPerRequest),
      `${result.oneWorker.errors + result.twoWorkers.errors}/${result.oneWorker.non2xx + result.twoWorkers.non2xx}`,
      `${result.speedup.toFixed(2)}x`
    ])
  )
}

/** The report printed at the end and written to latest.md; `wallTimeMs` is the whole bench's. */
export function composeReport (outcome: BenchOutcome, wallTimeMs: number): string {
  const { date, machine, settings, startCommand, startup, memory, results, workers, targets } = outcome
  return [
    `Date: ${date}. Machine: ${machine.cores} cores (${machine.cpu}), Node ${machine.node}. Load generator: ${machine.loader}, ${settings.connections} connections, ` +
      `median of ${settings.runs} runs x ${settings.runSeconds} s after a ${settings.warmupSeconds} s warm-up, ours and the ceiling alternating. Pinning: ${machine.pinning}.`,
    `Ours: ${startCommand.join(' ')} (as npm start), 1 worker, dataset ${settings.dataset}, rate limiting on (RATE_LIMIT_MAX=${settings.rateLimitMax}, ${machine.rateLimitStore} store), LOG_LEVEL=${settings.logLevel}. ` +
      'Ceiling: a bare node:http server answering the same bytes and headers from memory. err = socket errors and timeouts; non-2xx summed over the runs. ' +
      'CPU us/req: the server process\'s CPU time per answered request. ratio and CPU ratio: ours / ceiling (req/s) and ceiling / ours (CPU per request; of a row of megabyte answers whose ceiling answers only the first of its paths, CPU per byte answered) in each round, where the two ran back to back, median over the rounds.',
    '',
    resultsTable(results),
    '',
    `Start-up on the dataset, spawn to first ready /readyz: cold (empty start-up cache) ${startup.coldMs.toFixed(0)} ms; a restart (the cache read; median of ${startup.restartRuns.length}) ${startup.restartMs.toFixed(0)} ms. ` +
      `RSS after the load: ${fmt.mb(memory.rssMb)} MB (peak ${fmt.mb(memory.peakMb)} MB).`,
    '',
    ...(workers === undefined
      ? []
      : [
          `WEB_CONCURRENCY: 1 worker vs 2 workers, both unpinned (the load generator shares the ${machine.cores} cores), median of ${settings.runs} runs x ${settings.workerRunSeconds} s:`,
          '',
          workersTable(workers),
          '',
          `2 workers: ready in ${workers.startupMs.toFixed(0)} ms, RSS ${fmt.mb(workers.rssMb)} MB over ${workers.processes} processes (primary + workers; each worker holds its own copy of the dataset).`,
          ''
        ]),
    'Targets:',
    ...targets.map((target) => `- [${target.met ? 'x' : ' '}] ${target.name}: ${target.value}`),
    '',
    `Bench wall time: ${(wallTimeMs / 1000).toFixed(0)} s.`
  ].join('\n')
}

/** Writes the report to `dir`/latest.md and every figure to `dir`/latest.json. */
export function writeResults (dir: string, report: string, outcome: BenchOutcome): void {
  const { date, machine, settings, contract, startup, memory, results, workers, targets } = outcome
  mkdirSync(dir, { recursive: true })
  writeFileSync(path.join(dir, 'latest.md'), `${report}\n`)
  writeFileSync(path.join(dir, 'latest.json'), `${JSON.stringify({
    date,
    machine,
    settings,
    contract,
    startup,
    memory: { rssAfterLoadMb: memory.rssMb, peakRssMb: memory.peakMb },
    scenarios: results,
    workers,
    targets
  }, null, 2)}\n`)
}
