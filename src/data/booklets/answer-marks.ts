import { type Box, coveredShare, height, width } from './boxes.ts'
import type { PathMark } from './page-marks.ts'
import type { Line } from './text-lines.ts'

/*
 * Answer-marked prints (INEP's "com gabarito" copies: 2010 here): the key's letter of each question
 * is marked on the page, a ring or a fill in a colour (not black, not grey) around or over the letter's
 * box. Such a mark is the answer key, drawn: never a figure, never shown, and read as one more check
 * of the key. A mark is told by what it is, in any year: a coloured shape a few times the letter's
 * size at most, holding the centre of an alternative's letter.
 */

/** A mark is no more than this many times the letter's size on either side. */
const MARK_REACH = 3.5
/** A colour is a colour, not black or grey, where its channels differ by this much. */
const CHROMA = 0.3

/** Whether a path's colour is a colour (green, red, blue…), not black, white or grey. */
function isChromatic ({ colour, subtractive }: PathMark): boolean {
  if (colour.length < 3) return false
  const channels = subtractive ? colour.slice(0, 3) : colour
  return Math.max(...channels) - Math.min(...channels) >= CHROMA
}

export interface AnswerMarks {
  /** The paths that mark letters: no figure is made of them. */
  readonly paths: ReadonlySet<PathMark>
  /** The letters' lines a mark holds. */
  readonly marked: ReadonlySet<Line>
}

/** The marks on alternatives' letters among a page's paths; `letters` are the lines that start with one. */
export function answerMarks (paths: readonly PathMark[], letters: readonly Line[]): AnswerMarks {
  const marks = new Set<PathMark>()
  const marked = new Set<Line>()
  for (const line of letters) {
    const letter = line.glyphs.find((glyph) => glyph.text.trim() !== '')
    if (letter === undefined) continue
    const box = letter.box
    const centre = { x0: (box.x0 + box.x1) / 2 - 0.5, y0: (box.y0 + box.y1) / 2 - 0.5, x1: (box.x0 + box.x1) / 2 + 0.5, y1: (box.y0 + box.y1) / 2 + 0.5 }
    const size = Math.max(width(box), height(box), 0.5 * letter.size)
    for (const path of paths) {
      if (!isChromatic(path) || !holds(path.box, centre)) continue
      if (width(path.box) > MARK_REACH * size || height(path.box) > MARK_REACH * size) continue
      marks.add(path)
      marked.add(line)
    }
  }
  return { paths: marks, marked }
}

function holds (outer: Box, inner: Box): boolean {
  return coveredShare(inner, outer) > 0.99
}
