import type { Redis } from 'ioredis'
import type { FastifyBaseLogger } from 'fastify'

/**
 * Longest a rate-limit round trip may take. Past it the request is served without counting:
 * a slow Redis must not make every API answer slow. Redis answers in well under a millisecond.
 */
export const REDIS_COMMAND_TIMEOUT_MS = 500
/** How long start-up waits for the first connection before serving without Redis (and saying so). */
const REDIS_CONNECT_TIMEOUT_MS = 2_000
/** Reconnection back-off cap: limiting resumes at most this long after Redis is back. */
const REDIS_RECONNECT_MAX_DELAY_MS = 1_000
/**
 * How long disconnecting waits for the socket to close. ioredis arms this timer even when the
 * socket is already gone (Redis down), and it then holds the process up for its whole length.
 */
const REDIS_DISCONNECT_TIMEOUT_MS = 200

/**
 * Tells the log once that Redis went away and once that it came back, however many requests or
 * reconnection attempts fail in between: a per-request warning would drown the log in an outage.
 */
export class RedisOutageLog {
  readonly #log: FastifyBaseLogger
  #down = false
  #closing = false

  constructor (log: FastifyBaseLogger) {
    this.#log = log
  }

  get down (): boolean {
    return this.#down
  }

  failed (error: unknown): void {
    if (this.#down || this.#closing) return
    this.#down = true
    this.#log.warn({ err: { message: error instanceof Error ? error.message : String(error) } },
      'Redis is unreachable: requests are served without rate limiting until it is back')
  }

  succeeded (): void {
    if (!this.#down || this.#closing) return
    this.#down = false
    this.#log.info('Redis is reachable again: rate limiting resumed')
  }

  /** A disconnection we asked for is not an outage. */
  closing (): void {
    this.#closing = true
  }
}

export interface RedisConnection {
  client: Redis
  outage: RedisOutageLog
  /** Closes the connection so the process can exit; safe to call when Redis is down. */
  close: () => Promise<void>
}

/**
 * Connects to Redis for the shared rate-limit counters. Commands fail fast while disconnected
 * (no offline queue, no retries, a short timeout) so an outage costs requests nothing but their
 * counting. Waits briefly for the first connection, so that a fresh replica counts from its first
 * request, but never refuses to start because of Redis.
 * @example const redis = await connectRedis('redis://127.0.0.1:6379', app.log)
 */
export async function connectRedis (url: string, log: FastifyBaseLogger): Promise<RedisConnection> {
  const outage = new RedisOutageLog(log)
  // Loaded here, not at the top: ioredis costs ~100 ms of start-up that a server without REDIS_URL never needs.
  const { Redis } = await import('ioredis')
  const client = new Redis(url, {
    connectionName: 'enem-api',
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    connectTimeout: REDIS_CONNECT_TIMEOUT_MS,
    disconnectTimeout: REDIS_DISCONNECT_TIMEOUT_MS,
    retryStrategy: (attempt) => Math.min(attempt * 100, REDIS_RECONNECT_MAX_DELAY_MS)
  })
  // Without an 'error' listener ioredis prints every failed reconnection attempt to the console.
  client.on('error', (error: unknown) => outage.failed(error))
  client.on('ready', () => outage.succeeded())

  await new Promise<void>((resolve) => {
    const settle = () => {
      clearTimeout(timer)
      client.off('ready', settle)
      client.off('error', settle)
      resolve()
    }
    const timer = setTimeout(() => {
      outage.failed(new Error(`no connection within ${REDIS_CONNECT_TIMEOUT_MS} ms`))
      settle()
    }, REDIS_CONNECT_TIMEOUT_MS)
    client.once('ready', settle)
    client.once('error', settle)
  })

  return {
    client,
    outage,
    close: async () => {
      outage.closing()
      if (client.status === 'ready') {
        try {
          await client.quit()
          return
        } catch {
          // Fall through: the connection broke while quitting.
        }
      }
      client.disconnect()
    }
  }
}
