import type { QuestionFinder } from '../finding/question-finder.ts'
import type { QuestionFilters } from '../finding/question-filters.ts'
import { drawDistinct } from '../finding/random-draw.ts'
import { DISCIPLINE_OF_AREA, type Area, type Question } from '../record-schemas.ts'
import { fisherInformation, thetaOfScore } from './inep-3pl.ts'

/*
 * Practice at a candidate's level, as computerized adaptive tests choose items: each eligible
 * record's Fisher information at the θ of the given score (the 3PL of ./inep-3pl.ts, D = 1) ranks
 * them; `count` are drawn at random (seeded, as /v1/questions/random draws) from the
 * max(5·count, 30) most informative ("randomesque" selection, so that one score does not always
 * get the same few items), never two records of one INEP item, and given easiest first.
 */

/** How many a practice draw gives when not told, and at most. */
export const PRACTICE_COUNT_DEFAULT = 10
export const PRACTICE_COUNT_MAX = 50
/** The score scale a practice score must lie on. */
export const SCORE_MIN = 0
export const SCORE_MAX = 1000

/**
 * How many of the most informative items a draw of `count` picks from: max(5·count, 30).
 * @example candidatePoolSize(10) === 50; candidatePoolSize(2) === 30
 */
export function candidatePoolSize (count: number): number {
  return Math.max(5 * count, 30)
}

/**
 * Whether a record can be drawn for practice: INEP's parameters, not annulled, not left out of the
 * score. Such a record has `inep.irt` and `inep.difficulty`.
 */
export function isPracticeEligible (question: Question): boolean {
  const inep = question.inep
  return inep !== null && inep.irt !== null && !inep.annulled && inep.excludedFromScoring !== true
}

/** A record and its information at the θ asked for. */
export interface RankedQuestion {
  readonly question: Question
  readonly information: number
}

/**
 * The `size` most informative of `records` at θ, most informative first (ties in the order given),
 * one record per INEP item (the first of an item in that order; records without an item code count
 * as items of their own). Records that are not eligible (isPracticeEligible) are passed over.
 * @example mostInformative(records, 0.8, 50).length <= 50
 */
export function mostInformative (records: readonly Question[], theta: number, size: number): RankedQuestion[] {
  const ranked: Array<RankedQuestion & { readonly order: number }> = []
  records.forEach((question, order) => {
    if (isPracticeEligible(question)) ranked.push({ question, information: fisherInformation(question.inep!.irt!, theta), order })
  })
  ranked.sort((a, b) => b.information - a.information || a.order - b.order)
  const items = new Set<number>()
  const pool: RankedQuestion[] = []
  for (const entry of ranked) {
    if (pool.length === size) break
    const item = entry.question.inep!.item
    if (item !== null) {
      if (items.has(item)) continue
      items.add(item)
    }
    pool.push({ question: entry.question, information: entry.information })
  }
  return pool
}

/** What a practice draw was asked for. */
export interface PracticeTarget {
  readonly discipline: string
  readonly score: number
  /** θ = (score − d)/k of the area, to 4 decimals. */
  readonly theta: number
}

/** The answer of a practice draw (GET /v1/questions/practice). */
export interface PracticeDraw {
  readonly seed: number
  readonly target: PracticeTarget
  /** Distinct items, easiest (lowest `inep.difficulty`) first. */
  readonly questions: readonly Question[]
}

/**
 * `count` of `records` drawn with `seed` from the candidatePoolSize(count) most informative at the
 * θ of `score` in `area`, easiest first (ties in the pool's order). Fewer when fewer are eligible.
 * Pure: the same arguments give the same draw.
 * @example drawPractice(finder.find({ discipline: 'matematica' }), 'MT', 620, 10, 42).questions.length === 10
 */
export function drawPractice (records: readonly Question[], area: Area, score: number, count: number, seed: number): PracticeDraw {
  const theta = thetaOfScore(area, score)
  const pool = mostInformative(records, theta, candidatePoolSize(count))
  const rankOf = new Map(pool.map((entry, rank) => [entry.question, rank]))
  const drawn = drawDistinct(pool.map((entry) => entry.question), count, seed)
  drawn.sort((a, b) => a.inep!.difficulty! - b.inep!.difficulty! || rankOf.get(a)! - rankOf.get(b)!)
  return {
    seed,
    target: { discipline: DISCIPLINE_OF_AREA[area], score, theta: Math.round(theta * 10_000) / 10_000 },
    questions: drawn
  }
}

/** What a practice draw over the served records asks for. */
export interface PracticeDrawRequest {
  readonly area: Area
  /** On the area's score scale, SCORE_MIN–SCORE_MAX. */
  readonly score: number
  /** 1–PRACTICE_COUNT_MAX. */
  readonly count: number
  /** 0–2³²−1. */
  readonly seed: number
  /** The other filters, as /v1/questions/random takes them (years, applications, language, skills…); `discipline` is the area's. */
  readonly filters?: Omit<QuestionFilters, 'discipline' | 'search'>
}

/**
 * Practice draws over the served records, as GET /v1/questions/practice answers them: the records
 * the finder selects for the filters and the area's discipline (each exam's language view), then
 * drawPractice. Values are taken as already checked (see the PRACTICE_* and SCORE_* bounds).
 */
export class PracticeDrawer {
  readonly #finder: QuestionFinder

  constructor (finder: QuestionFinder) {
    this.#finder = finder
  }

  draw ({ area, score, count, seed, filters = {} }: PracticeDrawRequest): PracticeDraw {
    const records = this.#finder.find({ ...filters, discipline: DISCIPLINE_OF_AREA[area] })
    return drawPractice(records, area, score, count, seed)
  }
}
