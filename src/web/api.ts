import type { Alternative, ExamDetailsFile, ExamSummary, Incomplete, Inep, Question, QuestionSummary } from '../data/record-schemas.ts'

/*
 * The public API as the page sees it: every call goes to this server, by an address relative to
 * the page, so the page also works behind a proxy that serves the service under a path prefix.
 */

export type { Alternative, ExamSummary, QuestionSummary }

export type InepItem = Inep

/** A question record; `inep` and `incomplete` are read as optional, so the page also works against a server without them. */
export type QuestionRecord = Omit<Question, 'inep' | 'incomplete'> & { inep?: Inep | null, incomplete?: Incomplete }
/** An exam with its question entries; `incomplete` read as optional, so the page also works against a server without it. */
export type ExamDetail = Omit<ExamDetailsFile, 'questions'> & { questions: Array<QuestionSummary & { incomplete?: Incomplete }> }

export interface QuestionList {
  metadata: { limit: number, offset: number, total: number, hasMore: boolean }
  questions: QuestionRecord[]
}

export interface RandomDraw {
  seed: number
  questions: QuestionRecord[]
}

/** A refusal of the API (its error body), or a network failure (status 0). */
export class ApiProblem extends Error {
  readonly status: number
  constructor (status: number, message: string) {
    super(message)
    this.name = 'ApiProblem'
    this.status = status
  }
}

type Params = Record<string, string | number | undefined>

/** The page-relative address of an API path with its query (empty values left out). */
export function apiUrl (path: string, params: Params = {}): string {
  const query = new URLSearchParams()
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && value !== '') query.set(name, String(value))
  }
  const search = query.toString()
  return search === '' ? path : `${path}?${search}`
}

async function getJson<T> (path: string, params: Params, signal: AbortSignal | undefined, init: RequestInit = {}): Promise<T> {
  let response: Response
  try {
    response = await fetch(apiUrl(path, params), { ...init, signal, headers: { accept: 'application/json', ...init.headers } })
  } catch (error) {
    if (signal?.aborted === true) throw error
    throw new ApiProblem(0, 'Sem resposta do servidor. Verifique a conexão e tente de novo.')
  }
  if (!response.ok) {
    let message = `O servidor respondeu ${response.status}.`
    try {
      const body = await response.json() as { error?: { message?: unknown } }
      if (typeof body.error?.message === 'string') message = body.error.message
    } catch {}
    throw new ApiProblem(response.status, message)
  }
  return await response.json() as T
}

let examsRequest: Promise<ExamSummary[]> | undefined

/** Every exam, newest first; asked once per page load (the list changes only with a redeploy). */
export function getExams (): Promise<ExamSummary[]> {
  examsRequest ??= getJson<ExamSummary[]>('v1/exams', {}, undefined).catch((error: unknown) => {
    examsRequest = undefined
    throw error
  })
  return examsRequest
}

/** `application` undefined asks for the regular exam (the API's default). */
export function getExam (year: number, application: string | undefined, signal?: AbortSignal): Promise<ExamDetail> {
  return getJson<ExamDetail>(`v1/exams/${year}`, { application }, signal)
}

export function questionPath (year: number, index: number): string {
  return `v1/exams/${year}/questions/${index}`
}

export function getQuestion (year: number, application: string | undefined, index: number, language: string | undefined, signal?: AbortSignal): Promise<QuestionRecord> {
  return getJson<QuestionRecord>(questionPath(year, index), { application, language }, signal)
}

export function findQuestions (params: Params, signal?: AbortSignal): Promise<QuestionList> {
  return getJson<QuestionList>('v1/questions', params, signal)
}

export function drawRandomQuestion (params: Params, signal?: AbortSignal): Promise<RandomDraw> {
  return getJson<RandomDraw>('v1/questions/random', params, signal)
}

export function getQuestionPage (year: number, params: Params, signal?: AbortSignal): Promise<QuestionList> {
  return getJson<QuestionList>(`v1/exams/${year}/questions`, params, signal)
}

/** Why a position of an area does not count toward its score (POST /v1/scores). */
export type LeftOutReason = 'annulled' | 'not-taken-language' | 'no-parameters' | 'missing'

export interface AreaScore {
  area: InepItem['area']
  discipline: string
  score: number
  theta: number
  standardError: number
  correct: number
  scored: number
  leftOut: Array<{ index: number, reason: LeftOutReason }>
  /** Per skill of the counted items; absent from a server older than skills. */
  skills?: Array<{ code: string, scored: number, correct: number }>
  /** The address (from the server's root, `/v1/…`) of the practice draw at this score. */
  practice?: string
}

export interface ScoreAnswer {
  year: number
  method: string
  areas: AreaScore[]
}

/** The scores of a practice run in the API's numbering (POST /v1/scores). */
export function postScores (body: { year: number, application?: string | undefined, language?: string | undefined, answers: Record<string, string> }, signal?: AbortSignal): Promise<ScoreAnswer> {
  return getJson<ScoreAnswer>('v1/scores', {}, signal, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
}

export interface SkillCatalog {
  areas: Array<{
    area: InepItem['area']
    discipline: string
    name: string
    competencies: Array<{ number: number, text: string }>
    skills: Array<{ code: string, number: number, competency: number, text: string, questions: number }>
  }>
}

let skillsRequest: Promise<SkillCatalog> | undefined

/** INEP's Matriz, each area's skills (GET /v1/skills); asked once per page load. */
export function getSkillCatalog (): Promise<SkillCatalog> {
  skillsRequest ??= getJson<SkillCatalog>('v1/skills', {}, undefined).catch((error: unknown) => {
    skillsRequest = undefined
    throw error
  })
  return skillsRequest
}

/** INEP's text of each skill by code (`MT-H21`). */
export async function getSkillTexts (): Promise<ReadonlyMap<string, string>> {
  const catalog = await getSkillCatalog()
  return new Map(catalog.areas.flatMap((area) => area.skills.map((skill) => [skill.code, skill.text] as [string, string])))
}

export interface PracticeDraw {
  seed: number
  target: { discipline: string, score: number, theta: number }
  questions: QuestionRecord[]
}

/** The area and score a practice address of the API names (`practice` of a score: `/v1/questions/practice?discipline=…&score=…`). */
export function practiceTarget (address: string): { discipline: string, score: number } {
  const query = new URL(address, 'http://page.invalid/').searchParams
  return { discipline: query.get('discipline') ?? '', score: Number(query.get('score')) }
}

/** A practice draw (GET /v1/questions/practice): `count` questions that best measure a candidate of `score` in `discipline`, of `skill` when given. */
export function getPracticeDraw (params: { discipline: string, score: number, skill?: string | undefined, count: number, seed: number }, signal?: AbortSignal): Promise<PracticeDraw> {
  return getJson<PracticeDraw>('v1/questions/practice', params, signal)
}
