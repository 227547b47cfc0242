import { type Box, union, verticalOverlap } from './boxes.ts'
import type { Glyph } from './page-marks.ts'
import { inScript, type Script } from './scripts.ts'

/*
 * The second stage: glyphs into lines. Glyphs sharing a baseline form a row; a row splits where a
 * gap is wider than a space can be (a column gutter, a table's cells); a smaller glyph raised or
 * lowered against its row is a superscript or subscript of it (CO₂, 10³), written with Unicode's
 * super- and subscript characters (docs/data.md, "Booklets").
 */

export interface LineGlyph extends Glyph {
  readonly script: Script
}

export interface Line {
  /** Left to right. */
  readonly glyphs: readonly LineGlyph[]
  readonly box: Box
  readonly baseline: number
  /** The size most of its glyphs have. */
  readonly size: number
  /** Its text, spaces where the glyphs leave a gap, sub- and superscripts as Unicode where they have a form. */
  readonly text: string
  /** Whether most of its letters are bold. */
  readonly bold: boolean
  /** Whether some glyph has no usable text mapping. */
  readonly unmapped: boolean
}

/** A gap wider than this many times the font size ends a line (a space, even justified, is narrower). */
export const LINE_BREAK_GAP = 0.9
/** Glyphs whose baselines differ by less than this many times the size share a row. */
const BASELINE_TOLERANCE = 0.2
/** A gap wider than this many times the size is a space where the PDF prints none. */
const SPACE_GAP = 0.15
/** A space starting this many times the size before the previous glyph ends is set over it (kerning never reaches so far). */
const OVERPRINTED = 0.15
/** A glyph smaller than this share of its row's size, off the baseline, is a script. */
const SCRIPT_SIZE = 0.85

/** How lines are cut: at gaps wider than `gap` times the size, and at the gutter's x when there is one. */
export interface LineCuts {
  readonly gap: number
  readonly gutterX: number | null
}

/**
 * Before the columns are known, a line is cut at any gap wider than a space; once they are, only
 * at the gutter and at gaps no justified space reaches (2009 stretches spaces to a whole em).
 */
export const FIRST_CUTS: LineCuts = { gap: LINE_BREAK_GAP, gutterX: null }
export const COLUMN_GAP = 2

/** The lines of a set of glyphs (one page, or one column of it), top to bottom, then left to right. */
export function textLines (glyphs: readonly Glyph[], cuts: LineCuts = FIRST_CUTS): Line[] {
  const rows = baselineRows(glyphs)
  const pieces = rows.flatMap((row) => splitAtGaps(row, cuts))
  const lines = attachScripts(pieces)
  return lines.map(makeLine).sort((a, b) => a.baseline - b.baseline || a.box.x0 - b.box.x0)
}

function baselineRows (glyphs: readonly Glyph[]): Glyph[][] {
  const sorted = [...glyphs].sort((a, b) => a.baseline - b.baseline || a.box.x0 - b.box.x0)
  const rows: Glyph[][] = []
  let row: Glyph[] = []
  let baseline = -Infinity
  let size = 0
  for (const glyph of sorted) {
    if (row.length > 0 && glyph.baseline - baseline > BASELINE_TOLERANCE * Math.max(size, glyph.size)) {
      rows.push(row)
      row = []
    }
    if (row.length === 0) {
      baseline = glyph.baseline
      size = glyph.size
    }
    row.push(glyph)
  }
  if (row.length > 0) rows.push(row)
  return rows
}

function splitAtGaps (row: readonly Glyph[], cuts: LineCuts): Glyph[][] {
  const sorted = [...row].sort((a, b) => a.box.x0 - b.box.x0)
  const pieces: Glyph[][] = []
  let piece: Glyph[] = []
  let right = -Infinity
  for (const glyph of sorted) {
    const acrossGutter = cuts.gutterX !== null && right <= cuts.gutterX && glyph.box.x0 >= cuts.gutterX
    if (piece.length > 0 && (glyph.box.x0 - right > cuts.gap * glyph.size || acrossGutter)) {
      pieces.push(piece)
      piece = []
    }
    // A space's width does not count: a trailing space would bridge a gutter.
    if (piece.length > 0 || !isSpace(glyph)) piece.push(glyph)
    if (!isSpace(glyph)) right = piece.length === 1 ? glyph.box.x1 : Math.max(right, glyph.box.x1)
  }
  if (piece.length > 0) pieces.push(piece)
  return pieces.map(trimSpaces).filter((trimmed) => trimmed.length > 0)
}

function isSpace (glyph: Glyph): boolean {
  return glyph.mapped && glyph.text.trim() === ''
}

/** Whether a space is a sliver (under a quarter of its size) that the sub- or superscript after it starts inside. */
function overprintedByScript (space: Glyph, next: LineGlyph | undefined): boolean {
  return next !== undefined && next.script !== 'normal' && next.box.x0 < space.box.x1 && space.box.x1 - space.box.x0 < 0.25 * space.size
}

/** The first mapped glyph from `from` on that is not a space, without copying the line. */
function nextPrinted (glyphs: readonly LineGlyph[], from: number): LineGlyph | undefined {
  for (let at = from; at < glyphs.length; at++) if (glyphs[at]!.mapped && !isSpace(glyphs[at]!)) return glyphs[at]
  return undefined
}

function trimSpaces (piece: Glyph[]): Glyph[] {
  let start = 0
  let end = piece.length
  while (start < end && isSpace(piece[start]!)) start++
  while (end > start && isSpace(piece[end - 1]!)) end--
  return piece.slice(start, end)
}

function dominantSize (glyphs: readonly Glyph[]): number {
  const counts = new Map<number, number>()
  for (const glyph of glyphs) {
    const size = Math.round(glyph.size * 4) / 4
    counts.set(size, (counts.get(size) ?? 0) + 1)
  }
  return [...counts].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0]![0]
}

/**
 * A piece all of whose glyphs are small, lying against a piece of larger text it touches (within
 * a space of its left or right end, overlapping it vertically), belongs to that piece.
 */
function attachScripts (pieces: Glyph[][]): Glyph[][] {
  const boxes = pieces.map((piece) => union(piece.map((glyph) => glyph.box)))
  const sizes = pieces.map(dominantSize)
  const into = pieces.map((_, at) => at)
  pieces.forEach((piece, at) => {
    let best = -1
    let bestDistance = Infinity
    pieces.forEach((other, to) => {
      if (to === at || sizes[at]! >= SCRIPT_SIZE * sizes[to]!) return
      if (verticalOverlap(boxes[at]!, boxes[to]!) <= 0) return
      const gap = Math.max(boxes[at]!.x0 - boxes[to]!.x1, boxes[to]!.x0 - boxes[at]!.x1)
      if (gap > SPACE_GAP * 2 * sizes[to]! + 0.5) return
      const distance = Math.abs(other[0]!.baseline - piece[0]!.baseline)
      if (distance < bestDistance) {
        best = to
        bestDistance = distance
      }
    })
    if (best >= 0) into[at] = best
  })
  const merged = new Map<number, Glyph[]>()
  pieces.forEach((piece, at) => {
    let target = into[at]!
    while (into[target] !== target) target = into[target]!
    merged.set(target, [...(merged.get(target) ?? []), ...piece])
  })
  return [...merged.values()]
}

function makeLine (glyphs: readonly Glyph[]): Line {
  const size = dominantSize(glyphs)
  const main = glyphs.filter((glyph) => glyph.size >= SCRIPT_SIZE * size)
  const baseline = median((main.length > 0 ? main : glyphs).map((glyph) => glyph.baseline))
  const placed: LineGlyph[] = [...glyphs].sort((a, b) => a.box.x0 - b.box.x0).map((glyph) => ({ ...glyph, script: scriptOf(glyph, size, baseline) }))
  const letters = placed.filter((glyph) => /\p{L}/u.test(glyph.text))
  return {
    glyphs: placed,
    box: union(placed.map((glyph) => glyph.box)),
    baseline,
    size,
    text: lineText(placed),
    bold: letters.length > 0 && letters.filter((glyph) => glyph.bold).length * 2 > letters.length,
    unmapped: placed.some((glyph) => !glyph.mapped)
  }
}

export function scriptOf (glyph: Glyph, size: number, baseline: number): Script {
  if (glyph.size >= SCRIPT_SIZE * size) return 'normal'
  const shift = glyph.baseline - baseline
  if (shift < -0.15 * size) return 'sup'
  if (shift > 0.08 * size) return 'sub'
  return 'normal'
}

function median (values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

/** A glyph's character as its script prints it: Unicode's form where there is one, else the character. */
function scripted (glyph: LineGlyph): string {
  return inScript(glyph.text, glyph.script)
}

/** The text of glyphs left to right: a space where they leave a gap and print none. */
export function lineText (glyphs: readonly LineGlyph[]): string {
  let text = ''
  let previous: LineGlyph | null = null
  for (const [at, glyph] of glyphs.entries()) {
    if (!glyph.mapped) {
      previous = glyph
      continue
    }
    if (isSpace(glyph)) {
      // The PDF's own space, however narrow tight justification set it; but not one the script after it
      // is printed over (2023 sets "L", a sliver of a space, then "₁" starting inside it): that moves the
      // pen, it parts no words. Nor one set over the glyph before it (2021 prints a space where its "s"
      // starts, after the space that comes before the word, and one inside its "fl" ligature): it stands
      // inside a word, not between two.
      const inside = previous !== null && glyph.box.x0 < previous.box.x1 - OVERPRINTED * glyph.size
      if (text !== '' && !text.endsWith(' ') && !inside && !overprintedByScript(glyph, nextPrinted(glyphs, at + 1))) text += ' '
      continue
    }
    // A script stands against what it qualifies (L₁, 10³), whatever the font's side bearing leaves.
    if (previous !== null && !text.endsWith(' ')) {
      const gap = glyph.box.x0 - previous.box.x1
      const scripted = glyph.script !== 'normal' || /^[\u2070-\u209f\u00b2\u00b3\u00b9]$/u.test(glyph.text)
      const scriptJoin = scripted && previous.script === 'normal' && gap < 0.35 * previous.size
      // A gap before closing punctuation is kerning (after a superscript: W/m², ), never a space the PDF does not print.
      const closing = /^[,.;:!?)\]]$/u.test(glyph.text)
      if (!scriptJoin && !closing && gap > SPACE_GAP * Math.min(glyph.size, previous.size)) text += ' '
    }
    text += scripted(glyph)
    previous = glyph
  }
  return text.trim()
}
