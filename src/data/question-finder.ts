import type { Catalog } from './catalog.ts'
import type { Question } from './record-schemas.ts'
import { QuestionSearch, type SearchQuery } from './question-search.ts'

/**
 * What `/v1/questions`, `/v1/questions/random` and the question browser select by. Every field
 * is optional: undefined selects everything. Values are already checked (known years, slugs).
 */
export interface QuestionFilters {
  /** Exams to include; undefined for every exam. */
  readonly years?: ReadonlySet<number>
  readonly discipline?: string
  /** The language view each exam contributes; undefined for each exam's default view. */
  readonly language?: string
  readonly hasImages?: boolean
  readonly annulled?: boolean
  readonly search?: SearchQuery
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
    (question.context !== null && MARKDOWN_IMAGE.test(question.context))
}

const MARKDOWN_IMAGE = /!\[[^\]]*\]\([^)\s]+/

/**
 * The one query over the catalog where filters and search meet. Built once from the served
 * records. Records are numbered in the order a request without `q` lists them (newest exam first,
 * then by index, null-language record first), which is also how search breaks ties in relevance.
 */
export class QuestionFinder {
  /** Every record of every exam, in listing order. */
  readonly #records: readonly Question[]
  readonly #years: Uint32Array
  readonly #hasImages: Uint8Array
  /** Positions of each language's views, one exam after another; '' for the default views. */
  readonly #viewPositions = new Map<string, Uint32Array>()
  /** The same views as membership flags by position, for search hits. */
  readonly #inView = new Map<string, Uint8Array>()
  readonly #search: QuestionSearch

  constructor (catalog: Catalog) {
    const exams = catalog.listExams()
    const records: Question[] = []
    const positionOf = new Map<Question, number>()
    for (const exam of exams) {
      for (const question of exam.questions) {
        positionOf.set(question, records.length)
        records.push(question)
      }
    }
    this.#records = records
    this.#years = Uint32Array.from(records, (record) => record.year)
    this.#hasImages = Uint8Array.from(records, (record) => (hasImages(record) ? 1 : 0))

    const languages = new Set(exams.flatMap((exam) => exam.languageSlugs))
    for (const language of ['', ...languages]) {
      const positions: number[] = []
      for (const exam of exams) {
        const view = language === ''
          ? catalog.languageView(exam, exam.defaultLanguage, null)
          : exam.languageSlugs.includes(language)
            ? catalog.languageView(exam, language, null)
            : exam.questions.filter((question) => question.language === null)
        for (const question of view) positions.push(positionOf.get(question)!)
      }
      this.#viewPositions.set(language, Uint32Array.from(positions))
      const inView = new Uint8Array(records.length)
      for (const position of positions) inView[position] = 1
      this.#inView.set(language, inView)
    }
    this.#search = new QuestionSearch(records)
  }

  /** Builds the search index a little at a time from now on (see QuestionSearch). */
  buildSearchIndexInBackground (): void {
    this.#search.buildInBackground()
  }

  stopBackgroundWork (): void {
    this.#search.stopBackground()
  }

  /** The query a text of `q` asks for; null when it holds no word (see parseSearchQuery). */
  parseSearch (text: string): SearchQuery | null {
    return this.#search.parse(text)
  }

  /** Every language some exam offers. */
  get languages (): string[] {
    return [...this.#viewPositions.keys()].filter((language) => language !== '')
  }

  /**
   * The records that pass every filter: by relevance when searching (ties in listing order),
   * otherwise in listing order. The same filters always give the same list.
   */
  find (filters: QuestionFilters): Question[] {
    const positions = this.#viewPositions.get(filters.language ?? '')
    if (positions === undefined) return []
    const passes = (position: number): boolean => {
      if (filters.years !== undefined && !filters.years.has(this.#years[position]!)) return false
      const record = this.#records[position]!
      if (filters.discipline !== undefined && record.discipline !== filters.discipline) return false
      if (filters.hasImages !== undefined && (this.#hasImages[position] === 1) !== filters.hasImages) return false
      if (filters.annulled !== undefined && isAnnulled(record) !== filters.annulled) return false
      return true
    }
    if (filters.search === undefined) {
      const found: Question[] = []
      for (const position of positions) if (passes(position)) found.push(this.#records[position]!)
      return found
    }
    const inView = this.#inView.get(filters.language ?? '')!
    const found: Question[] = []
    for (const hit of this.#search.search(filters.search)) {
      if (inView[hit.position] === 1 && passes(hit.position)) found.push(this.#records[hit.position]!)
    }
    return found
  }
}
