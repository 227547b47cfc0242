import type { FastifyRateLimitStore } from '@fastify/rate-limit'
import { LRUCache } from 'lru-cache'

/**
 * Most clients whose counters the in-memory store keeps (least recently seen are dropped first).
 * Every key is an IP address of at most 45 characters (src/http/client-address.ts), never text a
 * client chose, so this bounds the store's bytes as well as its entries whatever the traffic; the
 * docs/operations.md ("Running in production") gives the heap it takes when full, as bench/rate-limit-memory.ts measures it. Dropping a
 * counter only gives that client a fresh quota, so the bound matters only when more distinct
 * clients than this are active within one window.
 */
export const LOCAL_STORE_MAX_CLIENTS = 100_000

/**
 * The heap the in-memory store may take when full, with the longest keys there are (IPv6 /64
 * prefixes), and the IPv6 key cache of src/http/client-address.ts full too. Measured by
 * bench/rate-limit-memory.ts; test/http/rate-limit-key.test.ts holds the store to it.
 */
export const LOCAL_STORE_MAX_HEAP_BYTES = 20 * 1024 * 1024

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
