import { test } from 'node:test'
import assert from 'node:assert/strict'
import { lineText, type LineGlyph } from '../../../src/data/booklets/text-lines.ts'
import type { Script } from '../../../src/data/booklets/scripts.ts'

/*
 * lineText's spaces around scripts, on glyphs placed as MuPDF gives them. The first case is
 * 2023 day 2's question 120 (CD7) as its booklet prints "para L₁": "L", a space 0.97 pt wide, and the
 * subscript "1" starting 0.16 pt inside that space.
 */

function glyph (text: string, x0: number, x1: number, { script = 'normal', size = 9.75 }: { script?: Script, size?: number } = {}): LineGlyph {
  const baseline = script === 'sub' ? 102 : 100
  return { text, box: { x0, y0: baseline - size, x1, y1: baseline }, baseline, size, font: 'Test', bold: false, italic: false, mapped: true, script }
}

test('a sliver of a space that the subscript after it is printed over parts nothing: L₁', () => {
  const glyphs = [glyph('p', 372.49, 377.92), glyph('a', 377.93, 383.36), glyph(' ', 392.11, 394.82), glyph('L', 394.82, 400.78), glyph(' ', 400.78, 401.75), glyph('1', 401.59, 405, { script: 'sub', size: 6.12 }), glyph(' ', 405, 407.71), glyph('e', 407.71, 413.13)]
  assert.equal(lineText(glyphs), 'pa L₁ e')
})

test('a space the script after it does not start inside stays a space, as does a full-width one', () => {
  // The script starts after the space ends: words apart ("m ²" as printed).
  assert.equal(lineText([glyph('m', 0, 8), glyph(' ', 8, 8.97), glyph('2', 9.2, 12, { script: 'sup', size: 6 })]), 'm ²')
  // A full-width space the script overlaps: still a space.
  assert.equal(lineText([glyph('m', 0, 8), glyph(' ', 8, 10.7), glyph('2', 10.5, 13, { script: 'sup', size: 6 })]), 'm ²')
  // A sliver before a normal glyph it overlaps: the PDF's space, kept.
  assert.equal(lineText([glyph('a', 0, 5), glyph(' ', 5, 5.9), glyph('b', 5.8, 10)]), 'a b')
})
