import fastifyRateLimit, { type FastifyRateLimitStore } from '@fastify/rate-limit'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import fastifyPlugin from 'fastify-plugin'
import type { Redis, Result } from 'ioredis'
import { ApiError } from '../errors.ts'
import type { CountRequest } from '../fast-path.ts'
import { connectRedis, type RedisOutageLog } from './redis.ts'

/**
 * Most clients whose counters the in-memory store keeps (least recently seen are dropped first).
 * Bounds memory whatever the number of distinct addresses: about 25 MB of heap when full, and flat
 * from there (bench/rate-limit-memory.ts). Dropping a counter only gives that client a fresh
 * quota, so the bound matters only when more distinct clients than this are active within one window.
 */
export const LOCAL_STORE_MAX_CLIENTS = 100_000

/** Prefix of the counters' keys in Redis (after any `keyPrefix` given in REDIS_URL's query). */
export const REDIS_KEY_NAMESPACE = 'enem-api:rate-limit:'

/** The response headers of the IETF RateLimit draft, which @fastify/rate-limit sends with enableDraftSpec. */
export const RATE_LIMIT_HEADERS = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'] as const

export interface RateLimitOptions {
  /** Requests allowed per window and client; must be at least 1 (do not register the plugin to turn limiting off). */
  max: number
  /** Window length in milliseconds. */
  windowMs: number
  /** With it, counters live in Redis and every replica on that Redis shares one limit per client. */
  redisUrl?: string | undefined
  /** Bound of the in-memory store (without Redis); LOCAL_STORE_MAX_CLIENTS unless a test wants it small. */
  localStoreMaxClients?: number
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

/**
 * The shared store: counts in Redis and tells the outage log how each round trip went, so an
 * outage is reported once and its end noticed on the first request that counts again.
 */
class RedisCounterStore implements FastifyRateLimitStore {
  readonly #redis: Redis
  readonly #outage: RedisOutageLog

  constructor (redis: Redis, outage: RedisOutageLog) {
    this.#redis = redis
    this.#outage = outage
  }

  incr (key: string, callback: (error: Error | null, result?: { current: number, ttl: number }) => void, timeWindow: number): void {
    this.#redis.enemRateLimitIncrement(REDIS_KEY_NAMESPACE + key, timeWindow).then(([current, ttl]) => {
      this.#outage.succeeded()
      callback(null, { current, ttl })
    }, (error: Error) => {
      this.#outage.failed(error)
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

/**
 * Rate limiting per client address (`request.ip`: the socket's, or what TRUST_PROXY allows to
 * be believed; IPv6 clients are counted per /64). Applies to the routes of the scope it is
 * registered in, which is how only the /v1 exam routes are counted. Every counted answer, errors
 * included, carries RateLimit-Limit/-Remaining/-Reset; a refusal is the contract's 429 with
 * Retry-After in seconds. With REDIS_URL the counters are shared; if Redis fails, requests are
 * served uncounted (logged once per outage) rather than refused.
 * @see https://github.com/fastify/fastify-rate-limit
 * @example await scope.register(rateLimit, { max: 600, windowMs: 60_000 })
 */
export const rateLimit = fastifyPlugin(async (scope: FastifyInstance, { max, windowMs, redisUrl, localStoreMaxClients = LOCAL_STORE_MAX_CLIENTS }: RateLimitOptions) => {
  if (!Number.isInteger(max) || max < 1) throw new Error(`rate limit max must be an integer of at least 1, got ${max}`)
  if (!Number.isInteger(windowMs) || windowMs < 1) throw new Error(`rate limit window must be at least 1 ms, got ${windowMs}`)

  let store: (new () => FastifyRateLimitStore) | undefined
  if (redisUrl !== undefined) {
    const redis = await connectRedis(redisUrl, scope.log)
    redis.client.defineCommand(INCREMENT_COMMAND, { numberOfKeys: 1, lua: INCREMENT_SCRIPT })
    scope.addHook('onClose', async () => {
      await redis.close()
      scope.log.info('Redis connection closed')
    })
    // @fastify/rate-limit builds its store with `new Store(options)`; this binds ours to the connection.
    store = class extends RedisCounterStore {
      constructor () { super(redis.client, redis.outage) }
    }
  }

  await scope.register(fastifyRateLimit, {
    global: true,
    max,
    timeWindow: windowMs,
    // Before anything else of the route runs, so a refused request costs nothing more.
    hook: 'onRequest',
    cache: localStoreMaxClients,
    store,
    skipOnError: true,
    enableDraftSpec: true,
    errorResponseBuilder: (_request, { ttl }) => {
      const seconds = Math.max(1, Math.ceil(ttl / 1000))
      return new ApiError(429, `Too many requests: at most ${max} per ${describeWindow(windowMs)} from one client; retry in ${seconds} s`,
        { 'retry-after': String(seconds) })
    }
  })
}, { name: 'enem-rate-limit', fastify: '5.x' })

/** The request-like object createRateLimit reads: the client address (for the key) and route options (for a group id). */
interface CountedRequest {
  ip: string
  routeOptions: Record<string, never>
}

/**
 * Counts a request of the fast path (src/http/fast-path.ts) against the same quota and store as
 * the routes of `scope`, through the plugin's documented createRateLimit. Call after registering
 * rateLimit in `scope`.
 */
export function requestCounter (scope: FastifyInstance): CountRequest {
  const check = scope.createRateLimit()
  return (ip) => {
    const request: CountedRequest = { ip, routeOptions: {} }
    return check(request as unknown as FastifyRequest).then((result) => {
      if (result.isAllowed) throw new Error('rate limit: no allow list is configured, yet a client was allowed')
      return { limit: result.max, remaining: result.remaining, resetSeconds: result.ttlInSeconds, exceeded: result.isExceeded }
    })
  }
}
