import { cutFigure, type Figure, type FigureCell } from './figures.ts'
import { letterOf } from './letters.ts'
import { type Box, coveredShare, grow, height, union, verticalOverlap } from './boxes.ts'
import { isCredit, opensReference } from './credits.ts'
import { hyphenJoin, joinHyphenated } from './hyphenation.ts'
import { withoutLineNumbers } from './line-numbers.ts'
import { textTable } from './tables.ts'
import { unboxedText } from './text-boxes.ts'
import type { FlowElement } from './question-regions.ts'
import type { Line } from './text-lines.ts'

/*
 * The sixth stage: a question's elements into its parts — the statement (paragraphs and figures in
 * reading order), the sentence that asks, and five alternatives, each text or a figure. An
 * alternative starts at its letter (`A` … `E`, in a box or a circle, set at the start of a line);
 * the letters are found from the last `E` back, so a statement's own sentence that begins with
 * "A" is not taken for one. Line numbers in a text's margin are dropped first (line-numbers.ts).
 * Paragraphs: a line starts one after a wider gap, an indent, a change of size, or a line that
 * ended short with a full stop; a short line followed by one at the same indent, and every line of
 * a column whose lines share no right edge, keeps its break (a poem's verse); a word hyphenated at
 * a line's end is joined ("editores-" / "-chefes" is one hyphen). Small print after small print is
 * one paragraph (a credit printed flush right over three lines); a source credit (credits.ts) is
 * never the asking sentence.
 */

export type Block =
  | { readonly kind: 'text', readonly text: string, readonly lines: readonly Line[], /** A source credit (credits.ts). */ readonly credit: boolean }
  | { readonly kind: 'figure', readonly figure: Figure, readonly page: number }
  | { readonly kind: 'table', readonly rows: ReadonlyArray<readonly string[]>, readonly lines: readonly Line[] }

export interface Alternative {
  readonly letter: 'A' | 'B' | 'C' | 'D' | 'E'
  readonly text: string
  readonly figure: { readonly figure: Figure, readonly page: number } | null
  readonly lines: readonly Line[]
}

export interface QuestionParts {
  /** Statement blocks in reading order, the asking sentence excluded. */
  readonly statement: readonly Block[]
  /** The sentence that asks: the statement's last paragraph, or '' when it ends in a figure. */
  readonly asking: string
  /** Five, or fewer when the letters could not all be found (the reason says why). */
  readonly alternatives: readonly Alternative[]
  readonly problem: string | null
}

const LETTERS = ['A', 'B', 'C', 'D', 'E'] as const
const MARKER = /^([A-E])(?:\s|$)/u

function markerOf (element: FlowElement): string | null {
  return element.kind === 'line' ? letterOf(element.line) : null
}

type LineElement = FlowElement & { kind: 'line' }
type FigureElement = FlowElement & { kind: 'figure' }

/** The parts of a question from its elements (shared text first). */
export function questionParts (printed: readonly FlowElement[], blank?: BlankReader): QuestionParts {
  // Line numbers in a text's margin are no words of it; a boxed text is its words.
  const elements = unboxedText(withoutLineNumbers(printed))
  const markers = findMarkers(elements)
  if (markers === null) {
    const blocks = statementBlocks(elements, columnRights(elements))
    return { ...splitAsking(blocks), alternatives: [], problem: 'its alternatives\' letters A to E were not found' }
  }
  const first = Math.min(...markers)
  const used = new Set<FlowElement>(markers.map((at) => elements[at]!))
  const lines = elements.filter((element): element is LineElement => element.kind === 'line')
  const markerElements = markers.map((at) => elements[at] as LineElement)
  const spread = lineSpread(markerElements)
  // Each letter set alone takes the text on its row first, before any letter's text runs on below it.
  const besides = new Map(markerElements.map((marker) => [marker, besideText(marker, lines.filter((line) => !markerElements.includes(line)))]))
  const besideLines = new Set([...besides.values()].filter((line) => line !== undefined))
  // A figure cut at the letters beside it is replaced by its pieces; those no alternative takes stay the statement's.
  const pieces = new Map<FlowElement, FigureElement[]>()
  const figures = elements.filter((element): element is FigureElement => element.kind === 'figure').flatMap((element) => {
    const cut = cutAtMarkers(element, markerElements, lines, blank)
    if (cut.length > 1) pieces.set(element, cut)
    return cut
  })
  const alternatives = markerElements.map((marker, at): Alternative => {
    // The marker below this one in its column bounds its text and figure (alternatives may stand in a grid).
    const below = markerElements
      .filter((other) => other !== marker && other.page === marker.page && Math.abs(other.line.box.x0 - marker.line.box.x0) < 2 * marker.line.size && other.line.box.y0 > marker.line.box.y0)
      .sort((a, b) => a.line.box.y0 - b.line.box.y0)[0]
    const limit = below?.line.box.y0 ?? Infinity
    const own = continuation(marker, besides.get(marker), lines.filter((line) => !used.has(line) && !markerElements.includes(line) && !besideLines.has(line)), limit, spread)
    for (const line of own) used.add(line)
    const figure = figures.find((element) => {
      if (used.has(element) || element.page !== marker.page) return false
      const box = element.figure.box
      const centre = (box.y0 + box.y1) / 2
      const besideMarker = box.y0 <= marker.line.box.y1 && box.y1 >= marker.line.box.y0
      const belowMarker = centre >= marker.line.box.y0 - 2 && centre < limit - 1
      const besideLetter = box.x0 >= marker.line.box.x0 - 4 && box.x0 <= marker.line.box.x0 + 80
      return (besideMarker || belowMarker) && besideLetter && box.y1 <= limit + 2
    })
    if (figure !== undefined) used.add(figure)
    // Beside its figure, what lies on the figure (a tick label left out of it) is the figure's, not text.
    const onFigure = (box: Box, size: number) => figure !== undefined && coveredShare(box, grow(figure.figure.box, size)) >= 0.5
    const text = own.filter((element) => !onFigure(element.line.box, element.line.size))
    // So is what follows the letter on its own line, where it lies on the figure (a drawing's point "A").
    const rest = marker.line.glyphs.slice(1).filter((glyph) => glyph.text.trim() !== '')
    const restOnFigure = rest.length > 0 && onFigure(union(rest.map((glyph) => glyph.box)), marker.line.size)
    return {
      letter: LETTERS[at]!,
      text: joinHyphenated([restOnFigure ? '' : marker.line.text.replace(MARKER, ''), ...text.map((element) => element.line.text)]),
      figure: figure === undefined ? null : { figure: figure.figure, page: figure.page },
      lines: [marker.line, ...text.map((element) => element.line)]
    }
  })
  const statement = elements.slice(0, first).flatMap((element) => pieces.get(element) ?? [element]).filter((element) => !used.has(element))
  return { ...splitAsking(statementBlocks(statement, columnRights(elements))), alternatives, problem: null }
}

/** The asking sentence: the last paragraph, unless that is a figure or a source credit (which closes the statement). */
function splitAsking (blocks: Block[]): { statement: Block[], asking: string } {
  const last = blocks[blocks.length - 1]
  const asking = last !== undefined && last.kind === 'text' && !last.credit ? last.text : ''
  return { statement: asking === '' ? blocks : blocks.slice(0, -1), asking }
}

/** Where a page prints nothing in a box (page-pictures.ts blankRuns): runs of blank rows and of blank columns, in page coordinates. */
export type BlankReader = (page: number, box: Box) => { readonly rows: ReadonlyArray<readonly [number, number]>, readonly columns: ReadonlyArray<readonly [number, number]> }

/**
 * A white band this many letters' heights tall or more parts two alternatives' pictures; a narrower one
 * may part a chart from its axis's labels (2018, 2023 stack charts a few points apart).
 */
const GAP_BETWEEN_PICTURES = 0.4

/**
 * One figure beside or around two letters or more holds several alternatives' pictures (figures stacked
 * in a column touch and are found as one; 2010 scans five structures, or a grid of five drawings, as one
 * image): it is cut into a cell per letter. A column of letters standing inside it starts a column of
 * cells just left of them; down a column, each part goes to the letter whose cell holds its centre, two
 * letters' cells meeting halfway between their centres. A part across two letters' rows or more (a
 * scanned picture: nothing drawn apart to cut at) is cut where it prints nothing (`blank`): in the widest
 * white band between two letters tall enough to part two pictures (else halfway), right of a letter
 * standing in it (past a mark drawn around the letter), and below the question's text above the first
 * letters (set over the picture's white).
 */
function cutAtMarkers (element: FigureElement, markers: readonly LineElement[], lines: readonly LineElement[], blank?: BlankReader): FigureElement[] {
  const box = element.figure.box
  // The letter's own box, not its line's (the text after it runs on).
  const letterBox = (marker: LineElement) => marker.line.glyphs.find((glyph) => glyph.text.trim() !== '' || !glyph.mapped)?.box ?? marker.line.box
  const beside = markers.filter((marker) => marker.page === element.page && marker.line.box.y1 > box.y0 && marker.line.box.y0 < box.y1 &&
    marker.line.box.x0 >= box.x0 - 80 && letterBox(marker).x1 < box.x1)
  if (beside.length < 2) return [element]
  const centre = (letter: Box) => (letter.y0 + letter.y1) / 2
  const across = element.figure.parts.some((part) => beside.filter((marker) => part.y0 < centre(marker.line.box) && part.y1 > centre(marker.line.box)).length >= 2)
  const white = across ? blank : undefined
  const size = Math.max(...beside.map((marker) => height(marker.line.box)))
  const columns: LineElement[][] = []
  for (const marker of [...beside].sort((a, b) => a.line.box.x0 - b.line.box.x0)) {
    const column = columns.find((others) => Math.abs(others[0]!.line.box.x0 - marker.line.box.x0) < 2 * size)
    if (column === undefined) columns.push([marker])
    else column.push(marker)
  }
  const textAbove = (column: readonly LineElement[]) => Math.max(-Infinity, ...lines.filter((other) => other.page === element.page && !markers.includes(other) &&
    other.line.box.x1 > box.x0 && other.line.box.x0 < box.x1 && other.line.box.y1 > box.y0 && other.line.box.y1 <= column[0]!.line.box.y0).map((other) => other.line.box.y1))
  const cells = columns.flatMap((column, at) => {
    column.sort((a, b) => a.line.box.y0 - b.line.box.y0)
    const left = at === 0 ? -Infinity : Math.min(...column.map((marker) => marker.line.box.x0)) - 1
    const right = at + 1 < columns.length ? Math.min(...columns[at + 1]!.map((marker) => marker.line.box.x0)) - 1 : Infinity
    // A letter standing in the figure is no part of its picture, nor is a mark drawn around it: its cell starts at the first white after it.
    const starts = column.map((marker) => {
      const letter = letterBox(marker)
      if (letter.x1 <= box.x0) return left
      const after = white?.(element.page, { x0: letter.x1, y0: letter.y0 - height(letter), x1: Math.min(right, box.x1), y1: letter.y1 + height(letter) }).columns[0]
      return after === undefined ? letter.x1 + 1 : Math.max(after[0], letter.x1)
    })
    const from = Math.max(box.x0, ...starts)
    const to = Math.min(right, box.x1)
    const halfway = column.slice(1).map((lower, above) => (centre(column[above]!.line.box) + centre(lower.line.box)) / 2)
    const gaps = column.slice(1).map((lower, above) => {
      const [y0, y1] = [centre(column[above]!.line.box), centre(lower.line.box)]
      const runs = from < to ? white?.(element.page, { x0: from, y0, x1: to, y1 }).rows ?? [] : []
      const widest = runs.filter(([start, end]) => end - start >= GAP_BETWEEN_PICTURES * size).sort((a, b) => (b[1] - b[0]) - (a[1] - a[0]))[0]
      return widest === undefined ? (y0 + y1) / 2 : (widest[0] + widest[1]) / 2
    })
    const [edges, whiteEdges] = [[-Infinity, ...halfway, Infinity], [textAbove(column), ...gaps, Infinity]]
    return column.map((marker, row): FigureCell => ({
      box: { x0: left, y0: edges[row]!, x1: right, y1: edges[row + 1]! },
      clip: { x0: starts[row]!, y0: whiteEdges[row]!, x1: right, y1: whiteEdges[row + 1]! },
      row: centre(marker.line.box)
    }))
  })
  return cutFigure(element.figure, cells).map((figure) => ({ ...element, figure }))
}

/**
 * How far apart the letters' lines stand, beyond a line's height: the most white an alternative's own
 * lines can leave between them (2009 spreads a column's lines to fill it, its alternatives' too).
 */
function lineSpread (markers: readonly LineElement[]): number {
  const gaps: number[] = []
  markers.forEach((marker, at) => {
    const next = markers[at + 1]
    if (next !== undefined && next.page === marker.page && Math.abs(next.line.box.x0 - marker.line.box.x0) < 3 && next.line.box.y0 > marker.line.box.y1) {
      gaps.push(next.line.box.y0 - marker.line.box.y1)
    }
  })
  const least = Math.min(...gaps)
  return Number.isFinite(least) ? least : 0
}

/** A letter set alone (its text stands on another baseline: a fraction, a formula): the text on its row. */
function besideText (marker: LineElement, lines: readonly LineElement[]): LineElement | undefined {
  const alone = marker.line.glyphs.filter((glyph) => glyph.text.trim() !== '' || !glyph.mapped).length === 1
  if (!alone) return undefined
  return lines.find((element) => element.page === marker.page && verticalOverlap(element.line.box, marker.line.box) > 0.3 * marker.line.size &&
    element.line.box.x0 > marker.line.box.x1 && element.line.box.x0 - marker.line.box.x1 < 4 * marker.line.size)
}

/**
 * The lines that carry on an alternative's text below its letter's line: each starting where
 * its text starts (a hanging indent), no farther below than a line or the letters' own spread (`spread`: 2009 spaces its lines wide),
 * above the next letter; the text beside a letter set alone (`beside`) first.
 */
function continuation (marker: LineElement, beside: LineElement | undefined, lines: readonly LineElement[], limit: number, spread: number): LineElement[] {
  const own: LineElement[] = []
  if (beside !== undefined) own.push(beside)
  const textStart = beside?.line.box.x0 ?? marker.line.glyphs.find((glyph, at) => at > 0 && (glyph.text.trim() !== '' || !glyph.mapped))?.box.x0 ?? marker.line.box.x0
  let last = beside?.line ?? marker.line
  for (;;) {
    const next = lines.find((element) => element.page === marker.page && !own.includes(element) && element !== marker &&
      element.line.box.y0 > last.box.y0 + 0.3 * last.size && element.line.box.y0 - last.box.y1 < Math.max(1.1 * last.size, spread + 1) &&
      element.line.box.y0 < limit - 1 && Math.abs(element.line.box.x0 - textStart) < 1.5 * last.size)
    if (next === undefined) return own
    own.push(next)
    last = next.line
  }
}

/**
 * The elements that start alternatives A–E, in letter order, or null. Read from the end back, the
 * last letter of each kind is taken, so a statement's own sentence that begins with "A" is not. The
 * five letters of a question stand one under another: where letters at one left edge hold all five,
 * those are taken, so a drawing's vertex labelled "A" … "E" beside them is not (alternatives in a
 * grid, at two edges, are read from all the letters).
 */
function findMarkers (elements: readonly FlowElement[]): number[] | null {
  const candidates = elements.flatMap((element, at) => {
    const letter = markerOf(element)
    return letter === null || element.kind !== 'line' ? [] : [{ at, letter, x: element.line.box.x0, page: element.page }]
  })
  const lastOfEach = (pool: typeof candidates) => {
    const found = new Map<string, number>()
    for (let at = pool.length - 1; at >= 0 && found.size < 5; at--) {
      if (!found.has(pool[at]!.letter)) found.set(pool[at]!.letter, pool[at]!.at)
    }
    return found.size < 5 ? null : LETTERS.map((letter) => found.get(letter)!)
  }
  const edges = [...new Set(candidates.map(({ x }) => Math.round(x)))].sort((a, b) => a - b)
  for (const edge of edges) {
    const aligned = lastOfEach(candidates.filter(({ x }) => Math.abs(x - edge) <= 3))
    if (aligned !== null) return aligned
  }
  return lastOfEach(candidates)
}

/** Statement elements into paragraphs, tables and figures; `columnRight` as `paragraphs` takes it. */
function statementBlocks (elements: readonly FlowElement[], columnRight: ReadonlyMap<string, number> = columnRights(elements)): Block[] {
  const blocks: Block[] = []
  let run: Array<FlowElement & { kind: 'line' }> = []
  const size = textSize(elements.flatMap((element) => (element.kind === 'line' ? [element.line] : [])))
  const flush = () => {
    blocks.push(...paragraphs(run, size, columnRight))
    run = []
  }
  let band: number | null = null
  for (const element of elements) {
    // A part of a boxed text (text-boxes.ts gives each a band of its own, between the page's) is a text of its own.
    if (element.place.band !== band && !Number.isInteger(element.place.band)) flush()
    band = element.place.band
    if (element.kind === 'figure') {
      // A table set as text between rules is text: its title and source, what the figure took beside it, are paragraphs.
      const table = textTable(element.figure)
      if (table === null) {
        flush()
        blocks.push({ kind: 'figure', figure: element.figure, page: element.page })
        continue
      }
      run.push(...table.before.map((line) => ({ ...element, kind: 'line' as const, line })))
      flush()
      blocks.push({ kind: 'table', rows: table.rows, lines: table.lines })
      run.push(...table.after.map((line) => ({ ...element, kind: 'line' as const, line })))
    } else if (element.kind === 'line') {
      run.push(element)
    }
  }
  flush()
  return blocks
}

const columnKey = (element: FlowElement) => `${element.page}:${element.place.band}:${element.place.column}`

/** Per column (page, band, column), the farthest right a line among `elements` reaches. */
function columnRights (elements: readonly FlowElement[]): Map<string, number> {
  const rights = new Map<string, number>()
  for (const element of elements) if (element.kind === 'line') rights.set(columnKey(element), Math.max(rights.get(columnKey(element)) ?? -Infinity, element.line.box.x1))
  return rights
}

/** How wide a line's first word is printed. */
function firstWordWidth (line: Line): number {
  const glyphs = line.glyphs.filter((glyph) => glyph.mapped)
  const end = glyphs.findIndex((glyph, at) => at > 0 && (glyph.text.trim() === '' || glyph.box.x0 - glyphs[at - 1]!.box.x1 > 0.15 * glyph.size))
  const word = end < 0 ? glyphs : glyphs.slice(0, end)
  return word.length === 0 ? 0 : word[word.length - 1]!.box.x1 - word[0]!.box.x0
}

/** The statement's text size: the one most glyphs have. */
function textSize (lines: readonly Line[]): number {
  const sizes = new Map<number, number>()
  for (const line of lines) sizes.set(Math.round(line.size * 4) / 4, (sizes.get(Math.round(line.size * 4) / 4) ?? 0) + line.glyphs.length)
  return [...sizes].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 0
}

/**
 * Lines of one column run into paragraphs; `bodySize` is the statement's text size (a line set smaller
 * is a credit's, a note's, a caption's); `columnRight`, per column, the farthest right any of the
 * question's lines in it reaches.
 */
function paragraphs (run: ReadonlyArray<FlowElement & { kind: 'line' }>, bodySize: number, columnRight: ReadonlyMap<string, number>): Block[] {
  if (run.length === 0) return []
  const small = (line: Line) => line.size < 0.9 * bodySize
  // The column's left and right edges, as this question's text-size lines in it show them (a credit stands
  // farther right).
  const edges = new Map<string, { left: number, right: number }>()
  const key = columnKey
  for (const columnKey of new Set(run.map(key))) {
    const inColumn = run.filter((element) => key(element) === columnKey)
    const text = inColumn.filter((element) => !small(element.line))
    const measured = text.length > 0 ? text : inColumn
    edges.set(columnKey, { left: Math.min(...measured.map((element) => element.line.box.x0)), right: Math.max(...measured.map((element) => element.line.box.x1)) })
  }
  // Prose set narrow (beside a figure) ends three or more lines at one right edge, to a fraction of a point.
  const atSharedEdge = (element: FlowElement & { kind: 'line' }) =>
    run.filter((other) => key(other) === key(element) && Math.abs(other.line.box.x1 - element.line.box.x1) < 0.3).length >= 3
  // A line ended by choice, not for want of room: the next line's first word would have fit in the white
  // it leaves before the column's right edge (as far as any of the question's lines in that column reach).
  // Prose never leaves such white (justified or not); a poem's verse does.
  const endedByChoice = (element: FlowElement & { kind: 'line' }, next: Line) => {
    const right = columnRight.get(key(element)) ?? edges.get(key(element))!.right
    return !small(element.line) && right - element.line.box.x1 > firstWordWidth(next) + 0.5 * element.line.size && !atSharedEdge(element)
  }
  // A poem: three or more lines of a column, and most of them (three in four) ended by choice; its other lines
  // are verses too, however near the edge they end.
  const poems = new Set<string>()
  for (const columnKey of edges.keys()) {
    const followed = run.filter((element, at) => key(element) === columnKey && !small(element.line) && run[at + 1] !== undefined && key(run[at + 1]!) === columnKey)
    const chosen = followed.filter((element) => endedByChoice(element, run[run.indexOf(element) + 1]!.line)).length
    if (followed.length >= 3 && chosen >= 0.75 * followed.length) poems.add(columnKey)
  }
  // A line ends short when a neighbour in its column reaches farther right: the last line of a
  // paragraph, a verse. Prose set narrow beside a figure is justified to its own edge, so it is not.
  const previousShortOf = (element: FlowElement & { kind: 'line' }) => {
    const at = run.indexOf(element)
    const neighbours = [run[at - 1], run[at + 1]].filter((other) => other !== undefined && key(other) === key(element))
    const right = Math.max(...neighbours.map((other) => other!.line.box.x1), -Infinity)
    return element.line.box.x1 < right - 2.5 * element.line.size
  }
  // A verse: a line ending well short of its column's right edge, where the lines around it end elsewhere
  // (ragged, as a poem's are); prose set narrow beside a figure ends each line at one edge; or one ended by choice.
  const verseOf = (element: FlowElement & { kind: 'line' }) => {
    const at = run.indexOf(element)
    const neighbours = [run[at - 1], run[at + 1]].filter((other) => other !== undefined && key(other) === key(element))
    const shortOfEdge = element.line.box.x1 < edges.get(key(element))!.right - 3 * element.line.size
    const next = run[at + 1]
    return (!small(element.line) && poems.has(key(element))) || (next !== undefined && key(next) === key(element) && endedByChoice(element, next.line)) || previousShortOf(element) || (shortOfEdge && neighbours.some((other) => Math.abs(other!.line.box.x1 - element.line.box.x1) > 1))
  }
  // An item of a list ("1 – cria um laço…", "a) …", "• …") starts its own line, where another item of the run starts at the same left.
  const listItem = (element: FlowElement & { kind: 'line' }) => LIST_MARK.test(element.line.text) &&
    run.some((other) => other !== element && LIST_MARK.test(other.line.text) && Math.abs(other.line.box.x0 - element.line.box.x0) < 1)
  // The usual distance between baselines, per size, as this question's consecutive lines show it.
  const pitches = new Map<number, number[]>()
  run.forEach((element, at) => {
    const next = run[at + 1]
    if (next === undefined || key(next) !== key(element) || Math.abs(next.line.size - element.line.size) > 0.3) return
    const distance = next.line.baseline - element.line.baseline
    if (distance > 0 && distance < 2 * element.line.size) pitches.set(Math.round(element.line.size), [...(pitches.get(Math.round(element.line.size)) ?? []), distance])
  })
  const pitch = (size: number) => {
    const seen = (pitches.get(Math.round(size)) ?? []).sort((a, b) => a - b)
    return seen.length === 0 ? 1.2 * size : seen[Math.floor(seen.length / 4)]!
  }
  const out: Block[] = []
  let lines: Line[] = []
  let text: string[] = []
  const flush = () => {
    if (lines.length > 0) {
      const joined = paragraphText(text.join(''))
      out.push({ kind: 'text', text: joined, lines, credit: isCredit(joined, lines.every(small)) })
    }
    lines = []
    text = []
  }
  run.forEach((element, at) => {
    const line = element.line
    const previous = at > 0 ? run[at - 1]! : null
    if (previous !== null) {
      const edge = edges.get(key(element))!
      const before = previous.line
      const sameColumn = key(previous) === key(element)
      const gap = line.baseline - before.baseline - pitch(line.size)
      // An indent starts a paragraph; a line at the same indent as the one before it goes on (a poem set in).
      // Lines centred one under the other (a subtitle broken to fit) go on, whatever their indents.
      const centred = Math.abs(line.box.x0 + line.box.x1 - before.box.x0 - before.box.x1) < 2 && Math.abs(line.box.x0 - before.box.x0) > 1 &&
        before.box.x1 < edge.right - line.size && line.box.x1 < edge.right - line.size
      const indented = !centred && line.box.x0 > edge.left + 0.6 * line.size && Math.abs(line.box.x0 - before.box.x0) > 1 &&
        (previousShortOf(previous) || Math.abs(line.box.x1 - before.box.x1) > 2 || /[.!?…"”]$/u.test(before.text))
      const sizeChanged = Math.abs(line.size - before.size) > 0.6
      const boldChanged = line.bold !== before.bold
      const previousShort = previousShortOf(previous)
      // Small print after small print is one credit (or note) however its lines are aligned or weighted
      // (a credit sets its lines flush right and its title bold), until a line opens another reference.
      const inSmallPrint = small(line) && small(before)
      const newParagraph = inSmallPrint
        ? gap > 0.5 * line.size || (/[.!?]$/u.test(before.text) && opensReference(line.text))
        : !sameColumn
            ? sizeChanged || boldChanged || (previousShort && /[.:!?"”»)]$/u.test(before.text)) // a paragraph carried into the next column goes on
            : gap > 0.2 * line.size || indented || sizeChanged || boldChanged || (previousShort && /[.:!?]$/u.test(before.text) && line.box.x0 > before.box.x0 + 1)
      if (newParagraph) flush()
      else text.push(joiner(text[text.length - 1] ?? '', line.text, (sameColumn && !inSmallPrint && verseOf(previous) && !indented) || listItem(element)))
    }
    lines.push(line)
    text.push(line.text)
  })
  flush()
  return out
}

const LIST_MARK = /^(?:\d{1,2}\s*[–—.)-]|[a-z]\)|[IVX]{1,4}\s*[–—.)-]|[•▪●■◦–—])\s/u

/** Marks where a hyphen at a line's end is to be dropped, until the paragraph is whole. */
const HYPHEN_JOIN = '\u2060join\u2060'
/** What joins a line to the one before it: a hard break for a verse, nothing for a word broken at a hyphen (hyphenation.ts), else a space. */
function joiner (before: string, after: string, verse: boolean): string {
  const join = hyphenJoin(before, after)
  if (join === 'drop') return HYPHEN_JOIN
  // A pronoun after the verb's hyphen ("ajudá-" / "la"), a compound's hyphen: kept, no space.
  if (join === 'keep') return ''
  if (verse) return '  \n'
  return ' '
}

/** A paragraph's text with its hyphenation joins applied (HYPHEN_JOIN drops the hyphen before it). */
export function paragraphText (text: string): string {
  return text.replaceAll(`-${HYPHEN_JOIN}`, '')
}
