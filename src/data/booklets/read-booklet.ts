import { area, type Box, cluster, coveredShare, grow, height, intersect, near, union, verticalOverlap, width } from './boxes.ts'
import { answerMarks } from './answer-marks.ts'
import { circleNumbers } from './circled.ts'
import { drawnLetters } from './drawn-letters.ts'
import { DECORATION_SIZE, pageFigures, type Figure } from './figures.ts'
import { decodedMarks, type BookletDecodeOptions, type FontDecoding } from './font-decoding.ts'
import { checkedOcrLine, readRegion, tesseractGlyphs, unlessOcrUnavailable, type OcrReader } from './ocr.ts'
import { agreeingReading, mostlyMapped } from './ocr-agreement.ts'
import { blankRuns } from './page-pictures.ts'
import { joinFractions } from './fractions.ts'
import { alternativeLetter, letterFonts, letterOf } from './letters.ts'
import { furnitureOfText, pageFurniture, recurringTexts, type FurnitureKind } from './furniture.ts'
import { compareFlow, findGutter, flowPlaces, type Gutter } from './page-layout.ts'
import type { ImageMark, PageMarks, PathMark, PdfBooklet } from './page-marks.ts'
import { isWhite, pageGraphics, recurringDrawings } from './recurring-drawings.ts'
import { questionParts, type QuestionParts } from './question-parts.ts'
import { labelOf, questionRegions, sharedTextRange, type FlowElement, type QuestionRegion } from './question-regions.ts'
import { COLUMN_GAP, textLines, type Line } from './text-lines.ts'
import { brazilianWordsIfInstalled } from './word-list.ts'

/*
 * A booklet read through every stage (page marks → lines → furniture → columns → figures →
 * questions → parts): what each page showed and what each question is made of, as plain data.
 * Turning that into records (keys, files, Markdown) is src/data/sources/booklets/inep-booklets.ts's.
 */

/** How a booklet is read: by OCR where a font has no text mapping, or not (such text is then left unread). */
export interface ReadOptions {
  readonly ocr?: OcrReader | null
  /** How fonts without a usable mapping are decoded (font-decoding.ts); glyphs are named by OCR where `ocr` is given. */
  readonly fonts?: BookletDecodeOptions
}

export interface PageReading {
  readonly number: number
  readonly width: number
  readonly height: number
  readonly gutter: Gutter | null
  readonly furniture: ReadonlyArray<{ readonly line: Line, readonly kind: FurnitureKind }>
  /** Images and drawings that recur on many pages (recurring-drawings.ts): the page's, no figure's. */
  readonly drawnFurniture: readonly Box[]
  readonly figures: readonly Figure[]
  /** Lines whose font gives no usable text and that no OCR read: their question cannot be written. */
  readonly unmapped: readonly Line[]
  /** Lines read by OCR. */
  readonly ocr: readonly Line[]
  /** Lines set mostly in mapped glyphs but some not (a formula's symbols): cropped as figures. */
  readonly formulas: readonly Line[]
  /** Alternatives' letters marked in colour (an answer-marked print, answer-marks.ts). */
  readonly markedLetters: readonly Line[]
}

export interface BookletQuestion {
  readonly region: QuestionRegion
  readonly parts: QuestionParts
  /** The letters the page marks in colour (an answer-marked print: the key, drawn); none elsewhere. */
  readonly marked: readonly string[]
}

export interface BookletReading {
  readonly pages: readonly PageReading[]
  readonly questions: readonly BookletQuestion[]
  /** The body text's size, the measure of the booklet's tolerances. */
  readonly textSize: number
  /**
   * Whether the booklet is an answer-marked print: one letter marked in colour in most of its
   * questions (half or more). A booklet whose letters all stand in coloured boxes is not one.
   */
  readonly answerMarked: boolean
  /** Each font that needed decoding, how it was decoded and checked. */
  readonly decodings: readonly FontDecoding[]
  /** Why fonts were decoded by shape alone (no word list to check guesses by), in one line; null when they were not. */
  readonly decodingWarning: string | null
}

interface PageLines {
  /** The page's marks, a fraction's glyphs made one and its rule taken out of the paths. */
  readonly marks: PageMarks
  readonly lines: readonly Line[]
}

/** Reads a whole booklet. */
export function readBooklet (pdf: PdfBooklet, options: ReadOptions = {}): BookletReading {
  const pages: PageLines[] = []
  const printedPages: PageMarks[] = []
  const decoded = decodedMarks(pdf, { nameGlyphs: options.ocr == null ? null : unlessOcrUnavailable(tesseractGlyphs), ...options.fonts })
  for (const printed of decoded.marks) {
    const circled = circleNumbers(printed.glyphs, printed.paths)
    printedPages.push({ ...printed, ...joinFractions(circled.glyphs, circled.paths) })
  }
  // Letters drawn as shapes (2010) are read once over the whole booklet, and set as glyphs beside their text.
  const letters = drawnLetters(printedPages)
  for (const printed of printedPages) {
    const drawn = letters.glyphs.get(printed.number) ?? []
    const marks = drawn.length === 0 ? printed : { ...printed, glyphs: [...printed.glyphs, ...drawn] }
    pages.push({ marks, lines: joinSplitLabels(textLines(marks.glyphs)) })
  }
  const content = contentExtent(pages)
  const textSize = bodySize(pages.flatMap((page) => page.lines))
  const repeated = {
    drawn: recurringDrawings(pages.map((page) => pageGraphics(page.marks)), DECORATION_SIZE * textSize),
    letters: letters.paths,
    texts: recurringTexts(pages.map((page) => ({ page: page.marks.number, lines: page.lines })),
      (line) => labelOf(line) !== null || sharedTextRange(line.text) !== null || furnitureOfText(line.text) !== null)
  }
  // The fonts the booklet sets its alternatives' letters in: a lone capital in another is a drawing's label.
  const letterFontsOf = letterFonts(pages.flatMap((page) => page.lines))
  const stream: FlowElement[] = []
  const readings: PageReading[] = []
  for (const page of pages) {
    const reading = readPage(page, content, textSize, { drawn: repeated.drawn, letters: repeated.letters, texts: repeated.texts.get(page.marks.number) ?? [] }, letterFontsOf, (lines) => readByOcr(pdf, page.marks.number, lines, options.ocr ?? null))
    readings.push(reading.page)
    stream.push(...reading.elements)
  }
  const markedLetters = new Set(readings.flatMap((page) => page.markedLetters))
  const questions = questionRegions(stream).map((region) => {
    const parts = questionParts([...region.shared, ...region.elements], (page, box) => blankRuns(pdf.document, page, box))
    return { region, parts, marked: parts.alternatives.filter((alternative) => alternative.lines[0] !== undefined && markedLetters.has(alternative.lines[0])).map((alternative) => alternative.letter) }
  })
  const answerMarked = questions.filter((question) => question.marked.length === 1).length >= questions.length / 2
  return { pages: readings, questions, textSize, answerMarked: answerMarked && questions.length > 0, decodings: decoded.decodings, decodingWarning: decoded.warning }
}

/**
 * 2009 sets a label's number in a box of its own beside the word (`Questão` ▮`91`▮), wider apart
 * than a line holds together: the number is joined back to its word.
 */
export function joinSplitLabels (lines: readonly Line[]): Line[] {
  const numbers = lines.filter((line) => /^\d{1,3}$/u.test(line.text))
  const joined = new Map<Line, Line>()
  const used = new Set<Line>()
  for (const line of lines) {
    if (!/^quest[ãa]o$/iu.test(line.text)) continue
    const number = numbers.find((candidate) => !used.has(candidate) && Math.abs(candidate.baseline - line.baseline) < 0.4 * line.size &&
      candidate.box.x0 > line.box.x1 && candidate.box.x0 - line.box.x1 < 4 * line.size)
    if (number === undefined) continue
    used.add(number)
    joined.set(line, { ...line, glyphs: [...line.glyphs, ...number.glyphs], box: union([line.box, number.box]), text: `${line.text} ${number.text}` })
  }
  return lines.filter((line) => !used.has(line)).map((line) => joined.get(line) ?? line)
}

/**
 * The vertical extent questions use in this booklet: from the highest question label of any page
 * to the highest footer line (band, footer, imposition) of the page's lower half.
 */
function contentExtent (pages: readonly PageLines[]): { top: number, bottom: number } {
  let top = Infinity
  let bottom = Infinity
  for (const { marks, lines } of pages) {
    for (const line of lines) {
      if (labelOf(line) !== null) top = Math.min(top, line.box.y0 - 2)
      const kind = furnitureOfText(line.text)
      if ((kind === 'band' || kind === 'footer' || kind === 'imposition') && line.box.y0 > marks.height / 2) bottom = Math.min(bottom, line.box.y0 - 0.5)
    }
  }
  const height = pages[0]?.marks.height ?? 0
  return { top: Number.isFinite(top) ? top : 0, bottom: Number.isFinite(bottom) ? bottom : height }
}

function bodySize (lines: readonly Line[]): number {
  const counts = new Map<number, number>()
  for (const line of lines) {
    const size = Math.round(line.size * 2) / 2
    counts.set(size, (counts.get(size) ?? 0) + line.glyphs.length)
  }
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 10
}

/**
 * A line with a few glyphs (UNREADABLE_GLYPHS) of a text font that have no text mapping is prose
 * set in such a font (2021 maps some letters of its Arial and not others): read by OCR. A line whose
 * unmapped glyphs are a symbol font's (a formula's brackets, π, a root) is cropped as a figure.
 */
const UNREADABLE_GLYPHS = 3
const SYMBOL_FONT = /symbol|math|mt ?extra|euclid|cmsy|cmex|msam|msbm|wingding|dingbat|zapf/iu

function isProseUnmapped (line: Line): boolean {
  return line.glyphs.filter((glyph) => !glyph.mapped && !SYMBOL_FONT.test(glyph.font)).length >= UNREADABLE_GLYPHS
}

/**
 * Lines read by OCR: the region holding them on each side of the page is rendered and read once,
 * and each word goes to the line its centre lies in. Lines no word fell in stay unread.
 */
function readByOcr (pdf: PdfBooklet, page: number, lines: readonly Line[], ocr: OcrReader | null): Map<Line, Line> {
  const read = new Map<Line, Line>()
  if (ocr === null || lines.length === 0) return read
  const wordList = brazilianWordsIfInstalled()
  const region = grow(union(lines.map((line) => line.box)), 2)
  const words = readRegion(pdf.document, page, region, ocr)
  for (const line of lines) {
    // An alternative's letter that its font maps is kept as it is; OCR reads a boxed letter badly.
    const letter = letterOf(line)
    const start = letter === null ? line.box.x0 : line.glyphs[0]!.box.x1
    const own = words.filter((word) => {
      const x = (word.box.x0 + word.box.x1) / 2
      const y = (word.box.y0 + word.box.y1) / 2
      return x >= start - 1 && x <= line.box.x1 + 1 && y >= line.box.y0 - 1 && y <= line.box.y1 + 1
    }).sort((a, b) => a.box.x0 - b.box.x0)
    if (own.length === 0) continue
    // Checked as a decoding is (ocr.ts): split words joined, stray marks dropped, a misreading left unread.
    const text = [...(letter === null ? [] : [letter]), ...own.map((word) => word.text)].join(' ')
    // Where the font maps most of the line, what it maps checks the OCR (ocr-agreement.ts).
    const agreeing = agreeingReading(line, text)
    if (agreeing !== null) {
      read.set(line, { ...agreeing, unmapped: false })
      continue
    }
    const checked = wordList === null ? text : checkedOcrLine(text, wordList)
    if (checked !== null) read.set(line, { ...line, text: checked, unmapped: false })
  }
  return read
}

/**
 * Whether a line has something drawn across it that is no figure's: a radical sign over its
 * radicand, a vector's arrow, an overline. Such a line is a formula whose text alone would read
 * wrong (`(22 3)/3` for two roots of 2 over 3); it is cropped. An underline (flat), a box around
 * a passage (taller than a few lines) or a white fill is not such a mark.
 */
function drawnOverText (paths: readonly PathMark[], figures: readonly Figure[], labels: readonly Line[], gutter: Gutter | null, rows: readonly Line[]): (line: Line) => Box[] {
  // A white fill prints nothing over the text (2009 sets a white band behind each line of a text).
  const marks = paths.filter((path) => !isWhite(path) && !figures.some((figure) => coveredShare(path.box, grow(figure.box, 1)) > 0.9) &&
    !labels.some((label) => near(label.box, path.box, 4)) &&
    !(gutter !== null && path.box.x0 - 2 < gutter.x && path.box.x1 + 2 > gutter.x && height(path.box) > 100))
  return (line) => marks.filter((mark) => {
    const markHeight = height(mark.box)
    if (markHeight > 3 * line.size) return false
    // A flat mark drawn between two of the line's words, over none (an equilibrium's arrows ⇌), is a symbol.
    if (markHeight < 0.3 * line.size) return drawnBetween(mark.box, line, rows)
    return area(intersect(mark.box, line.box)) > 0.5
  }).map((mark) => mark.box)
}

/**
 * Whether a mark a letter's width or more lies on a line's row between two glyphs of the row (of this
 * line, or of the line it parts this one from), over none, and touches this line.
 */
function drawnBetween (box: Box, line: Line, rows: readonly Line[]): boolean {
  const gap = 2 * line.size
  if (width(box) < 0.8 * line.size || verticalOverlap(box, line.box) <= 0 || line.box.x0 - box.x1 > gap || box.x0 - line.box.x1 > gap) return false
  const glyphs = rows.filter((other) => verticalOverlap(other.box, line.box) > 0.5 * line.size).flatMap((other) => other.glyphs).filter((glyph) => glyph.text.trim() !== '' || !glyph.mapped)
  if (glyphs.some((glyph) => glyph.box.x1 > box.x0 + 0.5 && glyph.box.x0 < box.x1 - 0.5)) return false
  return glyphs.some((glyph) => glyph.box.x1 <= box.x0 + 0.5 && box.x0 - glyph.box.x1 < gap) && glyphs.some((glyph) => glyph.box.x0 >= box.x1 - 0.5 && glyph.box.x0 - box.x1 < gap)
}

/** Whether a line stands beside or inside a formula's box, on a good part of its height. */
function setAcross (formula: Box, line: Line): boolean {
  const reach = 0.3 * line.size
  return line.box.x0 < formula.x1 + reach && line.box.x1 > formula.x0 - reach && verticalOverlap(formula, line.box) >= 0.6 * height(line.box)
}

/** A formula line's alternative letter (`A` set apart at its start), kept as a line of its own. */
const letterLines = new WeakMap<Line, Line>()

/** A formula line without the letter of an alternative it starts with; the letter is remembered in letterLines. */
function withoutLetter (line: Line): Line {
  const [first, second] = line.glyphs.filter((glyph) => glyph.text.trim() !== '' || !glyph.mapped)
  if (first === undefined || second === undefined || letterOf(line) === null) return line
  const rest = line.glyphs.filter((glyph) => glyph.box.x0 >= second.box.x0)
  const formula = { ...line, glyphs: rest, box: union(rest.map((glyph) => glyph.box)) }
  letterLines.set(formula, { ...line, glyphs: [first], box: first.box, text: first.text, unmapped: false })
  return formula
}

/** What recurs over the booklet (furniture by repetition): its drawings' marks, and the boxes of a page's recurring lines. */
interface Repeated {
  readonly drawn: ReadonlySet<ImageMark | PathMark>
  /** The paths of letters drawn as shapes (drawn-letters.ts). */
  readonly letters: ReadonlySet<PathMark>
  readonly texts: readonly Box[]
}

function readPage ({ marks, lines: firstLines }: PageLines, content: { top: number, bottom: number }, textSize: number, repeated: Repeated, letterFontsOf: ReadonlySet<string>, ocr: (lines: readonly Line[]) => Map<Line, Line>): { page: PageReading, elements: FlowElement[] } {
  const firstFurniture = pageFurniture(firstLines, content, repeated.texts)
  const gutter = findGutter(marks.width, marks.height, marks.paths, firstLines.filter((line) => !firstFurniture.has(line)).map((line) => line.box))
  // With the columns known, lines are cut again: at the gutter, and no longer at a justified space.
  const lines = joinSplitLabels(textLines(marks.glyphs, { gap: COLUMN_GAP, gutterX: gutter?.x ?? null }))
  const furniture = pageFurniture(lines, content, repeated.texts)
  const headings = lines.filter((line) => furniture.get(line) === 'heading')
  const printed = lines.filter((line) => !furniture.has(line))
  // Prose in a font without text mapping (2021's labels too) is read by OCR first, so that labels and
  // figures are told by what it says.
  const unreadable = printed.filter((line) => line.unmapped && isProseUnmapped(line))
  const read = ocr(unreadable)
  const ocrLines = new Set<Line>()
  const body = printed.map((line) => {
    const readLine = read.get(line)
    if (readLine === undefined) return line
    ocrLines.add(readLine)
    return readLine
  })
  const labels = [...headings, ...body.filter((line) => labelOf(line) !== null || sharedTextRange(line.text) !== null)]
  // A letter's colour mark (an answer-marked print) is the key drawn, no figure; nor is a letter drawn as a shape.
  const marking = answerMarks(marks.paths, body.filter((line) => letterOf(line) !== null))
  const images = marks.images.filter((image) => !repeated.drawn.has(image))
  const paths = marks.paths.filter((path) => !repeated.drawn.has(path) && !repeated.letters.has(path) && !marking.paths.has(path))
  const figures = pageFigures({ images, rotated: marks.rotated, paths, lines: body, labels, content, gutterX: gutter?.x ?? null, textSize, isLetter: (line) => alternativeLetter(line, letterFontsOf) !== null })
  const inFigures = new Set(figures.flatMap((figure) => figure.lines))
  const free = body.filter((line) => !inFigures.has(line) && !labels.includes(line))
  // A few glyphs without mapping (a formula's symbols), or a mark drawn across: the line is cropped as a figure.
  const drawnOver = drawnOverText(paths, figures, labels, gutter, free)
  // So is a line its font maps but for a few glyphs that no OCR read in agreement (a ligature, a
  // arrow): shown as printed rather than its question left out for one line.
  const isFormula = (line: Line) => (line.unmapped && (!isProseUnmapped(line) || mostlyMapped(line))) || drawnOver(line).length > 0
  const cropped = free.filter(isFormula)
  // A line set across a formula's (the rest of it beside a tall bracket, whose pieces stand on other
  // baselines and together span the line) is the formula's too: a formula is never half text, half picture.
  const croppedBoxes = cluster(cropped.map((line) => line.box), 0.3 * textSize).map((group) => union(group.map((at) => cropped[at]!.box)))
  const formulaSources = [...new Set([...cropped, ...free.filter((line) => !cropped.includes(line) && croppedBoxes.some((box) => setAcross(box, line)))])]
  const formulas = formulaSources.map(withoutLetter)
  const letters = formulas.flatMap((line) => letterLines.get(line) ?? [])
  // A formula's box holds what is drawn over or between its words, which joins its parts (Hb + O₂ ⇌ HbO₂).
  const formulaBoxes = formulas.map((line, at) => union([line.box, ...drawnOver(formulaSources[at]!)]))
  for (const group of cluster(formulaBoxes, 0.3 * textSize)) {
    const own = group.map((at) => formulas[at]!)
    const box = union(group.map((at) => formulaBoxes[at]!))
    figures.push({ box: grow(box, 1), lines: own, image: false, parts: group.map((at) => formulaBoxes[at]!) })
  }
  const loose = [...body.filter((line) => !inFigures.has(line) && !formulaSources.includes(line)), ...letters]
  const items: Array<{ box: Box, make: (place: FlowElement['place']) => FlowElement }> = [
    ...headings.map((line) => ({ box: line.box, make: (place: FlowElement['place']): FlowElement => ({ kind: 'heading', page: marks.number, place, line }) })),
    ...loose.map((line) => ({ box: line.box, make: (place: FlowElement['place']): FlowElement => ({ kind: 'line', page: marks.number, place, line }) })),
    ...figures.map((figure) => ({ box: figure.box, make: (place: FlowElement['place']): FlowElement => ({ kind: 'figure', page: marks.number, place, figure }) }))
  ]
  const places = flowPlaces(items.map((item) => item.box), gutter)
  const elements = items.map((item, at) => item.make(places[at]!)).sort((a, b) => compareFlow(a.place, b.place))
  return {
    page: {
      number: marks.number,
      width: marks.width,
      height: marks.height,
      gutter,
      furniture: [...furniture].map(([line, kind]) => ({ line, kind })),
      drawnFurniture: [...marks.images, ...marks.paths].filter((mark) => repeated.drawn.has(mark)).map((mark) => ('box' in mark ? mark.box : mark)),
      figures,
      unmapped: loose.filter((line) => line.unmapped),
      ocr: loose.filter((line) => ocrLines.has(line)),
      formulas,
      markedLetters: [...marking.marked]
    },
    elements
  }
}
