import { area, type Box, cluster, height, verticalOverlap, width } from './boxes.ts'
import type { ImageMark, PageMarks, PathMark } from './page-marks.ts'

/*
 * Furniture by repetition, over a whole booklet: a drawing (the images and paths that touch one
 * another) printed at the same size and in the same shape on RECURS_ON or more pages is the page's,
 * not a question's — a rule or a chain of diamonds beside every question label (2014, 2015), a
 * decoration closing each question, a footer strip, a logo. No coordinate or colour of any one
 * year is named: a question's figure is printed once, so what recurs on several pages is furniture,
 * in any layout. Drawings too small for a figure of their own (a letter's box) and lone rules are
 * left to the figure stage, which already keeps them out of figures; a drawing set between words on
 * a line (an equilibrium's arrows, 2015) is the text's, however often it recurs.
 */

/** A drawing is furniture when it recurs on this many pages or more. */
export const RECURS_ON = 3
/** Sizes and the places of a drawing's pieces within it match within this many points. */
const SAME_SIZE = 1.5
/** Pieces closer than this (points) form one drawing. */
const TOUCHING = 1
/** The share of a drawing's pieces that must match another's for the two to be the same drawing. */
const SAME_PIECES = 0.9
/** A mark covering more than this share of the page (a frame around the page, a background) is a drawing alone. */
const LARGE_SHARE = 1 / 8

/** A graphic of a page as repetition sees it: where it is and what it looks like, apart from where. */
export interface Graphic {
  readonly box: Box
  /** An image's size in pixels, or a path's kind (stroke or fill) and colour. */
  readonly look: string
  /** The mark it was made from (an ImageMark or a PathMark of the page), to leave out of figures. */
  readonly source: ImageMark | PathMark
}

export interface PageGraphics {
  readonly page: number
  readonly width: number
  readonly height: number
  readonly graphics: readonly Graphic[]
  /** The boxes of the page's glyphs: a drawing set between words is the text's (an equilibrium's arrows). */
  readonly text: readonly Box[]
}

/** A path painted white (a background behind text) shows nothing. */
export function isWhite ({ colour, subtractive }: PathMark): boolean {
  if (colour.length === 0) return false
  return subtractive ? colour.every((value) => value < 0.02) : colour.every((value) => value > 0.98)
}

/** A rule: a mark much longer than it is thick. */
export function isThin (box: Box): boolean {
  const short = Math.min(width(box), height(box))
  return short < 1.6 || (short < 3.5 && Math.max(width(box), height(box)) > 20 * short)
}

/** The graphics of a page's marks: its images and the paths that show (white ones left out). */
export function pageGraphics (marks: Pick<PageMarks, 'number' | 'width' | 'height' | 'images' | 'paths' | 'glyphs'>): PageGraphics {
  const tone = (value: number) => Math.round(value * 10) / 10
  return {
    page: marks.number,
    width: marks.width,
    height: marks.height,
    graphics: [
      ...marks.images.map((image) => ({ box: image, look: `image ${image.pixels}`, source: image })),
      ...marks.paths.filter((path) => !isWhite(path)).map((path) => ({ box: path.box, look: `${path.stroked ? 'stroke' : 'fill'} ${path.colour.map(tone).join(',')}`, source: path }))
    ],
    text: marks.glyphs.filter((glyph) => glyph.text.trim() !== '' || !glyph.mapped).map((glyph) => glyph.box)
  }
}

interface Drawing {
  readonly page: number
  readonly box: Box
  /** Set between words on a line (an equilibrium's arrows, a symbol): the text's, however often it recurs. */
  readonly inline: boolean
  /** Its graphics, their boxes from the drawing's top left corner. */
  readonly pieces: ReadonlyArray<{ readonly box: Box, readonly look: string }>
  readonly sources: ReadonlyArray<ImageMark | PathMark>
}

function drawingsOf ({ page, width: pageWidth, height: pageHeight, graphics, text }: PageGraphics): Drawing[] {
  const large = (graphic: Graphic) => area(graphic.box) > LARGE_SHARE * pageWidth * pageHeight
  const small = graphics.filter((graphic) => !large(graphic))
  const groups = [...cluster(small.map((graphic) => graphic.box), TOUCHING).map((members) => members.map((at) => small[at]!)), ...graphics.filter(large).map((graphic) => [graphic])]
  return groups.map((members) => {
    const box = { x0: Math.min(...members.map((member) => member.box.x0)), y0: Math.min(...members.map((member) => member.box.y0)), x1: Math.max(...members.map((member) => member.box.x1)), y1: Math.max(...members.map((member) => member.box.y1)) }
    return {
      page,
      box,
      inline: between(box, text),
      pieces: members.map((member) => ({ box: { x0: member.box.x0 - box.x0, y0: member.box.y0 - box.y0, x1: member.box.x1 - box.x0, y1: member.box.y1 - box.y0 }, look: member.look })),
      sources: members.map((member) => member.source)
    }
  })
}

/**
 * Whether a box stands between glyphs on its row, one ending just before it and one starting just
 * after, and is no wider than a few letters' heights (a rule running from a label to the next
 * column's text is not set between words).
 */
export function between (box: Box, text: readonly Box[]): boolean {
  const onRow = (glyph: Box) => verticalOverlap(glyph, box) > 0.3 * Math.min(height(glyph), height(box)) && width(box) < 5 * height(glyph)
  const near = (gap: number, glyph: Box) => gap > -1 && gap < 2 * height(glyph)
  return text.some((glyph) => onRow(glyph) && near(box.x0 - glyph.x1, glyph)) && text.some((glyph) => onRow(glyph) && near(glyph.x0 - box.x1, glyph))
}

function sameBox (a: Box, b: Box): boolean {
  return Math.abs(a.x0 - b.x0) <= SAME_SIZE && Math.abs(a.y0 - b.y0) <= SAME_SIZE && Math.abs(a.x1 - b.x1) <= SAME_SIZE && Math.abs(a.y1 - b.y1) <= SAME_SIZE
}

/** Two drawings are the same when their sizes match and nearly all their pieces stand at the same places, looking alike. */
function sameDrawing (a: Drawing, b: Drawing): boolean {
  if (Math.abs(width(a.box) - width(b.box)) > SAME_SIZE || Math.abs(height(a.box) - height(b.box)) > SAME_SIZE) return false
  return samePieces(a.pieces, b.pieces)
}

function samePieces (a: Drawing['pieces'], b: Drawing['pieces']): boolean {
  const most = Math.max(a.length, b.length)
  if (Math.min(a.length, b.length) < SAME_PIECES * most) return false
  const taken = new Set<number>()
  let matched = 0
  for (const piece of a) {
    const at = b.findIndex((other, index) => !taken.has(index) && other.look === piece.look && sameBox(other.box, piece.box))
    if (at === -1) continue
    taken.add(at)
    matched++
  }
  return matched >= SAME_PIECES * most
}

/**
 * The same band drawn to another width: a drawing lower than a line of text (a rule with its ornament)
 * made of the same kinds of pieces (look and height), whatever their lengths and how many repeat (2014
 * and 2016 close a question on a page of one wide column with the two-column page's band, drawn longer,
 * its hatching repeated further).
 */
function sameBand (a: Drawing, b: Drawing): boolean {
  if (Math.abs(height(a.box) - height(b.box)) > SAME_SIZE) return false
  const kinds = (drawing: Drawing) => [...new Set(drawing.pieces.map((piece) => `${piece.look}|${Math.round(height(piece.box) * 2)}`))].sort().join(';')
  return kinds(a) === kinds(b)
}

/**
 * The same ornament drawn out to another width: two or more shapes (a chain of diamonds) at the same
 * places, and nothing else but level rules, whose lengths follow the column (2015 closes a question
 * on a page of one wide column with the two-column ornament's diamonds and longer rules).
 */
function sameOrnament (a: Drawing, b: Drawing): boolean {
  const shapes = (drawing: Drawing) => drawing.pieces.filter((piece) => !isThin(piece.box))
  const level = (drawing: Drawing) => drawing.pieces.every((piece) => !isThin(piece.box) || height(piece.box) < 1.6)
  if (Math.abs(height(a.box) - height(b.box)) > SAME_SIZE || !level(a) || !level(b)) return false
  const ours = shapes(a)
  return ours.length >= 2 && samePieces(ours, shapes(b))
}

/**
 * Whether the figure stage would take the drawing for a figure at all: one big enough (either side
 * at least `least` points), and not a rule or two alone.
 */
function couldBeFigure (drawing: Drawing, least: number): boolean {
  if (drawing.inline || Math.max(width(drawing.box), height(drawing.box)) < least) return false
  return !(drawing.pieces.length <= 2 && drawing.pieces.every((piece) => isThin(piece.box)) && isThin(drawing.box))
}

/**
 * The marks of every page that belong to a drawing recurring on RECURS_ON pages or more, among the
 * drawings at least `least` points on a side.
 */
export function recurringDrawings (pages: readonly PageGraphics[], least: number): Set<ImageMark | PathMark> {
  const drawings = pages.flatMap(drawingsOf).filter((drawing) => couldBeFigure(drawing, least))
  // Sorted by width, so that each drawing is compared with the few of about its width only.
  drawings.sort((a, b) => width(a.box) - width(b.box))
  const furniture = new Set<ImageMark | PathMark>()
  // Bands: lower than a line of text (least is a few lines' height), wider than a figure's least.
  const bands = drawings.filter((drawing) => height(drawing.box) < least / 2 && width(drawing.box) >= least && drawing.pieces.length >= 2)
  const ornaments = drawings.filter((drawing) => drawing.pieces.filter((piece) => !isThin(piece.box)).length >= 2 && drawing.pieces.some((piece) => isThin(piece.box)))
  for (let at = 0; at < drawings.length; at++) {
    const drawing = drawings[at]!
    const pagesSeen = new Set([drawing.page])
    for (const step of [-1, 1]) {
      for (let other = at + step; other >= 0 && other < drawings.length; other += step) {
        const candidate = drawings[other]!
        if (Math.abs(width(candidate.box) - width(drawing.box)) > SAME_SIZE) break
        if (!pagesSeen.has(candidate.page) && sameDrawing(drawing, candidate)) pagesSeen.add(candidate.page)
      }
    }
    if (pagesSeen.size < RECURS_ON) for (const candidate of ornaments) if (!pagesSeen.has(candidate.page) && sameOrnament(drawing, candidate)) pagesSeen.add(candidate.page)
    if (pagesSeen.size < RECURS_ON && bands.includes(drawing)) for (const candidate of bands) if (!pagesSeen.has(candidate.page) && sameBand(drawing, candidate)) pagesSeen.add(candidate.page)
    if (pagesSeen.size >= RECURS_ON) for (const source of drawing.sources) furniture.add(source)
  }
  return furniture
}
