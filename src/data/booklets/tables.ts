import { type Box, union, width, height } from './boxes.ts'
import type { Figure } from './figures.ts'
import { joinHyphenated } from './hyphenation.ts'
import { lineText, type Line } from './text-lines.ts'

/*
 * A table the booklet sets as text between rules (a "quadro": species and results, cities and
 * speeds) is text, not a picture: searchable, read aloud, fitting a phone. A figure is such a table
 * when it has no image, is drawn of nothing but straight rules and cell fills (a shaded header), is
 * closed by at least two horizontal rules, and its lines stand in a grid: columns that no line
 * crosses (a vertical rule or white between them), rows between the horizontal rules or on shared
 * baselines. Anything else drawn (a bar, a curve, a diagonal, a fill with no text in it) keeps the
 * figure a picture. Lines the figure took beside the grid (a title above, a source below) stay text
 * around the table.
 */

export interface TextTable {
  /** Rows of cells, the first the header; each cell its lines' text. */
  readonly rows: ReadonlyArray<readonly string[]>
  /** The grid's lines, and those of the figure above and below it. */
  readonly lines: readonly Line[]
  readonly before: readonly Line[]
  readonly after: readonly Line[]
}

/** Cells on one row stand farther apart than this many times the size (a space between words is a quarter of it). */
const CELL_GAP = 0.8
/** A rule no thicker than this (points). */
const RULE = 2.5

interface Rule { readonly at: number, readonly from: number, readonly to: number }

/** Rules along one axis, those at one position (within a point and a half) merged, with the extent they cover. */
function mergeRules (rules: readonly Rule[]): Rule[] {
  const merged: Array<{ at: number, from: number, to: number }> = []
  for (const rule of [...rules].sort((a, b) => a.at - b.at)) {
    const last = merged[merged.length - 1]
    if (last !== undefined && rule.at - last.at < 1.5) {
      last.from = Math.min(last.from, rule.from)
      last.to = Math.max(last.to, rule.to)
    } else {
      merged.push({ ...rule })
    }
  }
  return merged
}

const centreY = (box: Box) => (box.y0 + box.y1) / 2
const centreX = (box: Box) => (box.x0 + box.x1) / 2

/** The table a figure is, or null when it is a picture. */
export function textTable (figure: Figure): TextTable | null {
  if (figure.image || figure.lines.length < 4) return null
  const lineBoxes = new Set(figure.lines.map((line) => line.box))
  const graphics = figure.parts.filter((part) => !lineBoxes.has(part))
  const horizontal: Rule[] = []
  const vertical: Rule[] = []
  for (const box of graphics) {
    if (height(box) <= RULE && width(box) >= 3 * height(box)) horizontal.push({ at: centreY(box), from: box.x0, to: box.x1 })
    else if (width(box) <= RULE && height(box) >= 3 * width(box)) vertical.push({ at: centreX(box), from: box.y0, to: box.y1 })
    // A fill is a cell's only where text stands in it; a bar, a curve or a shape is a picture's.
    else if (!figure.lines.some((line) => line.box.x0 < box.x1 && line.box.x1 > box.x0 && centreY(line.box) > box.y0 && centreY(line.box) < box.y1)) return null
  }
  const drawn = union(graphics)
  const rows = mergeRules(horizontal).filter((rule) => rule.to - rule.from >= 0.5 * width(drawn))
  if (rows.length < 2) return null
  // A short stroke off the rows' rules is a drawing's (an arrow's shaft, a fraction's bar), and text in a font
  // with no mapping reads wrong: either keeps the picture, which shows them.
  const size = Math.max(...figure.lines.map((line) => line.size))
  if (horizontal.some((rule) => rule.to - rule.from < 3 * size && !rows.some((row) => Math.abs(row.at - rule.at) < 1.5))) return null
  if (figure.lines.some((line) => line.unmapped)) return null
  const top = rows[0]!.at
  const bottom = rows[rows.length - 1]!.at
  const inGrid = (line: Line) => centreY(line.box) > top && centreY(line.box) < bottom
  // A vertical rule parts cells that their lines run together ("Menor idade Maior idade" across two columns).
  const rules = mergeRules(vertical).filter((rule) => rule.to - rule.from >= 0.5 * (bottom - top))
  // Cells set close together on one row stay one line; a gap no space between words is as wide parts them.
  // Cells set close together stay one line: such a line is cut at a gap wider than a space between words that
  // falls in the white between the other lines' columns (a gap inside a word, as a re-saved font spaces some, is no cell's end).
  const ruled = figure.lines.filter(inGrid).flatMap((line) => splitAtRules(line, rules))
  const whole = ruled.filter((line) => splitAtGaps(line).length === 1)
  const white = columnsOf(whole)
  const grid = ruled.flatMap((line) => splitAtGaps(line, (x) => white.length > 1 && !white.some((column) => x > column.from && x < column.to)))
  const before = figure.lines.filter((line) => centreY(line.box) <= top)
  const after = figure.lines.filter((line) => centreY(line.box) >= bottom)
  if (grid.length < 4) return null
  // Columns: the white no line of the body crosses (a header's cell may span several columns: it goes to the
  // one its centre is nearest).
  const header = rows.length > 2 ? grid.filter((line) => centreY(line.box) < rows[1]!.at) : []
  const body = grid.filter((line) => !header.includes(line))
  const columns = columnsOf(body.length >= 2 ? body : grid)
  if (columns.length < 2) return null
  const columnOf = (line: Line) => {
    const x = centreX(line.box)
    const distances = columns.map((column) => (x >= column.from && x <= column.to ? 0 : Math.min(Math.abs(x - column.from), Math.abs(x - column.to))))
    return distances.indexOf(Math.min(...distances))
  }
  // Rows: between consecutive horizontal rules, and within a band, on each baseline that more than one column shares
  // (a cell's wrapped line, alone on its baseline, goes on the cell above it).
  const table: string[][] = []
  const lines: Line[] = []
  for (const [at, rule] of rows.entries()) {
    const next = rows[at + 1]
    if (next === undefined) break
    const band = grid.filter((line) => centreY(line.box) > rule.at && centreY(line.box) < next.at).sort((a, b) => a.baseline - b.baseline || a.box.x0 - b.box.x0)
    if (band.length === 0) continue
    const size = Math.max(...band.map((line) => line.size))
    const baselines: number[][] = []
    for (const line of band) {
      const last = baselines[baselines.length - 1]
      if (last !== undefined && Math.abs(line.baseline - last[0]!) < 0.3 * size) last.push(line.baseline)
      else baselines.push([line.baseline])
    }
    // The header, and every row where rules part each row from the next, is one row however many lines its cells take.
    if (at === 0 || rows.length > 3) baselines.splice(0, baselines.length, baselines.flat())
    const shared = baselines.map((group) => band.filter((line) => group.includes(line.baseline)))
    const starts = shared.filter((onRow) => new Set(onRow.map(columnOf)).size > 1 || shared.length === 1)
    const rowsOfBand = (starts.length === 0 ? [shared[0]!] : starts)
    const cells = rowsOfBand.map(() => columns.map((): Line[] => []))
    for (const onRow of shared) {
      // A row that only one column fills continues the last row begun above it (or begins the band's first).
      const row = Math.max(0, rowsOfBand.filter((start) => start[0]!.baseline <= onRow[0]!.baseline).length - 1)
      for (const line of onRow) cells[row]![columnOf(line)]!.push(line)
    }
    for (const row of cells) {
      table.push(row.map((cell) => joinHyphenated(cell.sort((a, b) => a.baseline - b.baseline || a.box.x0 - b.box.x0).map((line) => line.text))))
      lines.push(...row.flat())
    }
  }
  if (table.length < 2) return null
  const empty = table.flat().filter((cell) => cell === '').length
  if (empty * 2 > table.length * columns.length) return null
  return { rows: table, lines, before, after }
}

/** A line cut where a vertical rule runs through it (between two of its glyphs; a rule that stops above it, under a header spanning two columns, does not). */
function splitAtRules (line: Line, rules: readonly Rule[]): Line[] {
  const cuts = rules.filter((rule) => line.box.x0 < rule.at - 1 && line.box.x1 > rule.at + 1 && rule.from < centreY(line.box) && rule.to > centreY(line.box)).map((rule) => rule.at)
  if (cuts.length === 0) return [line]
  const pieces = [-Infinity, ...cuts].map((from, at) => line.glyphs.filter((glyph) => centreX(glyph.box) > from && centreX(glyph.box) <= (cuts[at] ?? Infinity)))
  return pieces.filter((glyphs) => glyphs.some((glyph) => glyph.text.trim() !== '')).map((glyphs) => {
    const printed = glyphs.filter((glyph) => glyph.text.trim() !== '' || !glyph.mapped)
    return { ...line, glyphs: printed, box: union(printed.map((glyph) => glyph.box)), text: lineText(printed) }
  })
}

/** A line cut at each gap wider than a space between words where `parts` says the gap's middle parts cells. */
function splitAtGaps (line: Line, parts: (x: number) => boolean = () => true): Line[] {
  const printed = line.glyphs.filter((glyph) => glyph.text.trim() !== '' || !glyph.mapped)
  const pieces: Array<typeof printed> = []
  for (const glyph of printed) {
    const piece = pieces[pieces.length - 1]
    const end = piece?.[piece.length - 1]
    if (piece !== undefined && end !== undefined && (glyph.box.x0 - end.box.x1 < CELL_GAP * line.size || !parts((glyph.box.x0 + end.box.x1) / 2))) piece.push(glyph)
    else pieces.push([glyph])
  }
  if (pieces.length < 2) return [line]
  return pieces.map((glyphs) => ({ ...line, glyphs, box: union(glyphs.map((glyph) => glyph.box)), text: lineText(glyphs) }))
}

/** The columns of a grid's lines: their horizontal extents merged where they overlap. */
function columnsOf (lines: readonly Line[]): Array<{ from: number, to: number }> {
  const columns: Array<{ from: number, to: number }> = []
  for (const line of [...lines].sort((a, b) => a.box.x0 - b.box.x0)) {
    const last = columns[columns.length - 1]
    if (last !== undefined && line.box.x0 < last.to + 0.3 * line.size) last.to = Math.max(last.to, line.box.x1)
    else columns.push({ from: line.box.x0, to: line.box.x1 })
  }
  return columns
}

/** A table as Markdown: a header row, its rule, and the rows; `cell` writes a cell's text (escaping what Markdown would read). */
export function markdownTable (rows: ReadonlyArray<readonly string[]>, cell: (text: string) => string): string {
  const written = rows.map((row) => `| ${row.map((text) => cell(text).replaceAll('\n', ' ')).join(' | ')} |`)
  return [written[0]!, `|${rows[0]!.map(() => ' --- |').join('')}`, ...written.slice(1)].join('\n')
}
