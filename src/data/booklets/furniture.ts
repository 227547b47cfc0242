import { type Box, coveredShare } from './boxes.ts'
import type { Line } from './text-lines.ts'

/*
 * What a booklet page prints that is not a question: the running band (`ENEM2025ENEM2025…`, its
 * misprint `ENEN2025` included), the barcode line (`*010175AZ2*`), the page number, the footer
 * (`… | 1º DIA | CADERNO 1 | AZUL`, `CN • 2º DIA • CADERNO 7 • AZUL`, 2009's `LC - 2º dia … ENEM 2009`),
 * the imposition line (`010175AZ.indb 2 … 23/07/2025 12:32:03`), and the headings of an area or a
 * run of questions (`CIÊNCIAS DA NATUREZA E SUAS TECNOLOGIAS`, `Questões de 91 a 135`). Headings
 * are furniture for the text, but say which language the questions after them are in. Any other
 * text that recurs on many pages at one height and size (its numbers aside) is the page's too, in
 * whatever words a year prints it (recurringTexts).
 */

export type FurnitureKind = 'band' | 'barcode' | 'footer' | 'imposition' | 'page-number' | 'heading' | 'margin' | 'recurring'

const AREA_HEADING = /^(LINGUAGENS,? CÓDIGOS|CIÊNCIAS DA NATUREZA|CIÊNCIAS HUMANAS|MATEMÁTICA)\b.*TECNOLOGIAS\b/iu
const QUESTIONS_HEADING = /^Questões\s+(de\s+)?\d{1,3}\s+a\s+\d{1,3}\b/iu

/** What kind of furniture a line is, by its text alone, or null. */
export function furnitureOfText (text: string): FurnitureKind | null {
  const bare = text.replace(/\s+/g, '')
  if (/^(ENE[MN]\d{4}){2,}/u.test(bare)) return 'band'
  if (/^\*[0-9A-Z]{6,}\*$/u.test(bare)) return 'barcode'
  if (/\.indb\b/iu.test(text)) return 'imposition'
  if (/\d\s*º\s*DIA\b/iu.test(text) && /CADERNO/iu.test(text)) return 'footer'
  // 2009 sets its footer as three pieces: `CH – 1º dia`, `CADERNO 1 – AZUL – PÁGINA 16`, `ENEM 2009`; the
  // second applications add `2ª aplicação`.
  if (/^[A-Z]{2}\s*[–•-]\s*\d\s*º\s*dia$/iu.test(text.trim())) return 'footer'
  if (/^CADERNO\s+\d+\b.*\bP[ÁA]GINA\s+\d+$/iu.test(text.trim())) return 'footer'
  if (/^ENEM\s*\d{4}$/u.test(text.trim())) return 'footer'
  if (/^\d\s*ª\s*aplica[çc][ãa]o$/iu.test(text.trim())) return 'footer'
  if (AREA_HEADING.test(text.trim()) && text.trim() === text.trim().toUpperCase()) return 'heading'
  if (QUESTIONS_HEADING.test(text.trim())) return 'heading'
  return null
}

/** The language a heading announces (`Questões de 01 a 05 (opção inglês)`), or null. */
export function headingLanguage (text: string): 'ingles' | 'espanhol' | null {
  if (!/op[çc][ãa]o/iu.test(text)) return null
  if (/ingl[êe]s/iu.test(text)) return 'ingles'
  if (/espanhol/iu.test(text)) return 'espanhol'
  return null
}

/** A text recurs when it stands on this share of a booklet's pages or more (and on 3 at least). */
const RECURRING_SHARE = 1 / 4
/** Recurring lines stand at one height within this many points. */
const SAME_HEIGHT = 2

/**
 * The boxes, page by page, of the lines whose text recurs on a quarter of the booklet's pages or
 * more at the same height and size, numbers aside (`CH - 1º dia | Caderno 1 - AZUL - Página 2`, a
 * running title): the page's, whatever a year prints. Lines that `keep` names (a question's label,
 * which recurs as `QUESTÃO ##`) and lines of fewer than two letters (a page number, a letter) are not.
 */
export function recurringTexts (pages: ReadonlyArray<{ readonly page: number, readonly lines: readonly Line[] }>, keep: (line: Line) => boolean): Map<number, Box[]> {
  const least = Math.max(3, Math.ceil(RECURRING_SHARE * pages.length))
  const seen = new Map<string, Array<{ page: number, line: Line }>>()
  for (const { page, lines } of pages) {
    for (const line of lines) {
      const text = line.text.replace(/\d+/gu, '#').replace(/\s+/gu, ' ').trim()
      // Words, not numbers alone: a chart's ticks and a table's cells stand at every height on some page.
      if (keep(line) || text.replace(/[^\p{L}]/gu, '').length < 2) continue
      const key = `${Math.round(line.size * 2)}|${text}`
      const list = seen.get(key) ?? []
      list.push({ page, line })
      seen.set(key, list)
    }
  }
  const found = new Map<number, Box[]>()
  for (const occurrences of seen.values()) {
    for (const { page, line } of occurrences) {
      const pagesAtHeight = new Set(occurrences.filter((other) => Math.abs(other.line.baseline - line.baseline) <= SAME_HEIGHT).map((other) => other.page))
      if (pagesAtHeight.size >= least) found.set(page, [...(found.get(page) ?? []), line.box])
    }
  }
  return found
}

/**
 * The furniture among a page's lines: by text, by repetition (a line lying within one of `recurring`,
 * the boxes recurringTexts found on this page), and by place — a page number (digits alone) or any
 * line in the top or bottom margin, outside `content` (the vertical extent questions use in this
 * booklet, from its question labels and its footers).
 */
export function pageFurniture (lines: readonly Line[], content: { top: number, bottom: number }, recurring: readonly Box[] = []): Map<Line, FurnitureKind> {
  const found = new Map<Line, FurnitureKind>()
  for (const line of lines) {
    const kind = furnitureOfText(line.text)
    if (kind !== null) found.set(line, kind)
    else if (recurring.some((box) => coveredShare(line.box, box) > 0.9)) found.set(line, 'recurring')
    else if (line.box.y1 <= content.top || line.box.y0 >= content.bottom) found.set(line, /^\d{1,3}$/.test(line.text) ? 'page-number' : 'margin')
  }
  // A page number set on its footer's baseline, in a larger size than the footer's text, reaches above it.
  const footers = [...found].filter(([, kind]) => kind === 'footer').map(([line]) => line)
  for (const line of lines) {
    if (!found.has(line) && /^\d{1,3}$/.test(line.text) && footers.some((footer) => Math.abs(footer.baseline - line.baseline) < 2)) found.set(line, 'page-number')
  }
  return found
}
