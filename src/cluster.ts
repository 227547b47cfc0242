import cluster, { type Worker } from 'node:cluster'
import os from 'node:os'
import type { Config, LogLevel } from './config.ts'
import { terminalLogDestination } from './log-destination.ts'

/*
 * WEB_CONCURRENCY=N: N worker processes on one port (node:cluster), so one machine's cores all
 * serve. Each worker is the ordinary server (src/server.ts): it loads the dataset itself (its own
 * time and memory per worker, figures in bench/results.md; nothing is shared between
 * workers) and runs its own rate limiter, so with the in-memory store each worker counts alone
 * (a client gets up to N times the limit); set REDIS_URL to share one count. The primary only
 * forks, restarts and forwards signals: it loads no dataset and serves nothing (it does import
 * the app's modules, as src/server.ts imports them statically).
 */

/** Pino's numeric levels, so the primary's lines read like the workers' in any log pipeline. */
const LEVEL_VALUES: Record<LogLevel, number> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60, silent: Infinity }

export type ClusterLog = (level: Exclude<LogLevel, 'silent'>, message: string, fields?: Record<string, unknown>) => void

/** One JSON line per event on stdout, in pino's shape (level, time, pid, hostname, msg); readable text in a terminal, as the workers'. */
export function jsonLineLog (threshold: LogLevel): ClusterLog {
  const hostname = os.hostname()
  const out = terminalLogDestination() ?? process.stdout
  return (level, message, fields = {}) => {
    if (LEVEL_VALUES[level] < LEVEL_VALUES[threshold]) return
    out.write(`${JSON.stringify({ level: LEVEL_VALUES[level], time: Date.now(), pid: process.pid, hostname, role: 'primary', ...fields, msg: message })}\n`)
  }
}

export interface ClusterOptions {
  /** Worker processes to keep running. */
  workers: number
  log: ClusterLog
  /**
   * How long workers get to finish after a forwarded SIGTERM/SIGINT before they are killed. Longer
   * than a worker's drain delay plus its own grace period, so this only catches a worker that hangs.
   */
  shutdownTimeoutMs?: number
}

const DEFAULT_SHUTDOWN_TIMEOUT_MS = 15_000

/**
 * Runs the cluster's primary: forks `workers` copies of this process's entry script, replaces a
 * worker that dies while the service runs, forwards SIGTERM/SIGINT to every worker and exits once
 * all of them have exited (0 when they all stopped cleanly). A worker that dies before it ever
 * listened failed to start (bad dataset, port taken): restarting it would only repeat that, so
 * the primary stops the others and exits 1 instead.
 * @example runPrimary({ workers: 2, log: jsonLineLog('info') })
 */
export function runPrimary ({ workers, log, shutdownTimeoutMs = DEFAULT_SHUTDOWN_TIMEOUT_MS }: ClusterOptions): void {
  const listening = new WeakSet<Worker>()
  let stopping: NodeJS.Signals | undefined
  let failed = false

  const fork = () => {
    const worker = cluster.fork()
    log('info', 'worker started', { workerId: worker.id, workerPid: worker.process.pid })
  }

  const exitWhenAllGone = () => {
    if (Object.keys(cluster.workers ?? {}).length > 0) return
    log(failed ? 'error' : 'info', 'all workers exited', { exitCode: failed ? 1 : 0 })
    process.exit(failed ? 1 : 0)
  }

  const stop = (signal: NodeJS.Signals) => {
    if (stopping !== undefined) return
    stopping = signal
    log('info', 'shutting down workers', { signal })
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal)
    const timer = setTimeout(() => {
      log('error', 'workers did not exit in time, killing them')
      failed = true
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGKILL')
    }, shutdownTimeoutMs)
    timer.unref()
    exitWhenAllGone()
  }

  cluster.on('listening', (worker, address) => {
    listening.add(worker)
    log('info', 'worker listening', { workerId: worker.id, workerPid: worker.process.pid, port: address.port })
  })

  cluster.on('exit', (worker, code, signal) => {
    const how = { workerId: worker.id, workerPid: worker.process.pid, code, signal }
    if (stopping !== undefined) {
      // A worker that had not yet installed its own signal handlers dies of the signal itself; that is the stop we asked for.
      const clean = code === 0 || (code === null && signal === stopping)
      if (!clean) failed = true
      log(clean ? 'info' : 'warn', 'worker exited', how)
      exitWhenAllGone()
      return
    }
    if (!listening.has(worker)) {
      log('fatal', 'a worker failed to start; stopping', how)
      failed = true
      stop('SIGTERM')
      return
    }
    log('error', 'worker died unexpectedly; starting a new one', how)
    fork()
  })

  process.on('SIGTERM', () => stop('SIGTERM'))
  process.on('SIGINT', () => stop('SIGINT'))

  log('info', `starting ${workers} workers`, { workers })
  for (let i = 0; i < workers; i++) fork()
}

/**
 * The branch at the top of the server: with WEB_CONCURRENCY above 1, the first process becomes the
 * primary (and this returns true: it must not serve); workers, and a single-process server, get false.
 * @example if (startClusterPrimary(config)) return
 */
export function startClusterPrimary (config: Pick<Config, 'webConcurrency' | 'logLevel' | 'shutdownDrainMs'>): boolean {
  if (config.webConcurrency <= 1 || !cluster.isPrimary) return false
  // Workers serve on through their drain delay before their own grace period begins.
  runPrimary({ workers: config.webConcurrency, log: jsonLineLog(config.logLevel), shutdownTimeoutMs: config.shutdownDrainMs + DEFAULT_SHUTDOWN_TIMEOUT_MS })
  return true
}
