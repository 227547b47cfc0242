import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { ExamAnswers } from '../exam-answers.ts'
import { sendPrepared, type PreparedBody } from '../prepared-body.ts'
import {
  QuestionListQuerySchema, QuestionParamsSchema, QuestionQuerySchema, YearParamsSchema,
  type QuestionListQuery, type QuestionParams, type QuestionQuery, type YearParams
} from '../schemas/parameters.ts'
import { ExamDetailSchema, ExamListSchema, QuestionPageSchema } from '../schemas/responses.ts'
import { QuestionSchema } from '../../data/record-schemas.ts'
import { errorResponses } from '../schemas/openapi-responses.ts'

export interface ExamRoutesOptions {
  answers: ExamAnswers
  /** Cache-Control of every successful JSON answer. */
  cacheControl: string
}

/**
 * The four read-only endpoints of the v1 contract, as Fastify routes: their schemas check the
 * grammar (400) and document the operations; ExamAnswers does the rest. Most successful answers
 * never come here: the fast path (src/http/fast-path.ts) answers them from the same ExamAnswers.
 */
export async function examRoutes (app: FastifyInstance, { answers, cacheControl }: ExamRoutesOptions): Promise<void> {
  // Returns nothing, so handlers return nothing: a returned reply is a thenable that Fastify awaits
  // with an end-of-stream listener on every response (measured at 2-3% of the server's CPU).
  const send = (request: FastifyRequest, reply: FastifyReply, body: PreparedBody): void => {
    sendPrepared(request, reply.header('cache-control', cacheControl), body)
  }

  app.get('/exams', {
    schema: {
      operationId: 'listExams',
      summary: 'List exams',
      description: 'Every exam the service holds, newest year first.',
      tags: ['Exams'],
      response: { 200: ExamListSchema, ...errorResponses(400, 404, 429, 500) }
    }
  }, (request, reply) => send(request, reply, answers.examList()))

  app.get<{ Params: YearParams }>('/exams/:year', {
    schema: {
      operationId: 'getExam',
      summary: 'Get one exam',
      description: 'The exam of a year, with every question entry (one per language variant).',
      tags: ['Exams'],
      params: YearParamsSchema,
      response: { 200: ExamDetailSchema, ...errorResponses(400, 404, 422, 429, 500) }
    }
  }, (request, reply) => send(request, reply, answers.examDetail(request.params.year)))

  app.get<{ Params: YearParams, Querystring: QuestionListQuery }>('/exams/:year/questions', {
    schema: {
      operationId: 'listQuestions',
      summary: 'List the questions of an exam',
      description: 'One page of the language view of an exam: its null-language questions plus those in the chosen language, by index. `offset` is a position in the view, so consecutive pages never overlap or skip.',
      tags: ['Questions'],
      params: YearParamsSchema,
      querystring: QuestionListQuerySchema,
      response: { 200: QuestionPageSchema, ...errorResponses(400, 404, 422, 429, 500) }
    }
  }, (request, reply) => send(request, reply, answers.questionPage(request.params.year, request.query)))

  app.get<{ Params: QuestionParams, Querystring: QuestionQuery }>('/exams/:year/questions/:index', {
    schema: {
      operationId: 'getQuestion',
      summary: 'Get one question',
      description: 'The question with this index in the language view (same default language as the list). Where an index has both a null-language record and one in the chosen language, the language one is returned.',
      tags: ['Questions'],
      params: QuestionParamsSchema,
      querystring: QuestionQuerySchema,
      response: { 200: QuestionSchema, ...errorResponses(400, 404, 422, 429, 500) }
    }
  }, (request, reply) => send(request, reply, answers.question(request.params.year, request.params.index, request.query)))
}
