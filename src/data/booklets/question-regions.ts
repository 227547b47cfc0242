import type { Figure } from './figures.ts'
import { headingLanguage } from './furniture.ts'
import type { FlowPlace } from './page-layout.ts'
import type { Line } from './text-lines.ts'

/*
 * The fifth stage: the booklet's content, read page by page in reading order, cut into questions.
 * A question runs from its label (`QUESTÃO 91`, `Questão 01`, 2009's `Questão` beside a boxed
 * `91`) to the next label or heading. A text printed once for several questions ("Texto para as
 * Questões de 06 a 10", "Texto para as questões 96 e 97") belongs to each of them. A heading that
 * names a language ("Questões de 01 a 05 (opção inglês)") gives the questions after it theirs.
 */

/** Where an element stands: its page and its place in the page's reading order. */
interface Placed {
  readonly page: number
  readonly place: FlowPlace
}

export type FlowElement =
  | Placed & { readonly kind: 'line', readonly line: Line }
  | Placed & { readonly kind: 'figure', readonly figure: Figure }
  | Placed & { readonly kind: 'heading', readonly line: Line }

export interface QuestionRegion {
  /** As printed. */
  readonly number: number
  /** The language its heading announced, or null. */
  readonly language: 'ingles' | 'espanhol' | null
  readonly label: { readonly page: number, readonly line: Line }
  /** What follows the label, in reading order, up to the next label or heading. */
  readonly elements: readonly FlowElement[]
  /** The text printed once for it and others, before its own, or none. */
  readonly shared: readonly FlowElement[]
}

const LABEL = /^QUEST(?:Ã|ã|A|a)O\s*(\d{1,3})\b\s*(.*)$/iu
const SHARED_TEXT = /^(?:Textos?|Figuras?|Imagens?|Gráficos?|Tabelas?|Quadros?|Mapas?)\s+(?:comum\s+)?(?:para|das)\s+as\s+quest(?:ões|oes)\s+(?:de\s+)?(\d{1,3})\s+(a|e)\s+(\d{1,3})/iu

/** The number a label line gives, with any text after it on the line; null when it is no label. */
export function labelOf (line: Line): { number: number, rest: string } | null {
  const match = LABEL.exec(line.text)
  if (match === null) return null
  return { number: Number(match[1]), rest: match[2]! }
}

/** The questions a shared text's heading names (inclusive), or null. */
export function sharedTextRange (text: string): { from: number, to: number } | null {
  const match = SHARED_TEXT.exec(text.trim())
  if (match === null) return null
  return { from: Number(match[1]), to: Number(match[3]) }
}

/** The questions of a booklet's content stream, in the order printed. */
export function questionRegions (stream: readonly FlowElement[]): QuestionRegion[] {
  const regions: Array<{ number: number, language: 'ingles' | 'espanhol' | null, label: { page: number, line: Line }, elements: FlowElement[], shared: FlowElement[] }> = []
  let current: (typeof regions)[number] | null = null
  // A language heading ("Questões de 01 a 05 (opção inglês)") covers the questions it names.
  let language: { language: 'ingles' | 'espanhol', from: number, to: number } | null = null
  let shared: { from: number, to: number, elements: FlowElement[] } | null = null
  let collecting: FlowElement[] | null = null

  for (const element of stream) {
    if (element.kind === 'heading') {
      const announced = headingLanguage(element.line.text)
      const range = /(\d{1,3})\s+a\s+(\d{1,3})/u.exec(element.line.text)
      if (announced !== null && range !== null) language = { language: announced, from: Number(range[1]), to: Number(range[2]) }
      current = null
      collecting = null
      continue
    }
    if (element.kind === 'line') {
      const label = labelOf(element.line)
      if (label !== null) {
        const own = language !== null && label.number >= language.from && label.number <= language.to ? language.language : null
        current = { number: label.number, language: own, label: { page: element.page, line: element.line }, elements: [], shared: [] }
        if (shared !== null && label.number >= shared.from && label.number <= shared.to) current.shared = shared.elements
        regions.push(current)
        collecting = current.elements
        if (label.rest.trim() !== '') collecting.push({ ...element, line: { ...element.line, text: label.rest.trim() } })
        continue
      }
      const range = sharedTextRange(element.line.text)
      if (range !== null) {
        shared = { ...range, elements: [] }
        current = null
        collecting = shared.elements
        continue
      }
    }
    collecting?.push(element)
  }
  return regions
}
