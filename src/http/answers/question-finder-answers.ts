import type { StartUpCache } from '../../data/dataset/start-up-cache.ts'
import { LRUCache } from 'lru-cache'
import type { Catalog } from '../../data/catalog.ts'
import type { Question } from '../../data/record-schemas.ts'
import { QuestionFinder } from '../../data/finding/question-finder.ts'
import { EVERY_LANGUAGE, filtersKey, type QuestionFilters } from '../../data/finding/question-filters.ts'
import { drawDistinct, pickSeed, SEED_MAX } from '../../data/finding/random-draw.ts'
import { ApiError, describeValue } from '../errors.ts'
import { FINDING_FILTERS, readFilters, type FindingFilterTable, type HeldValues } from '../schemas/finding-filters.ts'
import { readPaging } from './exam-answers.ts'
import type { PreparedBody } from './prepared-body.ts'
import type { PreparedCatalog } from './prepared-catalog.ts'
import { PreparedExport } from './prepared-export.ts'
import { RecentKeys } from './recent-keys.ts'
import { NO_STORE } from '../response-headers.ts'
import { COUNT_DEFAULT, COUNT_MAX, type ExportQuery, type FindQuestionsQuery, type PracticeQuery, type RandomQuestionsQuery, ExportQuerySchema, PracticeQuerySchema } from '../schemas/finding.ts'
import { PRACTICE_COUNT_DEFAULT, PRACTICE_COUNT_MAX, PracticeDrawer, SCORE_MAX, SCORE_MIN, type PracticeDraw } from '../../data/scores/practice-draw.ts'
import { AREAS, DISCIPLINE_OF_AREA, type Area } from '../../data/record-schemas.ts'

/** Seeded draws kept by normalized request: each holds its head and references to its questions' bytes (PreparedBody's sharedBytes). */
const DRAW_CACHE_BYTES = 8 * 1024 * 1024
/** What an entry costs beyond its bytes (key, object, LRU slot), so a flood of tiny answers is bounded too. */
const DRAW_ENTRY_OVERHEAD_BYTES = 256
/** Lists of matching records kept by normalized filters (references to records, a hundred or so full lists), so paging through one search searches once. */
const MATCH_CACHE_REFERENCES = 256 * 1024
const MATCH_ENTRY_OVERHEAD_REFERENCES = 32

/**
 * The values of the parameters an endpoint's schema takes: what Fastify hands over holds every
 * parameter the request named (cache-busters, filters of other endpoints), the fast path only the
 * schema's, and both must read the same.
 */
function parametersOf (query: Readonly<Record<string, string | undefined>>, schema: { properties: object }): Record<string, string | undefined> {
  // By name, without a list of entries per request: a one-off request (a multi-year export) reads them all.
  const parameters: Record<string, string | undefined> = {}
  for (const name in schema.properties) parameters[name] = query[name]
  return parameters
}

const AREA_OF_DISCIPLINE: ReadonlyMap<string, Area> = new Map(AREAS.map((area) => [DISCIPLINE_OF_AREA[area], area]))

/**
 * The prepared body of each request of the endpoints that find questions across exams, from
 * parameter values that already follow the grammar (the route schemas check it): the 422 checks
 * of the contract, then one QuestionFinder query, whose records are written from their prepared bytes.
 * What is kept is kept by normalized request (`q=ÁGUA` and `q=agua` are one entry), and only once
 * the same normalized request comes a second time (RecentKeys): the list of matches of a filter
 * set, and seeded draws. The pages of a kept list without `q` are kept by PreparedCatalog; the pages
 * of a search are cut from its list each time (see `questions`). Draws without a seed are made
 * afresh every time. Throws ApiError; never touches the disk.
 */
export class QuestionFinderAnswers {
  readonly #finder: QuestionFinder
  readonly #prepared: PreparedCatalog
  readonly #export: PreparedExport
  readonly #filters: FindingFilterTable
  readonly #held: HeldValues
  readonly #draws = new LRUCache<string, PreparedBody>({
    maxSize: DRAW_CACHE_BYTES,
    sizeCalculation: (body) => body.keptBytes + DRAW_ENTRY_OVERHEAD_BYTES
  })

  readonly #matches = new LRUCache<string, readonly Question[]>({
    maxSize: MATCH_CACHE_REFERENCES,
    sizeCalculation: (list) => list.length + MATCH_ENTRY_OVERHEAD_REFERENCES
  })

  /** Normalized requests asked for lately: what is asked for once is not kept. */
  readonly #repeats = new RecentKeys()
  readonly #practice: PracticeDrawer

  /** `filters`: FINDING_FILTERS, unless a test gives its own table (with a finder that tests what it adds). */
  constructor (catalog: Catalog, prepared: PreparedCatalog, finder: QuestionFinder = new QuestionFinder(catalog), filters: FindingFilterTable = FINDING_FILTERS) {
    this.#finder = finder
    this.#prepared = prepared
    this.#export = new PreparedExport(catalog, prepared)
    this.#filters = filters
    this.#practice = new PracticeDrawer(finder)
    this.#held = {
      years: this.#export.years,
      disciplines: new Set(catalog.listExams().flatMap((exam) => exam.disciplineSlugs)),
      languages: new Set(finder.languages),
      parseSearch: (text) => finder.parseSearch(text)
    }
  }

  /** Compresses the export's costly parts off the event loop (PreparedExport.prepareAhead); the server waits for it before listening. */
  prepareExportAhead (cache?: StartUpCache): Promise<void> {
    return this.#export.prepareAhead(cache)
  }

  /** The finder behind these answers: the question browser asks the same one. */
  get finder (): QuestionFinder {
    return this.#finder
  }

  /**
   * GET /v1/questions. A search (`q`) with no `language` looks in every language's records
   * (EVERY_LANGUAGE: a phrase of an English question finds it); without `q`, the absent language
   * keeps each exam's default view, as random draws and practice always do.
   */
  questions (query: FindQuestionsQuery): PreparedBody {
    const { limit, offset } = readPaging(query)
    const { filters, key } = this.#filtersOf(query, { searchEveryLanguage: true })
    const seen = this.#repeats.seenBefore(`matches|${key}`)
    if (!seen && filters.search !== undefined) {
      // A search asked for the first time: only its page of matches is put in order, and its total counted.
      const { total, items } = this.#finder.findPage(filters, offset, limit)
      return this.#prepared.pageOfItems(items, total, offset, limit)
    }
    const { matches, kept } = this.#matching(filters, key, seen)
    // A search's pages are not kept, even when its list is: searches are many, and with their
    // pages churning the page cache V8's full collections came every second or so under a
    // stream of first searches and stalled them; without, none came (bench/results.md). Cutting
    // a page from a kept list costs no search; a URL asked again is answered from the fast
    // path's own cache.
    return this.#prepared.page(matches, offset, limit, { keepAs: kept && filters.search === undefined ? `matches|${key}` : undefined })
  }

  /** GET /v1/questions/random. Without `seed`, a fresh draw that is not kept and says `no-store`. */
  random (query: RandomQuestionsQuery): PreparedBody {
    const count = query.count === undefined ? COUNT_DEFAULT : Number(query.count)
    if (count < 1 || count > COUNT_MAX) throw new ApiError(422, `count must be between 1 and ${COUNT_MAX}, got ${count}`)
    const requestedSeed = this.#seedOf(query.seed)
    const { filters, key } = this.#filtersOf(query)
    if (requestedSeed === undefined) return this.#draw(filters, key, count, pickSeed(), { cacheControl: NO_STORE })
    return this.#keptDraw(`random|${key}|${count}|${requestedSeed}`, () => this.#draw(filters, key, count, requestedSeed))
  }

  /** GET /v1/questions/practice. Without `seed`, a fresh draw that is not kept and says `no-store`; with one, kept like a seeded random draw. */
  practice (query: PracticeQuery): PreparedBody {
    const area = AREA_OF_DISCIPLINE.get(query.discipline)
    if (area === undefined) throw new ApiError(422, `discipline ${describeValue(query.discipline)} is not the discipline of an INEP area: practice takes ${AREAS.map((known) => DISCIPLINE_OF_AREA[known]).join(', ')}`)
    const score = Number(query.score)
    if (score < SCORE_MIN || score > SCORE_MAX) throw new ApiError(422, `score must be between ${SCORE_MIN} and ${SCORE_MAX}, got ${score}`)
    const count = query.count === undefined ? PRACTICE_COUNT_DEFAULT : Number(query.count)
    if (count < 1 || count > PRACTICE_COUNT_MAX) throw new ApiError(422, `count must be between 1 and ${PRACTICE_COUNT_MAX}, got ${count}`)
    const requestedSeed = this.#seedOf(query.seed)
    // `discipline` names the area, read above; the other filters are the schema's, read by the table.
    const filters = readFilters(parametersOf({ ...query, discipline: undefined }, PracticeQuerySchema), this.#held, this.#filters)
    const draw = (seed: number, options: { cacheControl?: string } = {}) => this.#practiceBody(this.#practice.draw({ area, score, count, seed, filters }), options)
    if (requestedSeed === undefined) return draw(pickSeed(), { cacheControl: NO_STORE })
    return this.#keptDraw(`practice|${area}|${score}|${count}|${requestedSeed}|${filtersKey(filters)}`, () => draw(requestedSeed))
  }

  /** A seeded draw by its normalized request: kept from the request's second time on (RecentKeys), made by `make` until then. */
  #keptDraw (drawKey: string, make: () => PreparedBody): PreparedBody {
    const cached = this.#draws.get(drawKey)
    if (cached !== undefined) return cached
    const body = make()
    if (this.#repeats.seenBefore(drawKey)) this.#draws.set(drawKey, body)
    return body
  }

  /** A practice draw as the contract's body, the questions from their prepared bytes. */
  #practiceBody ({ seed, target, questions }: PracticeDraw, options: { cacheControl?: string }): PreparedBody {
    return this.#prepared.list(`{"seed":${seed},"target":${JSON.stringify(target)},"questions":[`, questions, { effort: 'parts', ...options })
  }

  /** A `seed` value range checked (422), or undefined when none was given. */
  #seedOf (value: string | undefined): number | undefined {
    const seed = value === undefined ? undefined : Number(value)
    if (seed !== undefined && (seed < 0 || seed > SEED_MAX)) throw new ApiError(422, `seed must be between 0 and ${SEED_MAX}, got ${seed}`)
    return seed
  }

  /**
   * `{ seed, questions }`: up to `count` of the matching records, drawn with `seed`. Made of the
   * questions' own bytes (effort `parts`), so a draw kept by its seed holds little of its own.
   */
  #draw (filters: QuestionFilters, key: string, count: number, seed: number, options: { cacheControl?: string } = {}): PreparedBody {
    // Among the records a draw may pick (QuestionFinder.findDrawable), kept apart from the listing's matches of the same filters.
    const drawable = this.#matching(filters, `drawable|${key}`, undefined, (selected) => this.#finder.findDrawable(selected))
    return this.#prepared.list(`{"seed":${seed},"questions":[`, drawDistinct(drawable.matches, count, seed), { effort: 'parts', ...options })
  }

  /** GET /v1/export/questions.jsonl */
  exportQuestions (query: ExportQuery): PreparedBody {
    // Read by the same filter definitions as /v1/questions (FINDING_FILTERS), so the two cannot differ.
    const { years, applications, ...records } = readFilters(parametersOf(query, ExportQuerySchema), this.#held, this.#filters)
    return this.#export.body({
      years: years === undefined ? undefined : [...years].sort((a, b) => a - b),
      applications,
      yearAsked: query.year,
      records: Object.keys(records).length === 0 ? undefined : { key: filtersKey(records), matches: this.#finder.recordMatcher(records) }
    })
  }

  /**
   * The filters of a request (422 where a value names nothing the service holds) and their
   * normalized form, derived from the filter object itself: `q=ÁGUA` and `q=agua`, or `year=2020,2019`
   * and `year=2019-2020`, are one key, and no filter can be left out of it. `searchEveryLanguage`: a
   * search with no language named looks in every language's records (GET /v1/questions).
   */
  #filtersOf (query: FindQuestionsQuery | RandomQuestionsQuery, { searchEveryLanguage = false } = {}): { filters: QuestionFilters, key: string } {
    const read = readFilters(query, this.#held, this.#filters)
    const filters = searchEveryLanguage && read.search !== undefined && read.language === undefined ? { ...read, language: EVERY_LANGUAGE } : read
    return { filters, key: filtersKey(filters) }
  }

  /**
   * The records the filters select, and whether that list is kept (a list is known by its identity).
   * `seen`: whether the repeat filter had seen this filter set before (asked by the caller that already did).
   * `find`: how the list is made (a draw's: QuestionFinder.findDrawable), under its own `key`.
   */
  #matching (
    filters: QuestionFilters,
    key: string,
    seen = this.#repeats.seenBefore(`matches|${key}`),
    find: (filters: QuestionFilters) => readonly Question[] = (selected) => this.#finder.find(selected)
  ): { matches: readonly Question[], kept: boolean } {
    // Only a filter set asked for before can have a kept list: asking the repeat filter first spares
    // every first search a lookup in the cache. A list whose slot in the filter was since taken by
    // another key is found again from its next request on.
    if (!seen) return { matches: find(filters), kept: false }
    let matches = this.#matches.get(key)
    if (matches === undefined) {
      matches = find(filters)
      this.#matches.set(key, matches)
    }
    return { matches, kept: true }
  }
}
