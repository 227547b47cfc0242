import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type * as mupdf from 'mupdf'
import type { Box } from './boxes.ts'
import type { GlyphNamer } from './font-decoding.ts'
import { glyphStrip } from './glyph-shapes.ts'
import { cropRegion } from './page-pictures.ts'
import { isWord, wordShare, type WordList } from './word-list.ts'

/*
 * Text whose font gives no usable text mapping (whole paragraphs of 2021's booklets) is read from
 * its picture by Tesseract, in Portuguese: Debian's `tesseract-ocr` with `tesseract-ocr-por`
 * (docs/data.md says why). One call reads a region of a page and gives every word with its box,
 * which the reader then puts back into its lines.
 */

export const OCR_DPI = 300

/** A word Tesseract read, its box in page points. */
export interface OcrWord {
  readonly text: string
  readonly box: Box
  /** Tesseract's confidence, 0–100. */
  readonly confidence: number
}

/** Reads a PNG region of a page (`origin`: where its top-left corner stands on the page, in points). */
export type OcrReader = (png: Uint8Array, origin: { x: number, y: number }, dpi: number) => OcrWord[]

/** The error an OCR that cannot run gives: one line, saying what to install. */
export class OcrUnavailable extends Error {}

/** The words OCR reads in a region of page `number` (1-based), rendered at OCR_DPI; their boxes in page points. */
export function readRegion (document: mupdf.Document, number: number, box: Box, ocr: OcrReader): OcrWord[] {
  // The crop starts at the whole pixel at or before the box's corner: that corner is the words' origin.
  const origin = { x: Math.floor(box.x0 * OCR_DPI / 72) * 72 / OCR_DPI, y: Math.floor(box.y0 * OCR_DPI / 72) * 72 / OCR_DPI }
  return ocr(cropRegion(document, number, box, OCR_DPI), origin, OCR_DPI)
}

/** Tesseract through its command line, in Portuguese, reading a region as a column of lines. */
export const tesseract: OcrReader = (png, origin, dpi) => parseTsv(runTesseract(png, dpi, 4), origin, dpi)

/** Tesseract's TSV for a PNG (or a list of them), read with a page segmentation mode (4: a column of lines; 7: one line). */
function runTesseract (png: Uint8Array | string, dpi: number, psm: number): string {
  try {
    // A file name is a list of pictures, one a line, read in one run.
    return execFileSync('tesseract', [typeof png === 'string' ? png : 'stdin', 'stdout', '-l', 'por', '--dpi', String(dpi), '--psm', String(psm), 'tsv'], {
      input: typeof png === 'string' ? '' : png,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      stdio: ['pipe', 'pipe', 'ignore']
    })
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT') throw new OcrUnavailable('tesseract is not installed (Debian packages tesseract-ocr and tesseract-ocr-por)')
    throw new OcrUnavailable(`tesseract failed: ${(error as Error).message.split('\n')[0]} (is tesseract-ocr-por installed?)`)
  }
}

/**
 * Names glyphs no mapped glyph draws the same (font-decoding.ts): each rendered alone, large, and
 * read as one character (Tesseract's mode 10), all in one Tesseract run (a list of pictures); a
 * glyph is named only when one character (or a ligature's two letters) is read with some confidence.
 */
export const tesseractGlyphs: GlyphNamer = (glyphs) => {
  if (glyphs.length === 0) return []
  const folder = mkdtempSync(path.join(tmpdir(), 'enem-glyphs-'))
  try {
    const files = glyphs.map((glyph, at) => {
      const file = path.join(folder, `${at}.png`)
      writeFileSync(file, glyphStrip([glyph]).png)
      return file
    })
    const list = path.join(folder, 'glyphs.txt')
    writeFileSync(list, `${files.join('\n')}\n`)
    const read = new Map<number, Array<{ text: string, confidence: number }>>()
    for (const row of runTesseract(list, 300, 10).split('\n').slice(1)) {
      const cells = row.split('\t')
      const text = cells.slice(11).join('\t').trim()
      if (cells.length < 12 || cells[0] !== '5' || text === '') continue
      const page = Number(cells[1]) - 1
      read.set(page, [...(read.get(page) ?? []), { text, confidence: Number(cells[10]) }])
    }
    return glyphs.map((_, at) => {
      const words = read.get(at) ?? []
      if (words.length !== 1 || words[0]!.confidence < GLYPH_CONFIDENCE) return null
      const text = words[0]!.text
      return [...text].length === 1 || /^f[il]$/u.test(text) ? text : null
    })
  } finally {
    rmSync(folder, { recursive: true, force: true })
  }
}

/** Tesseract's confidence (0–100) below which a glyph read alone is left unnamed. */
const GLYPH_CONFIDENCE = 60

/** Tesseract's TSV (level 5 rows are words) as words in page points. */
export function parseTsv (tsv: string, origin: { x: number, y: number }, dpi: number): OcrWord[] {
  const scale = 72 / dpi
  const words: OcrWord[] = []
  for (const row of tsv.split('\n').slice(1)) {
    const cells = row.split('\t')
    if (cells.length < 12 || cells[0] !== '5') continue
    const text = cells.slice(11).join('\t').trim()
    if (text === '') continue
    const [left, top, width, height, confidence] = cells.slice(6, 11).map(Number) as [number, number, number, number, number]
    words.push({
      text,
      box: { x0: origin.x + left * scale, y0: origin.y + top * scale, x1: origin.x + (left + width) * scale, y1: origin.y + (top + height) * scale },
      confidence
    })
  }
  return words
}

/**
 * An OCR reader that, where `reader` cannot run (Tesseract not installed), reads nothing and says
 * why once through `unavailable`: the questions that needed it are left out, with that reason.
 */
export function unlessUnavailable (reader: OcrReader, unavailable: (reason: string) => void): OcrReader {
  let reason: string | null = null
  return (png, origin, dpi) => {
    if (reason !== null) return []
    try {
      return reader(png, origin, dpi)
    } catch (error) {
      if (!(error instanceof OcrUnavailable)) throw error
      reason = error.message
      unavailable(reason)
      return []
    }
  }
}

/** A glyph namer that names nothing where Tesseract cannot run (the line OCR says why, once). */
export function unlessOcrUnavailable (namer: GlyphNamer): GlyphNamer {
  return (glyphs) => {
    try {
      return namer(glyphs)
    } catch (error) {
      if (error instanceof OcrUnavailable) return glyphs.map(() => null)
      throw error
    }
  }
}

/** A line read by OCR whose words the list holds less than this share of is not taken (with LINE_MIN_WORDS or more). */
const OCR_LINE_SHARE = 0.8
const LINE_MIN_WORDS = 3

/**
 * A line as OCR read it, checked as a decoding is: a word split in two ("serp ente") joined where the
 * halves are no words and the whole is; punctuation standing alone between words ("medicamento .
 * Z") dropped; a Roman numeral read with an l ("Il.") written with I's. Null when, mended, too few
 * of its words are Portuguese: a misreading is left unread rather than written.
 */
export function checkedOcrLine (text: string, words: WordList): string | null {
  const tokens = text.split(/\s+/u).filter((token) => token !== '')
  const mended: string[] = []
  for (const token of tokens) {
    const previous = mended[mended.length - 1]
    if (previous !== undefined && /^\p{L}+(?:-\p{L}+)*[,.;:!?]?$/u.test(token) && /^\p{L}+$/u.test(previous)) {
      const bare = token.replace(/[,.;:!?]$/u, '')
      if ((!isWord(words, previous) || !isWord(words, bare)) && isWord(words, previous + bare)) {
        mended[mended.length - 1] = previous + token
        continue
      }
    }
    if (/^[.,;:·]$/u.test(token) && previous !== undefined) continue
    mended.push(/^[IVX]*l[IlVX]*\.?$/u.test(token) && /^[IVX]/u.test(token) ? token.replace(/l/gu, 'I') : token)
  }
  const line = mended.join(' ')
  const share = wordShare(words, line)
  return share.words >= LINE_MIN_WORDS && share.share < OCR_LINE_SHARE ? null : line
}
