import { type Box, height, width } from './boxes.ts'
import type { Glyph, PathMark } from './page-marks.ts'
import { isWhite } from './recurring-drawings.ts'

/*
 * Numbers set in a ring inside the prose ("o feixe ③ incide", the parts of a figure the text names):
 * a stroked mark as wide as tall, about a letter's height, drawn around one glyph, a digit. Left as it is, the ring is a
 * mark drawn over a line, and the line would be cropped as a formula; so, before lines are made,
 * the digit becomes its circled character (⓪ … ⑨, which NFKC reads as the digit) and the ring is
 * taken out of the paths. A letter in a ring is left alone: that is how booklets print alternatives'
 * letters and answer marks.
 */

/** A ring's side, in the glyph's size: from a little under its height to twice it. */
const RING_SIDE = { least: 0.9, most: 2 }
/** A ring is about as wide as it is tall. */
const ROUND = 0.8

export function circleNumbers (glyphs: readonly Glyph[], paths: readonly PathMark[]): { glyphs: Glyph[], paths: PathMark[] } {
  const circled = new Map<Glyph, string>()
  const rings = new Set<PathMark>()
  for (const path of paths) {
    const { box } = path
    // A ring is stroked: a digit set white in a filled box is a label's number (2009's "Questão ▮1▮").
    if (!path.stroked || isWhite(path) || Math.min(width(box), height(box)) < ROUND * Math.max(width(box), height(box))) continue
    const centre = { x: (box.x0 + box.x1) / 2, y: (box.y0 + box.y1) / 2 }
    // What the ring holds: the glyphs whose centre lies inside it (a neighbour's box may reach in).
    const within = glyphs.filter((glyph) => glyph.text.trim() !== '' && inside(glyph, box))
    const [only] = within
    if (within.length !== 1 || only === undefined || circled.has(only)) continue
    const side = Math.max(width(box), height(box))
    if (side < RING_SIDE.least * only.size || side > RING_SIDE.most * only.size) continue
    const own = { x: (only.box.x0 + only.box.x1) / 2, y: (only.box.y0 + only.box.y1) / 2 }
    if (Math.abs(own.x - centre.x) > 0.25 * side || Math.abs(own.y - centre.y) > 0.25 * side) continue
    const character = circledDigit(only.text)
    if (character === null) continue
    circled.set(only, character)
    rings.add(path)
  }
  if (rings.size === 0) return { glyphs: [...glyphs], paths: [...paths] }
  return {
    glyphs: glyphs.map((glyph) => {
      const text = circled.get(glyph)
      return text === undefined ? glyph : { ...glyph, text }
    }),
    paths: paths.filter((path) => !rings.has(path))
  }
}

function inside (glyph: Glyph, box: Box): boolean {
  const x = (glyph.box.x0 + glyph.box.x1) / 2
  const y = (glyph.box.y0 + glyph.box.y1) / 2
  return x > box.x0 && x < box.x1 && y > box.y0 && y < box.y1
}

/** ⓪ to ⑨ for a digit; null for anything else. */
function circledDigit (text: string): string | null {
  if (!/^\d$/u.test(text)) return null
  const digit = Number(text)
  return digit === 0 ? '⓪' : String.fromCodePoint(0x2460 + digit - 1)
}
