import { DEFAULT_APPLICATION, compareNewestFirst, examKey, type Application } from './exam-key.ts'
import type { ExamSummary, Question, ServedQuestionSummary } from './record-schemas.ts'

/** One exam as the service serves it: its summary and its validated question records, ordered. */
export interface Exam {
  /** What identifies it: its year and application (src/data/exam-key.ts), `2020` or `2020-ppl`. */
  readonly key: string
  readonly summary: ExamSummary
  /**
   * Every record of the exam, ordered by index, then the null-language record, then the
   * exam's languages in the order of its `languages` array (unknown languages last).
   */
  readonly questions: readonly Question[]
  /** The same entries as `questions`, reduced to the question summary fields (and whether each is incomplete). */
  readonly questionSummaries: readonly ServedQuestionSummary[]
  /** Language slugs in the order of the exam's `languages` array. */
  readonly languageSlugs: readonly string[]
  readonly disciplineSlugs: readonly string[]
  /** The language a request without `language` gets: the first of `languages`, null when there is none. */
  readonly defaultLanguage: string | null
}

/** Where a question index can be found, when it is absent from the language view that was asked for. */
export type QuestionLookup =
  | { found: true, question: Question }
  | { found: false, availableLanguages: ReadonlyArray<string | null> }

/** Why a year and application name no exam the service holds: the field at fault, and what to say of it. */
export interface MissingExam {
  readonly field: 'year' | 'application'
  readonly message: string
}

/**
 * The dataset behind one immutable object with read-only queries, built once at start-up.
 * Every answer is precomputed; no query touches the disk.
 */
/** What a year without exams is told, naming the years held (ascending). */
export function noExamOfYear (year: number, yearsHeld: readonly number[]): string {
  return `No exam for year ${year}; years available: ${yearsHeld.join(', ')}`
}

export class Catalog {
  readonly #examsNewestFirst: readonly Exam[]
  readonly #examsByKey: ReadonlyMap<string, Exam>
  readonly #viewsByExam: ReadonlyMap<Exam, ReadonlyMap<string, readonly Question[]>>
  readonly #recordsByIndex: ReadonlyMap<Exam, ReadonlyMap<number, readonly Question[]>>

  constructor (exams: readonly Exam[]) {
    this.#examsNewestFirst = [...exams].sort((a, b) => compareNewestFirst(a.summary, b.summary))
    this.#examsByKey = new Map(exams.map((exam) => [exam.key, exam]))
    this.#viewsByExam = new Map(exams.map((exam) => [exam, buildLanguageViews(exam)]))
    this.#recordsByIndex = new Map(exams.map((exam) => [exam, groupByIndex(exam.questions)]))
  }

  /** Exams, newest year first, the regular exam before the second application within a year. */
  listExams (): readonly Exam[] {
    return this.#examsNewestFirst
  }

  /** The exam of a year and application (default: the regular one). */
  getExam (year: number, application?: Application): Exam | undefined {
    return this.#examsByKey.get(examKey(year, application))
  }

  /**
   * Why a year and application name no exam, in the one wording of every endpoint that asks
   * (the exam endpoints' 404 and 422, POST /v1/scores's 422): a year without exams names the years
   * held, an application the year has no exam of names the year's applications. Undefined when
   * the exam is held.
   */
  missingExam (year: number, application: string = DEFAULT_APPLICATION): MissingExam | undefined {
    // A string that is no application (a score request's body may hold any) names no exam either.
    if (this.#examsByKey.has(examKey(year, application as Application))) return undefined
    const ofYear = this.examsOfYear(year)
    if (ofYear.length === 0) {
      const years = [...new Set(this.#examsNewestFirst.map((exam) => exam.summary.year))].sort((a, b) => a - b)
      return { field: 'year', message: noExamOfYear(year, years) }
    }
    return { field: 'application', message: `application ${JSON.stringify(application)} is not an exam of ${year}: its applications are ${ofYear.map((exam) => exam.summary.application).join(', ')}` }
  }

  /** The exams of a year, regular first; empty when the year has none. */
  examsOfYear (year: number): readonly Exam[] {
    return this.#examsNewestFirst.filter((exam) => exam.summary.year === year)
  }

  /** Total number of question records across exams. */
  get questionCount (): number {
    let count = 0
    for (const exam of this.#examsNewestFirst) count += exam.questions.length
    return count
  }

  /**
   * The language view of an exam: its null-language questions plus those in `language`,
   * optionally narrowed to one discipline, ordered by index (null-language record first on a tie).
   * `language` and `discipline` must be slugs the exam offers (or null); others give an empty view.
   */
  languageView (exam: Exam, language: string | null, discipline: string | null): readonly Question[] {
    return this.#viewsByExam.get(exam)?.get(viewKey(language, discipline)) ?? []
  }

  /**
   * The record with `index` in the language view of `language`. Where the view holds both a
   * null-language record and one in `language` for that index, the language one wins.
   */
  findQuestion (exam: Exam, index: number, language: string | null): QuestionLookup {
    const records = this.#recordsByIndex.get(exam)?.get(index) ?? []
    const inLanguage = records.find((record) => language !== null && record.language === language)
    const common = records.find((record) => record.language === null)
    const question = inLanguage ?? common
    if (question !== undefined) return { found: true, question }
    return { found: false, availableLanguages: records.map((record) => record.language) }
  }
}

function viewKey (language: string | null, discipline: string | null): string {
  return `${language ?? ''}|${discipline ?? ''}`
}

function buildLanguageViews (exam: Exam): Map<string, readonly Question[]> {
  const views = new Map<string, readonly Question[]>()
  const languages = exam.languageSlugs.length === 0 ? [null] : exam.languageSlugs
  for (const language of languages) {
    // exam.questions is already in view order, so filtering keeps it.
    const inView = exam.questions.filter((question) => question.language === null || question.language === language)
    views.set(viewKey(language, null), inView)
    for (const discipline of exam.disciplineSlugs) {
      views.set(viewKey(language, discipline), inView.filter((question) => question.discipline === discipline))
    }
  }
  return views
}

function groupByIndex (questions: readonly Question[]): Map<number, Question[]> {
  const byIndex = new Map<number, Question[]>()
  for (const question of questions) {
    const group = byIndex.get(question.index)
    if (group === undefined) byIndex.set(question.index, [question])
    else group.push(question)
  }
  return byIndex
}
