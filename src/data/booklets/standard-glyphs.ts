import * as mupdf from 'mupdf'
import { likeness, renderGlyphs, type GlyphShape } from './glyph-shapes.ts'

/*
 * Glyphs named by a standard font MuPDF carries (PDF's fourteen), for what no mapped glyph of the
 * booklet draws the same: a symbol font's subset with neither ToUnicode nor glyph names (2018 and
 * 2021 set "<", "×", "π", "Δ" in SymbolMT, named `/gNNN`), or a text font's signs (2018's unmapped
 * Arial bullet and quotes). A font cut to a standard's metrics (every Symbol font to Adobe's Symbol,
 * Arial to Helvetica) draws each character at the same advance and in nearly the same outline; so
 * a glyph is the reference's character of its very advance that it is drawn most like, when that is
 * ALIKE or more and MARGIN times more than any other character of that advance. What nothing
 * matches (the pieces of a tall bracket, a glyph that draws nothing) stays unnamed.
 */

/** Advances that differ less than this (in ems) are one character's. */
const SAME_ADVANCE = 0.005
/**
 * The least likeness (glyph-shapes.ts) to the reference's glyph, and how many times more alike than
 * the next character of that advance: two cuts of one design draw a sign somewhat otherwise
 * (SymbolMT's "=" is 0.62 like the reference's, 0.46 like "≠"; 2018's Arial "”" 0.57 like
 * Helvetica's, 0.38 like "“").
 */
const ALIKE = 0.45
const MARGIN = 1.25
/** Two renders this alike are the same glyph under two code points (Δ and ∆): the first is kept. */
const SAME_SHAPE = 0.97

/** A reference character: its text, its shape, and whether it may name a glyph (`sign`) or only keeps others from naming it. */
export interface Reference {
  readonly text: string
  readonly sign: boolean
  readonly shape: GlyphShape
}

const rendered = new Map<string, readonly Reference[]>()

/**
 * The characters of a standard font (MuPDF's name: `Symbol`, `Helvetica-Bold`), rendered once per
 * list; a character the font lacks, or draws as one before it, is left out.
 */
export function standardReferences (standard: string, characters: ReadonlyArray<{ readonly text: string, readonly sign: boolean }>): readonly Reference[] {
  const key = `${standard}\n${characters.map((character) => `${character.sign ? '+' : '-'}${character.text}`).join('')}`
  let references = rendered.get(key)
  if (references !== undefined) return references
  const font = new mupdf.Font(standard)
  const drawn = characters.map((character) => ({ ...character, gid: font.encodeCharacter(character.text.codePointAt(0)!) })).filter((character) => character.gid > 0)
  const shapes = renderGlyphs(drawn.map((character) => ({ font, gid: character.gid })))
  const kept: Reference[] = []
  drawn.forEach((character, at) => {
    const shape = shapes[at]!
    if (shape.weight > 0 && !kept.some((other) => Math.abs(other.shape.advance - shape.advance) < SAME_ADVANCE && likeness(other.shape, shape) >= SAME_SHAPE)) kept.push({ text: character.text, sign: character.sign, shape })
  })
  references = kept
  rendered.set(key, references)
  return references
}

/** The sign of its advance a shape is drawn most like, ALIKE or more and MARGIN times any other's; null when none stands out (or a letter does). */
export function standardSign (shape: GlyphShape, references: readonly Reference[]): string | null {
  if (shape.weight === 0) return null
  const scored = references.filter((reference) => Math.abs(reference.shape.advance - shape.advance) < SAME_ADVANCE)
    .map((reference) => ({ text: reference.text, sign: reference.sign, alike: likeness(reference.shape, shape) })).sort((a, b) => b.alike - a.alike)
  const [first, second] = scored
  if (first === undefined || !first.sign || first.alike < ALIKE || (second !== undefined && first.alike < MARGIN * second.alike)) return null
  return first.text
}

/** The code points a Symbol font is searched for: ASCII and Latin-1 signs (no Latin letter: its "A" is Greek Alpha), Greek, the mathematical blocks. */
const SYMBOL_RANGES: ReadonlyArray<readonly [number, number]> = [[0x21, 0x40], [0x5b, 0x60], [0x7b, 0x7e], [0xa0, 0xff], [0x391, 0x3d6], [0x2020, 0x2044], [0x2100, 0x2135], [0x2190, 0x21ff], [0x2200, 0x22ff], [0x2300, 0x232a], [0x25ca, 0x25ca], [0x2660, 0x2666]]
const SYMBOL_CHARACTERS = SYMBOL_RANGES.flatMap(([first, last]) => Array.from({ length: last - first + 1 }, (_, at) => ({ text: String.fromCodePoint(first + at), sign: true })))
/** The Symbol font's space, in ems. */
const SYMBOL_SPACE = 0.25

/** Each glyph (by id) of a symbol font named by the Symbol font MuPDF carries; a glyph that draws nothing at its space's advance is a space. */
export function symbolGlyphs (font: mupdf.Font, gids: readonly number[]): Map<number, string> {
  const named = new Map<number, string>()
  if (gids.length === 0) return named
  const references = standardReferences('Symbol', SYMBOL_CHARACTERS)
  const shapes = renderGlyphs(gids.map((gid) => ({ font, gid })))
  gids.forEach((gid, at) => {
    const shape = shapes[at]!
    const text = shape.weight === 0 ? (Math.abs(shape.advance - SYMBOL_SPACE) < SAME_ADVANCE ? ' ' : null) : standardSign(shape, references)
    if (text !== null) named.set(gid, text)
  })
  return named
}
