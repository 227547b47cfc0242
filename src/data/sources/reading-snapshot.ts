import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import * as mupdf from 'mupdf'
import { area, intersect, union, type Box } from '../booklets/boxes.ts'
import type { OcrReader } from '../booklets/ocr.ts'
import { openPdf } from '../booklets/page-marks.ts'
import { readBooklet, type BookletReading } from '../booklets/read-booklet.ts'
import type { Application } from '../exam-key.ts'
import type { DatasetQuestion } from '../record-schemas.ts'
import { parseBookletFileName } from './booklets/booklet-files.ts'
import { bookletKeys } from './booklets/booklet-keys.ts'
import { readerCodeHash } from './booklets/conversion-cache.ts'
import { convertDay } from './booklets/inep-booklets.ts'
import type { LeftOut } from './converted-exam.ts'

/*
 * One booklet read as the `inep-booklets` conversion reads it, kept as plain data a measure can use
 * without the PDF (src/data/sources/reading-defects.ts, reading-quality.ts): its records, and of each
 * figure where it stands, a hash of its pixels and a small picture of its look, and the text lines
 * the reader read as text that the figure's crop also shows. A snapshot is a pure function of the
 * booklet's bytes, its answer key's, the year's ITENS_PROVA and the reader's code, so it is kept in
 * a cache folder under those inputs' SHA-256 and read back while none of them changes: the test and
 * `scripts/booklet-quality.ts` convert each booklet once.
 */

/** A figure of a record, as the measures need it. */
export interface SnapshotFigure {
  /** Its file name in the record (`figura-2.png`). */
  readonly name: string
  readonly page: number
  /** The crop, in points. */
  readonly box: readonly [number, number, number, number]
  /** SHA-256 of its pixels rendered at LOOK_DPI in grey: the same drawing gives the same hash. */
  readonly pixels: string
  /** Its look: the mean grey of GRID_COLUMNS × GRID_ROWS cells, row by row, a byte each (hex). */
  readonly look: string
}

export interface SnapshotRecord {
  readonly record: DatasetQuestion
  readonly figures: readonly SnapshotFigure[]
  /** Lines read as text (statement, asking sentence, alternatives, of any question) that a figure's crop of this record also shows: `page <n>: <text>`. */
  readonly textInFigures: readonly string[]
  /** Where each alternative read as text is printed (its lines on its first page, its letter left out): what OCR of the page reads, to settle a difference. */
  readonly printed: ReadonlyArray<{ readonly letter: string, readonly page: number, readonly box: readonly [number, number, number, number] }>
}

/** What a measure needs of one position of the booklet. */
export interface SnapshotPosition {
  readonly index: number
  readonly language: string | null
  readonly key: string | null
  /** INEP's item (ITENS_PROVA's `CO_ITEM`), or null. */
  readonly item: number | null
}

export interface BookletSnapshot {
  /** The booklet's file name. */
  readonly file: string
  readonly year: number
  readonly application: Application
  readonly day: 1 | 2
  readonly cd: number
  readonly positions: readonly SnapshotPosition[]
  readonly records: readonly SnapshotRecord[]
  readonly leftOut: readonly LeftOut[]
  readonly ocrLines: number
  /** How long reading and converting it took, in seconds, when it was made. */
  readonly seconds: number
}

/** Figures are looked at at this resolution: enough to tell two drawings apart, cheap to render. */
export const LOOK_DPI = 72
/** A line is in a crop when this share of its box is. */
const LINE_IN_CROP = 0.3

/**
 * A figure's look is a grid of mean greys, fine enough that two lines of different text differ
 * (their word gaps fall in other columns) and a logo or rule printed again matches itself.
 */
export const GRID_COLUMNS = 32
export const GRID_ROWS = 8

/** A box of a page rendered in grey at LOOK_DPI: its pixels' hash and its look. */
function lookOf (document: mupdf.Document, number: number, box: Box): { pixels: string, look: string } {
  const page = document.loadPage(number - 1)
  const scale = LOOK_DPI / 72
  const rect: mupdf.Rect = [Math.floor(box.x0 * scale), Math.floor(box.y0 * scale), Math.max(Math.ceil(box.x1 * scale), Math.floor(box.x0 * scale) + 1), Math.max(Math.ceil(box.y1 * scale), Math.floor(box.y0 * scale) + 1)]
  const pixmap = new mupdf.Pixmap(mupdf.ColorSpace.DeviceGray, rect, false)
  try {
    pixmap.clear(255)
    const [x0, y0] = page.getBounds()
    const device = new mupdf.DrawDevice(mupdf.Matrix.concat(mupdf.Matrix.translate(-x0, -y0), mupdf.Matrix.scale(scale, scale)), pixmap)
    try {
      page.run(device, mupdf.Matrix.identity)
      device.close()
    } finally {
      device.destroy()
    }
    const width = pixmap.getWidth()
    const height = pixmap.getHeight()
    const stride = pixmap.getStride()
    const samples = pixmap.getPixels()
    const cells = new Array<number>(GRID_COLUMNS * GRID_ROWS).fill(0)
    const counts = new Array<number>(GRID_COLUMNS * GRID_ROWS).fill(0)
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const cell = Math.min(GRID_ROWS - 1, Math.floor(y * GRID_ROWS / height)) * GRID_COLUMNS + Math.min(GRID_COLUMNS - 1, Math.floor(x * GRID_COLUMNS / width))
        cells[cell]! += samples[y * stride + x]!
        counts[cell]!++
      }
    }
    const look = cells.map((sum, at) => Math.round(counts[at]! === 0 ? 255 : sum / counts[at]!).toString(16).padStart(2, '0')).join('')
    const hash = createHash('sha256').update(`${width}x${height}:`).update(new Uint8Array(samples.buffer, samples.byteOffset, samples.byteLength))
    return { pixels: hash.digest('hex'), look }
  } finally {
    pixmap.destroy()
    page.destroy()
  }
}

/** Every line the reader read as text, with its page: what no figure's crop should show. */
function textLinesOf (reading: BookletReading): Array<{ page: number, box: Box, text: string }> {
  const seen = new Set<unknown>()
  const lines: Array<{ page: number, box: Box, text: string }> = []
  for (const { region } of reading.questions) {
    for (const element of [...region.shared, ...region.elements]) {
      if (element.kind !== 'line' || seen.has(element.line)) continue
      seen.add(element.line)
      lines.push({ page: element.page, box: element.line.box, text: element.line.text })
    }
  }
  return lines
}

/** Where a record's alternatives read as text stand on the page: the box of each one's lines on its first page, from after its letter. */
function printedAlternatives (reading: BookletReading, record: DatasetQuestion): SnapshotRecord['printed'] {
  const question = reading.questions.find(({ region }) => region.number === record.index && (region.language === record.language || region.language === null))
  if (question === undefined) return []
  const pages = new Map<unknown, number>()
  for (const element of [...question.region.shared, ...question.region.elements]) if (element.kind === 'line') pages.set(element.line, element.page)
  return question.parts.alternatives.flatMap((alternative) => {
    const [first, ...rest] = alternative.lines
    const page = first === undefined ? undefined : pages.get(first)
    if (first === undefined || page === undefined || alternative.text === '') return []
    const letter = first.glyphs.find((glyph) => glyph.text.trim() !== '' || !glyph.mapped)
    const boxes = [...(first.glyphs.length > 1 && letter !== undefined ? [{ ...first.box, x0: letter.box.x1 + 0.5 }] : []), ...rest.filter((line) => pages.get(line) === page).map((line) => line.box)]
    if (boxes.length === 0) return []
    const box = union(boxes)
    return [{ letter: alternative.letter, page, box: [box.x0, box.y0, box.x1, box.y1] as const }]
  })
}

export interface SnapshotRequest {
  /** The booklet PDF. */
  readonly booklet: string
  /** Its answer-key PDF, or null. */
  readonly answerKey: string | null
  /** INEP's files (itens-prova/, gabaritos/). */
  readonly inepDir: string
  readonly ocr: OcrReader | null
}

/** Reads and converts one booklet (every figure looked at, none cropped to a file). */
export function makeSnapshot ({ booklet, answerKey, inepDir, ocr }: SnapshotRequest): BookletSnapshot {
  const started = performance.now()
  const name = path.basename(booklet)
  const parsed = parseBookletFileName(name)
  if (parsed?.kind !== 'booklet') throw new Error(`${name}: not an INEP booklet name (<year>_PV_impresso_D<day>_CD<n>.pdf)`)
  const { year, application, day: dayNumber, booklet: cd } = parsed
  const keys = bookletKeys({ year, application, day: dayNumber, cd, inepDir, answerKeyPdf: answerKey })
  const pdf = openPdf(readFileSync(booklet), name)
  try {
    const reading = readBooklet(pdf, { ocr })
    const placed = new Map<string | Uint8Array, { page: number, box: Box }>()
    const figures = (page: number, box: Box): Uint8Array => {
      const marker = new Uint8Array(1)
      placed.set(marker, { page, box })
      return marker
    }
    const leftOut: LeftOut[] = []
    const day = { day: dayNumber, cd, booklet, answerKey, others: [] }
    const converted = convertDay({ year, application }, day, figures, reading, keys, leftOut, [])
    const lines = textLinesOf(reading)
    const records = converted.map(({ record, files }): SnapshotRecord => {
      const own = [...files].map(([file, marker]) => ({ name: file, ...placed.get(marker)! }))
      const inside = new Set<string>()
      for (const figure of own) {
        for (const line of lines) {
          if (line.page === figure.page && area(intersect(line.box, figure.box)) >= LINE_IN_CROP * area(line.box)) inside.add(`page ${line.page}: ${line.text}`)
        }
      }
      return {
        record,
        figures: own.map((figure) => ({ name: figure.name, page: figure.page, box: [figure.box.x0, figure.box.y0, figure.box.x1, figure.box.y1], ...lookOf(pdf.document, figure.page, figure.box) })),
        textInFigures: [...inside],
        printed: printedAlternatives(reading, record)
      }
    })
    return {
      file: name,
      year,
      application,
      day: dayNumber,
      cd,
      positions: keys.positions.map((position) => ({ index: position.index, language: position.language, key: position.key, item: position.item?.item ?? null })),
      records,
      leftOut,
      ocrLines: reading.pages.reduce((sum, page) => sum + page.ocr.length, 0),
      seconds: Math.round((performance.now() - started) / 100) / 10
    }
  } finally {
    pdf.close()
  }
}

/**
 * The cache key of a snapshot: the SHA-256 of the booklet, its key, the year's files of INEP's folder
 * (ITENS_PROVA, answer keys), the reader's code as the conversion cache hashes it (every module
 * inep-booklets.ts reaches, and MuPDF's version), this file's own code, and whether OCR reads.
 */
export function snapshotKey (request: SnapshotRequest): string {
  const hash = createHash('sha256')
  const year = path.basename(request.booklet).slice(0, 4)
  const inep = ['itens-prova', 'gabaritos', 'answer-keys'].flatMap((folder) => {
    const where = path.join(request.inepDir, folder)
    return existsSync(where) ? readdirSync(where).filter((file) => file.includes(year)).sort().map((file) => path.join(where, file)) : []
  })
  const inputs = [request.booklet, request.answerKey, ...inep, fileURLToPath(import.meta.url)]
  for (const file of inputs) {
    if (file === null) continue
    hash.update(`${path.basename(file)}\0`)
    hash.update(readFileSync(file))
  }
  hash.update(`code ${readerCodeHash()}\0`)
  hash.update(request.ocr === null ? 'no-ocr' : 'ocr')
  return hash.digest('hex').slice(0, 32)
}

/**
 * The snapshot of a booklet from `cacheDir` when one was made from the same inputs, else made and
 * stored there (written whole, then renamed: a reader in another process never sees half of it).
 * `fresh`: made again whatever the cache holds.
 */
export function cachedSnapshot (request: SnapshotRequest, cacheDir: string, { fresh = false } = {}): { snapshot: BookletSnapshot, cached: boolean } {
  const file = path.join(cacheDir, `${path.basename(request.booklet, '.pdf')}-${snapshotKey(request)}.json`)
  if (!fresh && existsSync(file)) return { snapshot: JSON.parse(readFileSync(file, 'utf8')) as BookletSnapshot, cached: true }
  const snapshot = makeSnapshot(request)
  mkdirSync(cacheDir, { recursive: true })
  const partial = `${file}.${process.pid}.part`
  writeFileSync(partial, JSON.stringify(snapshot))
  renameSync(partial, file)
  return { snapshot, cached: false }
}
