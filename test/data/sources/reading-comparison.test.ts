import { test } from 'node:test'
import assert from 'node:assert/strict'
import { wordListOf } from '../../../src/data/booklets/word-list.ts'
import type { DatasetQuestion } from '../../../src/data/record-schemas.ts'
import { sameAlternative } from '../../../src/data/sources/reading-comparison.ts'
import { pageShowsTheirs, theirMisspellings } from '../../../src/data/sources/reading-quality.ts'

/*
 * The contract forgives white space, hyphenation, quote shapes, capitals and a final period; form as
 * the transcriptions type it (a multiplication dot or sign, digit groups) too: nothing more.
 */

const alternative = (text: string) => ({ letter: 'A' as const, text, file: null, isCorrect: false })

test('two alternatives differing by white space only are the same, wherever the space stands', () => {
  // As 2021 day 2 prints "A, E, O e S." and its transcription types "a,e,o e s".
  assert.ok(sameAlternative(alternative('A, E, O e S.'), alternative('a,e,o e s')))
  assert.ok(sameAlternative(alternative('x2 + y2 = 16'), alternative('x2 + y2 =16')))
  assert.ok(sameAlternative(alternative('“verde”'), alternative('"verde".')))
})

test('a letter, digit or sign more or less is no form', () => {
  assert.ok(!sameAlternative(alternative('25 e 50.'), alternative('25 e 5.')))
  assert.ok(!sameAlternative(alternative('x2 + y2 = 16'), alternative('x2 - y2 = 16')))
  assert.ok(!sameAlternative(alternative('a, e, o e s'), alternative('a, e e s')))
})

test('a multiplication sign typed as x is form', () => {
  assert.ok(sameAlternative(alternative('5,4 × 10² J'), alternative('5,4x102 j')))
})

const record = (...texts: string[]): DatasetQuestion => ({
  title: 'Questão 1 - ENEM 2015',
  index: 1,
  discipline: 'ciencias-humanas',
  language: null,
  year: 2015,
  context: null,
  files: [],
  correctAlternative: 'A',
  alternativesIntroduction: null,
  alternatives: texts.map((text, at) => ({ letter: 'ABCDE'[at] as 'A', text, file: null, isCorrect: at === 0 }))
})
const list = wordListOf('revoltas\ncamponesas\nde\ndo\ntrabalho\nurbano\nimaturo\nmaduro\njovem\n')

test('alternatives that differ only where the transcription spells no word and the print a word are the transcription\'s misspelling', () => {
  assert.ok(theirMisspellings(record('Revoltas camponesas', 'urbano'), record('revoltas camponestas', 'urbano'), list))
})

test('a word for a word, a word missing or a misspelling of ours is a difference', () => {
  // Both are words: the list cannot tell which reading is the page's.
  assert.ok(!theirMisspellings(record('jovem imaturo'), record('jovem maduro'), list))
  assert.ok(!theirMisspellings(record('trabalho urbano'), record('trabalho do urbano'), list))
  // Ours is no word: ours is the misreading.
  assert.ok(!theirMisspellings(record('revoltas camponestas'), record('revoltas camponesas'), list))
  // Equal: nothing misspelt, nothing to set aside.
  assert.ok(!theirMisspellings(record('revoltas camponesas'), record('revoltas camponesas'), list))
})

const printedRecord = (...texts: string[]) => ({ record: record(...texts), figures: [], textInFigures: [], printed: texts.map((_, at) => ({ letter: 'ABCDE'[at]!, page: 1, box: [0, 10 * at, 100, 10 * at + 9] as const })) })

test('where OCR of the page reads ours and not theirs, the page shows the transcription wrong', () => {
  // 2010 day 1, question 68, A: the print reads R$ 41,80, the transcription R$ 42,80; OCR reads "R$41,80".
  const ocr = (read: string) => (_page: number, box: { y0: number }) => (box.y0 === 0 ? read : null)
  assert.ok(pageShowsTheirs(printedRecord('R$ 41,80.', 'R$ 42,00.'), record('R$ 42,80.', 'R$ 42,00.'), ocr('R$41,80.')))
  // OCR reads theirs, or something near neither: ours is no better than theirs.
  assert.ok(!pageShowsTheirs(printedRecord('R$ 41,80.', 'R$ 42,00.'), record('R$ 42,80.', 'R$ 42,00.'), ocr('R$ 42,80.')))
  assert.ok(!pageShowsTheirs(printedRecord('R$ 41,80.', 'R$ 42,00.'), record('R$ 42,80.', 'R$ 42,00.'), ocr('RS 4I,8O')))
  // Nothing read: no verdict.
  assert.ok(!pageShowsTheirs(printedRecord('R$ 41,80.', 'R$ 42,00.'), record('R$ 42,80.', 'R$ 42,00.'), () => null))
})
