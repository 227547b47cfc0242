import type { FastifyRateLimitStore } from '@fastify/rate-limit'
import type { Redis, Result } from 'ioredis'
import { isRedisTimeout, type RedisBreaker, type RedisOutageLog } from './redis-connection.ts'
import type { MemoryCounterStore } from './memory-counter-store.ts'

/** Prefix of the counters' keys in Redis (after any `keyPrefix` given in REDIS_URL's query). */
export const REDIS_KEY_NAMESPACE = 'enem-api:rate-limit:'

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

/** Teaches a Redis connection the counting script, once, before a RedisCounterStore counts through it. */
export function defineIncrementCommand (redis: Redis): void {
  redis.defineCommand(INCREMENT_COMMAND, { numberOfKeys: 1, lua: INCREMENT_SCRIPT })
}

/**
 * The shared store: counts in Redis and tells the outage log how each round trip went, so an
 * outage is reported once and its end noticed on the first request that counts again. While the
 * breaker is open (Redis connected but not answering in time) it counts in memory instead.
 */
export class RedisCounterStore implements FastifyRateLimitStore {
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
