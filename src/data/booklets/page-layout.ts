import { type Box, height, width } from './boxes.ts'
import type { PathMark } from './page-marks.ts'

/*
 * The third stage: where a page's columns are, and so the order it is read in. Booklets mix pages
 * of two columns and pages of one wide column (2023: about 17 and 12; 2025: 18 and 11), and a page
 * may hold both, a wide band above or below two columns. The gutter is the page's tall vertical
 * rule near the middle when it draws one (2023, 2025), else the widest vertical strip near the
 * middle that no line crosses (2009). A band is wide where something crosses the gutter; the rest
 * is read left column, then right, band by band from the top.
 */

export interface Gutter {
  /** The x that divides the columns. */
  readonly x: number
  /** The vertical extent of the rule, or of the content, it divides. */
  readonly y0: number
  readonly y1: number
}

/** Where an element stands in the page's reading order: band, then column (0 wide or left, 1 right), then y. */
export interface FlowPlace {
  readonly band: number
  readonly column: 0 | 1
  readonly y: number
  readonly x: number
}

/** A rule no thinner than this share of the page's height, within the middle fifth, is a gutter's. */
const GUTTER_RULE_SHARE = 0.3
/** A strip between columns is at least this wide (points) when no rule draws it. */
const GUTTER_MIN_WIDTH = 6

/** The page's gutter, or null for a page of one column. */
export function findGutter (pageWidth: number, pageHeight: number, paths: readonly PathMark[], content: readonly Box[]): Gutter | null {
  const middle = (x: number) => x > pageWidth * 0.4 && x < pageWidth * 0.6
  const rules = paths.filter((path) => width(path.box) < 3 && height(path.box) > pageHeight * GUTTER_RULE_SHARE && middle((path.box.x0 + path.box.x1) / 2))
  if (rules.length > 0) {
    const x = rules.reduce((sum, rule) => sum + (rule.box.x0 + rule.box.x1) / 2, 0) / rules.length
    return { x, y0: Math.min(...rules.map((rule) => rule.box.y0)), y1: Math.max(...rules.map((rule) => rule.box.y1)) }
  }
  if (content.length === 0) return null
  // No rule: the widest strip near the middle that no box crosses, if boxes stand on both sides of it.
  const step = 1
  let best: { x0: number, x1: number } | null = null
  let start: number | null = null
  for (let x = pageWidth * 0.35; x <= pageWidth * 0.65; x += step) {
    const free = content.every((box) => box.x1 < x || box.x0 > x)
    if (free && start === null) start = x
    if ((!free || x + step > pageWidth * 0.65) && start !== null) {
      if (best === null || x - start > best.x1 - best.x0) best = { x0: start, x1: x }
      start = null
    }
  }
  if (best === null || best.x1 - best.x0 < GUTTER_MIN_WIDTH) return null
  const x = (best.x0 + best.x1) / 2
  const left = content.filter((box) => box.x1 < x)
  const right = content.filter((box) => box.x0 > x)
  if (left.length === 0 || right.length === 0) return null
  return { x, y0: Math.min(...content.map((box) => box.y0)), y1: Math.max(...content.map((box) => box.y1)) }
}

/** How far (points) a box reaches into each column to be wide: a label or a frame that overhangs the gutter is not. */
const WIDE_REACH = 24

/** Whether a box spans both columns (a wide line or figure). */
function crosses (box: Box, gutter: Gutter): boolean {
  return box.x0 < gutter.x - WIDE_REACH && box.x1 > gutter.x + WIDE_REACH
}

/**
 * Each box's place in the reading order. Boxes that cross the gutter, or lie outside the rule's
 * extent, make wide bands; between them, two columns.
 */
export function flowPlaces (boxes: readonly Box[], gutter: Gutter | null): FlowPlace[] {
  if (gutter === null) return boxes.map((box) => ({ band: 0, column: 0, y: box.y0, x: box.x0 }))
  const wide = boxes.map((box) => crosses(box, gutter) || box.y1 < gutter.y0 || box.y0 > gutter.y1)
  // Wide intervals, merged; bands alternate between them and the two-column stretches.
  const intervals = boxes.filter((_, at) => wide[at]).map((box) => [box.y0, box.y1] as [number, number]).sort((a, b) => a[0] - b[0])
  const merged: Array<[number, number]> = []
  for (const [y0, y1] of intervals) {
    const last = merged[merged.length - 1]
    if (last !== undefined && y0 <= last[1] + 1) last[1] = Math.max(last[1], y1)
    else merged.push([y0, y1])
  }
  return boxes.map((box, at) => {
    const centre = (box.y0 + box.y1) / 2
    let band = 0
    for (const [y0, y1] of merged) {
      if (wide[at] && centre >= y0 - 0.01 && centre <= y1 + 0.01) return { band: band + 1, column: 0, y: box.y0, x: box.x0 }
      if (centre > y1) band += 2
      else break
    }
    const column = (box.x0 + box.x1) / 2 < gutter.x ? 0 : 1
    return { band, column, y: box.y0, x: box.x0 }
  })
}

export function compareFlow (a: FlowPlace, b: FlowPlace): number {
  return a.band - b.band || a.column - b.column || a.y - b.y || a.x - b.x
}
