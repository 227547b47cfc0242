import fastifyRateLimit, { type FastifyRateLimitStore, type FastifyRateLimitStoreCtor } from '@fastify/rate-limit'
import type { FastifyInstance } from 'fastify'
import fastifyPlugin from 'fastify-plugin'
import { rateLimitKey, validAddressOr } from '../client-address.ts'
import { REDIS_BREAKER, RedisBreaker, connectRedis, type RedisBreakerSettings } from '../rate-limit/redis-connection.ts'
import { LOCAL_STORE_MAX_CLIENTS, MemoryCounterStore } from '../rate-limit/memory-counter-store.ts'
import { RedisCounterStore, defineIncrementCommand } from '../rate-limit/redis-counter-store.ts'
import { RequestCounter } from '../rate-limit/request-counter.ts'

/** The key of a request whose socket is already gone (it cannot be answered anyway). */
const UNKNOWN_CLIENT = 'unknown'

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
  /** What the 429 says after its numbers (the app gives BULK_READS); nothing when absent. */
  refusalAdvice?: string
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
export const rateLimit = fastifyPlugin(async (scope: FastifyInstance, { max, windowMs, redisUrl, localStoreMaxClients = LOCAL_STORE_MAX_CLIENTS, redisBreaker = REDIS_BREAKER, refusalAdvice = '' }: RateLimitOptions) => {
  if (!Number.isInteger(max) || max < 1) throw new Error(`rate limit max must be an integer of at least 1, got ${max}`)
  if (!Number.isInteger(windowMs) || windowMs < 1) throw new Error(`rate limit window must be at least 1 ms, got ${windowMs}`)

  let store: FastifyRateLimitStore
  if (redisUrl === undefined) {
    store = new MemoryCounterStore(localStoreMaxClients)
  } else {
    const redis = await connectRedis(redisUrl, scope.log)
    defineIncrementCommand(redis.client)
    scope.addHook('onClose', async () => {
      await redis.close()
      scope.log.info('Redis connection closed')
    })
    const breaker = new RedisBreaker(scope.log, redisBreaker, () => redis.client.ping())
    store = new RedisCounterStore(redis.client, redis.outage, breaker, new MemoryCounterStore(localStoreMaxClients))
  }
  const counter = new RequestCounter(max, windowMs, store, refusalAdvice)
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
