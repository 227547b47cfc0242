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
