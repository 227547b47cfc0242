import type { Application } from '../exam-key.ts'
import { MARKDOWN_IMAGE, type Question } from '../record-schemas.ts'
import type { SearchQuery } from './question-search.ts'
import { recordSkill } from '../skills/skill-code.ts'
import { addPosition, emptyPositionSet, positionSetWhere, uniteInto, type PositionSet } from './position-set.ts'

/*
 * What QuestionFinder selects by, each filter defined once: which records a value keeps (RECORD_FILTERS),
 * and, derived from the filter object itself, the key under which a selection is kept
 * (filtersKey). A filter added to QuestionFilters without a test here does not compile, and one
 * that reaches QuestionFinder.find without a test throws: no filter can be silently ignored by the
 * match or left out of the key.
 */

/**
 * A filter that keeps or drops each record on its own, for a value: prepared once, when the finder
 * is built, into what answers the set of the records a value keeps (by position, in the finder's
 * listing order). The finder ANDs the sets of a request's filters, and a search reads that one set
 * (./position-set.ts): no test of a record runs per request.
 */
export interface RecordFilter<V> {
  /** The records a value keeps, as a set only read (the same set may be answered for every request). */
  readonly prepare: (records: readonly Question[]) => (value: V) => PositionSet
}

/**
 * A RecordFilter from a test of the record at a position against a value: the set of a value is
 * made by testing every record, for each request that sets the filter. For a filter with few
 * values, keyedFilter makes each value's set once.
 */
export function recordFilter<V> (prepare: (records: readonly Question[]) => (position: number, value: V) => boolean): RecordFilter<V> {
  return {
    prepare: (records) => {
      const test = prepare(records)
      return (value) => positionSetWhere(records.length, (position) => test(position, value))
    }
  }
}

/**
 * A RecordFilter that keeps the records whose key (`keyOf`; null: none) is the value, or one of the
 * values of a set: each key's set is made once, a set of keys is their union.
 */
function keyedFilter<K, V extends K | ReadonlySet<K>> (keyOf: (record: Question) => K | null): RecordFilter<V> {
  return {
    prepare: (records) => {
      const byKey = new Map<K, PositionSet>()
      records.forEach((record, position) => {
        const key = keyOf(record)
        if (key === null) return
        let set = byKey.get(key)
        if (set === undefined) byKey.set(key, set = emptyPositionSet(records.length))
        addPosition(set, position)
      })
      const none = emptyPositionSet(records.length)
      return (value) => {
        if (!(value instanceof Set)) return byKey.get(value as K) ?? none
        const united = emptyPositionSet(records.length)
        for (const key of value as ReadonlySet<K>) {
          const set = byKey.get(key)
          if (set !== undefined) uniteInto(united, set)
        }
        return united
      }
    }
  }
}

/**
 * Whether INEP annulled the question; a record without official data (`inep: null`) counts as not annulled.
 * @example finder.find({ annulled: true }).every(isAnnulled)
 */
export function isAnnulled (question: Question): boolean {
  return question.inep?.annulled === true
}

/**
 * Whether the question shows any image: in `files`, in an alternative's `file`, or inside `context`.
 * @example hasImages({ ...question, files: [], context: '![](http://localhost:3000/files/2020/questions/94/a.png)' }) === true
 */
export function hasImages (question: Question): boolean {
  return question.files.length > 0 ||
    question.alternatives.some((alternative) => alternative.file !== null) ||
    (question.context !== null && [...question.context.matchAll(MARKDOWN_IMAGE)].some((image) => /^\S/.test(image[2]!)))
}

/** A closed range of difficulties on the score scale; an open end is −Infinity or Infinity. */
export type DifficultyRange = readonly [min: number, max: number]

/** The filters that keep or drop each record on its own, by the name they have in QuestionFilters. */
export const RECORD_FILTERS = {
  /** Exams to include. */
  years: keyedFilter<number, ReadonlySet<number>>((record) => record.year),
  /** Exams to include by application. */
  applications: keyedFilter<Application, ReadonlySet<Application>>((record) => record.application),
  discipline: keyedFilter<string, string>((record) => record.discipline),
  hasImages: keyedFilter<boolean, boolean>(hasImages),
  annulled: keyedFilter<boolean, boolean>(isAnnulled),
  /** Skill codes (`CN-H17`, upper case); a record without a skill matches none. */
  skills: keyedFilter<string, ReadonlySet<string>>(recordSkill),
  /** `inep.difficulty` within the range, ends included; a record without one matches no range. */
  difficulty: { prepare: difficultiesWithin } satisfies RecordFilter<DifficultyRange>
}

/**
 * The records whose difficulty is within a range: from the records in ascending difficulty, those
 * between the range's ends, found by halving. A record without a difficulty is in none.
 */
function difficultiesWithin (records: readonly Question[]): (range: DifficultyRange) => PositionSet {
  const rated = records.flatMap((record, position) => {
    const difficulty = record.inep?.difficulty
    return difficulty === null || difficulty === undefined ? [] : [{ position, difficulty }]
  }).sort((a, b) => a.difficulty - b.difficulty)
  const difficulties = Float64Array.from(rated, (entry) => entry.difficulty)
  const positions = Uint32Array.from(rated, (entry) => entry.position)
  /** The first place whose difficulty is `least` or more (`inclusive`), or more than `least` (not). */
  const firstFrom = (least: number, inclusive: boolean): number => {
    let low = 0
    let high = difficulties.length
    while (low < high) {
      const middle = (low + high) >>> 1
      if (inclusive ? difficulties[middle]! < least : difficulties[middle]! <= least) low = middle + 1
      else high = middle
    }
    return low
  }
  return ([min, max]) => {
    const set = emptyPositionSet(records.length)
    const end = firstFrom(max, false)
    for (let at = firstFrom(min, true); at < end; at++) addPosition(set, positions[at]!)
    return set
  }
}

/** Any table of record filters by name (RECORD_FILTERS, or a test's own with one more). */
export type RecordFilterTable = Readonly<Record<string, RecordFilter<never>>>

type ValueOf<F> = F extends RecordFilter<infer V> ? V : never

/**
 * What `/v1/questions`, `/v1/questions/random` and the question browser select by. Every field
 * is optional: undefined selects everything. Values are already checked (known years, slugs).
 */
export type QuestionFilters = {
  readonly [Name in keyof typeof RECORD_FILTERS]?: ValueOf<typeof RECORD_FILTERS[Name]>
} & {
  /**
   * The language view each exam contributes; undefined for each exam's default view; EVERY_LANGUAGE
   * for every record of every exam, each language's variants among them (a search with no language named).
   */
  readonly language?: string
  /** Matches the search and orders by relevance. */
  readonly search?: SearchQuery
}

/**
 * The `language` of a selection of every record of every exam, every language variant among them:
 * what a text search with no language named looks in. No slug can be it (slugs are letters, digits and dashes).
 */
export const EVERY_LANGUAGE = '*'

/** The filters that are not RECORD_FILTERS: QuestionFinder applies them itself. */
export const VIEW_FILTERS: ReadonlySet<string> = new Set(['language', 'search'] satisfies Array<keyof QuestionFilters>)

/**
 * The normalized form of a filter object: equal for filters that select the same records in the
 * same order, different otherwise. Derived from the object itself, every defined field with its
 * name, so a new filter is part of it without anyone listing it (the list of a search is kept
 * under this key: a filter missing from it would be answered with another filter's list).
 * Throws on a value it cannot write unambiguously.
 * @example filtersKey({ years: new Set([2020, 2018]), hasImages: false }) === filtersKey({ hasImages: false, years: new Set([2018, 2020]) })
 */
export function filtersKey (filters: QuestionFilters): string {
  const parts: string[] = []
  const fields = filters as Readonly<Record<string, unknown>>
  for (const name of Object.keys(fields).sort()) {
    const value = fields[name]
    if (value !== undefined) parts.push(`${name}=${keyPart(name, value)}`)
  }
  return parts.join('&')
}

function keyPart (name: string, value: unknown): string {
  switch (typeof value) {
    // Quoted, so that no string can pass for another field or value.
    case 'string': return JSON.stringify(value)
    case 'number':
    case 'boolean': return String(value)
  }
  if (value instanceof Set) {
    return `[${[...value].map((item: unknown) => keyPart(name, item)).sort().join(',')}]`
  }
  // A tuple (a range): its order is its meaning.
  if (Array.isArray(value)) return `(${value.map((item: unknown) => keyPart(name, item)).join(',')})`
  // A parsed search: its normalized text says which words and phrases it asks for.
  const normalized = (value as { normalized?: unknown } | null)?.normalized
  if (typeof normalized === 'string') return `search(${JSON.stringify(normalized)})`
  throw new TypeError(`filter ${name} has a value filtersKey cannot write: ${Object.prototype.toString.call(value)}`)
}
