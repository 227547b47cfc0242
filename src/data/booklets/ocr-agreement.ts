import { lineText, type Line, type LineGlyph } from './text-lines.ts'

/*
 * A line whose font maps most of its glyphs but not a few (a ligature "fi" or "fl" of an italic
 * font, an arrow, a letter of a credit's small font) has its text known but for those glyphs.
 * OCR reads the whole line; where its reading agrees with every glyph the font maps, character for
 * character (spaces aside), the unmapped glyphs are named by what the OCR read in their place. The
 * glyphs the font maps are the check: an English title (which the Portuguese word list would refuse)
 * is taken when it agrees, and a misreading anywhere on the line is refused.
 */

/** What one unmapped glyph may stand for: one character, or a ligature's letters (ff, fi, fl, ffi, ffl). */
const ONE_GLYPH = '(ff[il]|f[fil]|.)'
/** The mapped glyphs must be this many times the unmapped ones, or the agreement checks too little. */
const MAPPED_PER_UNMAPPED = 3

/**
 * The line with its unmapped glyphs named from `read` (the OCR's text of the whole line) when
 * `read` agrees with every mapped glyph; null when it does not, or when too few glyphs are mapped
 * for the agreement to check anything.
 */
export function agreeingReading (line: Line, read: string): Line | null {
  if (!mostlyMapped(line)) return null
  const glyphs = printedGlyphs(line)
  const pattern = glyphs.map((glyph) => (glyph.mapped ? escaped(glyph.text.replace(/\s+/gu, '')) : ONE_GLYPH)).join('')
  const match = new RegExp(`^${pattern}$`, 'u').exec(read.replace(/\s+/gu, ''))
  if (match === null) return null
  const named = new Map<LineGlyph, string>()
  glyphs.filter((glyph) => !glyph.mapped).forEach((glyph, at) => named.set(glyph, match[at + 1]!))
  const placed = line.glyphs.map((glyph) => {
    const text = named.get(glyph)
    return text === undefined ? glyph : { ...glyph, text, mapped: true }
  })
  return { ...line, glyphs: placed, text: lineText(placed), unmapped: placed.some((glyph) => !glyph.mapped) }
}

/** Whether some of a line's glyphs are unmapped, and few enough that the others tell its text (MAPPED_PER_UNMAPPED). */
export function mostlyMapped (line: Line): boolean {
  const glyphs = printedGlyphs(line)
  const unmapped = glyphs.filter((glyph) => !glyph.mapped).length
  return unmapped > 0 && glyphs.length - unmapped >= MAPPED_PER_UNMAPPED * unmapped
}

function printedGlyphs (line: Line): LineGlyph[] {
  return line.glyphs.filter((glyph) => !glyph.mapped || glyph.text.trim() !== '')
}

function escaped (text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/gu, '\\$&')
}
