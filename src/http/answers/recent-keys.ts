/** Slots of the RecentKeys table: a power of two. */
const DEFAULT_SLOTS = 1 << 16

/**
 * Tells whether a key was asked for recently, so that a cache keeps only what is asked for twice.
 * Most searches are asked once: keeping every one-off answer would only churn the caches, and
 * what a full cache evicts is work for the garbage collector. Remembers a 32-bit hash of each key
 * in a fixed table (one slot per hash, a newer key overwriting an older one), so it allocates
 * nothing per key and its size never grows. A collision at worst keeps a one-off answer.
 * @example const repeats = new RecentKeys(); repeats.seenBefore('a') === false; repeats.seenBefore('a') === true
 */
export class RecentKeys {
  readonly #hashes: Uint32Array
  readonly #mask: number

  constructor (slots: number = DEFAULT_SLOTS) {
    if (!Number.isInteger(Math.log2(slots))) throw new Error(`RecentKeys slots must be a power of two, got ${slots}`)
    this.#hashes = new Uint32Array(slots)
    this.#mask = slots - 1
  }

  /** Whether `key` was asked for before (and not pushed out since); remembers it either way. */
  seenBefore (key: string): boolean {
    const hash = fnv1a(key)
    const slot = hash & this.#mask
    if (this.#hashes[slot] === hash) return true
    this.#hashes[slot] = hash
    return false
  }
}

/** 32-bit FNV-1a over the string's UTF-16 code units; never 0, the value of an empty slot. */
function fnv1a (text: string): number {
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193)
  }
  return (hash >>> 0) || 1
}
