import autocannon from 'autocannon'

/**
 * The autocannon load generator, as its own process so that it never shares an event loop (or,
 * under taskset, a core) with the servers it measures. bench/run.ts starts it once, sends one
 * LoadJob per run over IPC and gets one LoadResult back; wrk, when installed, replaces it.
 */

export interface LoadJob {
  url: string
  connections: number
  durationSeconds: number
  headers: Record<string, string>
  /** Paths to request in turn, one per request, instead of the path of `url` every time. */
  paths?: string[]
  /** How many of `paths` to skip at the start (the run then goes on in turn, wrapping round). */
  startAt?: number
  /** A body to POST with every request, instead of a GET. */
  body?: string | undefined
}

/** One run's figures, in the same shape whichever generator produced them. */
export interface LoadResult {
  requests: number
  durationSeconds: number
  requestsPerSecond: number
  p50Ms: number
  p99Ms: number
  maxMs: number
  /** Socket errors and timeouts. */
  errors: number
  /** Responses whose status is not 2xx. */
  non2xx: number
  /** Bytes of every answer read, headers included. */
  bytesRead: number
}

function rotate (paths: string[], startAt: number): string[] {
  const start = startAt % paths.length
  return [...paths.slice(start), ...paths.slice(0, start)]
}

function isLoadJob (message: unknown): message is LoadJob {
  return typeof message === 'object' && message !== null && 'url' in message && 'connections' in message
}

process.on('message', (message: unknown) => {
  if (!isLoadJob(message)) throw new Error('load: expected a LoadJob')
  autocannon({
    url: message.url,
    connections: message.connections,
    duration: message.durationSeconds,
    headers: message.headers,
    ...(message.body === undefined ? {} : { method: 'POST' as const, body: message.body }),
    ...(message.paths === undefined ? {} : { requests: rotate(message.paths, message.startAt ?? 0).map((path) => ({ path })) })
  }).then((result) => {
    const reply: LoadResult = {
      requests: result.requests.total,
      durationSeconds: result.duration,
      requestsPerSecond: result.requests.total / result.duration,
      p50Ms: result.latency.p50,
      p99Ms: result.latency.p99,
      maxMs: result.latency.max,
      errors: result.errors + result.timeouts,
      non2xx: result.non2xx,
      bytesRead: result.throughput.total
    }
    process.send?.(reply)
  }, (error: unknown) => {
    process.stderr.write(`load: ${String(error)}\n`)
    process.exit(1)
  })
})

process.once('disconnect', () => process.exit(0))
