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

/** When the breaker opens, and for how long it then leaves Redis alone. */
export interface RedisBreakerSettings {
  /** Consecutive timed-out round trips that open it. */
  timeoutsToOpen: number
  /** How long it stays open before a background PING asks whether Redis answers again. */
  openMs: number
}

export const REDIS_BREAKER: RedisBreakerSettings = { timeoutsToOpen: 3, openMs: 5_000 }

/** The message ioredis rejects a command with once REDIS_COMMAND_TIMEOUT_MS has passed. */
const TIMEOUT_MESSAGE = 'Command timed out'

export function isRedisTimeout (error: unknown): boolean {
  return error instanceof Error && error.message === TIMEOUT_MESSAGE
}

/**
 * A circuit breaker for a Redis that is connected but does not answer (frozen, swapping,
 * overloaded): each counted request would wait the whole command timeout. After
 * `timeoutsToOpen` timeouts in a row it opens: requests stop asking Redis (the store counts them
 * in memory meanwhile) and, every `openMs`, one PING in the background asks whether Redis answers
 * again; the first that does closes it. One log line when it opens and one when it closes.
 * A Redis that refuses connections fails at once and costs no waiting: that is RedisOutageLog's.
 */
export class RedisBreaker {
  readonly #log: FastifyBaseLogger
  readonly #settings: RedisBreakerSettings
  readonly #probe: () => Promise<unknown>
  #timeoutsInARow = 0
  /** 0 while closed; otherwise when the next probe may go. */
  #openUntil = 0
  #probing = false

  constructor (log: FastifyBaseLogger, settings: RedisBreakerSettings, probe: () => Promise<unknown>) {
    this.#log = log
    this.#settings = settings
    this.#probe = probe
  }

  get open (): boolean {
    return this.#openUntil !== 0
  }

  /** Whether a request may ask Redis now; while open, starts the next probe once its pause is over. */
  allowsRequests (): boolean {
    if (this.#openUntil === 0) return true
    if (!this.#probing && Date.now() >= this.#openUntil) this.#startProbe()
    return false
  }

  succeeded (): void {
    this.#timeoutsInARow = 0
  }

  timedOut (): void {
    if (this.#openUntil !== 0) return
    this.#timeoutsInARow++
    if (this.#timeoutsInARow < this.#settings.timeoutsToOpen) return
    this.#openUntil = Date.now() + this.#settings.openMs
    this.#log.warn({ timeouts: this.#timeoutsInARow, commandTimeoutMs: REDIS_COMMAND_TIMEOUT_MS, retryMs: this.#settings.openMs },
      'Redis is not answering in time: rate limits are counted in memory until it does')
  }

  #startProbe (): void {
    this.#probing = true
    this.#probe().then(() => {
      this.#probing = false
      this.#openUntil = 0
      this.#timeoutsInARow = 0
      this.#log.info('Redis answers in time again: rate limits are counted in Redis again')
    }, () => {
      this.#probing = false
      this.#openUntil = Date.now() + this.#settings.openMs
    })
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
  // Loaded here, not at the top: ioredis is a visible share of start-up that a server without REDIS_URL never needs.
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
