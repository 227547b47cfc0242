import type { TOptional, TSchema } from 'typebox'
import Type from 'typebox'
import { APPLICATIONS, type Application } from '../../data/exam-key.ts'
import { AREAS } from '../../data/record-schemas.ts'
import { SCORE_MAX, SCORE_MIN } from '../../data/scores/practice-draw.ts'
import type { QuestionFilters } from '../../data/finding/question-filters.ts'
import { SEARCH_TEXT_MAX_LENGTH, type SearchQuery } from '../../data/finding/question-search.ts'
import { ApiError, describeValue } from '../errors.ts'
import { slugParameter, stringParameter } from './parameters.ts'

/*
 * The filters of the endpoints that find questions across exams (/v1/questions,
 * /v1/questions/random; /v1/export/questions.jsonl takes `year`, `application`, `skill` and
 * `difficulty`, /v1/questions/practice `year`, `application`, `language` and `skill`), one entry per query parameter:
 * its schema (grammar, description, examples: the 400 and the document) and how a value that
 * follows it becomes QuestionFilters (the 422 where it names nothing the service holds). The
 * query schemas are built from this table (src/http/schemas/finding.ts), the answers read the
 * values through it (readFilters), the finder tests records by src/data/finding/question-filters.ts, and
 * the kept lists are keyed by the filter object itself: adding a filter is one entry here, plus
 * its record test there when it tests records.
 */

const YEAR_NUMBER = '(0|[1-9][0-9]{0,9})'
const YEAR_ITEM = `${YEAR_NUMBER}(-${YEAR_NUMBER})?`
export const YEAR_SELECTION_PATTERN = `^${YEAR_ITEM}(,${YEAR_ITEM})*$`
export const YEAR_SELECTION_MAX_LENGTH = 200
export const BOOLEAN_PATTERN = '^(true|false)$'
const APPLICATION_ITEM = `(${APPLICATIONS.join('|')})`
export const APPLICATION_SELECTION_PATTERN = `^${APPLICATION_ITEM}(,${APPLICATION_ITEM})*$`
const YEAR_SELECTION_GRAMMAR = `a year (2020), a comma-separated list of years (2018,2020) or an inclusive range (2015-2020), at most ${YEAR_SELECTION_MAX_LENGTH} characters`
/**
 * `q` is text: any character, at least one. The pattern is what lets the fast path check it; a
 * length past SEARCH_TEXT_MAX_LENGTH is the answer's 422, not a grammar error.
 */
const SEARCH_TEXT_PATTERN = '^[\\s\\S]+$'
/** A letter in either case, as a pattern: the skill codes are case-insensitive, and a schema pattern carries no flags. */
const anyCase = (text: string) => [...text].map((letter) => `[${letter.toUpperCase()}${letter.toLowerCase()}]`).join('')
const SKILL_ITEM = `(${AREAS.map(anyCase).join('|')})-${anyCase('h')}([1-9]|[12][0-9]|30)`
export const SKILL_SELECTION_PATTERN = `^${SKILL_ITEM}(,${SKILL_ITEM})*$`
/** Every code of the Matriz once, with commas, fits. */
const SKILL_SELECTION_MAX_LENGTH = 1000
/** A number of the score scale: up to 4 digits, up to 2 decimals. */
const SCALE_NUMBER = '(0|[1-9][0-9]{0,3})(\\.[0-9]{1,2})?'
export const DIFFICULTY_RANGE_PATTERN = `^(${SCALE_NUMBER}-(${SCALE_NUMBER})?|-${SCALE_NUMBER})$`

/** What the service holds, against which a filter value is checked (422 when it names nothing held). */
export interface HeldValues {
  /** Years of the exams, ascending. */
  readonly years: readonly number[]
  readonly disciplines: ReadonlySet<string>
  readonly languages: ReadonlySet<string>
  /** The search a text of `q` asks for; null when it holds no word. */
  readonly parseSearch: (text: string) => SearchQuery | null
}

/** One query parameter that filters the questions. */
export interface FindingFilter<S extends TSchema = TSchema> {
  /** Its schema: a string parameter with a pattern, a description and `examples`. */
  readonly parameter: S
  /** The filters a value (already following the grammar) sets; throws ApiError 422 where it names nothing held. */
  readonly read: (value: string, held: HeldValues) => QuestionFilters
}

/** Any table of filters by parameter name (FINDING_FILTERS, or a test's own with one more). */
export type FindingFilterTable = Readonly<Record<string, FindingFilter>>

function findingFilter<S extends TSchema> (parameter: S, read: FindingFilter['read']): FindingFilter<S> {
  return { parameter, read }
}

/** A `true`/`false` parameter. */
export const booleanParameter = (description: string, examples: string[]) =>
  stringParameter({ pattern: BOOLEAN_PATTERN, maxLength: 5, grammar: 'true or false', description, examples })

/** Names the held values of a kind in a 422's message. */
const offered = (values: ReadonlySet<string>) => [...values].sort().join(', ')

export const FINDING_FILTERS = {
  q: findingFilter(stringParameter({
    pattern: SEARCH_TEXT_PATTERN,
    grammar: 'text of at least 1 character',
    range: `at most ${SEARCH_TEXT_MAX_LENGTH} characters, holding at least one word`,
    description: `Full-text search, 1 to ${SEARCH_TEXT_MAX_LENGTH} characters. A question matches when every word occurs in its text ` +
      '(context without image addresses, alternatives introduction, alternatives), ignoring case and accents; a word also matches ' +
      'its plural and verb forms. `"quoted words"` must occur as consecutive words. Best match first',
    examples: ['fotossíntese', '"efeito estufa"']
  }), (value, held) => {
    // Characters, not UTF-16 units; no text of fewer units than the bound can hold more characters.
    const length = value.length > SEARCH_TEXT_MAX_LENGTH ? [...value].length : value.length
    if (length > SEARCH_TEXT_MAX_LENGTH) throw new ApiError(422, `q must be at most ${SEARCH_TEXT_MAX_LENGTH} characters, got ${length}`)
    const search = held.parseSearch(value)
    if (search === null) throw new ApiError(422, `q must hold at least one word (letters or digits), got ${describeValue(value)}`)
    return { search }
  }),
  year: findingFilter(stringParameter({
    pattern: YEAR_SELECTION_PATTERN,
    maxLength: YEAR_SELECTION_MAX_LENGTH,
    grammar: YEAR_SELECTION_GRAMMAR,
    range: 'listed years the service holds, ranges that do not start after they end',
    description: 'Exams to include: a year, a list (`2018,2020`) or an inclusive range (`2015-2020`). A listed year the service does not hold, or a range whose start is after its end, is 422',
    examples: ['2020', '2011,2020', '2015-2020']
  }), (value, held) => ({ years: selectYears(value, held.years) })),
  // No range: the applications are the contract's two, and one that selects no exam selects no question.
  application: findingFilter(stringParameter({
    pattern: APPLICATION_SELECTION_PATTERN,
    maxLength: 40,
    grammar: `${APPLICATIONS.join(' or ')}, or a comma-separated list of them (${APPLICATIONS.join(',')})`,
    description: 'Exams to include by application: `regular`, `ppl` (the second application, reaplicação/PPL) or both (`regular,ppl`). Default: every application',
    examples: ['regular', 'ppl', 'regular,ppl']
  }), (value) => ({ applications: new Set(value.split(',') as Application[]) })),
  discipline: findingFilter(slugParameter('Only questions of this discipline (one some exam offers)', 'a discipline some exam offers', ['matematica']), (value, held) => {
    if (!held.disciplines.has(value)) {
      throw new ApiError(422, `discipline ${describeValue(value)} is not a discipline of any exam: the exams offer ${offered(held.disciplines)}`)
    }
    return { discipline: value }
  }),
  language: findingFilter(slugParameter('Each exam contributes its language view for this language (its null-language questions plus those in it; an exam without it, its null-language questions). Default: each exam\'s first language; a search (`q`) of /v1/questions with no language looks in every language\'s records', 'a language some exam offers', ['ingles', 'espanhol']), (value, held) => {
    if (!held.languages.has(value)) {
      const languages = held.languages.size === 0 ? 'no exam has foreign-language questions' : `the exams offer ${offered(held.languages)}`
      throw new ApiError(422, `language ${describeValue(value)} is not a language of any exam: ${languages}`)
    }
    return { language: value }
  }),
  hasImages: findingFilter(booleanParameter('Whether the question shows any image (in `files`, an alternative\'s `file`, or inside `context`)', ['false', 'true']),
    (value) => ({ hasImages: value === 'true' })),
  annulled: findingFilter(booleanParameter('Whether INEP annulled the question (a question without official data counts as not annulled)', ['false', 'true']),
    (value) => ({ annulled: value === 'true' })),
  // No range: a code of the Matriz that no record has selects nothing (GET /v1/skills lists them with their counts).
  skill: findingFilter(stringParameter({
    pattern: SKILL_SELECTION_PATTERN,
    maxLength: SKILL_SELECTION_MAX_LENGTH,
    grammar: 'a skill code of INEP\'s Matriz (LC-H1 … MT-H30, any case) or a comma-separated list of them',
    description: 'Only questions of these skills (habilidades of INEP\'s Matriz de Referência, `inep.area` and `inep.skill`): a code `CN-H17` or a list (`MT-H21,MT-H22`), any case. `/v1/skills` lists them. A question without a skill matches none',
    examples: ['MT-H21', 'lc-h5,LC-H6']
  }), (value) => ({ skills: new Set(value.toUpperCase().split(',')) })),
  difficulty: findingFilter(stringParameter({
    pattern: DIFFICULTY_RANGE_PATTERN,
    maxLength: 20,
    grammar: 'MIN-MAX on the score scale, either end optional (600-700, 600-, -450), numbers with up to 2 decimals',
    range: `both ends within ${SCORE_MIN}–${SCORE_MAX}, the minimum not above the maximum`,
    description: `Only questions whose \`inep.difficulty\` (the item's \`b\` on its area's score scale, ${SCORE_MIN}–${SCORE_MAX}) lies in this inclusive range: \`600-700\`, \`600-\` (at least 600), \`-450\` (at most 450). A question without parameters matches none`,
    examples: ['600-700', '600-', '-450']
  }), (value) => ({ difficulty: readDifficultyRange(value) }))
}

/**
 * The range a `difficulty` value (already following its grammar) asks for; 422 for an end past the
 * scale or a minimum above the maximum.
 * @example readDifficultyRange('600-') // [600, Infinity]
 */
export function readDifficultyRange (value: string): readonly [number, number] {
  const [minText, maxText] = value.split('-') as [string, string]
  const min = minText === '' ? Number.NEGATIVE_INFINITY : Number(minText)
  const max = maxText === '' ? Number.POSITIVE_INFINITY : Number(maxText)
  for (const end of [min, max]) {
    if (Number.isFinite(end) && end > SCORE_MAX) throw new ApiError(422, `difficulty ends must be between ${SCORE_MIN} and ${SCORE_MAX}, got ${describeValue(value)}`)
  }
  if (min > max) throw new ApiError(422, `difficulty range ${describeValue(value)} has its minimum above its maximum`)
  return [min, max]
}

/** The filters as optional query parameters of an object schema, in the table's order. */
export function filterParameters<T extends FindingFilterTable> (filters: T): { [Name in keyof T]: TOptional<T[Name]['parameter']> } {
  return Object.fromEntries(Object.entries(filters).map(([name, filter]) => [name, Type.Optional(filter.parameter)])) as
    { [Name in keyof T]: TOptional<T[Name]['parameter']> }
}

/**
 * The filters a request's query sets, every parameter of the table read in the table's order (the
 * first value that names nothing held is the 422). Parameters the table does not hold are not read.
 */
export function readFilters (query: Readonly<Record<string, string | undefined>>, held: HeldValues, filters: FindingFilterTable = FINDING_FILTERS): QuestionFilters {
  // By name, into one object: every one-off request reads its filters (a multi-year export among
  // them), and a list of the table's entries and a spread per filter were made for each.
  const selected: QuestionFilters = {}
  for (const name in filters) {
    const value = query[name]
    if (value !== undefined) Object.assign(selected, filters[name]!.read(value, held))
  }
  return selected
}

/**
 * The years a `year` value selects among those held: each listed year must be held (422); a
 * range selects the held years in it, and must not start after it ends (422).
 * @example selectYears('2015-2020,2009', [2009, 2019, 2020]) // Set { 2019, 2020, 2009 }
 */
export function selectYears (value: string, heldYears: readonly number[]): ReadonlySet<number> {
  const selected = new Set<number>()
  // Read item by item, without splitting: the value follows YEAR_SELECTION_PATTERN (digits, one
  // dash at most per item, commas), and a multi-year export reads one per request.
  // `<=`: an empty item (none follows the grammar) is read as the year 0, as splitting read it.
  for (let start = 0; start <= value.length;) {
    let end = value.indexOf(',', start)
    if (end === -1) end = value.length
    const dash = value.indexOf('-', start)
    if (dash === -1 || dash > end) {
      const year = Number(value.slice(start, end))
      if (!heldYears.includes(year)) {
        throw new ApiError(422, `year ${year} is not an exam the service holds; years available: ${heldYears.join(', ')}`)
      }
      selected.add(year)
    } else {
      const first = Number(value.slice(start, dash))
      const last = Number(value.slice(dash + 1, end))
      if (first > last) throw new ApiError(422, `year range ${first}-${last} starts after it ends`)
      for (const year of heldYears) if (year >= first && year <= last) selected.add(year)
    }
    start = end + 1
  }
  return selected
}
