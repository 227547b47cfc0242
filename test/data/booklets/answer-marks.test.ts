import { test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { BOOKLETS, bookletReading } from './booklet-reading.ts'
import { bookletKeys, checkMarkedKeys, type BookletKeys } from '../../../src/data/sources/booklets/booklet-keys.ts'

/*
 * Letters drawn as shapes (drawn-letters.ts) and answer marks (answer-marks.ts) on INEP's
 * answer-marked print of 2010 (day 2: every alternative's letter a disc with the letter cut out, no
 * glyph; the key's disc ringed in green), checked against what does not come from the page: INEP's
 * keys in ITENS_PROVA_2010. A booklet printed without marks (2025) reads none.
 */

const SHARED = fileURLToPath(new URL('../../../../shared/inep/', import.meta.url))
const skip = existsSync(BOOKLETS) && existsSync(`${SHARED}itens-prova/ITENS_PROVA_2010.csv`)
  ? false
  : 'needs ../shared/inep (INEP\'s PDFs and ITENS_PROVA_2010), which only the project\'s machines have'

const reading = bookletReading

function keysOf (year: number, day: 1 | 2, cd: number): BookletKeys {
  return bookletKeys({ year, application: 'regular', day, cd, inepDir: SHARED })
}

const MARKED = '2010/2010_PV_impresso_D2_CD7.pdf'

test(`${MARKED}: letters drawn as shapes are read, five to a question`, { skip }, () => {
  const { questions } = reading(MARKED)
  const five = questions.filter(({ parts }) => parts.alternatives.length === 5)
  assert.ok(five.length >= 0.95 * questions.length, `${five.length} of ${questions.length} questions with five letters`)
})

test(`${MARKED}: an answer-marked print, whose marked letter is INEP's key wherever one is marked`, { skip }, () => {
  const read = reading(MARKED)
  assert.equal(read.answerMarked, true)
  const marked = read.questions.map((question) => ({ index: question.region.number, language: question.region.language, letters: question.marked }))
  // Throws, naming the position, where a mark is not the key.
  const { agree, unchecked } = checkMarkedKeys(keysOf(2010, 2, 7), marked, MARKED)
  assert.ok(agree >= 0.9 * read.questions.length, `${agree} marks agree, ${unchecked} questions unchecked`)
})

test(`${MARKED}: the marked alternative is text like the others, never a picture`, { skip }, () => {
  const pictured = reading(MARKED).questions.filter(({ parts, marked }) => marked.length === 1 &&
    parts.alternatives.some((alternative) => alternative.letter === marked[0] && alternative.figure !== null) &&
    parts.alternatives.filter((alternative) => alternative.figure !== null).length === 1)
  assert.deepEqual(pictured.map(({ region }) => region.number), [])
})

test('checkMarkedKeys refuses a mark that is not the key, naming the position', { skip }, () => {
  const keys = keysOf(2010, 2, 7)
  const position = keys.positions.find((candidate) => candidate.key !== null && candidate.language === null)!
  const other = position.key === 'A' ? 'B' : 'A'
  assert.throws(() => checkMarkedKeys(keys, [{ index: position.index, language: null, letters: [other] }], 'print.pdf'),
    new RegExp(`position ${position.index}: the print marks ${other}, the key is ${position.key}`))
})

test('2025/2025_PV_impresso_D2_CD7.pdf: a print without marks reads none', { skip }, () => {
  const read = reading('2025/2025_PV_impresso_D2_CD7.pdf')
  assert.equal(read.answerMarked, false)
  assert.deepEqual(read.questions.filter((question) => question.marked.length > 0).map((question) => question.region.number), [])
})
