import { type Box, cluster, coveredShare, height, verticalOverlap, width } from './boxes.ts'
import type { Glyph, PathMark } from './page-marks.ts'
import { isWhite } from './recurring-drawings.ts'
import type { Line } from './text-lines.ts'

/*
 * Alternatives' letters drawn as shapes, not set as text: 2010 prints each letter as a dark disc with
 * the letter cut out of it in white paths, and no glyph at all. Such a letter is read by its shape:
 * every disc whose cut-out pieces stand alike is the same letter, over the whole booklet; which
 * letter each is, the order tells — where five discs stand one under another (a question's
 * alternatives), the first is A and the last E; a disc standing elsewhere (alternatives in a grid, or
 * split between two columns) is the letter its shape holds in the stacks, where that shape holds one
 * place nearly always (C and E cut alike may not). A named disc becomes a glyph of its own font, which the rest of the reader takes for an
 * alternative's letter as it takes a printed one.
 */

/** The font name of a letter read from its shape. */
const DRAWN_LETTER_FONT = 'drawn letter'
/** Whether a line starts with a letter read from its shape. */
export function isDrawnLetter (line: Line): boolean {
  return line.glyphs[0]?.font === DRAWN_LETTER_FONT
}

/** A disc is this many points wide or more, and no more than DISC_MOST. */
const DISC_LEAST = 4
const DISC_MOST = 16
/** Pieces stand alike when each side lies within this share of the disc's width of the other's. */
const SAME_PLACE = 0.08
const LETTERS = ['A', 'B', 'C', 'D', 'E'] as const
/** A shape is a letter where it holds that letter's place in this share of the stacks it stands in. */
const SURE_SHAPE = 0.9

/** A disc with pieces cut out of it, on a page. */
interface Disc {
  readonly page: number
  readonly box: Box
  /** Its cut-out pieces' boxes, from its top left corner, in shares of its width, sorted. */
  readonly pieces: readonly Box[]
  /** The paths it is drawn with (the disc and its pieces). */
  readonly paths: readonly PathMark[]
}

export interface DrawnLetters {
  /** The glyphs made of named discs, page by page. */
  readonly glyphs: ReadonlyMap<number, readonly Glyph[]>
  /** The paths those letters are drawn with, which no figure is made of. */
  readonly paths: ReadonlySet<PathMark>
}

function discsOf (page: number, paths: readonly PathMark[]): Disc[] {
  const discs: Disc[] = []
  for (const path of paths) {
    const { box } = path
    const side = width(box)
    if (path.stroked || isWhite(path) || side < DISC_LEAST || side > DISC_MOST || Math.abs(side - height(box)) > 0.2 * side) continue
    const inside = paths.filter((other) => other !== path && isWhite(other) && !other.stroked && coveredShare(other.box, box) > 0.95 && width(other.box) < 0.9 * side)
    if (inside.length === 0) continue
    const pieces = inside.map((other) => ({ x0: (other.box.x0 - box.x0) / side, y0: (other.box.y0 - box.y0) / side, x1: (other.box.x1 - box.x0) / side, y1: (other.box.y1 - box.y0) / side }))
      .sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0)
    discs.push({ page, box, pieces, paths: [path, ...inside] })
  }
  return discs
}

function sameShape (a: Disc, b: Disc): boolean {
  if (a.pieces.length !== b.pieces.length) return false
  const close = (p: Box, q: Box) => Math.abs(p.x0 - q.x0) <= SAME_PLACE && Math.abs(p.y0 - q.y0) <= SAME_PLACE && Math.abs(p.x1 - q.x1) <= SAME_PLACE && Math.abs(p.y1 - q.y1) <= SAME_PLACE
  const taken = new Set<number>()
  return a.pieces.every((piece) => {
    const at = b.pieces.findIndex((other, index) => !taken.has(index) && close(piece, other))
    if (at === -1) return false
    taken.add(at)
    return true
  })
}

/** Runs of five discs one under another at one left edge, each no farther below the last than `reach`. */
function stacksOfFive (discs: readonly Disc[]): Disc[][] {
  const stacks: Disc[][] = []
  const byEdge = [...discs].sort((a, b) => a.page - b.page || a.box.x0 - b.box.x0 || a.box.y0 - b.box.y0)
  const used = new Set<Disc>()
  for (const disc of byEdge) {
    if (used.has(disc)) continue
    const column = byEdge.filter((other) => other.page === disc.page && Math.abs(other.box.x0 - disc.box.x0) < 2).sort((a, b) => a.box.y0 - b.box.y0)
    for (const other of column) used.add(other)
    // A question's five letters stand closer together than two questions' do: runs are cut where the gap is wide.
    let run: Disc[] = []
    const reach = 12 * width(disc.box)
    for (const other of column) {
      const last = run[run.length - 1]
      if (last !== undefined && other.box.y0 - last.box.y1 > reach) {
        if (run.length === 5) stacks.push(run)
        run = []
      }
      run.push(other)
    }
    if (run.length === 5) stacks.push(run)
  }
  return stacks
}

/** Discs of one page close together (a grid of alternatives spans a column), five to a group. */
function looseGroups (discs: readonly Disc[]): Disc[][] {
  const groups: Disc[][] = []
  for (const page of new Set(discs.map((disc) => disc.page))) {
    const own = discs.filter((disc) => disc.page === page)
    const reach = 25 * Math.max(...own.map((disc) => width(disc.box)))
    groups.push(...cluster(own.map((disc) => disc.box), reach).map((members) => members.map((at) => own[at]!)).filter((group) => group.length === 5))
  }
  return groups
}

/**
 * The alternatives' letters a booklet draws as shapes, named by the place each shape holds among five
 * stacked letters, as glyphs set on the baseline of the text beside them. `glyphs` gives each
 * page's printed glyphs, to find that baseline and size.
 */
export function drawnLetters (pages: ReadonlyArray<{ readonly number: number, readonly paths: readonly PathMark[], readonly glyphs: readonly Glyph[] }>): DrawnLetters {
  const discs = pages.flatMap((page) => discsOf(page.number, page.paths))
  // Shapes: each disc joins the first shape it matches.
  const shapes: Disc[][] = []
  const shapeOf = new Map<Disc, number>()
  for (const disc of discs) {
    let at = shapes.findIndex((shape) => sameShape(shape[0]!, disc))
    if (at === -1) at = shapes.push([]) - 1
    shapes[at]!.push(disc)
    shapeOf.set(disc, at)
  }
  // A disc among five stacked is the letter of its place; elsewhere (alternatives in a grid, or split
  // between columns), the letter its shape is where its shape holds one place nearly always.
  const votes = shapes.map(() => [0, 0, 0, 0, 0])
  const placed = new Map<Disc, string>()
  for (const stack of stacksOfFive(discs)) {
    stack.forEach((disc, place) => {
      votes[shapeOf.get(disc)!]![place]!++
      placed.set(disc, LETTERS[place]!)
    })
  }
  const letterOfShape = votes.map((counts) => {
    const most = Math.max(...counts)
    const all = counts.reduce((sum, count) => sum + count, 0)
    return most === 0 || most < SURE_SHAPE * all ? null : LETTERS[counts.indexOf(most)]!
  })
  // Five discs close together but not stacked (a grid: A B C in one column, D E in the next) whose sure
  // shapes leave some letters to place: those go, in reading order, to the discs whose shape is unsure.
  for (const group of looseGroups(discs.filter((disc) => !placed.has(disc)))) {
    const sure = group.map((disc) => letterOfShape[shapeOf.get(disc)!] ?? null)
    const known = sure.filter((letter) => letter !== null)
    if (new Set(known).size !== known.length) continue
    const left = LETTERS.filter((letter) => !known.includes(letter))
    const unsure = group.filter((_, at) => sure[at] === null).sort((a, b) => Math.round(a.box.x0 / 10) - Math.round(b.box.x0 / 10) || a.box.y0 - b.box.y0)
    if (left.length !== unsure.length) continue
    group.forEach((disc, at) => { placed.set(disc, sure[at] ?? left[unsure.indexOf(disc)]!) })
  }
  const glyphs = new Map<number, Glyph[]>()
  const paths = new Set<PathMark>()
  for (const disc of discs) {
    const letter = placed.get(disc) ?? letterOfShape[shapeOf.get(disc)!]
    if (letter == null) continue
    const printed = pages.find((page) => page.number === disc.page)!.glyphs
    // The text beside it gives its baseline and size, so that it joins that text's line.
    const beside = printed.filter((glyph) => glyph.box.x0 >= disc.box.x1 && glyph.box.x0 - disc.box.x1 < 3 * width(disc.box) && verticalOverlap(glyph.box, disc.box) > 0.5 * height(disc.box))
      .sort((a, b) => a.box.x0 - b.box.x0)[0]
    const size = beside?.size ?? height(disc.box) * 1.3
    const glyph: Glyph = { text: letter, box: disc.box, baseline: beside?.baseline ?? disc.box.y1, size, font: DRAWN_LETTER_FONT, bold: false, italic: false, mapped: true }
    glyphs.set(disc.page, [...(glyphs.get(disc.page) ?? []), glyph])
    for (const path of disc.paths) paths.add(path)
  }
  return { glyphs, paths }
}
