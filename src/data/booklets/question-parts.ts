import type { Figure } from './figures.ts'
import type { FlowElement } from './question-regions.ts'
import type { Line } from './text-lines.ts'

/*
 * The sixth stage: a question's elements into its parts — the statement (paragraphs and figures in
 * reading order), the sentence that asks, and five alternatives, each text or a figure. An
 * alternative starts at its letter (`A` … `E`, in a box or a circle, set at the start of a line);
 * the letters are found from the last `E` back, so a statement's own sentence that begins with
 * "A" is not taken for one. Paragraphs: a line starts one after a wider gap, an indent, a change
 * of size, or a line that ended short with a full stop; a short line followed by one at the same
 * indent keeps its break (a poem's verse); a word hyphenated at a line's end is joined.
 */

export type Block =
  | { readonly kind: 'text', readonly text: string, readonly lines: readonly Line[] }
  | { readonly kind: 'figure', readonly figure: Figure, readonly page: number }

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
  if (element.kind !== 'line') return null
  const glyphs = element.line.glyphs.filter((glyph) => glyph.text.trim() !== '')
  const first = glyphs[0]
  if (first === undefined || !/^[A-E]$/u.test(first.text)) return null
  const second = glyphs[1]
  // The letter stands apart from what follows it (a gap, or another font: the box's).
  if (second !== undefined && second.box.x0 - first.box.x1 < 0.12 * first.size && second.font === first.font) return null
  return MARKER.exec(element.line.text)?.[1] ?? null
}

/** The parts of a question from its elements (shared text first). */
export function questionParts (elements: readonly FlowElement[]): QuestionParts {
  const markers = findMarkers(elements)
  const before = markers === null ? elements : elements.slice(0, markers[0])
  const alternatives: Alternative[] = []
  const taken = new Set<FlowElement>()
  if (markers !== null) {
    const figuresAfter = elements.filter((element, at) => element.kind === 'figure' && at > markers[0]!)
    markers.forEach((start, at) => {
      const end = at + 1 < markers.length ? markers[at + 1]! : elements.length
      const own = elements.slice(start, end)
      const marker = own[0] as FlowElement & { kind: 'line' }
      const lines = alternativeLines(own.filter((element): element is FlowElement & { kind: 'line' } => element.kind === 'line'))
      const text = joinLines(lines.map((line, index) => (index === 0 ? line.text.replace(MARKER, '') : line.text)))
      // A figure is an alternative's when it stands beside or below its letter, before the next letter.
      const next = at + 1 < markers.length ? elements[markers[at + 1]!] as FlowElement & { kind: 'line' } : null
      const figure = [...figuresAfter, ...before.filter((element) => element.kind === 'figure')].find((element) => {
        if (element.kind !== 'figure' || taken.has(element) || element.page !== marker.page) return false
        const box = element.figure.box
        const centre = (box.y0 + box.y1) / 2
        const besideMarker = box.y0 <= marker.line.box.y1 && box.y1 >= marker.line.box.y0
        const belowMarker = centre >= marker.line.box.y0 - 2
        const aboveNext = next === null || next.page !== marker.page || centre < next.line.box.y0 - 1 || box.x0 > next.line.box.x1 + 40
        const besideLetter = box.x0 >= marker.line.box.x0 - 4 && box.x0 <= marker.line.box.x0 + 80
        return (besideMarker || belowMarker) && aboveNext && besideLetter
      })
      if (figure !== undefined) taken.add(figure)
      alternatives.push({
        letter: LETTERS[at]!,
        text,
        figure: figure === undefined || figure.kind !== 'figure' ? null : { figure: figure.figure, page: figure.page },
        lines
      })
    })
  }
  const blocks = statementBlocks(before.filter((element) => !taken.has(element)))
  const last = blocks[blocks.length - 1]
  const asking = last !== undefined && last.kind === 'text' ? last.text : ''
  return {
    statement: asking === '' ? blocks : blocks.slice(0, -1),
    asking,
    alternatives,
    problem: markers === null ? 'its alternatives\' letters A to E were not found' : null
  }
}

/**
 * An alternative's lines: its letter's line and those that carry on its text (no wider gap than
 * between lines, not left of where its text starts); what follows after (the page's end, a draft
 * area) is not the alternative's.
 */
function alternativeLines (own: ReadonlyArray<FlowElement & { kind: 'line' }>): Line[] {
  const first = own[0]!
  const textStart = first.line.glyphs.find((glyph, at) => at > 0 && glyph.text.trim() !== '')?.box.x0 ?? first.line.box.x0
  const lines = [first.line]
  for (const element of own.slice(1)) {
    const before = lines[lines.length - 1]!
    const carried = element.page !== first.page || element.place.column !== first.place.column
    if (carried || element.line.box.y0 - before.box.y1 > 0.6 * before.size || element.line.box.x0 < textStart - 3) break
    lines.push(element.line)
  }
  return lines
}

/** The indices of the elements that start alternatives A–E, or null. */
function findMarkers (elements: readonly FlowElement[]): number[] | null {
  const found: number[] = []
  let want = 4
  for (let at = elements.length - 1; at >= 0 && want >= 0; at--) {
    if (markerOf(elements[at]!) === LETTERS[want]) {
      found.unshift(at)
      want--
    }
  }
  return want < 0 ? found : null
}

/** Statement elements into paragraphs and figures. */
export function statementBlocks (elements: readonly FlowElement[]): Block[] {
  const blocks: Block[] = []
  let run: Array<FlowElement & { kind: 'line' }> = []
  const flush = () => {
    blocks.push(...paragraphs(run))
    run = []
  }
  for (const element of elements) {
    if (element.kind === 'figure') {
      flush()
      blocks.push({ kind: 'figure', figure: element.figure, page: element.page })
    } else if (element.kind === 'line') {
      run.push(element)
    }
  }
  flush()
  return blocks
}

/** Lines of one column run into paragraphs. */
function paragraphs (run: ReadonlyArray<FlowElement & { kind: 'line' }>): Block[] {
  if (run.length === 0) return []
  // The column's left and right edges, as this question's lines in it show them.
  const edges = new Map<string, { left: number, right: number }>()
  const key = (element: FlowElement) => `${element.page}:${element.place.band}:${element.place.column}`
  for (const element of run) {
    const edge = edges.get(key(element)) ?? { left: Infinity, right: -Infinity }
    edges.set(key(element), { left: Math.min(edge.left, element.line.box.x0), right: Math.max(edge.right, element.line.box.x1) })
  }
  const previousShortOf = (element: FlowElement & { kind: 'line' }) => element.line.box.x1 < edges.get(key(element))!.right - 3 * element.line.size
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
    if (lines.length > 0) out.push({ kind: 'text', text: paragraphText(text.join('')), lines })
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
      const indented = line.box.x0 > edge.left + 0.6 * line.size && (previousShortOf(previous) || Math.abs(line.box.x1 - before.box.x1) > 2)
      const sizeChanged = Math.abs(line.size - before.size) > 0.6
      const boldChanged = line.bold !== before.bold
      const previousShort = previousShortOf(previous)
      const newParagraph = !sameColumn
        ? previousShort && /[.:!?"”»)]$/u.test(before.text) // a paragraph carried into the next column goes on
        : gap > 0.2 * line.size || indented || sizeChanged || boldChanged || (previousShort && /[.:!?]$/u.test(before.text) && line.box.x0 > before.box.x0 + 1)
      if (newParagraph) flush()
      else text.push(joiner(text[text.length - 1] ?? '', line.text, sameColumn && previousShort && !indented))
    }
    lines.push(line)
    text.push(line.text)
  })
  flush()
  return out
}

/** Marks where a hyphen at a line's end is to be dropped, until the paragraph is whole. */
const HYPHEN_JOIN = '\u2060join\u2060'
const CLITIC = /^(se|lo|la|los|las|me|te|nos|vos|lhe|lhes|o|a|os|as|no|na|nos|nas)\b/u

/** What joins a line to the one before it: a hard break for a verse, nothing for a hyphenated word, else a space. */
function joiner (before: string, after: string, verse: boolean): string {
  if (/\p{L}-$/u.test(before) && /^\p{Ll}/u.test(after) && !CLITIC.test(after)) return HYPHEN_JOIN
  if (verse) return '  \n'
  return ' '
}

/** Lines of an alternative joined as one paragraph. */
function joinLines (texts: readonly string[]): string {
  let out = ''
  for (const text of texts.map((value) => value.trim()).filter((value) => value !== '')) {
    if (out === '') out = text
    else if (/\p{L}-$/u.test(out) && /^\p{Ll}/u.test(text) && !CLITIC.test(text)) out = out.slice(0, -1) + text
    else out += ` ${text}`
  }
  return out
}

/** A paragraph's text with its hyphenation joins applied (HYPHEN_JOIN drops the hyphen before it). */
export function paragraphText (text: string): string {
  return text.replaceAll(`-${HYPHEN_JOIN}`, '')
}
