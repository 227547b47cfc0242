import type { Line } from './text-lines.ts'

/*
 * An alternative's letter as booklets set it: `A` … `E` at the start of a line, apart from the text
 * after it (a gap, or another font: the box or circle it is printed in). A sentence that begins with
 * the article "A" sets no gap of its own kind, and reads on in the same font.
 */

/** The letter a line starts an alternative with, or null. */
export function letterOf (line: Line): string | null {
  const glyphs = line.glyphs.filter((glyph) => glyph.text.trim() !== '' || !glyph.mapped)
  const first = glyphs[0]
  if (first === undefined || !/^[A-E]$/u.test(first.text)) return null
  const second = glyphs[1]
  if (second !== undefined && second.box.x0 - first.box.x1 < 0.12 * first.size && second.font === first.font) return null
  return first.text
}

/** A booklet's letter font must start this many alternatives to be one (five a question, 90 questions a day). */
const LETTER_FONT_USES = 20

/**
 * The fonts a booklet sets its alternatives' letters in apart from their text (a circled letter's
 * font, a boxed one's): the font of a letter whose text goes on in another font, where that is seen
 * often enough to be the booklet's way. Empty where letters are set in the text's font.
 */
export function letterFonts (lines: readonly Line[]): Set<string> {
  const counts = new Map<string, number>()
  for (const line of lines) {
    if (letterOf(line) === null) continue
    const [first, second] = line.glyphs.filter((glyph) => glyph.text.trim() !== '' || !glyph.mapped)
    if (second !== undefined && second.font !== first!.font) counts.set(first!.font, (counts.get(first!.font) ?? 0) + 1)
  }
  return new Set([...counts].filter(([, count]) => count >= LETTER_FONT_USES).map(([font]) => font))
}

/**
 * An alternative's letter (letterOf), but not capitals standing alone ("A", "C E D") in another font
 * than the booklet's letter fonts, where it has such fonts: those name a drawing's points or parts
 * ("A", "B" at a circuit's terminals), the drawing's labels.
 */
export function alternativeLetter (line: Line, fonts: ReadonlySet<string>): string | null {
  const letter = letterOf(line)
  if (letter === null || fonts.size === 0) return letter
  const first = line.glyphs.find((glyph) => glyph.text.trim() !== '' || !glyph.mapped)!
  return fonts.has(first.font) || !POINT_NAMES.test(line.text.trim()) ? letter : null
}

/** Capitals standing alone, one or a few in a row ("A", "C E D"): the names of a drawing's points. */
const POINT_NAMES = /^\p{Lu}(?:\s+\p{Lu})*$/u
