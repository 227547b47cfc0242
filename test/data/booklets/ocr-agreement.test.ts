import { test } from 'node:test'
import assert from 'node:assert/strict'
import type { Glyph } from '../../../src/data/booklets/page-marks.ts'
import { agreeingReading, mostlyMapped } from '../../../src/data/booklets/ocr-agreement.ts'
import { textLines, type Line } from '../../../src/data/booklets/text-lines.ts'

/*
 * ocr-agreement.ts on a line set as 2010 day 1 prints a credit: "Female-specific flightless", its
 * italic font mapping every glyph but the ligatures "fi" and "fl" (an unmapped glyph is written `_`).
 */

const SIZE = 8
function line (printed: string): Line {
  let x = 0
  const glyphs: Glyph[] = [...printed].map((character) => {
    const glyph = { text: character === '_' ? '' : character, box: { x0: x, y0: 100 - SIZE, x1: x + 4, y1: 100 }, baseline: 100, size: SIZE, font: 'Arial-ItalicMT', bold: false, italic: true, mapped: character !== '_' }
    x += 4
    return glyph
  })
  const [only] = textLines(glyphs)
  return only!
}

test('an OCR reading that agrees with every mapped glyph names the unmapped ones, a ligature with its letters', () => {
  const read = agreeingReading(line('Female-speci_c _ightless'), 'Female-specific flightless')
  assert.ok(read !== null)
  assert.equal(read.text, 'Female-specific flightless')
  assert.equal(read.unmapped, false)
})

test('an OCR reading that differs at a mapped glyph names nothing', () => {
  assert.equal(agreeingReading(line('Female-speci_c _ightless'), 'Female-specific flightlees'), null)
  // One unmapped glyph stands for one character or a ligature's letters, not for a word the OCR added.
  assert.equal(agreeingReading(line('Female-speci_c _ightless'), 'Female-specific word flightless'), null)
})

test('a line mostly unmapped is not checked by the few glyphs it maps', () => {
  assert.equal(mostlyMapped(line('F____e-s__c')), false)
  assert.equal(agreeingReading(line('F____e-s__c'), 'Female-spec'), null)
  assert.equal(mostlyMapped(line('Female')), false)
  assert.equal(mostlyMapped(line('Female-speci_c')), true)
})
