/*
 * Every view of the page has its own address: the page at `/` with a query naming the view, so a
 * reload, a shared link or the back button brings the same view back. The parameter names are the
 * page's own, in Portuguese; the API's names appear only in api.ts.
 *
 *   ./                                    home
 *   ?q=água&ano=2020&aplicacao=ppl&area=…&idioma=…&sem-imagens=1&sem-anuladas=1&pagina=2   search results
 *   ?prova=2020[&aplicacao=ppl][&idioma=ingles]           one exam, its questions by area
 *   ?prova=2020[&aplicacao=ppl]&questao=12[&idioma=…]     one question
 *   ?simulado[=2020]                      a practice run: choosing the exam, area and language
 *   ?simulado=2020[&aplicacao=ppl]&area=…[&idioma=…]      a practice run of one area of an exam, then its score
 *   ?praticar                             practice at one's level: choosing the area, the score and a skill
 *   ?praticar=matematica&nota=620[&habilidade=MT-H21][&semente=42]   questions drawn for that score (of that
 *                                         skill), as GET /v1/questions/practice draws them; the seed makes the draw
 *                                         the same on a reload or a shared link
 * `aplicacao` is the API's `application` (regular or ppl, the second application); absent, regular
 * for an exam, every application for a search.
 */

export interface Filters {
  /** Words to search for; '' for none. */
  q: string
  year: number | undefined
  /** `regular` or `ppl`; undefined for every application. */
  application: string | undefined
  discipline: string | undefined
  language: string | undefined
  withoutImages: boolean
  withoutAnnulled: boolean
}

export type View =
  | { kind: 'home' }
  | { kind: 'search', filters: Filters, page: number }
  | { kind: 'exam', year: number, application: string | undefined, language: string | undefined }
  | { kind: 'question', year: number, application: string | undefined, index: number, language: string | undefined }
  | { kind: 'practice-setup', year: number | undefined }
  | { kind: 'practice', year: number, application: string | undefined, discipline: string, language: string | undefined }
  | { kind: 'level-practice-setup', discipline: string | undefined, score: number | undefined, skill: string | undefined }
  | { kind: 'level-practice', discipline: string, score: number, skill: string | undefined, seed: number | undefined }

export const NO_FILTERS: Filters = { q: '', year: undefined, application: undefined, discipline: undefined, language: undefined, withoutImages: false, withoutAnnulled: false }

/** The API's own limit on `q` (longer is refused), so the page never sends more. */
export const MAX_QUERY_LENGTH = 200

const POSITIVE_INTEGER = /^[1-9][0-9]{0,8}$/
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/

function positiveInteger (value: string | null): number | undefined {
  return value !== null && POSITIVE_INTEGER.test(value) ? Number(value) : undefined
}

const APPLICATION = /^(regular|ppl)$/

/** An application the API knows; `regular` is what an exam address means without one. */
function application (value: string | null): string | undefined {
  return value !== null && APPLICATION.test(value) && value !== 'regular' ? value : undefined
}

function slug (value: string | null): string | undefined {
  return value !== null && value.length <= 40 && SLUG.test(value) ? value : undefined
}

/** A score as the API's practice draw takes it: 0–1000, up to two decimals. */
const SCORE = /^(?:0|[1-9][0-9]{0,3})(?:\.[0-9]{1,2})?$/
/** A skill of INEP's Matriz, as the API names it (`MT-H21`). */
const SKILL = /^(LC|CH|CN|MT)-H([1-9]|[12][0-9]|30)$/i
const SEED = /^(?:0|[1-9][0-9]{0,9})$/
export const SEED_MAX = 2 ** 32 - 1

function score (value: string | null): number | undefined {
  return value !== null && SCORE.test(value) && Number(value) <= 1000 ? Number(value) : undefined
}

function skill (value: string | null): string | undefined {
  return value !== null && SKILL.test(value) ? value.toUpperCase() : undefined
}

function seed (value: string | null): number | undefined {
  return value !== null && SEED.test(value) && Number(value) <= SEED_MAX ? Number(value) : undefined
}

/** The view an address names. Values that could not have come from the page are ignored, not sent to the API. */
export function viewOf (search: string): View {
  const query = new URLSearchParams(search)
  const year = positiveInteger(query.get('prova'))
  const language = slug(query.get('idioma'))
  const examApplication = application(query.get('aplicacao'))
  if (query.has('simulado')) {
    const practiceYear = positiveInteger(query.get('simulado'))
    const discipline = slug(query.get('area'))
    return practiceYear === undefined || discipline === undefined
      ? { kind: 'practice-setup', year: practiceYear }
      : { kind: 'practice', year: practiceYear, application: examApplication, discipline, language }
  }
  if (query.has('praticar')) {
    const discipline = slug(query.get('praticar'))
    const level = score(query.get('nota'))
    const practised = skill(query.get('habilidade'))
    return discipline === undefined || level === undefined
      ? { kind: 'level-practice-setup', discipline, score: level, skill: practised }
      : { kind: 'level-practice', discipline, score: level, skill: practised, seed: seed(query.get('semente')) }
  }
  if (year !== undefined) {
    const index = positiveInteger(query.get('questao'))
    return index === undefined
      ? { kind: 'exam', year, application: examApplication, language }
      : { kind: 'question', year, application: examApplication, index, language }
  }
  const searchParams = ['q', 'ano', 'aplicacao', 'area', 'idioma', 'sem-imagens', 'sem-anuladas', 'pagina']
  if (!searchParams.some((name) => query.has(name))) return { kind: 'home' }
  return {
    kind: 'search',
    filters: {
      q: (query.get('q') ?? '').slice(0, MAX_QUERY_LENGTH),
      year: positiveInteger(query.get('ano')),
      application: APPLICATION.test(query.get('aplicacao') ?? '') ? query.get('aplicacao')! : undefined,
      discipline: slug(query.get('area')),
      language,
      withoutImages: query.get('sem-imagens') === '1',
      withoutAnnulled: query.get('sem-anuladas') === '1'
    },
    page: positiveInteger(query.get('pagina')) ?? 1
  }
}

/** The address of a view, relative to the page. */
export function addressOf (view: View): string {
  const query = new URLSearchParams()
  switch (view.kind) {
    case 'home':
      return './'
    case 'search': {
      const { filters } = view
      query.set('q', filters.q)
      if (filters.year !== undefined) query.set('ano', String(filters.year))
      if (filters.application !== undefined) query.set('aplicacao', filters.application)
      if (filters.discipline !== undefined) query.set('area', filters.discipline)
      if (filters.language !== undefined) query.set('idioma', filters.language)
      if (filters.withoutImages) query.set('sem-imagens', '1')
      if (filters.withoutAnnulled) query.set('sem-anuladas', '1')
      if (view.page > 1) query.set('pagina', String(view.page))
      break
    }
    case 'exam':
      query.set('prova', String(view.year))
      setApplication(query, view.application)
      if (view.language !== undefined) query.set('idioma', view.language)
      break
    case 'question':
      query.set('prova', String(view.year))
      setApplication(query, view.application)
      query.set('questao', String(view.index))
      if (view.language !== undefined) query.set('idioma', view.language)
      break
    case 'practice-setup':
      query.set('simulado', view.year === undefined ? '' : String(view.year))
      break
    case 'practice':
      query.set('simulado', String(view.year))
      setApplication(query, view.application)
      query.set('area', view.discipline)
      if (view.language !== undefined) query.set('idioma', view.language)
      break
    case 'level-practice-setup':
      query.set('praticar', view.discipline ?? '')
      if (view.score !== undefined) query.set('nota', String(view.score))
      if (view.skill !== undefined) query.set('habilidade', view.skill)
      break
    case 'level-practice':
      query.set('praticar', view.discipline)
      query.set('nota', String(view.score))
      if (view.skill !== undefined) query.set('habilidade', view.skill)
      if (view.seed !== undefined) query.set('semente', String(view.seed))
      break
  }
  return `?${query.toString()}`
}

/** An exam's application in its address: left out for the regular exam, so older links stay as they were. */
function setApplication (query: URLSearchParams, value: string | undefined): void {
  if (value !== undefined && value !== 'regular') query.set('aplicacao', value)
}

/** The filters as `/v1/questions` and `/v1/questions/random` take them. */
export function apiFilters (filters: Filters): Record<string, string | number | undefined> {
  return {
    q: filters.q.trim() === '' ? undefined : filters.q.trim(),
    year: filters.year,
    application: filters.application,
    discipline: filters.discipline,
    language: filters.language,
    hasImages: filters.withoutImages ? 'false' : undefined,
    annulled: filters.withoutAnnulled ? 'false' : undefined
  }
}
