import { DISCIPLINE_OF_AREA, LETTERS, type Area, type Letter, type OfficialKey } from '../record-schemas.ts'
import { compareSkillCodes } from '../skills/skill-code.ts'
import { allWrongPosterior, curveOf, estimateAbility, scaledScore, type ItemCurve, type ItemParameters } from '../inep-3pl.ts'

/*
 * Which items of an area count, and the area's score from the answers to them: what both ways of
 * asking for a score share (an answer sheet, src/data/scores/sheet-scores.ts; our numbering,
 * src/data/scores/exam-scores.ts). An area's form is worked out once per booklet or exam view;
 * scoring a set of answers against it is then one pass over its items (src/data/inep-3pl.ts).
 */

/** Why a position of an area does not count. */
export type LeftOutReason = 'annulled' | 'not-taken-language' | 'no-parameters' | 'missing'

export interface LeftOut {
  readonly index: number
  readonly reason: LeftOutReason
}

/**
 * Items INEP keys `X` in ITENS_PROVA yet scored: item 29265 (2016, CN, second-application booklets
 * 331–334 and 351–354), the only `X` row with parameters and `IN_ITEM_ABAN` = 0 in all the files.
 * Scored with key A, every tri-cases sheet of those booklets gets its official score; left out,
 * 11 of 30 do (the tri-cases SOURCE.md beside the repository, /work/shared/inep/tri-cases).
 */
export const SCORED_ANNULLED_ITEMS: ReadonlyMap<number, Letter> = new Map([[29265, 'A']])

/** What scoring needs of one item, whichever source gives it. */
export interface ItemFacts {
  /** `CO_ITEM`, null when unknown. */
  readonly item: number | null
  /** The key the answer is compared with: A–E, or X when INEP annulled the item. */
  readonly key: OfficialKey
  /** INEP left the item out of the score (`IN_ITEM_ABAN` = 1). */
  readonly excluded: boolean
  readonly irt: ItemParameters | null
  /** The item's skill code in INEP's Matriz (`MT-H21`: its area and `CO_HABILIDADE`, a record's `inep.area` and `inep.skill`); null when none is given. */
  readonly skill: string | null
}

/** The key and curve of an item that counts, or why it does not. */
export function scoringOf (facts: ItemFacts): { key: Letter, curve: ItemCurve } | { reason: LeftOutReason } {
  const scoredAs = facts.item === null ? undefined : SCORED_ANNULLED_ITEMS.get(facts.item)
  if (facts.key === 'X' && (scoredAs === undefined || facts.excluded || facts.irt === null)) return { reason: 'annulled' }
  if (facts.excluded || facts.irt === null) return { reason: 'no-parameters' }
  return { key: facts.key === 'X' ? scoredAs! : facts.key, curve: curveOf(facts.irt) }
}

/** One area of one booklet or exam view, ready to score answers against. */
export interface AreaForm {
  readonly area: Area
  /** Where each counted item's answer is read (an index of the answers given). */
  readonly indexes: readonly number[]
  readonly keys: readonly Letter[]
  readonly curves: readonly ItemCurve[]
  /** allWrongPosterior(curves): each answer set's estimate starts from it. */
  readonly allWrong: Float64Array
  /** Each counted item's skill code, or null. */
  readonly skills: ReadonlyArray<string | null>
  /** The distinct skills of the counted items, in the Matriz's order (by area, then number): the order of an answer's `skills`. */
  readonly skillOrder: readonly string[]
  /** Each counted item's skill as a position in skillOrder, or -1 when it has none. */
  readonly skillSlots: readonly number[]
  /** Positions that do not count, by index. */
  readonly leftOut: readonly LeftOut[]
  /** Every index of the area that a candidate could have answered (counted or not, the other language's excepted). */
  readonly answerable: readonly number[]
}

/** Builds an area's form from its positions: each an index and its item's facts, or why it has none. */
export function areaForm (area: Area, positions: ReadonlyArray<{ index: number, facts: ItemFacts } | LeftOut>): AreaForm {
  const indexes: number[] = []
  const keys: Letter[] = []
  const curves: ItemCurve[] = []
  const skills: Array<string | null> = []
  const leftOut: LeftOut[] = []
  const answerable: number[] = []
  for (const position of positions) {
    const scoring = 'facts' in position ? scoringOf(position.facts) : position
    if (!('reason' in scoring) || scoring.reason !== 'not-taken-language') answerable.push(position.index)
    if ('reason' in scoring) {
      leftOut.push({ index: position.index, reason: scoring.reason })
      continue
    }
    indexes.push(position.index)
    keys.push(scoring.key)
    curves.push(scoring.curve)
    // Counted, so it has facts.
    skills.push('facts' in position ? position.facts.skill : null)
  }
  leftOut.sort((a, b) => a.index - b.index)
  // Sorted once per form, not per answer set: sorting the codes of every scored area was the
  // largest cost of a score (bench/results.md).
  const skillOrder = [...new Set(skills.filter((skill) => skill !== null))].sort(compareSkillCodes)
  const slotOf = new Map(skillOrder.map((skill, slot) => [skill, slot]))
  const skillSlots = skills.map((skill) => (skill === null ? -1 : slotOf.get(skill)!))
  return { area, indexes, keys, curves, allWrong: allWrongPosterior(curves), skills, skillOrder, skillSlots, leftOut, answerable }
}

/** One area's score, as the API answers it. */
export interface AreaScore {
  readonly area: Area
  readonly discipline: string
  /** round(k·θ + d, 1). */
  readonly score: number
  /** θ's EAP, to 4 decimals. */
  readonly theta: number
  /** θ's posterior standard deviation, to 4 decimals. */
  readonly standardError: number
  /** Counted items answered right. */
  readonly correct: number
  /** Items counted. */
  readonly scored: number
  readonly leftOut: readonly LeftOut[]
  /** Per skill of the counted items (by area, then number; items without a skill are in no entry): how many counted, how many right. */
  readonly skills: readonly SkillOutcome[]
}

/** How a candidate did on the counted items of one skill. */
export interface SkillOutcome {
  /** `MT-H21`. */
  readonly code: string
  readonly scored: number
  readonly correct: number
}

const LETTER_SET: ReadonlySet<string | undefined> = new Set(LETTERS)
const isLetter = (value: string | undefined): boolean => LETTER_SET.has(value)

/**
 * The area's score from the answers (`answerAt(index)`: a letter, or anything else for a blank),
 * or null when none of the area's positions is answered (an area left wholly blank is not
 * scored) or none of its items counts (θ would be the prior's mean, a score of nothing).
 * A counted item left blank is wrong, as INEP counts it.
 */
export function scoreArea (form: AreaForm, answerAt: (index: number) => string | undefined): AreaScore | null {
  const { indexes, keys } = form
  if (indexes.length === 0) return null
  let answered = false
  for (const index of form.answerable) {
    if (isLetter(answerAt(index))) {
      answered = true
      break
    }
  }
  if (!answered) return null
  if (right.length < indexes.length) right = new Uint8Array(indexes.length)
  let correct = 0
  for (let at = 0; at < indexes.length; at++) {
    const isRight = answerAt(indexes[at]!) === keys[at]
    right[at] = isRight ? 1 : 0
    if (isRight) correct++
  }
  const { theta, standardError } = estimateAbility(form.curves, right, form.allWrong)
  return {
    area: form.area,
    discipline: DISCIPLINE_OF_AREA[form.area],
    score: scaledScore(form.area, theta),
    theta: round4(theta),
    standardError: round4(standardError),
    correct,
    scored: indexes.length,
    leftOut: form.leftOut,
    skills: skillOutcomes(form, right)
  }
}

/** Whether each counted item was answered right, for the area being scored: one for the process, made larger when a form needs it. */
let right = new Uint8Array(64)

/** The counted items of each skill of a form, and how many of them were right (`right[at]` 1), in the form's skill order. */
function skillOutcomes (form: AreaForm, right: Uint8Array): SkillOutcome[] {
  const { skillOrder, skillSlots } = form
  const scored = new Array<number>(skillOrder.length).fill(0)
  const correct = new Array<number>(skillOrder.length).fill(0)
  for (let at = 0; at < skillSlots.length; at++) {
    const slot = skillSlots[at]!
    if (slot === -1) continue
    scored[slot]!++
    if (right[at] === 1) correct[slot]!++
  }
  // Every skill of the order has at least one counted item, so none is listed with nothing scored.
  return skillOrder.map((code, slot) => ({ code, scored: scored[slot]!, correct: correct[slot]! }))
}

function round4 (value: number): number {
  return Math.round(value * 10_000) / 10_000
}
