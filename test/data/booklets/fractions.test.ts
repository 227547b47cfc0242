import { test } from 'node:test'
import assert from 'node:assert/strict'
import { joinFractions } from '../../../src/data/booklets/fractions.ts'
import type { Glyph, PathMark } from '../../../src/data/booklets/page-marks.ts'
import { COLUMN_GAP, textLines } from '../../../src/data/booklets/text-lines.ts'

/*
 * A fraction set as an alternative, as 2015 day 1 prints question 53's A on page 19 (the values are
 * MuPDF's): the letter "A" on its baseline, "λ" over a rule over "4", and a full stop set higher than
 * the letter, on the rule's height.
 */

const SIZE = 9.75
function glyph (text: string, x0: number, x1: number, baseline: number): Glyph {
  return { text, box: { x0, y0: baseline - 0.78 * SIZE, x1, y1: baseline + 0.22 * SIZE }, baseline, size: SIZE, font: 'ArialMT', bold: false, italic: false, mapped: true }
}
const rule: PathMark = { box: { x0: 68.7, y0: 475.4, x1: 83.3, y1: 476.4 }, stroked: false, colour: [0], subtractive: false }
const terms = [glyph('λ', 73.5, 78.4, 472.4), glyph('4', 73.3, 78.7, 485.5)]

test('a fraction stands on the line of the text beside it on its rule\'s height, however high the font sets its axis', () => {
  const { glyphs, paths } = joinFractions([glyph('A', 40.9, 50.6, 477.56), glyph(' ', 50.6, 53, 477.56), ...terms, glyph('.', 82.8, 85.5, 476.2)], [rule])
  assert.deepEqual(paths, [])
  // Cut as a page's lines are once its columns are known (the letter stands well apart from its text).
  const lines = textLines(glyphs, { gap: COLUMN_GAP, gutterX: null })
  assert.deepEqual(lines.map((line) => line.text), ['A λ/4.'])
})

test('a fraction with no text beside it stands a quarter of its size under its rule', () => {
  const { glyphs } = joinFractions(terms, [rule])
  assert.equal(glyphs.length, 1)
  assert.equal(glyphs[0]!.text, 'λ/4')
  assert.equal(glyphs[0]!.baseline, 475.9 + 0.25 * SIZE)
})

test('an exponent set small over the rule stays in its term: x² over 4 (2023 day 2, question 170)', () => {
  const small = (text: string, x0: number, x1: number, baseline: number, size: number): Glyph => ({ ...glyph(text, x0, x1, baseline), size })
  const bar: PathMark = { ...rule, box: { x0: 476.3, y0: 375, x1: 486.6, y1: 375.5 } }
  const { glyphs } = joinFractions([small('x', 477.4, 481.8, 371.79, 8.89), small('2', 482.5, 485.3, 367.8, 5.13), small('4', 479.1, 484.1, 384.48, 8.89)], [bar])
  assert.deepEqual(glyphs.map((one) => one.text), ['x²/4'])
})
