import type { FastifyRateLimitStore } from '@fastify/rate-limit'
import type { FastifyInstance } from 'fastify'
import fastifyPlugin from 'fastify-plugin'
import { validAddressOr } from '../client-address.ts'
import { REDIS_BREAKER, RedisBreaker, connectRedis, type RedisBreakerSettings } from '../rate-limit/redis-connection.ts'
import { LOCAL_STORE_MAX_CLIENTS, MemoryCounterStore } from '../rate-limit/memory-counter-store.ts'
import { RedisCounterStore, defineIncrementCommand } from '../rate-limit/redis-counter-store.ts'
import { RequestCounter, rateLimitHeaderList } from '../rate-limit/request-counter.ts'

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
 * `requestCounter`, for the fast path. The stores keep @fastify/rate-limit's store interface and
 * arithmetic; the counting itself is RequestCounter's, the one both request paths call.
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

  // Before anything else of the route runs, so a refused request costs nothing more; counted by the
  // very call the fast path makes, so both paths count, answer and refuse alike. request.ip believes
  // whatever a trusted hop forwarded; the key is only ever an IP address, as on the fast path.
  // Callback-style: the in-memory store answers at once, without a promise or a microtask.
  scope.addHook('onRequest', (request, reply, done) => {
    counter.count(validAddressOr(request.ip, request.socket.remoteAddress) ?? UNKNOWN_CLIENT, (state) => {
      const headers = rateLimitHeaderList(state)
      for (let i = 0; i < headers.length; i += 2) reply.header(headers[i] as string, headers[i + 1])
      if (!state.exceeded) {
        done()
        return
      }
      // Retry-After on the reply too, as @fastify/rate-limit set it: whatever error handler answers keeps it.
      const refusal = counter.refusal(state.resetSeconds)
      reply.headers(refusal.headers)
      done(refusal)
    })
  })
}, { name: 'enem-rate-limit', fastify: '5.x' })
