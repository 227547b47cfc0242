import type { Static, TObject, TSchema } from 'typebox'
import Type from 'typebox'
import { QuestionSchema } from '../data/record-schemas.ts'
import type { ErrorStatus } from './errors.ts'
import type { ExamAnswers } from './exam-answers.ts'
import type { PreparedBody } from './prepared-body.ts'
import {
  QuestionListQuerySchema, QuestionParamsSchema, QuestionQuerySchema, YearParamsSchema
} from './schemas/parameters.ts'
import { ExamDetailSchema, ExamListSchema, QuestionPageSchema } from './schemas/responses.ts'

/*
 * The one table of the JSON endpoints. The Fastify routes (src/http/routes/api-routes.ts), the
 * fast path (src/http/fast-path.ts) and the OpenAPI document (built from those routes) all read
 * it: an endpoint or a parameter added here is validated, documented and answered the same way
 * by both request paths. The fast path takes from the schemas the patterns it checks values with;
 * a parameter whose schema has no pattern is left to Fastify's validation, never ignored.
 */

/** Every JSON endpoint lives under this path; the OpenAPI document's paths are relative to it. */
export const API_BASE = '/v1'

/** What the endpoints answer from: objects that turn grammar-checked parameter values into prepared bodies. */
export interface AnswerSources {
  exams: ExamAnswers
}

/** Parameter values as they arrive: strings that already match their schema's grammar. */
export type ParameterValues = Readonly<Record<string, string>>

export interface Endpoint {
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
  /** Schema of the 200 body, for the document. */
  readonly response: TSchema
  /** Error statuses the operation can answer, for the document. */
  readonly errors: readonly ErrorStatus[]
  /** The body of the answer; throws ApiError for the 404s and 422s. */
  readonly answer: (sources: AnswerSources, params: ParameterValues, query: ParameterValues) => PreparedBody
}

interface EndpointDefinition<P extends TObject, Q extends TObject> extends Omit<Endpoint, 'params' | 'querystring' | 'answer'> {
  params: P
  querystring: Q
  answer: (sources: AnswerSources, params: Static<P>, query: Static<Q>) => PreparedBody
}

/** Types one entry of the table by its own schemas. */
function endpoint<P extends TObject, Q extends TObject> (definition: EndpointDefinition<P, Q>): Endpoint {
  return {
    ...definition,
    // Both callers check the values against these very schemas before answering.
    answer: (sources, params, query) => definition.answer(sources, params as Static<P>, query as Static<Q>)
  }
}

const NO_PARAMETERS = Type.Object({})

export const ENDPOINTS: readonly Endpoint[] = [
  endpoint({
    path: '/exams',
    operationId: 'listExams',
    summary: 'List exams',
    description: 'Every exam the service holds, newest year first.',
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
    description: 'The exam of a year, with every question entry (one per language variant).',
    tags: ['Exams'],
    params: YearParamsSchema,
    querystring: NO_PARAMETERS,
    response: ExamDetailSchema,
    errors: [400, 404, 422, 429, 500],
    answer: ({ exams }, { year }) => exams.examDetail(year)
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
  })
]
