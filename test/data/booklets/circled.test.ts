import { test } from 'node:test'
import assert from 'node:assert/strict'
import { circleNumbers } from '../../../src/data/booklets/circled.ts'
import type { Glyph, PathMark } from '../../../src/data/booklets/page-marks.ts'
import { COLUMN_GAP, textLines } from '../../../src/data/booklets/text-lines.ts'

/*
 * circled.ts on marks as MuPDF gives them: 2015 day 1's page 19 prints "incidente ① reflete", the
 * digit 8 pt in a stroked ring 12 pt wide; 2009 sets a label's number white in a filled box.
 */

function glyph (text: string, x0: number, x1: number, size = 9.75): Glyph {
  return { text, box: { x0, y0: 150.2, x1, y1: 160 }, baseline: 157.85, size, font: 'Helvetica', bold: false, italic: false, mapped: true }
}
const ring = (stroked: boolean): PathMark => ({ box: { x0: 223.3, y0: 148.9, x1: 235.3, y1: 161 }, stroked, colour: [0.14, 0.12, 0.12], subtractive: false })
const words = [glyph('e', 212.2, 217.6), glyph(' ', 217.6, 220.3), { ...glyph('1', 226.9, 231.3, 8), box: { x0: 226.9, y0: 151.4, x1: 231.3, y1: 159.4 } }, glyph(' ', 235.3, 238), glyph('r', 238.5, 241.8)]

test('a digit in a stroked ring is its circled character, and the ring no mark over the line', () => {
  const { glyphs, paths } = circleNumbers(words, [ring(true)])
  assert.deepEqual(paths, [])
  assert.deepEqual(textLines(glyphs, { gap: COLUMN_GAP, gutterX: null }).map((line) => line.text), ['e ① r'])
})

test('a digit in a filled box (a label\'s number), a letter in a ring or a ring round two glyphs is left alone', () => {
  assert.equal(circleNumbers(words, [ring(false)]).paths.length, 1)
  const letter = words.map((one) => (one.text === '1' ? { ...one, text: 'A' } : one))
  assert.deepEqual(circleNumbers(letter, [ring(true)]).glyphs.map((one) => one.text), ['e', ' ', 'A', ' ', 'r'])
  const wide: PathMark = { ...ring(true), box: { x0: 210, y0: 148.9, x1: 235.3, y1: 174 } }
  assert.equal(circleNumbers(words, [wide]).paths.length, 1)
})
