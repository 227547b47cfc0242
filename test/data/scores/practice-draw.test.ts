import { test } from 'node:test'
import assert from 'node:assert/strict'
import { fisherInformation, itemDifficulty, thetaOfScore } from '../../../src/data/inep-3pl.ts'
import { candidatePoolSize, drawPractice, largest, mostInformative } from '../../../src/data/scores/practice-draw.ts'
import type { Question } from '../../../src/data/record-schemas.ts'

/** P(right | θ) of a 3PL item, D = 1, written out here. */
const probability = ({ a, b, c }: { a: number, b: number, c: number }, theta: number) => c + (1 - c) / (1 + Math.exp(-a * (theta - b)))

test('the Fisher information is P\'(θ)² / (P(1 − P)), the slope taken numerically, across items and abilities', () => {
  for (const item of [{ a: 1, b: 0, c: 0 }, { a: 2.5, b: 1.2, c: 0.25 }, { a: 0.7, b: -1.5, c: 0.1 }, { a: 4.35472, b: 1.09202, c: 0.14701 }]) {
    for (const theta of [-3, -1, 0, 0.5, 1.1, 2, 3.5]) {
      const step = 1e-5
      const slope = (probability(item, theta + step) - probability(item, theta - step)) / (2 * step)
      const p = probability(item, theta)
      const expected = slope * slope / (p * (1 - p))
      assert.ok(Math.abs(fisherInformation(item, theta) - expected) <= 1e-6 * Math.max(1, expected), `${JSON.stringify(item)} at ${theta}`)
    }
  }
})

test('an item\'s difficulty is its b on the score scale, where P is halfway between c and 1', () => {
  const item = { a: 2, b: 0.8, c: 0.2 }
  const difficulty = itemDifficulty('CN', item)!
  assert.equal(difficulty, Math.round((113.102 * 0.8 + 501.144) * 10) / 10)
  assert.ok(Math.abs(probability(item, thetaOfScore('CN', difficulty)) - (0.2 + 0.8 / 2)) < 1e-3)
  assert.equal(itemDifficulty('CN', null), null)
})

/** A record with just what practice reads. */
function record (index: number, item: number | null, irt: { a: number, b: number, c: number } | null, flags: { annulled?: boolean, excluded?: boolean } = {}): Question {
  return {
    title: `Questão ${index}`,
    index,
    discipline: 'matematica',
    language: null,
    year: 2020,
    application: 'regular',
    context: null,
    files: [],
    correctAlternative: 'A',
    alternativesIntroduction: null,
    alternatives: [],
    inep: { item, area: 'MT', skill: 1, key: flags.annulled === true ? 'X' : 'A', annulled: flags.annulled === true, excludedFromScoring: flags.excluded === true, irt, difficulty: itemDifficulty('MT', irt), booklet: null, sources: [] },
    incomplete: null
  }
}

test('the pool: most informative first, one record per item, only records with parameters that count', () => {
  const records = [
    record(1, 10, { a: 2, b: 0, c: 0.2 }),
    record(2, 10, { a: 2, b: 0, c: 0.2 }), // the same item again
    record(3, 11, { a: 1, b: 0, c: 0.2 }),
    record(4, 12, { a: 3, b: 2, c: 0.2 }),
    record(5, 13, null),
    record(6, 14, { a: 5, b: 0, c: 0.1 }, { annulled: true }),
    record(7, 15, { a: 5, b: 0, c: 0.1 }, { excluded: true }),
    record(8, null, { a: 1.5, b: 0, c: 0.2 })
  ]
  const pool = mostInformative(records, 0, 10)
  assert.deepEqual(pool.map((entry) => entry.question.index), [1, 8, 3, 4])
  assert.ok(pool.every((entry, at) => at === 0 || pool[at - 1]!.information >= entry.information))
  assert.equal(candidatePoolSize(1), 30)
  assert.equal(candidatePoolSize(10), 50)
})

test('a draw is pure and easiest first', () => {
  const records = Array.from({ length: 80 }, (_, at) => record(at + 1, 1000 + at, { a: 1 + (at % 7) / 3, b: -2 + at / 20, c: 0.15 }))
  const first = drawPractice(records, 'MT', 640, 10, 99)
  assert.deepEqual(drawPractice(records, 'MT', 640, 10, 99), first)
  assert.equal(first.questions.length, 10)
  const difficulties = first.questions.map((question) => question.inep!.difficulty!)
  assert.deepEqual(difficulties, [...difficulties].sort((a, b) => a - b))
  assert.deepEqual(first.target, { discipline: 'matematica', score: 640, theta: Math.round((640 - 500.02) / 129.646 * 10_000) / 10_000 })
})

test('the selection that bounds the pool finds the k-th largest value, whatever the order and ties', () => {
  for (let round = 0; round < 200; round++) {
    const values = Float64Array.from({ length: 1 + (round % 40) }, (_, at) => Math.floor(Math.sin(round * 31 + at * 7) * 10))
    const sorted = [...values].sort((a, b) => b - a)
    for (let rank = 1; rank <= values.length; rank++) assert.equal(largest(values, rank), sorted[rank - 1], `${[...values]} rank ${rank}`)
  }
})
