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
