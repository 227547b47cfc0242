import type { Static, TObject, TSchema } from 'typebox'
import Type from 'typebox'
import { QuestionSchema } from '../data/record-schemas.ts'
import { ApiError, type ErrorStatus } from './errors.ts'
import type { ExamAnswers } from './answers/exam-answers.ts'
import type { PreparedBody } from './answers/prepared-body.ts'
import type { QuestionFinderAnswers } from './answers/question-finder-answers.ts'
import type { ScoreAnswers } from './answers/score-answers.ts'
import type { SkillAnswers } from './answers/skill-answers.ts'
import {
  ExportQuerySchema, FindQuestionsQuerySchema, FoundQuestionPageSchema, PracticeDrawSchema, PracticeQuerySchema, RandomDrawSchema, RandomQuestionsQuerySchema
} from './schemas/finding.ts'
import { SkillCatalogSchema } from './schemas/skills.ts'
import {
  ExamQuerySchema, QuestionListQuerySchema, QuestionParamsSchema, QuestionQuerySchema, YearParamsSchema
} from './schemas/parameters.ts'
import { ExamDetailSchema, ExamListSchema, QuestionPageSchema } from './schemas/responses.ts'
import { SCORES_BODY_LIMIT, ScoreAnswerSchema, ScoreRequestSchema, bodyProblem, type ScoreRequest } from './schemas/scores.ts'

/*
 * The one table of the JSON endpoints. The Fastify routes (src/http/routes/api-routes.ts), the
 * fast path (src/http/server/fast-path.ts) and the OpenAPI document (built from those routes) all read
 * it: an endpoint or a parameter added here is validated, documented and answered the same way
 * by both request paths. The fast path takes from the schemas the patterns it checks values with;
 * a parameter whose schema has no pattern is left to Fastify's validation, never ignored.
 */

/** Every JSON endpoint lives under this path; the OpenAPI document's paths are relative to it. */
export const API_BASE = '/v1'

/** What the endpoints answer from: objects that turn grammar-checked parameter values into prepared bodies. */
export interface EndpointAnswers {
  exams: ExamAnswers
  finding: QuestionFinderAnswers
  scores: ScoreAnswers
  skills: SkillAnswers
}

/** Parameter values as they arrive: strings that already match their schema's grammar. */
export type ParameterValues = Readonly<Record<string, string>>

export interface Endpoint {
  /**
   * GET (also answering HEAD; the fast path answers it) or POST (answering POST and OPTIONS only,
   * with a JSON body checked by `body.problem`; the fast path answers a POST with plain headers,
   * Fastify the rest).
   */
  readonly method: 'GET' | 'POST'
  /**
   * Schema of a POST's JSON body, its size limit in bytes, and its check against that schema: what
   * to say of a body that fails it (the 400's message, naming the field), undefined for one that passes.
   */
  readonly body?: { readonly schema: TSchema, readonly limit: number, readonly problem: (body: unknown) => string | undefined } | undefined
  /** Path under API_BASE, in Fastify's syntax (`:name` for a path parameter). */
  readonly path: string
  readonly operationId: string
  readonly summary: string
  readonly description: string
  readonly tags: readonly string[]
  /** Path parameters; every one a string schema with a `pattern`. */
  readonly params: TObject
  /** Query parameters it understands; any other name is ignored (clients add cache-busters). */
  readonly querystring: TObject
  /** Schema of the 200 body, for the document (or a whole response object, for a body that is not JSON). */
  readonly response: TSchema | Readonly<Record<string, unknown>>
  /** Error statuses the operation can answer, for the document. */
  readonly errors: readonly ErrorStatus[]
  /** The body of the answer; throws ApiError for the 404s and 422s. `body` is a POST's body, checked against its schema. */
  readonly answer: (answers: EndpointAnswers, params: ParameterValues, query: ParameterValues, body: unknown) => PreparedBody
}

interface EndpointDefinition<P extends TObject, Q extends TObject> extends Omit<Endpoint, 'params' | 'querystring' | 'answer' | 'method'> {
  params: P
  querystring: Q
  answer: (answers: EndpointAnswers, params: Static<P>, query: Static<Q>) => PreparedBody
}

/** Types one GET entry of the table by its own schemas. */
function endpoint<P extends TObject, Q extends TObject> (definition: EndpointDefinition<P, Q>): Endpoint {
  return {
    ...definition,
    method: 'GET',
    // Both callers check the values against these very schemas before answering.
    answer: (answers, params, query) => definition.answer(answers, params as Static<P>, query as Static<Q>)
  }
}

interface PostDefinition<B extends TSchema> extends Omit<Endpoint, 'params' | 'querystring' | 'answer' | 'method' | 'body'> {
  body: { schema: B, limit: number, problem: (body: unknown) => string | undefined }
  answer: (answers: EndpointAnswers, body: Static<B>) => PreparedBody
}

/** Types one POST entry of the table by its body's schema. */
function postEndpoint<B extends TSchema> (definition: PostDefinition<B>): Endpoint {
  return {
    ...definition,
    method: 'POST',
    params: NO_PARAMETERS,
    querystring: NO_PARAMETERS,
    // The route checks the body with `problem`, against this very schema, before answering.
    answer: (answers, _params, _query, body) => definition.answer(answers, body as Static<B>)
  }
}

const NO_PARAMETERS = Type.Object({})

export const ENDPOINTS: readonly Endpoint[] = [
  endpoint({
    path: '/exams',
    operationId: 'listExams',
    summary: 'List exams',
    description: 'Every exam the service holds, newest year first; within a year the regular exam, then the second application (`ppl`).',
    tags: ['Exams'],
    params: NO_PARAMETERS,
    querystring: NO_PARAMETERS,
    response: ExamListSchema,
    errors: [400, 404, 429, 500],
    answer: ({ exams }) => exams.examList()
  }),
  endpoint({
    path: '/exams/:year',
    operationId: 'getExam',
    summary: 'Get one exam',
    description: 'The exam of a year (the regular one, or with `application=ppl` the second application), with every question entry (one per language variant).',
    tags: ['Exams'],
    params: YearParamsSchema,
    querystring: ExamQuerySchema,
    response: ExamDetailSchema,
    errors: [400, 404, 422, 429, 500],
    answer: ({ exams }, { year }, query) => exams.examDetail(year, query)
  }),
  endpoint({
    path: '/exams/:year/questions',
    operationId: 'listQuestions',
    summary: 'List the questions of an exam',
    description: 'One page of the language view of an exam: its null-language questions plus those in the chosen language, by index. `offset` is a position in the view, so consecutive pages never overlap or skip.',
    tags: ['Questions'],
    params: YearParamsSchema,
    querystring: QuestionListQuerySchema,
    response: QuestionPageSchema,
    errors: [400, 404, 422, 429, 500],
    answer: ({ exams }, { year }, query) => exams.questionPage(year, query)
  }),
  endpoint({
    path: '/exams/:year/questions/:index',
    operationId: 'getQuestion',
    summary: 'Get one question',
    description: 'The question with this index in the language view (same default language as the list). Where an index has both a null-language record and one in the chosen language, the language one is returned.',
    tags: ['Questions'],
    params: QuestionParamsSchema,
    querystring: QuestionQuerySchema,
    response: QuestionSchema,
    errors: [400, 404, 422, 429, 500],
    answer: ({ exams }, { year, index }, query) => exams.question(year, index, query)
  }),
  endpoint({
    path: '/questions',
    operationId: 'findQuestions',
    summary: 'Search and filter questions of every exam',
    description: 'Questions of every exam that pass the filters and, with `q`, match the search. Without `q`: newest exam first, then by index, null-language record first. With `q`: best match first (BM25), ties in that same order; with `q` and no `language`, every language\'s records are searched. `offset` is a position in the list, so consecutive pages never overlap or skip. Example: `/questions?q=fotoss%C3%ADntese&discipline=ciencias-natureza&limit=5`.',
    tags: ['Questions'],
    params: NO_PARAMETERS,
    querystring: FindQuestionsQuerySchema,
    response: FoundQuestionPageSchema,
    errors: [400, 422, 429, 500],
    answer: ({ finding }, _params, query) => finding.questions(query)
  }),
  endpoint({
    path: '/questions/random',
    operationId: 'randomQuestions',
    summary: 'Draw questions at random',
    description: 'Distinct questions drawn at random from those `/questions` lists for the same filters (an absent `language` is each exam\'s default view, with `q` too), every one equally likely, never a record without its statement (`incomplete`). The same `seed`, filters and dataset give the same questions in the same order; without `seed` the server picks one (and returns it), and the answer is `Cache-Control: no-store`. Example: `/questions/random?count=5&discipline=matematica&seed=42`.',
    tags: ['Questions'],
    params: NO_PARAMETERS,
    querystring: RandomQuestionsQuerySchema,
    response: RandomDrawSchema,
    errors: [400, 422, 429, 500],
    answer: ({ finding }, _params, query) => finding.random(query)
  }),
  endpoint({
    path: '/questions/practice',
    operationId: 'practiceQuestions',
    summary: 'Draw questions at a candidate\'s level',
    description: 'Questions that best measure a candidate of the given score in one area, as computerized adaptive tests choose items. θ = (score − d)/k for the area (the constants of `/scores`); among the records of the area with INEP\'s parameters that are neither annulled nor left out of the score nor without their statement (`incomplete`), in each exam\'s language view, the Fisher information at θ under the three-parameter logistic model (D = 1) ranks them; `count` are drawn at random (with `seed`) from the max(5·count, 30) most informative, never two records of one INEP item, and returned easiest first (by `inep.difficulty`). The same seed, parameters and dataset give the same answer; without `seed` the answer is `Cache-Control: no-store`. Example: `/questions/practice?discipline=matematica&score=620&count=10&seed=42`.',
    tags: ['Questions'],
    params: NO_PARAMETERS,
    querystring: PracticeQuerySchema,
    response: PracticeDrawSchema,
    errors: [400, 422, 429, 500],
    answer: ({ finding }, _params, query) => finding.practice(query)
  }),
  endpoint({
    path: '/skills',
    operationId: 'listSkills',
    summary: 'List the skills of INEP\'s Matriz',
    description: 'INEP\'s Matriz de Referência do ENEM: for each area (LC, CH, CN, MT) its competências and its habilidades H1–H30 with INEP\'s text, and how many served questions each habilidade has (counted over every exam\'s default view). A habilidade\'s `code` is what the `skill` filter of `/questions`, `/questions/random`, `/questions/practice` and the export takes.',
    tags: ['Skills'],
    params: NO_PARAMETERS,
    querystring: NO_PARAMETERS,
    response: SkillCatalogSchema,
    errors: [400, 404, 429, 500],
    answer: ({ skills }) => skills.skillList
  }),
  endpoint({
    path: '/export/questions.jsonl',
    operationId: 'exportQuestions',
    summary: 'Download every question as JSON Lines',
    description: 'Every question record of every exam (every language variant, exactly as `/exams/{year}/questions/{index}` serves it), one JSON object per line (`application/x-ndjson`), by year ascending, the regular exam before the second application, then index, null-language record first. `year`, `application`, `skill` and `difficulty` narrow it. Counts once against the rate limit. Example: `/export/questions.jsonl?year=2020`.',
    tags: ['Questions'],
    params: NO_PARAMETERS,
    querystring: ExportQuerySchema,
    response: {
      description: 'The records, one JSON object (a Question) per line',
      headers: {
        'Content-Disposition': { type: 'string', description: 'Names the file: `attachment; filename="enem-questions.jsonl"`, or with the years asked for (`enem-questions-2020.jsonl`, `enem-questions-2018_2020.jsonl`) and the application when it narrows them (`enem-questions-2020-ppl.jsonl`, `enem-questions-ppl.jsonl`); filters that select no exam give an empty file named by what was asked and `empty` (`enem-questions-1999_2004-empty.jsonl`)' }
      },
      content: { 'application/x-ndjson': { schema: { type: 'string', description: 'JSON Lines: one Question record per line' } } }
    },
    errors: [400, 422, 429, 500],
    answer: ({ finding }, _params, query) => finding.exportQuestions(query)
  }),
  postEndpoint({
    path: '/scores',
    operationId: 'computeScores',
    summary: 'Compute scores the way INEP computes them',
    description: 'The ENEM score of each answered area, by INEP\'s own method (three-parameter logistic model, D = 1, θ by EAP under a standard normal prior over 40 points on [−4, 4], score = round(k·θ + d, 1) with INEP\'s constants per area; items without parameters, annulled ones and the other language\'s are left out). Two forms: answers in our numbering (a practice run on an exam we serve, by question index), or an answer sheet (an INEP booklet code and its letters in that booklet\'s order; every year with INEP item data, 2009–2025). A JSON body of at most 16 KiB; answers are `Cache-Control: no-store`.',
    tags: ['Scores'],
    body: { schema: ScoreRequestSchema, limit: SCORES_BODY_LIMIT, problem: bodyProblem },
    response: ScoreAnswerSchema,
    errors: [400, 413, 415, 422, 429, 500],
    answer: ({ scores }, body: ScoreRequest) => scores.score(body, practiceAddress)
  })
]

/**
 * The address of an operation of the table for parameter values, so that no text has to spell a
 * path out by hand. Throws on an unknown operation or a parameter the entry does not take.
 * @example endpointUrl('getQuestion', { year: '2020', index: '94' }) === '/v1/exams/2020/questions/94'
 */
export function endpointUrl (operationId: string, params: ParameterValues = {}, query: ParameterValues = {}, endpoints: readonly Endpoint[] = ENDPOINTS): string {
  const endpoint = endpoints.find((candidate) => candidate.operationId === operationId)
  if (endpoint === undefined) throw new Error(`no endpoint ${operationId}`)
  for (const name of Object.keys(params)) if (!Object.hasOwn(endpoint.params.properties, name)) throw new Error(`${operationId} has no path parameter ${name}`)
  for (const name of Object.keys(query)) if (!Object.hasOwn(endpoint.querystring.properties, name)) throw new Error(`${operationId} has no query parameter ${name}`)
  const path = endpoint.path.replace(/:([A-Za-z]+)/g, (_match, name: string) => {
    const value = params[name]
    if (value === undefined) throw new Error(`${operationId} needs path parameter ${name}`)
    return encodeURIComponent(value)
  })
  const search = Object.entries(query).map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join('&')
  return `${API_BASE}${path}${search === '' ? '' : `?${search}`}`
}

/**
 * The answer of a POST entry to a parsed body, as both request paths give it (the route, the fast
 * path): the body's 400 from the entry's own check, else the entry's answer (which throws its 422s).
 */
export function answerOfBody (endpoint: Endpoint, answers: EndpointAnswers, body: unknown): PreparedBody {
  const refused = endpoint.body?.problem(body)
  if (refused !== undefined) throw new ApiError(400, refused)
  return endpoint.answer(answers, {}, {}, body)
}

/** The practice draw's address at a discipline and score, as the scores' answers name it. */
export function practiceAddress (discipline: string, score: number): string {
  // endpointUrl's address, its path found once: every scored area writes one.
  practicePath ??= endpointUrl('practiceQuestions')
  return `${practicePath}?discipline=${encodeURIComponent(discipline)}&score=${encodeURIComponent(String(score))}`
}

let practicePath: string | undefined

/**
 * The one endpoint outside API_BASE that is not a page: the Model Context Protocol's Streamable
 * HTTP transport, for AI assistants (src/mcp/). Its route (src/mcp/http-transport.ts), the OpenAPI
 * document and the rate limit read it here. It answers POST (and OPTIONS); GET and DELETE, which
 * the protocol uses for sessions this stateless server does not keep, are 405.
 */
export const MCP_ENDPOINT = {
  path: '/mcp',
  operationId: 'mcp',
  summary: 'Model Context Protocol, for AI assistants',
  description: 'The Model Context Protocol (Streamable HTTP transport, stateless, JSON answers; protocol revisions 2025-11-25 and 2026-07-28, and the earlier ones clients negotiate) with tools over the same data as `/v1`: ' +
    '`list_exams`, `search_questions`, `get_question`, `check_answer`, `random_questions`, `practice_questions`, `score_answers`, `list_skills` (the answer key withheld unless `reveal_answer`). ' +
    'The body is one JSON-RPC message (no batch) of at most 16 KiB; an `Origin` or `Host` other than this server\'s own or loopback is refused (403, DNS-rebinding protection). ' +
    'Counted against the same rate limit as `/v1`. Point an MCP client at this address; the answers are JSON-RPC, not the API\'s error body, except for the refusals before the protocol (403, 405, 413, 415, 429).',
  tags: ['MCP'],
  /** The bound of every body the API reads (POST /v1/scores has the same). */
  bodyLimit: SCORES_BODY_LIMIT,
  /** The API's own refusals, before the protocol answers (with the error body of every endpoint). */
  errors: [403, 413, 415, 429, 500]
} as const satisfies { errors: readonly ErrorStatus[] } & Record<string, unknown>
