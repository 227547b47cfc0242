import type { FastifyRateLimitStore } from '@fastify/rate-limit'
import { rateLimitKey } from '../client-address.ts'
import { ApiError } from '../errors.ts'

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

/** The RateLimit-* headers of a counted answer, as the flat list writeHead takes; both request paths send these. */
export function rateLimitHeaderList (state: RateLimitState): Array<string | number> {
  return ['ratelimit-limit', state.limit, 'ratelimit-remaining', state.remaining, 'ratelimit-reset', state.resetSeconds]
}

/**
 * The one quota store of the app and how a request is counted in it: the Fastify routes' hook
 * (src/http/plugins/rate-limit.ts) and the fast path (src/http/server/fast-path.ts) both count with
 * `count`, send rateLimitHeaderList and refuse with `refusal`, so a client has one quota, and one
 * answer, whichever path serves it.
 */
export class RequestCounter {
  readonly max: number
  readonly windowMs: number
  readonly store: FastifyRateLimitStore
  /** What the 429 says after its numbers (the app's: where a client that reads everything should go instead). */
  readonly advice: string

  constructor (max: number, windowMs: number, store: FastifyRateLimitStore, advice = '') {
    this.max = max
    this.windowMs = windowMs
    this.store = store
    this.advice = advice
  }

  /**
   * The contract's 429 for a client whose window ends in `resetSeconds`: what the plugin throws for
   * the routes and what the fast path sends, so both refuse in the same words.
   */
  refusal (resetSeconds: number): ApiError {
    const seconds = Math.max(1, resetSeconds)
    return new ApiError(429, `Too many requests: at most ${this.max} per ${describeWindow(this.windowMs)} from one client; retry in ${seconds} s.${this.advice === '' ? '' : ` ${this.advice}`}`,
      { 'retry-after': String(seconds) })
  }

  /**
   * Counts one request of a client address; calls back with its state, at once with the memory
   * store. If the store fails the request is not counted (served, not refused).
   */
  count (clientAddress: string, callback: (state: RateLimitState) => void): void {
    this.store.incr(rateLimitKey(clientAddress), (error, result) => {
      const current = error === null && result !== undefined ? result.current : 0
      const ttl = error === null && result !== undefined ? result.ttl : 0
      callback({ limit: this.max, remaining: Math.max(0, this.max - current), resetSeconds: Math.ceil(ttl / 1000), exceeded: current > this.max })
    }, this.windowMs, this.max)
  }
}
