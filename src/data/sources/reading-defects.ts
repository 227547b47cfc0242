import type { BookletSnapshot, SnapshotFigure, SnapshotRecord } from './reading-snapshot.ts'

/*
 * The defect classes of a booklet's reading (the contract's sixth round, "Every layout INEP
 * printed"), each found in the records of one booklet by what a student would see, whatever the year:
 *
 * - recurring-figure: a figure whose pixels, or whose size and look (a small one), recur in RECURRING or more
 *   records, at distinct places of the booklet (a logo beside every label, a rule, a footer strip);
 *   a shared text's figure, one place read into each of its questions, is not one.
 * - rule-figure: a figure thinner than RULE_THICKNESS points and at least RULE_LENGTH long: a rule or
 *   a strip and no drawing (a footer strip ending alternative E, a rule opening a question), or a
 *   sliver cut off a drawing (a chart's rotated axis title cropped alone), recurring or not. A
 *   shorter one (an equation's arrow) is left to the other measures.
 * - credit-in-asking: the sentence that asks holds a source credit ("Disponível em", "Acesso em",
 *   "(adaptado)", an author as a reference writes one: `RIBEIRO, A. E.`).
 * - line-numbers: a run of a text's margin line numbers among its words ("Parecia 1 2 que eu ia",
 *   or 5, 10, 15 standing alone between words).
 * - key-picture: the key's alternative is the only one shown as a picture (an answer-marked print's
 *   ring read as a figure).
 * - markdown-escape: an alternative's text holds a Markdown escape (`\[`, `\<`): its text is plain.
 * - text-in-figure: a line read as text (statement, asking sentence, alternatives) that a figure's
 *   crop also shows.
 */

export const DEFECT_CLASSES = ['recurring-figure', 'rule-figure', 'credit-in-asking', 'line-numbers', 'key-picture', 'markdown-escape', 'text-in-figure'] as const
export type DefectClass = typeof DEFECT_CLASSES[number]

export interface Defect {
  readonly index: number
  readonly language: string | null
  readonly kind: DefectClass
  /** What was seen, to look at. */
  readonly why: string
}

/** A figure recurs when it stands in this many records or more. */
export const RECURRING = 3
/** A figure whose shorter side is below this (points) and whose longer side reaches RULE_LENGTH is a rule: a line of text is taller. */
export const RULE_THICKNESS = 7
export const RULE_LENGTH = 40
/** Near-same size: each side within this share of the other's. */
const SIZE_TOLERANCE = 0.05
/** Near-same look: the cells' grey differs by at most this on average (of 255). */
const LOOK_TOLERANCE = 6
/** Looks are compared for figures whose shorter side is at most this (points: furniture); larger ones recur only pixel-identical. */
const SMALL_SIDE = 40

const CREDIT = /Dispon[íi]vel\s+em|Acesso\s+em|Acessado\s+em|\((?:adaptado|adaptada|fragmento|com\s+adaptações)\)|\bIn:\s|\b[A-ZÀ-Ý]{2,}(?:\s+[A-ZÀ-Ý]{2,})*,\s+[A-ZÀ-Ý]\.(?:\s*[A-ZÀ-Ý]\.)*/u
const ESCAPE = /\\[\\`*_[\]<>|#+\-.()!{}]/u

function sizeOf (figure: SnapshotFigure): [number, number] {
  return [figure.box[2] - figure.box[0], figure.box[3] - figure.box[1]]
}

/** The mean difference of grey between two looks' cells (0–255). */
function lookDistance (a: string, b: string): number {
  if (a.length !== b.length) return 255
  let sum = 0
  for (let at = 0; at < a.length; at += 2) sum += Math.abs(Number.parseInt(a.slice(at, at + 2), 16) - Number.parseInt(b.slice(at, at + 2), 16))
  return sum / (a.length / 2)
}

function nearSame (a: SnapshotFigure, b: SnapshotFigure): boolean {
  if (a.pixels === b.pixels) return true
  const [aw, ah] = sizeOf(a)
  const [bw, bh] = sizeOf(b)
  // 64 cells tell a logo, a rule or a strip from another; two charts of one size may share them.
  if (Math.min(aw, ah) > SMALL_SIDE) return false
  const close = (x: number, y: number) => Math.abs(x - y) <= SIZE_TOLERANCE * Math.max(x, y)
  return close(aw, bw) && close(ah, bh) && lookDistance(a.look, b.look) <= LOOK_TOLERANCE
}

const placeOf = (figure: SnapshotFigure) => `${figure.page}:${figure.box.map((value) => value.toFixed(1)).join(',')}`
const recordName = ({ record }: SnapshotRecord) => `${record.index}${record.language === null ? '' : `-${record.language}`}`

/** Figures standing, at distinct places, in RECURRING records or more. */
function recurringFigures (records: readonly SnapshotRecord[]): Defect[] {
  const all = records.flatMap((owner) => owner.figures.map((figure) => ({ owner, figure })))
  const defects: Defect[] = []
  for (const owner of records) {
    for (const figure of owner.figures) {
      const alike = all.filter((other) => nearSame(figure, other.figure))
      const places = new Set(alike.map((other) => placeOf(other.figure)))
      const holders = new Set(alike.map((other) => other.owner))
      if (places.size < 2 || holders.size < RECURRING) continue
      const [width, height] = sizeOf(figure)
      defects.push({
        index: owner.record.index,
        language: owner.record.language,
        kind: 'recurring-figure',
        why: `${figure.name} (page ${figure.page}, ${width.toFixed(0)}×${height.toFixed(0)} pt) looks like a figure of ${holders.size} records: ${[...holders].slice(0, 6).map(recordName).join(', ')}${holders.size > 6 ? ', …' : ''}`
      })
      break
    }
  }
  return defects
}

/**
 * A run of margin line numbers among words: two or more bare numbers in a row counting up by 1 or 5
 * ("1 2", "5 10"), or three or more of 5, 10, 15 … standing alone between words of one paragraph.
 */
export function lineNumberRun (text: string): string | null {
  for (const paragraph of text.replace(/!\[[^\]]*\]\([^)]*\)/gu, ' ').split(/\n\s*\n/u)) {
    // A table's row or a matrix's is numbers between rules or brackets, not a text's margin.
    if (/[|⎢⎥⎡⎤⎣⎦[\]]/u.test(paragraph)) continue
    const tokens = paragraph.split(/\s+/u).filter((token) => token !== '')
    const bare = (token: string | undefined) => token !== undefined && /^\d{1,3}$/u.test(token)
    const word = (token: string | undefined) => token !== undefined && /\p{L}{2}/u.test(token)
    for (let at = 0; at + 1 < tokens.length; at++) {
      if (!bare(tokens[at]) || !bare(tokens[at + 1]) || !word(tokens[at - 1])) continue
      let end = at + 1
      while (bare(tokens[end + 1])) end++
      const step = Number(tokens[at + 1]) - Number(tokens[at])
      if ((step === 1 || step === 5) && Number(tokens[at]) <= 60 && word(tokens[end + 1])) return tokens.slice(Math.max(0, at - 2), end + 3).join(' ')
    }
    const alone = tokens.flatMap((token, at) => (bare(token) && Number(token) % 5 === 0 && /\p{Ll}/u.test(tokens[at - 1] ?? '') && /^\p{Ll}/u.test(tokens[at + 1] ?? '') ? [{ at, value: Number(token) }] : []))
    for (let at = 0; at + 2 < alone.length; at++) {
      const [a, b, c] = [alone[at]!, alone[at + 1]!, alone[at + 2]!]
      if (b.value - a.value === 5 && c.value - b.value === 5) return tokens.slice(Math.max(0, a.at - 2), a.at + 3).join(' ')
    }
  }
  return null
}

/** Every defect of a booklet's records. */
export function bookletDefects (snapshot: Pick<BookletSnapshot, 'records'>): Defect[] {
  const defects: Defect[] = [...recurringFigures(snapshot.records)]
  for (const { record, figures, textInFigures } of snapshot.records) {
    const at = { index: record.index, language: record.language }
    const asking = record.alternativesIntroduction ?? ''
    const credit = CREDIT.exec(asking)
    if (credit !== null) defects.push({ ...at, kind: 'credit-in-asking', why: `asking sentence holds "${credit[0]}": ${asking.slice(0, 100)}` })
    const run = lineNumberRun(`${record.context ?? ''}\n\n${asking}`)
    if (run !== null) defects.push({ ...at, kind: 'line-numbers', why: `"${run}"` })
    const rule = figures.find((figure) => Math.min(...sizeOf(figure)) < RULE_THICKNESS && Math.max(...sizeOf(figure)) >= RULE_LENGTH)
    if (rule !== undefined) defects.push({ ...at, kind: 'rule-figure', why: `${rule.name} (page ${rule.page}) is ${sizeOf(rule).map((side) => side.toFixed(1)).join(' × ')} pt` })
    const pictures = record.alternatives.filter((alternative) => alternative.file !== null)
    if (pictures.length === 1 && pictures[0]!.isCorrect) defects.push({ ...at, kind: 'key-picture', why: `only ${pictures[0]!.letter} (the key) is a picture` })
    const escaped = record.alternatives.find((alternative) => ESCAPE.test(alternative.text ?? ''))
    if (escaped !== undefined) defects.push({ ...at, kind: 'markdown-escape', why: `${escaped.letter}: ${escaped.text!.slice(0, 80)}` })
    if (textInFigures.length > 0) defects.push({ ...at, kind: 'text-in-figure', why: `${textInFigures.length} line${textInFigures.length === 1 ? '' : 's'} in a crop: ${textInFigures.slice(0, 3).map((line) => `"${line.slice(0, 48)}"`).join(', ')}` })
  }
  return defects
}

/** Defects counted by class (every class present, 0 where none). */
export function defectCounts (defects: readonly Defect[]): Record<DefectClass, number> {
  const counts = Object.fromEntries(DEFECT_CLASSES.map((kind) => [kind, 0])) as Record<DefectClass, number>
  for (const defect of defects) counts[defect.kind]++
  return counts
}
