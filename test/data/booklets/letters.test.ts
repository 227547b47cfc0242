import { test } from 'node:test'
import assert from 'node:assert/strict'
import { alternativeLetter, letterFonts, letterOf } from '../../../src/data/booklets/letters.ts'
import type { Glyph } from '../../../src/data/booklets/page-marks.ts'
import { COLUMN_GAP, textLines, type Line } from '../../../src/data/booklets/text-lines.ts'

/*
 * letters.ts: 2016 sets its alternatives' letters in a circled font of their own (BundesbahnPiStd)
 * and names a circuit's terminals "A", "B" in Helvetica inside the drawing (day 1, question 59).
 */

function line (parts: ReadonlyArray<readonly [string, string]>, y: number): Line {
  let x = 40
  const glyphs: Glyph[] = parts.flatMap(([text, font]) => [...text].map((character) => {
    const glyph = { text: character, box: { x0: x, y0: y - 8, x1: x + 6, y1: y + 2 }, baseline: y, size: 9.75, font, bold: false, italic: false, mapped: true }
    x += character === ' ' ? 6 : 6.5
    return glyph
  }))
  return textLines(glyphs, { gap: COLUMN_GAP, gutterX: null })[0]!
}

const alternatives = Array.from({ length: 25 }, (_, at) => line([['ABCDE'[at % 5]!, 'BundesbahnPiStd-1'], ['  Ligações covalentes.', 'Helvetica']], 100 + 20 * at))

test('the fonts a booklet sets its letters in apart from their text', () => {
  assert.deepEqual([...letterFonts(alternatives)], ['BundesbahnPiStd-1'])
  // Too few to be the booklet's way.
  assert.deepEqual([...letterFonts(alternatives.slice(0, 5))], [])
})

test('a lone capital in another font than the letters\' is a drawing\'s point, not an alternative\'s letter', () => {
  const fonts = letterFonts(alternatives)
  const terminal = line([['A', 'Helvetica']], 700)
  assert.equal(letterOf(terminal), 'A')
  assert.equal(alternativeLetter(terminal, fonts), null)
  assert.equal(alternativeLetter(line([['C E D', 'Helvetica']], 720), fonts), null)
  // An alternative's letter in the letters' font, alone (its picture beside it) or not, stays one.
  assert.equal(alternativeLetter(line([['B', 'BundesbahnPiStd-1']], 740), fonts), 'B')
  assert.equal(alternativeLetter(alternatives[2]!, fonts), 'C')
  // A booklet that sets its letters in the text's font: every letterOf letter is one.
  assert.equal(alternativeLetter(terminal, new Set()), 'A')
})
