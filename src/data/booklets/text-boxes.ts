import type { Box } from './boxes.ts'
import type { FlowElement } from './question-regions.ts'
import { textTable } from './tables.ts'
import type { Line } from './text-lines.ts'

/*
 * A boxed text (a frame drawn around prose, maybe parted in two by a rule: "TRADUZINDO O
 * JURIDIQUÊS", a law beside its plain wording) is its words, once, not a picture: where a figure
 * with no image is a frame around its lines, with nothing else drawn in it but straight rules, and
 * most of the lines in the frame are prose (four words or more), the figure gives way to the lines
 * it frames, read as printed: what spans the frame first, then each part the frame's rules make,
 * left to right, top to bottom. A table in a frame is a table's (tables.ts).
 */

type LineElement = FlowElement & { kind: 'line' }
type FigureElement = FlowElement & { kind: 'figure' }

const centreX = (box: Box) => (box.x0 + box.x1) / 2
const centreY = (box: Box) => (box.y0 + box.y1) / 2
const inside = (box: Box, frame: Box) => centreX(box) > frame.x0 && centreX(box) < frame.x1 && centreY(box) > frame.y0 && centreY(box) < frame.y1

/** The elements with each boxed text's figure replaced by the lines it frames, in reading order. */
export function unboxedText (elements: readonly FlowElement[]): FlowElement[] {
  let out = [...elements]
  for (const element of elements) {
    if (element.kind !== 'figure') continue
    const read = framedLines(element, out)
    if (read === null) continue
    const taken = new Set(read.map((line) => line.line))
    const kept = (other: FlowElement) => !(other.kind === 'line' && taken.has(other.line))
    const at = out.indexOf(element)
    out = [...out.slice(0, at).filter(kept), ...read, ...out.slice(at + 1).filter(kept)]
  }
  return out
}

/** The lines a boxed text's figure frames, in reading order (each part its own place), or null when it is no boxed text. */
function framedLines (element: FigureElement, elements: readonly FlowElement[]): LineElement[] | null {
  const { figure } = element
  if (figure.image || textTable(figure) !== null) return null
  const lineBoxes = new Set(figure.lines.map((line) => line.box))
  const graphics = figure.parts.filter((part) => !lineBoxes.has(part))
  const frame = graphics.find((box) => Math.abs(box.x0 - figure.box.x0) < 3 && Math.abs(box.x1 - figure.box.x1) < 3 && Math.abs(box.y0 - figure.box.y0) < 3 && Math.abs(box.y1 - figure.box.y1) < 3)
  if (frame === undefined) return null
  const rules = graphics.filter((box) => box !== frame)
  if (!rules.every((box) => Math.min(box.x1 - box.x0, box.y1 - box.y0) < 2.5)) return null
  const own: Line[] = [
    ...figure.lines,
    ...elements.flatMap((other) => (other.kind === 'line' && other.page === element.page && inside(other.line.box, frame) && !figure.lines.includes(other.line) ? [other.line] : []))
  ]
  const prose = own.filter((line) => line.text.split(/\s+/u).length >= 4).length
  if (own.length < 3 || prose * 2 < own.length) return null
  // The frame's parts: the vertical rules that run most of its height part it.
  const parting = rules.filter((box) => box.x1 - box.x0 < 2.5 && box.y1 - box.y0 > 0.4 * (frame.y1 - frame.y0)).map((box) => centreX(box)).sort((a, b) => a - b)
  const top = Math.min(...rules.filter((box) => box.x1 - box.x0 < 2.5 && box.y1 - box.y0 > 0.4 * (frame.y1 - frame.y0)).map((box) => box.y0), Infinity)
  const partOf = (line: Line) => (centreY(line.box) < top ? -1 : parting.filter((x) => centreX(line.box) > x).length)
  return own
    .map((line) => ({ line, part: partOf(line) }))
    .sort((a, b) => a.part - b.part || a.line.baseline - b.line.baseline || a.line.box.x0 - b.line.box.x0)
    .map(({ line, part }): LineElement => ({
      kind: 'line',
      page: element.page,
      line,
      // Each part of the frame is a column of its own for the paragraphs.
      place: { ...element.place, band: element.place.band + (part + 2) / 100, y: line.box.y0, x: line.box.x0 }
    }))
}
