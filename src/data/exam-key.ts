/*
 * An exam is identified by its year and its application: `regular`, or `ppl`, the second
 * application of that year (INEP's "reaplicação/PPL"). The key that names an exam throughout the
 * data layer is also the name of its folder in a dataset (`2020`, `2020-ppl`) and of its official
 * table (`2020.json`, `2020-ppl.json`), so file addresses and tables need no other mapping.
 */

/** The applications, in the order exams of one year are listed: regular before ppl. */
export const APPLICATIONS = ['regular', 'ppl'] as const
export type Application = typeof APPLICATIONS[number]
/** What an exam, a record or a request that names no application means. */
export const DEFAULT_APPLICATION: Application = 'regular'

/**
 * The key of an exam: its year, with `-ppl` for a second application.
 * @example examKey(2020, 'regular') === '2020'; examKey(2020, 'ppl') === '2020-ppl'
 */
export function examKey (year: number, application: Application = DEFAULT_APPLICATION): string {
  return application === DEFAULT_APPLICATION ? String(year) : `${year}-${application}`
}

const EXAM_KEY = /^([1-9][0-9]*)(?:-(ppl))?$/

/**
 * The year and application an exam key (a folder name) names, or null when it names no exam.
 * @example parseExamKey('2020-ppl') // { year: 2020, application: 'ppl' }
 */
export function parseExamKey (key: string): { year: number, application: Application } | null {
  const match = EXAM_KEY.exec(key)
  if (match === null) return null
  return { year: Number(match[1]), application: (match[2] as Application | undefined) ?? DEFAULT_APPLICATION }
}

/** Orders exams newest year first, regular before ppl within a year. */
export function compareNewestFirst (a: { year: number, application: Application }, b: { year: number, application: Application }): number {
  return b.year - a.year || APPLICATIONS.indexOf(a.application) - APPLICATIONS.indexOf(b.application)
}
