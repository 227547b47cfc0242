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
  const pool = [...items]
  const drawn = Math.min(count, pool.length)
  for (let i = 0; i < drawn; i++) {
    const j = uniformInt(rng, i, pool.length - 1)
    const chosen = pool[j]!
    pool[j] = pool[i]!
    pool[i] = chosen
  }
  return pool.slice(0, drawn)
}
