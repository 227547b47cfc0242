import type { Catalog, Exam } from '../../data/catalog.ts'
import type { Question } from '../../data/record-schemas.ts'
import { ApiError, describeValue } from '../errors.ts'
import type { PreparedBody } from './prepared-body.ts'
import type { PreparedCatalog } from './prepared-catalog.ts'
import { RecentKeys } from './recent-keys.ts'
import { DEFAULT_APPLICATION, type Application } from '../../data/exam-key.ts'
import { LIMIT_DEFAULT, LIMIT_MAX, type ExamQuery, type QuestionListQuery, type QuestionQuery } from '../schemas/parameters.ts'

/**
 * The prepared body that answers each request of the four exam endpoints, from parameter values
 * that already follow the grammar (the route schemas check it, and so does the fast path): the
 * 422 and 404 checks of the contract, in its order, then a lookup. Throws ApiError for those; never
 * touches the disk. The Fastify routes and the fast path both ask here, so they cannot disagree.
 */
export class ExamAnswers {
  readonly #catalog: Catalog
  readonly #prepared: PreparedCatalog
  /**
   * Pages asked lately: a page is kept (joined, compressed as kept bodies are) from its second
   * request on, and made of its questions' own bytes for its first. An exam's pages are as many as
   * its limits times its offsets, thousands each; kept on first request, the external battery's
   * pages of 2024 and the second applications turned the page cache over every few seconds, tens
   * of megabytes of garbage and of the process's memory that held it (issue 45).
   */
  readonly #repeats = new RecentKeys()

  constructor (catalog: Catalog, prepared: PreparedCatalog) {
    this.#catalog = catalog
    this.#prepared = prepared
  }

  examList (): PreparedBody {
    return this.#prepared.examList
  }

  examDetail (year: string, query: ExamQuery = {}): PreparedBody {
    return this.#prepared.examDetail(this.#examOf(parseYear(year), query.application))
  }

  questionPage (year: string, query: QuestionListQuery): PreparedBody {
    const yearNumber = parseYear(year)
    const { limit, offset } = readPaging(query)
    const exam = this.#examOf(yearNumber, query.application)
    const language = chooseLanguage(exam, query.language)
    const discipline = chooseDiscipline(exam, query.discipline)
    // The catalog's views never change, so each is named by what selects it.
    const view = this.#catalog.languageView(exam, language, discipline)
    const name = `exam|${exam.key}|${language ?? ''}|${discipline ?? ''}`
    return this.#prepared.page(view, offset, limit, { keepAs: this.#repeats.seenBefore(`${name}|${offset}|${limit}`) ? name : undefined })
  }

  question (year: string, index: string, query: QuestionQuery): PreparedBody {
    return this.#prepared.question(this.record(year, index, query))
  }

  /** The record GET /v1/exams/{year}/questions/{index} answers with (the MCP tools read it as it is); throws its 404s and 422s. */
  record (year: string, index: string, query: QuestionQuery): Question {
    const yearNumber = parseYear(year)
    const indexNumber = Number(index)
    if (indexNumber < 1) throw new ApiError(422, `index must be at least 1, got ${indexNumber}`)
    const exam = this.#examOf(yearNumber, query.application)
    const language = chooseLanguage(exam, query.language)
    const lookup = this.#catalog.findQuestion(exam, indexNumber, language)
    if (!lookup.found) {
      if (lookup.availableLanguages.length === 0) throw new ApiError(404, `${exam.summary.title} has no question ${indexNumber}`)
      throw new OnlyInLanguagesError(`question ${indexNumber} of ${exam.summary.title} exists only in ${lookup.availableLanguages.map((l) => l ?? 'no language').join(', ')}; ask with ?language=`, lookup.availableLanguages)
    }
    return lookup.question
  }

  /** The exam of a year and application: 404 for a year without exams, 422 for an application the year has no exam of. */
  #examOf (year: number, requested: string | undefined): Exam {
    // The parameter's grammar (APPLICATION_PATTERN) admits only the applications.
    const application = (requested ?? DEFAULT_APPLICATION) as Application
    const exam = this.#catalog.getExam(year, application)
    if (exam !== undefined) return exam
    const { field, message } = this.#catalog.missingExam(year, application)!
    throw new ApiError(field === 'year' ? 404 : 422, message)
  }
}

/** The 404 of a position printed only in other languages: the languages it is printed in, for a caller (MCP) that words the advice its own way. */
export class OnlyInLanguagesError extends ApiError {
  constructor (message: string, readonly languages: ReadonlyArray<string | null>) {
    super(404, message)
  }
}

function parseYear (raw: string): number {
  const year = Number(raw)
  if (year < 1) throw new ApiError(422, `year must be at least 1, got ${year}`)
  return year
}

function chooseLanguage (exam: Exam, requested: string | undefined): string | null {
  if (requested === undefined) return exam.defaultLanguage
  if (!exam.languageSlugs.includes(requested)) {
    const offered = exam.languageSlugs.length === 0 ? 'it has no foreign-language questions' : `it offers ${exam.languageSlugs.join(', ')}`
    throw new ApiError(422, `language ${describeValue(requested)} is not a language of ${exam.summary.title}: ${offered}`)
  }
  return requested
}

function chooseDiscipline (exam: Exam, requested: string | undefined): string | null {
  if (requested === undefined) return null
  if (!exam.disciplineSlugs.includes(requested)) {
    throw new ApiError(422, `discipline ${describeValue(requested)} is not a discipline of ${exam.summary.title}: it offers ${exam.disciplineSlugs.join(', ')}`)
  }
  return requested
}

/**
 * `limit` and `offset` of a list request, defaults applied and range checked (422); their grammar
 * was checked before. Every paged endpoint reads them here.
 */
export function readPaging (query: { limit?: string | undefined, offset?: string | undefined }): { limit: number, offset: number } {
  const limit = query.limit === undefined ? LIMIT_DEFAULT : Number(query.limit)
  const offset = query.offset === undefined ? 0 : Number(query.offset)
  if (limit < 1 || limit > LIMIT_MAX) throw new ApiError(422, `limit must be between 1 and ${LIMIT_MAX}, got ${limit}`)
  if (offset < 0) throw new ApiError(422, `offset must be 0 or more, got ${offset}`)
  return { limit, offset }
}
