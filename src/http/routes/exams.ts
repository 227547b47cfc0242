import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Catalog, Exam } from '../../data/catalog.ts'
import { ApiError, describeValue } from '../errors.ts'
import type { PreparedCatalog } from '../prepared-catalog.ts'
import { sendPrepared } from '../prepared-body.ts'
import {
  LIMIT_DEFAULT, LIMIT_MAX, QuestionListQuerySchema, QuestionParamsSchema, QuestionQuerySchema, YearParamsSchema,
  type QuestionListQuery, type QuestionParams, type QuestionQuery, type YearParams
} from '../schemas/parameters.ts'
import { ExamDetailSchema, ExamListSchema, QuestionPageSchema } from '../schemas/responses.ts'
import { QuestionSchema } from '../../data/record-schemas.ts'
import { errorResponses } from '../schemas/openapi-responses.ts'

export interface ExamRoutesOptions {
  catalog: Catalog
  prepared: PreparedCatalog
  /** Cache-Control of every successful JSON answer. */
  cacheControl: string
}

/** The four read-only endpoints of the v1 contract. Handlers ask the catalog; they never touch the disk. */
export async function examRoutes (app: FastifyInstance, { catalog, prepared, cacheControl }: ExamRoutesOptions): Promise<void> {
  // Returns nothing, so handlers return nothing: a returned reply is a thenable that Fastify awaits
  // with an end-of-stream listener on every response (measured at 2-3% of the server's CPU).
  const send = (request: FastifyRequest, reply: FastifyReply, body: Parameters<typeof sendPrepared>[2]): void => {
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
  }, (request, reply) => send(request, reply, prepared.examList))

  app.get<{ Params: YearParams }>('/exams/:year', {
    schema: {
      operationId: 'getExam',
      summary: 'Get one exam',
      description: 'The exam of a year, with every question entry (one per language variant).',
      tags: ['Exams'],
      params: YearParamsSchema,
      response: { 200: ExamDetailSchema, ...errorResponses(400, 404, 422, 429, 500) }
    }
  }, (request, reply) => {
    const exam = examOfYear(catalog, parseYear(request.params.year))
    return send(request, reply, prepared.examDetail(exam))
  })

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
  }, (request, reply) => {
    const { query } = request
    const limit = query.limit === undefined ? LIMIT_DEFAULT : Number(query.limit)
    const offset = query.offset === undefined ? 0 : Number(query.offset)
    const yearNumber = parseYear(request.params.year)
    if (limit < 1 || limit > LIMIT_MAX) throw new ApiError(422, `limit must be between 1 and ${LIMIT_MAX}, got ${limit}`)
    if (offset < 0) throw new ApiError(422, `offset must be 0 or more, got ${offset}`)
    const exam = examOfYear(catalog, yearNumber)
    const language = chooseLanguage(exam, query.language)
    const discipline = chooseDiscipline(exam, query.discipline)
    const view = catalog.languageView(exam, language, discipline)
    return send(request, reply, prepared.page(view, offset, limit))
  })

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
  }, (request, reply) => {
    const yearNumber = parseYear(request.params.year)
    const index = Number(request.params.index)
    if (index < 1) throw new ApiError(422, `index must be at least 1, got ${index}`)
    const exam = examOfYear(catalog, yearNumber)
    const language = chooseLanguage(exam, request.query.language)
    const lookup = catalog.findQuestion(exam, index, language)
    if (!lookup.found) {
      const where = lookup.availableLanguages.length === 0
        ? `${exam.summary.title} has no question ${index}`
        : `question ${index} of ${exam.summary.title} exists only in ${lookup.availableLanguages.map((l) => l ?? 'no language').join(', ')}; ask with ?language=`
      throw new ApiError(404, where)
    }
    return send(request, reply, prepared.question(lookup.question))
  })
}

function parseYear (raw: string): number {
  const year = Number(raw)
  if (year < 1) throw new ApiError(422, `year must be at least 1, got ${year}`)
  return year
}

function examOfYear (catalog: Catalog, year: number): Exam {
  const exam = catalog.getExam(year)
  if (exam === undefined) {
    const years = catalog.listExams().map((known) => known.summary.year).sort((a, b) => a - b)
    throw new ApiError(404, `No exam for year ${year}; years available: ${years.join(', ')}`)
  }
  return exam
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
