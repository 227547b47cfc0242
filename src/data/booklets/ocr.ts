import { execFileSync } from 'node:child_process'
import type { Box } from './boxes.ts'

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

/** Tesseract through its command line, in Portuguese. */
export const tesseract: OcrReader = (png, origin, dpi) => {
  let tsv: string
  try {
    tsv = execFileSync('tesseract', ['stdin', 'stdout', '-l', 'por', '--dpi', String(dpi), '--psm', '4', 'tsv'], {
      input: png,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      stdio: ['pipe', 'pipe', 'ignore']
    })
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT') throw new OcrUnavailable('tesseract is not installed (Debian packages tesseract-ocr and tesseract-ocr-por)')
    throw new OcrUnavailable(`tesseract failed: ${(error as Error).message.split('\n')[0]} (is tesseract-ocr-por installed?)`)
  }
  return parseTsv(tsv, origin, dpi)
}

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
