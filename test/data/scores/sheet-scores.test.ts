import { test } from 'node:test'
import assert from 'node:assert/strict'
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus'
import { uniformInt } from 'pure-rand/distribution/uniformInt'
import { readBookletTables } from '../../../src/data/scores/booklet-table.ts'
import { isSheetProblem, SheetScorer, type SheetScore } from '../../../src/data/scores/sheet-scores.ts'
import { estimateAbility, itemCurve } from '../../../src/data/inep-3pl.ts'

/*
 * Properties of the score of an answer sheet, on the committed booklets (data/scores): they hold
 * for any answers, so the answers are drawn at random (a fixed seed, so a failure repeats).
 */

const tables = readBookletTables()
const scorer = new SheetScorer(tables)
const LETTERS = 'ABCDE'

function draw (seed: number) {
  const generator = xoroshiro128plus(seed)
  return (count: number) => uniformInt(generator, 0, count - 1)
}

function scored (result: ReturnType<SheetScorer['score']>): NonNullable<SheetScore['area']> {
  assert.ok(!isSheetProblem(result), isSheetProblem(result) ? result.message : '')
  assert.ok(result.area !== null)
  return result.area
}

/** Every ordered booklet of a year and area, with the key of each slot (the language's at a language slot). */
function bookletsOf (year: number, area: string) {
  return [...tables.get(year)!.values()].filter((booklet) => booklet.area === area && booklet.unordered === null)
}

test('more right answers on the same items never lower θ', () => {
  const next = draw(23)
  for (const [year, area] of [[2023, 'CH'], [2019, 'MT'], [2012, 'CN'], [2021, 'LC']] as const) {
    for (const booklet of bookletsOf(year, area).slice(0, 3)) {
      const keyOf = (at: number): string => {
        const slot = booklet.slots[at]!
        const item = 'common' in slot ? slot.common : slot.ingles ?? slot.espanhol!
        return item.key
      }
      const language = area === 'LC' ? 'ingles' : undefined
      for (let round = 0; round < 20; round++) {
        const answers = Array.from({ length: 45 }, () => LETTERS[next(5)]!)
        let before = scored(scorer.score({ year, booklet: booklet.code, answers: answers.join(''), language }))
        // Turn wrong answers right, one at a time, in a random order.
        const wrong = answers.map((letter, at) => letter === keyOf(at) || !LETTERS.includes(keyOf(at)) ? -1 : at).filter((at) => at >= 0)
        while (wrong.length > 0) {
          const at = wrong.splice(next(wrong.length), 1)[0]!
          answers[at] = keyOf(at)
          const after = scored(scorer.score({ year, booklet: booklet.code, answers: answers.join(''), language }))
          assert.ok(after.theta >= before.theta, `${year} booklet ${booklet.code}: θ fell from ${before.theta} to ${after.theta}`)
          assert.ok(after.correct >= before.correct)
          before = after
        }
      }
    }
  }
})

test('θ rises strictly with each added right answer, before rounding', () => {
  const curves = [{ a: 2, b: 0.5, c: 0.2 }, { a: 1, b: -1, c: 0.1 }, { a: 3, b: 1.5, c: 0.25 }].map(itemCurve)
  const thetas = [0, 1, 2, 3].map((right) => estimateAbility(curves, curves.map((_, at) => at < right)).theta)
  for (let at = 1; at < thetas.length; at++) assert.ok(thetas[at]! > thetas[at - 1]!, thetas.join(' '))
})

test('an all-blank area is not scored, whatever marks a blank', () => {
  for (const blank of ['*', '.', ' ', '9', 'a']) {
    const result = scorer.score({ year: 2023, booklet: 1191, answers: blank.repeat(45) })
    assert.ok(!isSheetProblem(result))
    assert.equal(result.area, null)
  }
  // One answer anywhere, even at a position that does not count, makes the area scored, its blanks wrong.
  const one = scored(scorer.score({ year: 2023, booklet: 1191, answers: `A${'*'.repeat(44)}` }))
  assert.equal(one.scored, 45)
  assert.ok(one.correct <= 1)
})

test('the other language\'s items never count: its five letters of the 50-character form change nothing, and its keys are not the ones read', () => {
  const next = draw(2019)
  for (const year of [2015, 2019, 2021]) {
    for (const booklet of bookletsOf(year, 'LC').filter((entry) => entry.slots.length === 45).slice(0, 2)) {
      for (const language of ['ingles', 'espanhol'] as const) {
        const answers = Array.from({ length: 45 }, () => LETTERS[next(5)]!).join('')
        const own = answers.slice(0, 5)
        const common = answers.slice(5)
        const short = scored(scorer.score({ year, booklet: booklet.code, answers, language }))
        for (const other of ['99999', 'ABCDE', 'EEEEE', own]) {
          const wide = language === 'ingles' ? own + other + common : other + own + common
          const result = scored(scorer.score({ year, booklet: booklet.code, answers: wide, language }))
          assert.equal(result.score, short.score)
          assert.equal(result.correct, short.correct)
          const notTaken = result.leftOut.filter((entry) => entry.reason === 'not-taken-language').map((entry) => entry.index)
          assert.deepEqual(notTaken, language === 'ingles' ? [6, 7, 8, 9, 10] : [1, 2, 3, 4, 5])
        }
        // Answering the five with the other language's keys scores them as that language's answers would be: by this language's keys.
        const otherKeys = booklet.slots.slice(0, 5).map((slot) => 'ingles' in slot ? slot[language === 'ingles' ? 'espanhol' : 'ingles']!.key : '*').join('')
        const ownKeys = booklet.slots.slice(0, 5).map((slot) => 'ingles' in slot ? slot[language]!.key : '*').join('')
        const withOtherKeys = scored(scorer.score({ year, booklet: booklet.code, answers: otherKeys + common, language }))
        const rightOnFive = [...otherKeys].filter((letter, at) => letter === ownKeys[at]).length
        const commonOnly = scored(scorer.score({ year, booklet: booklet.code, answers: '*****' + common, language }))
        assert.equal(withOtherKeys.correct, commonOnly.correct + rightOnFive)
      }
    }
  }
})

test('a sheet of a year, booklet, language or length that does not exist is refused, naming the field', () => {
  const problem = (request: Parameters<SheetScorer['score']>[0]) => {
    const result = scorer.score(request)
    assert.ok(isSheetProblem(result))
    return result
  }
  assert.equal(problem({ year: 2008, booklet: 1191, answers: 'A'.repeat(45) }).field, 'year')
  assert.equal(problem({ year: 2022, booklet: 1191, answers: 'A'.repeat(45) }).field, 'booklet')
  assert.equal(problem({ year: 2023, booklet: 1191, answers: 'A'.repeat(44) }).field, 'answers')
  assert.equal(problem({ year: 2023, booklet: 1191, answers: 'A'.repeat(50) }).field, 'answers')
  const linguagens = bookletsOf(2023, 'LC')[0]!
  assert.equal(problem({ year: 2023, booklet: linguagens.code, answers: 'A'.repeat(45) }).field, 'language')
  assert.equal(problem({ year: 2023, booklet: linguagens.code, answers: 'A'.repeat(45), language: 'frances' }).field, 'language')
  assert.equal(problem({ year: 2013, booklet: 187, answers: 'A'.repeat(45) }).field, 'booklet')
})

test('2023 MT booklet 1211 leaves out the item without parameters and the annulled one, as INEP\'s file marks them', () => {
  const booklet = tables.get(2023)!.get(1211)!
  const result = scored(scorer.score({ year: 2023, booklet: 1211, answers: 'A'.repeat(45) }))
  const expected = booklet.slots.flatMap((slot, at) => {
    const item = 'common' in slot ? slot.common : null
    if (item === null) return []
    if (item.key === 'X') return [{ index: at + 1, reason: 'annulled' }]
    if (item.irt === null || item.abandoned) return [{ index: at + 1, reason: 'no-parameters' }]
    return []
  })
  assert.ok(expected.length > 0)
  assert.deepEqual(result.leftOut, expected)
  assert.equal(result.scored, 45 - expected.length)
})

test('an area none of whose answered positions has a counted item is not scored, rather than scored at the prior\'s mean', async () => {
  const { areaForm, scoreArea } = await import('../../../src/data/scores/area-scoring.ts')
  const form = areaForm('MT', [{ index: 1, reason: 'missing' }, { index: 2, facts: { item: 1, key: 'X', excluded: true, irt: null, skill: null } }])
  assert.equal(scoreArea(form, () => 'A'), null)
})
