import { test } from 'node:test'
import assert from 'node:assert/strict'
import { sameAlternative } from '../../../src/data/sources/reading-comparison.ts'

/* The contract forgives white space, hyphenation, quote shapes, capitals and a final period: nothing more. */

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
