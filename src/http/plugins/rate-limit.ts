import fastifyRateLimit, { type FastifyRateLimitStore, type FastifyRateLimitStoreCtor } from '@fastify/rate-limit'
import type { FastifyInstance } from 'fastify'
import fastifyPlugin from 'fastify-plugin'
import type { Redis, Result } from 'ioredis'
import { LRUCache } from 'lru-cache'
import { rateLimitKey, validAddressOr } from '../server/client-address.ts'
import { ApiError } from '../errors.ts'
import { endpointUrl } from '../endpoints.ts'
import { REDIS_BREAKER, RedisBreaker, connectRedis, isRedisTimeout, type RedisBreakerSettings, type RedisOutageLog } from './redis.ts'

/** Where a 429 sends a client that reads everything: bulk clients that page until refused turn 429s into holes in their data. */
export const BULK_READS = `To read every question, download ${endpointUrl('exportQuestions')} (one request) instead of paging.`

/**
 * Most clients whose counters the in-memory store keeps (least recently seen are dropped first).
 * Every key is an IP address of at most 45 characters (src/http/server/client-address.ts), never text a
 * client chose, so this bounds the store's bytes as well as its entries whatever the traffic; the
 * README gives the heap it takes when full, as bench/rate-limit-memory.ts measures it. Dropping a
 * counter only gives that client a fresh quota, so the bound matters only when more distinct
 * clients than this are active within one window.
 */
export const LOCAL_STORE_MAX_CLIENTS = 100_000

/**
 * The heap the in-memory store may take when full, with the longest keys there are (IPv6 /64
 * prefixes), and the IPv6 key cache of src/http/server/client-address.ts full too. Measured by
 * bench/rate-limit-memory.ts; test/http/rate-limit-key.test.ts holds the store to it.
 */
export const LOCAL_STORE_MAX_HEAP_BYTES = 20 * 1024 * 1024

/** The key of a request whose socket is already gone (it cannot be answered anyway). */
const UNKNOWN_CLIENT = 'unknown'

/** Prefix of the counters' keys in Redis (after any `keyPrefix` given in REDIS_URL's query). */
export const REDIS_KEY_NAMESPACE = 'enem-api:rate-limit:'

export interface RateLimitOptions {
  /** Requests allowed per window and client; must be at least 1 (do not register the plugin to turn limiting off). */
  max: number
  /** Window length in milliseconds. */
  windowMs: number
  /** With it, counters live in Redis and every replica on that Redis shares one limit per client. */
  redisUrl?: string | undefined
  /** Bound of the in-memory store (without Redis); LOCAL_STORE_MAX_CLIENTS unless a test wants it small. */
  localStoreMaxClients?: number
  /** When the Redis circuit breaker opens and for how long; REDIS_BREAKER unless a test wants it quick. */
  redisBreaker?: RedisBreakerSettings
}

const INCREMENT_COMMAND = 'enemRateLimitIncrement'

/**
 * A fixed window per key: the first request starts it, INCR counts, PTTL says when it ends.
 * One atomic script, so concurrent replicas never lose a count or extend a window. A key left
 * without expiry (which should never happen) gets one, rather than blocking its client for good.
 */
const INCREMENT_SCRIPT = `
local current = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if current == 1 or ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {current, ttl}
`

declare module 'ioredis' {
  interface RedisCommander<Context> {
    enemRateLimitIncrement (key: string, windowMs: number): Result<[number, number], Context>
  }
}

/** One client's fixed window: when it began and how many requests it has counted. */
interface CounterWindow {
  startedAt: number
  count: number
}

/**
 * The in-memory store: a fixed window per key in an LRU of at most `maxClients` keys. Answers
 * synchronously, so the fast path counts a request without a promise or a microtask. Same
 * arithmetic as @fastify/rate-limit's own LocalStore (which is not part of its public API).
 */
export class MemoryCounterStore implements FastifyRateLimitStore {
  readonly #windows: LRUCache<string, CounterWindow>

  constructor (maxClients: number) {
    this.#windows = new LRUCache({ max: maxClients })
  }

  incr (key: string, callback: (error: Error | null, result?: { current: number, ttl: number }) => void, timeWindow: number): void {
    const now = Date.now()
    let window = this.#windows.get(key)
    if (window === undefined || window.startedAt + timeWindow <= now) {
      window = { startedAt: now, count: 0 }
      this.#windows.set(key, window)
    }
    window.count++
    callback(null, { current: window.count, ttl: window.startedAt + timeWindow - now })
  }

  child (): FastifyRateLimitStore {
    return this
  }

  /** The keys it holds, most recently used first (for tests and measurements). */
  keys (): string[] {
    return [...this.#windows.keys()]
  }
}

/**
 * The shared store: counts in Redis and tells the outage log how each round trip went, so an
 * outage is reported once and its end noticed on the first request that counts again. While the
 * breaker is open (Redis connected but not answering in time) it counts in memory instead.
 */
class RedisCounterStore implements FastifyRateLimitStore {
  readonly #redis: Redis
  readonly #outage: RedisOutageLog
  readonly #breaker: RedisBreaker
  readonly #fallback: MemoryCounterStore

  constructor (redis: Redis, outage: RedisOutageLog, breaker: RedisBreaker, fallback: MemoryCounterStore) {
    this.#redis = redis
    this.#outage = outage
    this.#breaker = breaker
    this.#fallback = fallback
  }

  incr (key: string, callback: (error: Error | null, result?: { current: number, ttl: number }) => void, timeWindow: number): void {
    if (!this.#breaker.allowsRequests()) {
      this.#fallback.incr(key, callback, timeWindow)
      return
    }
    this.#redis.enemRateLimitIncrement(REDIS_KEY_NAMESPACE + key, timeWindow).then(([current, ttl]) => {
      this.#breaker.succeeded()
      this.#outage.succeeded()
      callback(null, { current, ttl })
    }, (error: Error) => {
      // A timeout is a Redis that is there but slow: the breaker's. Anything else is an outage.
      if (isRedisTimeout(error)) this.#breaker.timedOut()
      else this.#outage.failed(error)
      callback(error)
    })
  }

  /** Routes have no limits of their own: every counted route draws on the client's one quota. */
  child (): FastifyRateLimitStore {
    return this
  }
}

function describeWindow (windowMs: number): string {
  if (windowMs % 1000 !== 0) return `${windowMs} ms`
  const seconds = windowMs / 1000
  return seconds === 1 ? '1 second' : `${seconds} seconds`
}

/** A client's standing after counting one request, as the RateLimit-* headers tell it. */
export interface RateLimitState {
  limit: number
  remaining: number
  resetSeconds: number
  exceeded: boolean
}

/**
 * The one quota store of the app and how a request is counted in it: @fastify/rate-limit counts
 * the Fastify routes through it, and the fast path (src/http/server/fast-path.ts) counts its own
 * requests with `count`, by the same key and with the plugin's arithmetic, so a client has one
 * quota whichever path answers it.
 */
export class RequestCounter {
  readonly max: number
  readonly windowMs: number
  readonly store: FastifyRateLimitStore

  constructor (max: number, windowMs: number, store: FastifyRateLimitStore) {
    this.max = max
    this.windowMs = windowMs
    this.store = store
  }

  /**
   * The contract's 429 for a client whose window ends in `resetSeconds`: what the plugin throws for
   * the routes and what the fast path sends, so both refuse in the same words.
   */
  refusal (resetSeconds: number): ApiError {
    const seconds = Math.max(1, resetSeconds)
    return new ApiError(429, `Too many requests: at most ${this.max} per ${describeWindow(this.windowMs)} from one client; retry in ${seconds} s. ${BULK_READS}`,
      { 'retry-after': String(seconds) })
  }

  /**
   * Counts one request of a client address; calls back with its state, at once with the memory
   * store. If the store fails the request is not counted (the plugin's skipOnError).
   */
  count (clientAddress: string, callback: (state: RateLimitState) => void): void {
    this.store.incr(rateLimitKey(clientAddress), (error, result) => {
      const current = error === null && result !== undefined ? result.current : 0
      const ttl = error === null && result !== undefined ? result.ttl : 0
      callback({ limit: this.max, remaining: Math.max(0, this.max - current), resetSeconds: Math.ceil(ttl / 1000), exceeded: current > this.max })
    }, this.windowMs, this.max)
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The quota store of the routes this scope counts (set by the rateLimit plugin). */
    requestCounter: RequestCounter
  }
}

/**
 * Rate limiting per client address (`request.ip`: the socket's, or what TRUST_PROXY allows to
 * be believed; IPv6 clients are counted per /64). Applies to the routes of the scope it is
 * registered in, which is how only the /v1 exam routes are counted. Every counted answer, errors
 * included, carries RateLimit-Limit/-Remaining/-Reset; a refusal is the contract's 429 with
 * Retry-After in seconds. With REDIS_URL the counters are shared; if Redis fails, requests are
 * served uncounted (logged once per outage) rather than refused. Decorates the scope with its
 * `requestCounter`, for the fast path.
 * @see https://github.com/fastify/fastify-rate-limit
 * @example await scope.register(rateLimit, { max: 600, windowMs: 60_000 })
 */
export const rateLimit = fastifyPlugin(async (scope: FastifyInstance, { max, windowMs, redisUrl, localStoreMaxClients = LOCAL_STORE_MAX_CLIENTS, redisBreaker = REDIS_BREAKER }: RateLimitOptions) => {
  if (!Number.isInteger(max) || max < 1) throw new Error(`rate limit max must be an integer of at least 1, got ${max}`)
  if (!Number.isInteger(windowMs) || windowMs < 1) throw new Error(`rate limit window must be at least 1 ms, got ${windowMs}`)

  let store: FastifyRateLimitStore
  if (redisUrl === undefined) {
    store = new MemoryCounterStore(localStoreMaxClients)
  } else {
    const redis = await connectRedis(redisUrl, scope.log)
    redis.client.defineCommand(INCREMENT_COMMAND, { numberOfKeys: 1, lua: INCREMENT_SCRIPT })
    scope.addHook('onClose', async () => {
      await redis.close()
      scope.log.info('Redis connection closed')
    })
    const breaker = new RedisBreaker(scope.log, redisBreaker, () => redis.client.ping())
    store = new RedisCounterStore(redis.client, redis.outage, breaker, new MemoryCounterStore(localStoreMaxClients))
  }
  const counter = new RequestCounter(max, windowMs, store)
  scope.decorate('requestCounter', counter)

  await scope.register(fastifyRateLimit, {
    global: true,
    max,
    timeWindow: windowMs,
    // Before anything else of the route runs, so a refused request costs nothing more.
    hook: 'onRequest',
    // @fastify/rate-limit builds its store with `new Store(options)`; this hands it the counter's own.
    store: sharedStore(store),
    skipOnError: true,
    // request.ip believes whatever a trusted hop forwarded; the key is only ever an IP address, as on the fast path.
    keyGenerator: (request) => rateLimitKey(validAddressOr(request.ip, request.socket.remoteAddress) ?? UNKNOWN_CLIENT),
    enableDraftSpec: true,
    errorResponseBuilder: (_request, { ttl }) => counter.refusal(Math.ceil(ttl / 1000))
  })
}, { name: 'enem-rate-limit', fastify: '5.x' })

/** A store "class" whose every instance is this one store (a constructor that returns an object yields that object). */
function sharedStore (store: FastifyRateLimitStore): FastifyRateLimitStoreCtor {
  return function SharedStore () { return store } as unknown as FastifyRateLimitStoreCtor
}
