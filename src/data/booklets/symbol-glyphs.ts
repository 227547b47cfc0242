import * as mupdf from 'mupdf'
import { likeness, renderGlyphs, type GlyphShape } from './glyph-shapes.ts'

/*
 * A symbol font's glyphs without text mapping (2018 and 2021 set "<", "×", "π", "Δ" in a SymbolMT
 * subset with neither ToUnicode nor glyph names, only `/gNNN`): named by the Symbol font MuPDF
 * carries. Every Symbol font is cut to Adobe's Symbol metrics, so a character is drawn at the same
 * advance in each, and in nearly the same outline. A glyph is named when, among the reference's
 * characters of its very advance, one is drawn alike (LIKE) and clearly more alike than any other
 * (MARGIN). What no character matches (the pieces of a tall bracket, a glyph that draws nothing)
 * stays unmapped, and its line is still cropped as a formula.
 */

/** Advances that differ less than this (in ems) are one character's. */
const SAME_ADVANCE = 0.005
/** The Symbol font's space, in ems. */
const SPACE_ADVANCE = 0.25
/** The least likeness (glyph-shapes.ts) to the reference's glyph; two cuts of "+" reach 0.73, of "=" 0.62. */
const LIKE = 0.5
/** How much more alike than the next character of that advance the chosen one must be. */
const MARGIN = 0.1
/** The code points a Symbol font is searched for: Latin-1's signs, Greek, and the mathematical blocks. */
const RANGES: ReadonlyArray<readonly [number, number]> = [[0x21, 0x7e], [0xa0, 0xff], [0x391, 0x3d6], [0x2020, 0x2044], [0x2100, 0x2135], [0x2190, 0x21ff], [0x2200, 0x22ff], [0x2300, 0x232a], [0x25ca, 0x25ca], [0x2660, 0x2666]]

interface Reference {
  readonly text: string
  readonly shape: GlyphShape
}

let references: Reference[] | null = null

/** The reference's characters, one per glyph (the lowest code point of several: Greek Δ, not ∆). */
function referenceGlyphs (): Reference[] {
  if (references !== null) return references
  const font = new mupdf.Font('Symbol')
  const seen = new Map<number, string>()
  for (const [first, last] of RANGES) {
    for (let code = first; code <= last; code++) {
      const gid = font.encodeCharacter(code)
      if (gid > 0 && !seen.has(gid)) seen.set(gid, String.fromCodePoint(code))
    }
  }
  const glyphs = [...seen]
  const shapes = renderGlyphs(glyphs.map(([gid]) => ({ font, gid })))
  references = glyphs.map(([, text], at) => ({ text, shape: shapes[at]! })).filter((reference) => reference.shape.weight > 0)
  return references
}

/** Each glyph (by id) of a symbol font named by the reference, where one character is drawn alike at its advance. */
export function symbolGlyphs (font: mupdf.Font, gids: readonly number[]): Map<number, string> {
  const named = new Map<number, string>()
  if (gids.length === 0) return named
  const candidates = referenceGlyphs()
  const shapes = renderGlyphs(gids.map((gid) => ({ font, gid })))
  gids.forEach((gid, at) => {
    const shape = shapes[at]!
    // A glyph that draws nothing at the Symbol space's advance is a space.
    if (shape.weight === 0) {
      if (Math.abs(shape.advance - SPACE_ADVANCE) < SAME_ADVANCE) named.set(gid, ' ')
      return
    }
    const scored = candidates
      .filter((candidate) => Math.abs(candidate.shape.advance - shape.advance) < SAME_ADVANCE)
      .map((candidate) => ({ text: candidate.text, likeness: likeness(candidate.shape, shape) }))
      .sort((a, b) => b.likeness - a.likeness)
    const [best, next] = scored
    if (best === undefined || best.likeness < LIKE || (next !== undefined && best.likeness - next.likeness < MARGIN)) return
    named.set(gid, best.text)
  })
  return named
}
