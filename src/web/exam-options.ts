import type { ExamSummary } from './api.ts'

/** What the exams offer, for the filters and for naming areas and languages. */
export interface ExamOptions {
  exams: ExamSummary[]
  /** Every discipline some exam has, slug → label, in the order first seen. */
  disciplines: Map<string, string>
  /** Every foreign language some exam has, slug → label. */
  languages: Map<string, string>
}

export function examOptions (exams: ExamSummary[]): ExamOptions {
  const disciplines = new Map<string, string>()
  const languages = new Map<string, string>()
  for (const exam of exams) {
    for (const { value, label } of exam.disciplines) if (!disciplines.has(value)) disciplines.set(value, label)
    for (const { value, label } of exam.languages) if (!languages.has(value)) languages.set(value, label)
  }
  return { exams, disciplines, languages }
}

/** The applications, as the page names them. */
export const APPLICATION_LABELS: Readonly<Record<string, string>> = { regular: 'Regular', ppl: 'PPL (segunda aplicação)' }

/** The applications some exam has, in the API's order (regular first). */
export function applicationsOf (options: ExamOptions): string[] {
  return Object.keys(APPLICATION_LABELS).filter((application) => options.exams.some((exam) => exam.application === application))
}

/** The years of the exams, newest first, each once (a year may hold two exams). */
export function yearsOf (options: ExamOptions): number[] {
  return [...new Set(options.exams.map((exam) => exam.year))]
}

/**
 * The name of an exam for people: its title, with "PPL" for a second application whose title does
 * not already say so.
 * @example examLabel({ title: 'ENEM 2020', application: 'ppl' }) === 'ENEM 2020 (PPL)'
 */
export function examLabel (exam: { title: string, application?: string }): string {
  return exam.application === 'ppl' && !/\bPPL\b/i.test(exam.title) ? `${exam.title} (PPL)` : exam.title
}

/** The exam of a year and application in the list, if there is one. */
export function findExam (options: ExamOptions, year: number, application: string | undefined): ExamSummary | undefined {
  return options.exams.find((exam) => exam.year === year && exam.application === (application ?? 'regular'))
}

/** The label of a discipline slug (the slug itself if no exam names it), or '' for none. */
export function disciplineLabel (options: ExamOptions, discipline: string | null | undefined): string {
  if (discipline === null || discipline === undefined) return ''
  return options.disciplines.get(discipline) ?? discipline
}

export function languageLabel (options: ExamOptions, language: string | null | undefined): string {
  if (language === null || language === undefined) return ''
  return options.languages.get(language) ?? language
}

/** "1 questão", "2 questões", with the number in Brazilian style. */
export function countOf (count: number, singular: string, plural: string): string {
  return `${count.toLocaleString('pt-BR')} ${count === 1 ? singular : plural}`
}
