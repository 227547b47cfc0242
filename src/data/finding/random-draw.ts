import { randomInt } from 'node:crypto'
import { uniformInt } from 'pure-rand/distribution/uniformInt'
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus'

/** Seeds are unsigned 32-bit integers. */
export const SEED_MAX = 0xffff_ffff

/**
 * A seed for a request that named none.
 * @example drawDistinct(items, 1, pickSeed())
 */
export function pickSeed (): number {
  return randomInt(0, SEED_MAX + 1)
}

/**
 * Up to `count` distinct items drawn at random, in draw order: the first steps of a Fisher–Yates
 * shuffle driven by xoroshiro128+ seeded with `seed`, so the same seed and items give the same
 * draw, and pure-rand's uniformInt (unbiased: it rejects rather than folds out-of-range values)
 * makes every item equally likely at every step.
 * @example drawDistinct(['a', 'b', 'c'], 2, 42) // two of the three, the same two for seed 42
 */
export function drawDistinct<T> (items: readonly T[], count: number, seed: number): T[] {
  // xoroshiro128plus takes a 32-bit integer; `| 0` maps 0..2^32-1 onto it one to one.
  const rng = xoroshiro128plus(seed | 0)
  const drawn = Math.min(count, items.length)
  // The shuffle's swaps, by position, instead of a copy of the items: a draw of a few questions
  // from thousands allocates a few entries, not the whole list (measured as GC pauses under load).
  const itemAt = new Map<number, number>()
  const result: T[] = []
  for (let i = 0; i < drawn; i++) {
    const j = uniformInt(rng, i, items.length - 1)
    result.push(items[itemAt.get(j) ?? j]!)
    itemAt.set(j, itemAt.get(i) ?? i)
  }
  return result
}
