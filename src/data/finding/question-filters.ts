import type { Application } from '../exam-key.ts'
import { MARKDOWN_IMAGE, type Question } from '../record-schemas.ts'
import type { SearchQuery } from './question-search.ts'
import { recordSkill } from '../skills/skill-code.ts'

/*
 * What QuestionFinder selects by, each filter defined once: how it tests a record (RECORD_FILTERS),
 * and, derived from the filter object itself, the key under which a selection is kept
 * (filtersKey). A filter added to QuestionFilters without a test here does not compile, and one
 * that reaches QuestionFinder.find without a test throws: no filter can be silently ignored by the
 * match or left out of the key.
 */

/** A filter that keeps or drops each record on its own, for a value. */
export interface RecordFilter<V> {
  /**
   * Reads what it needs from the records once, when the finder is built, and returns the test of
   * the record at a position (in the finder's listing order) against a value of the filter.
   */
  readonly prepare: (records: readonly Question[]) => (position: number, value: V) => boolean
}

/** Types a RecordFilter by the value it takes. */
export function recordFilter<V> (prepare: (records: readonly Question[]) => (position: number, value: V) => boolean): RecordFilter<V> {
  return { prepare }
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

/** The filters that test each record on its own, by the name they have in QuestionFilters. */
export const RECORD_FILTERS = {
  /** Exams to include. */
  years: recordFilter<ReadonlySet<number>>((records) => {
    const years = Uint32Array.from(records, (record) => record.year)
    return (position, value) => value.has(years[position]!)
  }),
  /** Exams to include by application. */
  applications: recordFilter<ReadonlySet<Application>>((records) => (position, value) => value.has(records[position]!.application)),
  discipline: recordFilter<string>((records) => (position, value) => records[position]!.discipline === value),
  hasImages: recordFilter<boolean>((records) => {
    const flags = Uint8Array.from(records, (record) => (hasImages(record) ? 1 : 0))
    return (position, value) => (flags[position] === 1) === value
  }),
  annulled: recordFilter<boolean>((records) => (position, value) => isAnnulled(records[position]!) === value),
  /** Skill codes (`CN-H17`, upper case); a record without a skill matches none. */
  skills: recordFilter<ReadonlySet<string>>((records) => {
    const codes = records.map(recordSkill)
    return (position, value) => {
      const code = codes[position]
      return code !== null && code !== undefined && value.has(code)
    }
  }),
  /** `inep.difficulty` within the range, ends included; a record without one matches no range. */
  difficulty: recordFilter<DifficultyRange>((records) => {
    const difficulties = Float64Array.from(records, (record) => record.inep?.difficulty ?? Number.NaN)
    return (position, [min, max]) => {
      const difficulty = difficulties[position]!
      return difficulty >= min && difficulty <= max
    }
  })
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
  /** The language view each exam contributes; undefined for each exam's default view. */
  readonly language?: string
  /** Matches the search and orders by relevance. */
  readonly search?: SearchQuery
}

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
