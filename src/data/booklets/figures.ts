import { area, type Box, cluster, coveredShare, grow, height, intersect, isEmpty, near, union, verticalOverlap, width } from './boxes.ts'
import { isDrawnLetter } from './drawn-letters.ts'
import type { PathMark } from './page-marks.ts'
import { between, isThin, isWhite } from './recurring-drawings.ts'
import type { Line } from './text-lines.ts'

/*
 * The fourth stage: figures. A figure is a cluster of images and drawn paths lying close together,
 * with the text set inside it (a chart's labels, a table's cells, a map's names): cropped from the
 * page as one picture, its text no longer read as the statement's. Paths that only decorate are
 * not figures: a lone rule (the line beside a question's label, between questions), a shape behind
 * an alternative's letter or a label, white fills, anything in the margins.
 */

export interface Figure {
  readonly box: Box
  /** The lines inside it, which the text leaves out. */
  readonly lines: readonly Line[]
  /** Whether an embedded image is part of it (a photo, a scanned chart), not only drawn paths. */
  readonly image: boolean
  /** The boxes of what it is made of (graphics and lines), so that it can be cut apart. */
  readonly parts: readonly Box[]
}

/** Graphics closer than this (points) belong to one figure. */
const CLUSTER_GAP = 4
/** A line is a figure's when this share of it lies inside the figure's box (grown by LABEL_MARGIN). */
const INSIDE_SHARE = 0.6
const LABEL_MARGIN = 2.5
/** A cluster of paths alone narrower and lower than this many times the text size only decorates. */
export const DECORATION_SIZE = 2.4

export interface FigureInput {
  readonly images: readonly Box[]
  /** Glyphs set at an angle: a figure's labels. */
  readonly rotated: readonly Box[]
  readonly paths: readonly PathMark[]
  /** The content lines of the page (furniture removed). */
  readonly lines: readonly Line[]
  /** Lines that label a question or head a text: a shape touching them decorates them. */
  readonly labels: readonly Line[]
  /** The vertical extent of the content: graphics outside it are the page's, not a question's. */
  readonly content: { top: number, bottom: number }
  /** The gutter's rule, which is no figure. */
  readonly gutterX: number | null
  /** The body text's size. */
  readonly textSize: number
  /** Whether a line is an alternative's letter (letters.ts's alternativeLetter, with the booklet's letter fonts). */
  readonly isLetter: (line: Line) => boolean
}

/** The figures of one page. */
export function pageFigures (input: FigureInput): Figure[] {
  const { content, textSize } = input
  const inContent = (box: Box) => box.y0 >= content.top - 1 && box.y1 <= content.bottom + 1
  // A drawing's short words (a structure's atoms, a diagram's letters) join its pieces, which their
  // lines stop short of; they count as no graphic of their own.
  const joining = input.lines.filter((line) => line.text.length <= 4 && !input.isLetter(line) && !input.labels.includes(line))
  // The box, rule or band of a question's label (2021 sets its band a little apart; 2009 runs its rule on across
  // the column) decorates the label: no figure is made of it, nor joined by it to a drawing below.
  const decoratesLabel = (box: Box) => input.labels.some((label) => near(label.box, box, 3) ||
    (verticalOverlap(label.box, box) > 0 && height(box) < 2 * height(label.box) && box.x0 >= label.box.x1 - 2 && box.x0 - label.box.x1 < 3 * label.size))
  const marks: Array<{ box: Box, image: boolean, thin: boolean, text?: Line }> = [
    ...joining.map((line) => ({ box: line.box, image: false, thin: false, text: line })),
    ...input.images.filter(inContent).map((box) => ({ box, image: true, thin: false })),
    ...input.rotated.filter(inContent).map((box) => ({ box, image: false, thin: false })),
    ...input.paths
      .filter((path) => !isWhite(path) && inContent(path.box) && !decoratesLabel(path.box))
      .filter((path) => input.gutterX === null || !(width(path.box) < 4 && path.box.x0 - 2 < input.gutterX && path.box.x1 + 2 > input.gutterX && height(path.box) > 100))
      .map((path) => ({ box: path.box, image: false, thin: isThin(path.box) }))
  ]
  // Nothing is one figure across the gutter: two tables side by side in two columns are two figures,
  // and a figure's labels come from its own column (a figure that spans both has both).
  const gutterX = input.gutterX
  const apart = (a: Box, b: Box) => gutterX !== null && ((a.x1 <= gutterX && b.x0 >= gutterX) || (b.x1 <= gutterX && a.x0 >= gutterX))
  const sameSide = (figure: Box, line: Box) => gutterX === null || (figure.x1 - 2 > gutterX && figure.x0 + 2 < gutterX) ||
    ((line.x0 + line.x1) / 2 < gutterX) === ((figure.x0 + figure.x1) / 2 < gutterX)
  const clusters = cluster(marks.map((mark) => mark.box), CLUSTER_GAP, apart).map((members) => members.map((at) => marks[at]!))
  const prose = proseBlocks(input.lines)
  const glyphBoxes = input.lines.flatMap((line) => line.glyphs.filter((glyph) => glyph.text.trim() !== '' || !glyph.mapped).map((glyph) => glyph.box))
  const figures: Figure[] = []
  for (const all of clusters) {
    const members = all.filter((mark) => mark.text === undefined)
    if (members.length === 0) continue
    const box = union(members.map((mark) => mark.box))
    const image = members.some((mark) => mark.image)
    if (!image) {
      // A lone rule decorates, unless short words are set along it (a segment with its points named).
      const named = all.length > members.length
      if (!named && members.every((mark) => mark.thin) && members.length <= 2 && isThin(box)) continue
      if (width(box) < DECORATION_SIZE * textSize && height(box) < DECORATION_SIZE * textSize) continue
      if (decoratesLabel(box)) continue
      // Drawn between words on a line (a reaction's arrow): the formula's, cropped with its line (read-booklet.ts).
      if (between(box, glyphBoxes)) continue
    }
    // The cluster's box holds text set inside it (labels, cells); that text is the figure's.
    const grown = grow(box, LABEL_MARGIN)
    const joined = all.flatMap((mark) => (mark.text === undefined ? [] : [mark.text]))
    // Prose inside a frame (a shared text in a box) is the statement's, not the figure's: a block of lines
    // is the figure's only where something is drawn along its lines (a table's rules, a chart's marks).
    const drawnAlong = (line: Line) => members.some((mark) => height(mark.box) < 0.8 * height(box) &&
      verticalOverlap(grow(mark.box, 0.6 * line.size), line.box) > 0 && mark.box.x0 < line.box.x1 && mark.box.x1 > line.box.x0)
    // A letter read from its drawn shape (drawn-letters.ts) is an alternative's, even set among its pictures.
    const lines = [...new Set([...joined, ...input.lines.filter((line) => !input.labels.includes(line) && !isDrawnLetter(line) && coveredShare(line.box, grown) >= INSIDE_SHARE &&
      (!prose.has(line) || drawnAlong(line)))])]
    // A background panel of text (a box around a poem) is not a figure: text fills it, nothing is drawn in it.
    if (!image && lines.length > 0 && members.length <= 2 && members.every((mark) => !mark.thin)) {
      const inked = lines.reduce((sum, line) => sum + width(line.box) * height(line.box), 0)
      if (inked > 0.35 * width(box) * height(box)) continue
    }
    const whole = union([box, ...lines.map((line) => line.box)])
    // Rules alone, however many, with nothing set along them, show nothing a picture would.
    if (!image && lines.length === 0 && isThin(whole)) continue
    const labels = nearbyLabels(whole, input.lines.filter((line) => !lines.includes(line) && !input.labels.includes(line) && sameSide(whole, line.box)), prose, input.isLetter)
    const parts = [...members.map((mark) => mark.box), ...lines.map((line) => line.box), ...labels.map((line) => line.box)]
    figures.push({ box: union([whole, ...labels.map((line) => line.box)]), lines: [...lines, ...labels], image, parts })
  }
  // Pieces merged (an axis title beside its chart) hold more text between them: taken once more.
  const merged = mergeOverlapping(mergeOverlapping(figures, apart).map((figure) => {
    // An alternative's letter beside stacked pieces is no piece's text.
    const inside = input.lines.filter((line) => !figure.lines.includes(line) && !input.labels.includes(line) && !input.isLetter(line) &&
      !prose.has(line) && coveredShare(line.box, grow(figure.box, LABEL_MARGIN)) >= INSIDE_SHARE)
    const around = union([figure.box, ...inside.map((line) => line.box)])
    const labels = nearbyLabels(around, input.lines.filter((line) => !figure.lines.includes(line) && !inside.includes(line) && !input.labels.includes(line) && sameSide(around, line.box)), prose, input.isLetter)
    const added = [...inside, ...labels]
    return added.length === 0 ? figure : { ...figure, box: union([around, ...labels.map((line) => line.box)]), lines: [...figure.lines, ...added], parts: [...figure.parts, ...added.map((line) => line.box)] }
  }), apart)
  // A label's band (a drawing that decorates it) is where the label starts.
  const labelTops = input.labels.map((label) => Math.min(label.box.y0, ...input.paths.filter((path) => verticalOverlap(path.box, label.box) > 0 && height(path.box) < 2 * height(label.box) && decoratesLabel(path.box)).map((path) => path.box.y0)))
  return merged.map((figure) => endAboveLabels(wholeLabels(figure, input.lines.filter((line) => !input.labels.includes(line) && !input.isLetter(line) && !isDrawnLetter(line) &&
    !prose.has(line) && isLabelLike(line.text))), input.labels, labelTops))
}

/**
 * A picture whose white margin a question's label (and its band) is printed over, below the picture's
 * top (2010 sets "Questão 139" over a scanned image's foot), ends above the label: the label is the page's.
 */
function endAboveLabels (figure: Figure, labels: readonly Line[], tops: readonly number[]): Figure {
  const box = figure.box
  const over = tops.filter((top, at) => labels[at]!.box.x0 < box.x1 && labels[at]!.box.x1 > box.x0 && labels[at]!.box.y0 > box.y0 + height(labels[at]!.box) && top < box.y1)
  if (over.length === 0) return figure
  const kept = { ...box, y1: Math.min(...over) }
  const parts = figure.parts.flatMap((part) => (isEmpty(intersect(part, kept)) ? [] : [intersect(part, kept)]))
  return { ...figure, box: union(parts), lines: figure.lines.filter((line) => line.box.y1 <= kept.y1), parts }
}

/**
 * A figure whose crop cuts through or holds a label-like line (a few words, no sentence: "Posição de
 * equilíbrio" cut to "íbrio", a chart's category letters) takes the line whole, until no line is cut:
 * the crop shows it, so the text does not again.
 */
function wholeLabels (figure: Figure, lines: readonly Line[]): Figure {
  let { box } = figure
  const added: Line[] = []
  for (let round = 0; round < 3; round++) {
    const cut = lines.filter((line) => !figure.lines.includes(line) && !added.includes(line) && area(intersect(line.box, box)) > 0.5)
    if (cut.length === 0) break
    added.push(...cut)
    box = union([box, ...cut.map((line) => line.box)])
  }
  return added.length === 0 ? figure : { ...figure, box, lines: [...figure.lines, ...added], parts: [...figure.parts, ...added.map((line) => line.box)] }
}

/** A text's own heading above a picture ("TEXTO I", "Texto 2"): the statement's, not the picture's label. */
const TEXT_HEADING = /^texto\s+([IVX]+|\d+)$/iu
const CITATION = /Dispon[ií]vel em|Acesso em|\((adaptado|fragmento)\)|^[A-ZÀ-Ú]{2,}[A-ZÀ-Ú\s-]*, [A-ZÀ-Ú]\./u

/**
 * Short lines standing just outside a figure's box, within its span (a chart's tick labels and axis
 * names, a map's legend), are its labels — not a source citation, not an alternative's letter.
 */
function nearbyLabels (box: Box, lines: readonly Line[], prose: ReadonlySet<Line>, isLetter: (line: Line) => boolean): Line[] {
  const labels: Line[] = []
  let around = box
  for (let round = 0; round < 3; round++) {
    const found = lines.filter((line) => {
      if (labels.includes(line) || prose.has(line) || CITATION.test(line.text) || TEXT_HEADING.test(line.text.trim()) || isLetter(line)) return false
      // Within a line's height of the figure, above, below or beside it, and no wider than it.
      const reach = { x0: around.x0 - 3 * line.size, y0: around.y0 - 2.2 * line.size, x1: around.x1 + 3 * line.size, y1: around.y1 + 2.2 * line.size }
      return coveredShare(line.box, reach) > 0.95 && isLabelLike(line.text) && width(line.box) <= Math.max(width(around), 100) + 2 * line.size
    })
    if (found.length === 0) break
    labels.push(...found)
    around = union([around, ...found.map((line) => line.box)])
  }
  return labels
}

/** A line of this many words or more is a sentence's, never a figure's label. */
const PROSE_WORDS = 8

/**
 * Lines of words set one under another at one left edge, three or more at a line's spacing: prose set
 * narrow beside a figure ("O mapa ao lado representa um / bairro de determinada cidade, …"), whose short
 * lines are no labels. A chart's ticks stack too, but are numbers, and a legend's names ("Filtro solar
 * III", "Filtro solar IV"), a few words each with no stop. Two such lines are prose where
 * one holds a sentence's words (PROSE_WORDS): a paragraph's short last line ("descritas, é", below the
 * asking sentence's first line, 2025 day 2's 138) is its paragraph's, not the figure's below it.
 */
function proseBlocks (lines: readonly Line[]): Set<Line> {
  const prose = new Set<Line>()
  const sorted = [...lines].sort((a, b) => a.box.x0 - b.box.x0 || a.box.y0 - b.box.y0)
  for (const line of sorted) {
    if (prose.has(line) || /^[\d.,%−–\s-]+$/u.test(line.text)) continue
    const stack = [line]
    for (;;) {
      const last = stack[stack.length - 1]!
      const next = sorted.find((other) => !stack.includes(other) && Math.abs(other.box.x0 - line.box.x0) < 1 &&
        other.box.y0 > last.box.y0 && other.box.y0 - last.box.y1 < 0.8 * last.size)
      if (next === undefined) break
      stack.push(next)
    }
    const words = stack.map((member) => member.text.split(/\s+/u).length)
    // A legend's or a diagram's names stack too, a few words each with no sentence's stop: they are no prose.
    const names = words.every((count) => count <= 3) && stack.every((member) => !/[.,;:!?]$/u.test(member.text.trim()))
    if ((stack.length >= 3 && !names) || (stack.length === 2 && Math.max(...words) >= PROSE_WORDS)) for (const member of stack) prose.add(member)
  }
  return prose
}

/**
 * A label's text: a few words that make no sentence (an axis's name, a structure's: no full stop,
 * colon or question mark at its end — "Analise a figura." is the statement's), or a row of numbers
 * (an axis's ticks).
 */
function isLabelLike (text: string): boolean {
  const tokens = text.split(/\s+/u).filter((token) => token !== '')
  if (tokens.length === 0) return false
  if (tokens.every((token) => /^[\d.,%−–-]+$/u.test(token))) return true
  return tokens.length <= 5 && !/[.:?!;]$/u.test(text.trim())
}

/** Figures whose boxes overlap (a label joined two clusters) become one, unless `apart`. */
function mergeOverlapping (figures: Figure[], apart: (a: Box, b: Box) => boolean): Figure[] {
  const groups = cluster(figures.map((figure) => figure.box), 0, apart)
  return groups.map((members) => {
    const parts = members.map((at) => figures[at]!)
    if (parts.length === 1) return parts[0]!
    return { box: union(parts.map((part) => part.box)), lines: [...new Set(parts.flatMap((part) => part.lines))], image: parts.some((part) => part.image), parts: parts.flatMap((part) => part.parts) }
  })
}

/** One alternative's share of a figure that holds several alternatives' pictures. */
export interface FigureCell {
  /** Where a part's centre lies for the part to be this cell's. */
  readonly box: Box
  /** What a part spanning several cells keeps for this cell. */
  readonly clip: Box
  /** The height at which the cell's letter stands. */
  readonly row: number
}

/**
 * A figure cut into cells (one per alternative, where their letters stand beside or in it): each cell
 * keeps the parts whose centre lies in it; a part across two cells' letters' rows or more (one picture
 * of several alternatives: 2010 scans five structures as one image) is clipped to each cell's `clip`.
 * Cells left empty are dropped.
 */
export function cutFigure (figure: Figure, cells: readonly FigureCell[]): Figure[] {
  const holds = (cell: Box, box: Box) => {
    const [x, y] = [(box.x0 + box.x1) / 2, (box.y0 + box.y1) / 2]
    return x >= cell.x0 && x < cell.x1 && y >= cell.y0 && y < cell.y1
  }
  const spans = (part: Box) => cells.filter((cell) => part.y0 < cell.row && part.y1 > cell.row && part.x0 < cell.clip.x1 && part.x1 > cell.clip.x0).length >= 2
  const pieces: Figure[] = []
  for (const cell of cells) {
    const parts = figure.parts.flatMap((part) => {
      if (!spans(part)) return holds(cell.box, part) ? [part] : []
      const clipped = intersect(part, cell.clip)
      return isEmpty(clipped) ? [] : [clipped]
    })
    if (parts.length === 0) continue
    pieces.push({ box: union(parts), lines: figure.lines.filter((line) => holds(cell.box, line.box)), image: figure.image, parts })
  }
  return pieces
}
