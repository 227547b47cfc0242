import { union } from './boxes.ts'
import type { FlowElement } from './question-regions.ts'
import { lineText, type Line } from './text-lines.ts'

/*
 * Line numbers printed in a text's margin (1 2 3 …, 5 10 15 …, 2009's 1 4 7 …) so that a question
 * can cite "l. 3": they are not the text's words. A number is the margin's when
 *  - it stands at a line's start (or alone, beside a line on its baseline), left of the edge where
 *    the text's lines start, so that the words after it start at that edge or inside it;
 *  - the numbers of a column count its lines: between two of them, the difference of the numbers is
 *    the number of printed lines between them (a numbered list, a formula's coefficient, a table's
 *    first column do not count lines);
 *  - there are at least three such, or two a step of more than one line apart.
 * The record leaves the numbers out (docs/data.md, "Booklets": a question that cites a line quotes
 * its words, as the transcriptions do).
 */

type LineElement = FlowElement & { kind: 'line' }

interface Candidate {
  readonly element: LineElement
  readonly number: number
  /** The number's glyphs' right edge. */
  readonly right: number
  /** Where the line's words start after the number, or null when the number stands alone. */
  readonly rest: number | null
  /** How many glyphs the number takes (with the spaces after it). */
  readonly glyphs: number
}

/** A line's leading number, set apart from what follows it, or null. */
function leadingNumber (element: LineElement): Candidate | null {
  const glyphs = element.line.glyphs.filter((glyph) => glyph.mapped)
  let at = 0
  // A superscript digit is a note's mark, not a line's number.
  while (at < glyphs.length && /^\d$/u.test(glyphs[at]!.text) && glyphs[at]!.script === 'normal') at++
  if (at === 0 || at > 3) return null
  const number = Number(glyphs.slice(0, at).map((glyph) => glyph.text).join(''))
  const right = glyphs[at - 1]!.box.x1
  let next = at
  while (next < glyphs.length && glyphs[next]!.text.trim() === '') next++
  if (next === glyphs.length) return { element, number, right, rest: null, glyphs: next }
  // The words must stand apart from the number (a space's width at least): "12kg" is no numbered line.
  const rest = glyphs[next]!.box.x0
  if (rest - right < 0.25 * element.line.size) return null
  return { element, number, right, rest, glyphs: next }
}

const keyOf = (element: FlowElement) => `${element.page}:${element.place.band}:${element.place.column}`

/** The margin numbers among a question's elements: each numbered line, and how many glyphs its number takes. */
export function marginNumbers (elements: readonly FlowElement[]): Map<LineElement, Candidate> {
  const found = new Map<LineElement, Candidate>()
  const groups = new Map<string, LineElement[]>()
  for (const element of elements) {
    if (element.kind !== 'line') continue
    groups.set(keyOf(element), [...(groups.get(keyOf(element)) ?? []), element])
  }
  for (const lines of groups.values()) {
    const candidates = lines.flatMap((element) => leadingNumber(element) ?? [])
    if (candidates.length < 2) continue
    const numbered = new Set(candidates.map((candidate) => candidate.element))
    // Where the text's lines start: the leftmost start of a line without a number among the numbered ones
    // (the question's own lines around the text may stand farther left), or of the words after a number.
    const top = Math.min(...candidates.map((candidate) => candidate.element.line.baseline))
    const bottom = Math.max(...candidates.map((candidate) => candidate.element.line.baseline))
    const starts = [
      ...lines.filter((element) => !numbered.has(element) && element.line.baseline >= top - 0.3 * element.line.size && element.line.baseline <= bottom + 0.3 * element.line.size)
        .map((element) => element.line.box.x0),
      ...candidates.flatMap((candidate) => (candidate.rest === null ? [] : [candidate.rest]))
    ]
    const edge = Math.min(...starts)
    const inMargin = candidates.filter((candidate) => candidate.right < edge - 0.2 * candidate.element.line.size &&
      (candidate.rest !== null || lines.some((other) => other !== candidate.element && Math.abs(other.line.baseline - candidate.element.line.baseline) < 0.3 * other.line.size && other.line.box.x0 > candidate.right)))
    if (inMargin.length < 2) continue
    // The column's printed lines, one per baseline (a number alone shares its line's).
    const baselines: number[] = []
    for (const element of [...lines].sort((a, b) => a.line.baseline - b.line.baseline)) {
      const last = baselines[baselines.length - 1]
      if (last === undefined || element.line.baseline - last > 0.3 * element.line.size) baselines.push(element.line.baseline)
    }
    const indexOf = (candidate: Candidate) => baselines.findIndex((baseline) => Math.abs(baseline - candidate.element.line.baseline) <= 0.3 * candidate.element.line.size)
    // The numbers count lines: from one number to the next, as many printed lines as the numbers differ by
    // (one more or fewer where the count skips a line, an omission's "[...]"; most steps exact).
    const ordered = [...inMargin].sort((a, b) => a.element.line.baseline - b.element.line.baseline)
    let counting: Candidate[] = []
    let run: Candidate[] = []
    let exact = 0
    let best = 0
    for (const candidate of ordered) {
      const last = run[run.length - 1]
      const lines = last === undefined ? 0 : indexOf(candidate) - indexOf(last)
      const step = last === undefined ? 0 : candidate.number - last.number
      if (last !== undefined && (step < 1 || lines < 1 || Math.abs(step - lines) > 1)) {
        run = []
        exact = 0
      }
      if (run.length > 0 && step === lines) exact++
      run.push(candidate)
      if (run.length > counting.length && 2 * exact >= run.length - 1) {
        counting = [...run]
        best = exact
      }
    }
    const numbers = counting.map((candidate) => candidate.number)
    if (best === 0 || numbers.length < 2 || (numbers.length < 3 && numbers[1]! - numbers[0]! < 2)) continue
    for (const candidate of counting) found.set(candidate.element, candidate)
  }
  return found
}

/** The elements without their margin numbers: a number alone is dropped, a number before words is cut off its line. */
export function withoutLineNumbers (elements: readonly FlowElement[]): FlowElement[] {
  const numbers = marginNumbers(elements)
  if (numbers.size === 0) return [...elements]
  return elements.flatMap((element): FlowElement[] => {
    const candidate = element.kind === 'line' ? numbers.get(element) : undefined
    if (candidate === undefined || element.kind !== 'line') return [element]
    if (candidate.rest === null) return []
    return [{ ...element, line: withoutLeadingGlyphs(element.line, candidate.glyphs) }]
  })
}

/** A line without its first `count` mapped glyphs (an unmapped glyph before them stays). */
function withoutLeadingGlyphs (line: Line, count: number): Line {
  const mapped = line.glyphs.filter((glyph) => glyph.mapped).slice(0, count)
  const glyphs = line.glyphs.filter((glyph) => !mapped.includes(glyph))
  return { ...line, glyphs, box: union(glyphs.map((glyph) => glyph.box)), text: lineText(glyphs) }
}
