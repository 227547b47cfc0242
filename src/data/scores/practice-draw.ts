import type { QuestionFinder } from '../finding/question-finder.ts'
import { LRUCache } from 'lru-cache'
import { filtersKey, type QuestionFilters } from '../finding/question-filters.ts'
import { drawDistinct } from '../finding/random-draw.ts'
import { DISCIPLINE_OF_AREA, type Area, type Question } from '../record-schemas.ts'
import { fisherInformation, thetaOfScore } from '../inep-3pl.ts'

/*
 * Practice at a candidate's level, as computerized adaptive tests choose items: each eligible
 * record's Fisher information at the θ of the given score (the 3PL of ../inep-3pl.ts, D = 1) ranks
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
 * The eligible records of a list (isPracticeEligible), in its order, with their parameters in typed
 * arrays: what ranking at any θ reads, made once per list.
 */
export interface PracticeCandidates {
  readonly records: readonly Question[]
  readonly a: Float64Array
  readonly b: Float64Array
  readonly c: Float64Array
  /** INEP's item code of each, or −1 − its position for a record without one (an item of its own). */
  readonly items: Float64Array
}

/** The candidates of a list of records: its eligible ones, in its order. */
export function practiceCandidates (records: readonly Question[]): PracticeCandidates {
  const eligible = records.filter(isPracticeEligible)
  const irt = (record: Question) => record.inep!.irt!
  return {
    records: eligible,
    a: Float64Array.from(eligible, (record) => irt(record).a),
    b: Float64Array.from(eligible, (record) => irt(record).b),
    c: Float64Array.from(eligible, (record) => irt(record).c),
    items: Float64Array.from(eligible, (record, at) => record.inep!.item ?? -1 - at)
  }
}

/**
 * The `size` most informative candidates at θ, most informative first (ties in the candidates'
 * order), one record per INEP item (the first of an item in that order).
 */
export function rankCandidates (candidates: PracticeCandidates, theta: number, size: number): RankedQuestion[] {
  const count = candidates.records.length
  const { a, b, c } = candidates
  const information = new Float64Array(count)
  for (let at = 0; at < count; at++) information[at] = fisherInformation({ a: a[at]!, b: b[at]!, c: c[at]! }, theta)
  // Only the best few need ordering: a selection finds the threshold of the best `take` without
  // sorting them all; those are ordered, and `take` doubles while records of items already taken
  // leave the pool short.
  for (let take = size; ; take *= 2) {
    const threshold = take >= count ? Number.NEGATIVE_INFINITY : largest(information, take)
    const best: number[] = []
    for (let at = 0; at < count; at++) if (information[at]! >= threshold) best.push(at)
    best.sort((x, y) => information[y]! - information[x]! || x - y)
    const items = new Set<number>()
    const pool: RankedQuestion[] = []
    for (const at of best) {
      if (pool.length === size) break
      const item = candidates.items[at]!
      if (items.has(item)) continue
      items.add(item)
      pool.push({ question: candidates.records[at]!, information: information[at]! })
    }
    if (pool.length === size || take >= count) return pool
  }
}

/**
 * The `rank`-th largest of `values` (1 for the largest), by Hoare's selection on a copy: linear on
 * average, where a sort of every value costs n·log n.
 * @example largest(Float64Array.of(3, 1, 2), 2) === 2
 */
export function largest (values: Float64Array, rank: number): number {
  const copy = values.slice()
  const target = copy.length - rank
  let low = 0
  let high = copy.length - 1
  while (low < high) {
    const pivot = copy[(low + high) >>> 1]!
    let i = low
    let j = high
    while (i <= j) {
      while (copy[i]! < pivot) i++
      while (copy[j]! > pivot) j--
      if (i <= j) {
        const swap = copy[i]!
        copy[i++] = copy[j]!
        copy[j--] = swap
      }
    }
    if (target <= j) high = j
    else if (target >= i) low = i
    else break
  }
  return copy[target]!
}

/**
 * The `size` most informative of `records` at θ, most informative first (ties in the order given),
 * one record per INEP item (the first of an item in that order; records without an item code count
 * as items of their own). Records that are not eligible (isPracticeEligible) are passed over.
 * @example mostInformative(records, 0.8, 50).length <= 50
 */
export function mostInformative (records: readonly Question[], theta: number, size: number): RankedQuestion[] {
  return rankCandidates(practiceCandidates(records), theta, size)
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
 * `count` of `records` (or of candidates already made of them) drawn with `seed` from the candidatePoolSize(count) most informative at the
 * θ of `score` in `area`, easiest first (ties in the pool's order). Fewer when fewer are eligible.
 * Pure: the same arguments give the same draw.
 * @example drawPractice(finder.find({ discipline: 'matematica' }), 'MT', 620, 10, 42).questions.length === 10
 */
export function drawPractice (records: readonly Question[] | PracticeCandidates, area: Area, score: number, count: number, seed: number): PracticeDraw {
  const candidates = 'items' in records ? records : practiceCandidates(records)
  return drawFromPool(practicePool(candidates, area, score, count), area, score, count, seed)
}

/**
 * The records a draw of `count` at `score` picks from: the candidatePoolSize(count) most
 * informative of `candidates` at the θ of `score` in `area`, most informative first (rankCandidates).
 */
export function practicePool (candidates: PracticeCandidates, area: Area, score: number, count: number): readonly Question[] {
  return rankCandidates(candidates, thetaOfScore(area, score), candidatePoolSize(count)).map((entry) => entry.question)
}

/**
 * `count` of a pool (practicePool of the same `area`, `score` and `count`) drawn with `seed`,
 * easiest first (ties in the pool's order): drawPractice once the pool is known.
 */
export function drawFromPool (pool: readonly Question[], area: Area, score: number, count: number, seed: number): PracticeDraw {
  const drawn = drawDistinct(pool, count, seed)
  // Ties of difficulty are rare: their order in the pool is looked up only then (a pool holds distinct records).
  drawn.sort((a, b) => a.inep!.difficulty! - b.inep!.difficulty! || pool.indexOf(a) - pool.indexOf(b))
  const theta = thetaOfScore(area, score)
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
 * the finder selects for the filters and the area's discipline (each exam's language view) that a
 * draw may pick (QuestionFinder.findDrawable: each shows its statement), then
 * drawPractice. Values are taken as already checked (see the PRACTICE_* and SCORE_* bounds).
 */
export class PracticeDrawer {
  readonly #finder: QuestionFinder
  /**
   * Candidates by normalized filters: the selection and the typed arrays are made once per filter
   * set (the four areas unfiltered, and what filters are asked), not per draw.
   */
  readonly #candidates = new LRUCache<string, PracticeCandidates>({ max: CANDIDATE_LISTS_KEPT })
  /**
   * Pools by normalized filters, score and pool size: ranking every candidate at θ (an exp per
   * candidate) was most of a draw's CPU in its profile, and a pool is the same for every seed and
   * every unseeded draw at that score. Bounded by the references kept.
   */
  readonly #pools = new LRUCache<string, readonly Question[]>({
    maxSize: POOL_CACHE_REFERENCES,
    sizeCalculation: (pool) => pool.length + POOL_ENTRY_OVERHEAD_REFERENCES
  })

  constructor (finder: QuestionFinder) {
    this.#finder = finder
  }

  draw ({ area, score, count, seed, filters = {} }: PracticeDrawRequest): PracticeDraw {
    return drawFromPool(this.#pool(area, score, count, filters), area, score, count, seed)
  }

  /** practicePool over the records of the filters and the area, kept by the normalized request. */
  #pool (area: Area, score: number, count: number, filters: Omit<QuestionFilters, 'discipline' | 'search'>): readonly Question[] {
    const selection: QuestionFilters = { ...filters, discipline: DISCIPLINE_OF_AREA[area] }
    const key = filtersKey(selection)
    // The pool size, not `count`: draws of different counts with one pool size share it.
    const poolKey = `${candidatePoolSize(count)}|${score}|${key}`
    let pool = this.#pools.get(poolKey)
    if (pool === undefined) {
      let candidates = this.#candidates.get(key)
      if (candidates === undefined) {
        // A draw's records: never one without its statement (QuestionFinder.findDrawable).
        candidates = practiceCandidates(this.#finder.findDrawable(selection))
        this.#candidates.set(key, candidates)
      }
      pool = practicePool(candidates, area, score, count)
      this.#pools.set(poolKey, pool)
    }
    return pool
  }
}

/** Candidate lists kept (each a few hundred references and four typed arrays of as many numbers). */
const CANDIDATE_LISTS_KEPT = 256
/**
 * References kept in pools (8 bytes each: 512 KiB of them): some 800 pools of a draw of ten,
 * about 230 of fifty. What an entry costs beyond them (its key, array and LRU slot), in references.
 */
const POOL_CACHE_REFERENCES = 64 * 1024
const POOL_ENTRY_OVERHEAD_REFERENCES = 32
