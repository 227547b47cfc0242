import type { Catalog } from '../catalog.ts'
import type { Question } from '../record-schemas.ts'
import { QuestionSearch, type IndexOrigin, type SearchQuery } from './question-search.ts'
import type { StartUpCache } from '../dataset/start-up-cache.ts'
import { EVERY_LANGUAGE, RECORD_FILTERS, VIEW_FILTERS, type QuestionFilters, type RecordFilterTable } from './question-filters.ts'
import { addPosition, emptyPositionSet, hasPosition, intersectInto, positionSetWhere, type PositionSet } from './position-set.ts'

export { hasImages, isAnnulled, type QuestionFilters } from './question-filters.ts'

/**
 * The one query over the catalog where filters and search meet. Built once from the served
 * records. Records are numbered in the order a request without `q` lists them (newest exam first,
 * then by index, null-language record first), which is also how search breaks ties in relevance.
 */
export class QuestionFinder {
  /** Every record of every exam, in listing order. */
  readonly #records: readonly Question[]
  /** The records a value of each record filter keeps, by the filter's name (see ./question-filters.ts). */
  readonly #recordSets: ReadonlyMap<string, (value: never) => PositionSet>
  /** Positions of each language's views, one exam after another; '' for the default views, EVERY_LANGUAGE for every record. */
  readonly #viewPositions = new Map<string, Uint32Array>()
  /** The same views as sets of positions, for search hits. */
  readonly #inView = new Map<string, PositionSet>()
  /** The set a request's filters keep (#passingSet), made anew in place for each: a request is answered before the next is read. */
  readonly #passing: PositionSet
  readonly #search: QuestionSearch
  /** Each record's position in #records. */
  readonly #positionOf: ReadonlyMap<Question, number>
  /** The records a draw may pick: those that show their statement (src/data/record-statement.ts). */
  readonly #drawable: PositionSet

  /** `recordFilters`: RECORD_FILTERS, unless a test gives its own table. */
  constructor (catalog: Catalog, recordFilters: RecordFilterTable = RECORD_FILTERS) {
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
    this.#positionOf = positionOf
    this.#recordSets = new Map(Object.entries(recordFilters).map(([name, filter]) => [name, filter.prepare(records)]))
    this.#passing = emptyPositionSet(records.length)
    this.#drawable = positionSetWhere(records.length, (position) => records[position]!.incomplete === null)

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
      const inView = emptyPositionSet(records.length)
      for (const position of positions) addPosition(inView, position)
      this.#inView.set(language, inView)
    }
    // Every record, in listing order (#records' own): the view of EVERY_LANGUAGE.
    this.#viewPositions.set(EVERY_LANGUAGE, Uint32Array.from(records.keys()))
    this.#inView.set(EVERY_LANGUAGE, positionSetWhere(records.length, () => true))
    this.#search = new QuestionSearch(records)
  }

  /** Builds the search index in a worker thread; resolves once it is in place (see QuestionSearch.buildOffThread). */
  buildSearchIndex (cache?: StartUpCache): Promise<IndexOrigin> {
    return this.#search.buildOffThread(cache)
  }

  /** Stops a build of the search index under way (at close). */
  stopBuilding (): void {
    this.#search.stopBuilding()
  }

  /** The query a text of `q` asks for; null when it holds no word (see parseSearchQuery). */
  parseSearch (text: string): SearchQuery | null {
    return this.#search.parse(text)
  }

  /** Every language some exam offers. */
  get languages (): string[] {
    return [...this.#viewPositions.keys()].filter((language) => language !== '' && language !== EVERY_LANGUAGE)
  }

  /**
   * The positions that pass every record filter `filters` sets, and are in `view` when one is given:
   * #passing, made anew (to be read before the next call), or the view itself when no record filter
   * is set. Throws on a filter it has no set for, rather than ignoring it.
   */
  #passingSet (filters: QuestionFilters, view?: PositionSet): PositionSet | undefined {
    let passing: PositionSet | undefined = view
    for (const name in filters) {
      const value = (filters as Readonly<Record<string, unknown>>)[name]
      if (value === undefined || VIEW_FILTERS.has(name)) continue
      const setOf = this.#recordSets.get(name)
      if (setOf === undefined) throw new Error(`QuestionFinder has no record filter named ${name}`)
      const kept = setOf(value as never)
      if (passing === this.#passing) intersectInto(this.#passing, kept)
      else {
        this.#passing.set(kept)
        if (passing !== undefined) intersectInto(this.#passing, passing)
        passing = this.#passing
      }
    }
    return passing
  }

  /**
   * Whether a served record passes every record filter `filters` sets (the view filters, `language`
   * and `search`, are not tested): for a listing that is not a view, such as the export of every
   * language variant. A record the finder was not built from passes nothing.
   */
  recordMatcher (filters: QuestionFilters): (question: Question) => boolean {
    // A copy: the matcher outlives the next request's #passing.
    const passing = this.#passingSet(filters)?.slice()
    return (question) => {
      const position = this.#positionOf.get(question)
      return position !== undefined && (passing === undefined || hasPosition(passing, position))
    }
  }

  /**
   * #passingSet, further narrowed to `within` when one is given: #passing, or a set only read.
   */
  #passingWithin (filters: QuestionFilters, view: PositionSet | undefined, within: PositionSet | undefined): PositionSet | undefined {
    const passing = this.#passingSet(filters, view)
    if (within === undefined) return passing
    if (passing === undefined) return within
    // A view's own set (no record filter set) is copied into #passing before it is narrowed.
    if (passing !== this.#passing) this.#passing.set(passing)
    intersectInto(this.#passing, within)
    return this.#passing
  }

  /**
   * The records that pass every filter: by relevance when searching (ties in listing order),
   * otherwise in listing order. The same filters always give the same list.
   */
  find (filters: QuestionFilters): Question[] {
    return this.#find(filters, undefined)
  }

  /**
   * What a draw picks from (GET /v1/questions/random, practice, and MCP's tools through them):
   * `find(filters)` without the records that do not show their statement (`incomplete`, see
   * src/data/record-statement.ts), which no draw may offer a student.
   */
  findDrawable (filters: QuestionFilters): Question[] {
    return this.#find(filters, this.#drawable)
  }

  #find (filters: QuestionFilters, within: PositionSet | undefined): Question[] {
    const positions = this.#viewPositions.get(filters.language ?? '')
    if (positions === undefined) return []
    const found: Question[] = []
    if (filters.search === undefined) {
      const passing = this.#passingWithin(filters, undefined, within)
      for (const position of positions) if (passing === undefined || hasPosition(passing, position)) found.push(this.#records[position]!)
      return found
    }
    const passing = this.#passingWithin(filters, this.#inView.get(filters.language ?? ''), within)!
    for (const hit of this.#search.search(filters.search)) {
      if (hasPosition(passing, hit.position)) found.push(this.#records[hit.position]!)
    }
    return found
  }

  /**
   * `find(filters).slice(offset, offset + limit)` and the length of `find(filters)`, for a list asked
   * for once: with a search, only that page of the matches is put in order (QuestionSearch.searchRange).
   */
  findPage (filters: QuestionFilters, offset: number, limit: number): { total: number, items: Question[] } {
    if (filters.search === undefined) {
      const found = this.find(filters)
      return { total: found.length, items: found.slice(offset, offset + limit) }
    }
    const inView = this.#inView.get(filters.language ?? '')
    if (inView === undefined) return { total: 0, items: [] }
    const { total, hits } = this.#search.searchRange(filters.search, this.#passingSet(filters, inView)!, offset, limit)
    return { total, items: hits.map((hit) => this.#records[hit.position]!) }
  }
}
