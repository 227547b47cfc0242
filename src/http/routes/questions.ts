import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { ApiError, describeValue } from '../errors.ts'
import { sendPrepared, type PreparedBody } from '../prepared-body.ts'
import type { QuestionFinderAnswers } from '../question-finder-answers.ts'
import {
  ExportQuerySchema, FindQuestionsQuerySchema, FINDING_GRAMMAR, FoundQuestionPageSchema, RandomDrawSchema, RandomQuestionsQuerySchema,
  type ExportQuery, type FindQuestionsQuery, type RandomQuestionsQuery
} from '../schemas/finding.ts'
import { errorResponses } from '../schemas/openapi-responses.ts'

export interface QuestionRoutesOptions {
  answers: QuestionFinderAnswers
  /** Cache-Control of every successful answer that may be kept. */
  cacheControl: string
}

/** A random draw the client did not seed is a new answer every time: no cache may keep it. */
export const UNSEEDED_DRAW_CACHE_CONTROL = 'no-store'

/**
 * The Cache-Control of a random draw: kept like any answer when seeded, never otherwise.
 * @example randomDrawCacheControl({ seed: '42' }, 'public, max-age=3600') === 'public, max-age=3600'
 */
export function randomDrawCacheControl (query: RandomQuestionsQuery, cacheControl: string): string {
  return query.seed === undefined ? UNSEEDED_DRAW_CACHE_CONTROL : cacheControl
}

/**
 * The endpoints that find questions across exams: search and filters, random draws, and the
 * whole dataset as JSONL. Their schemas check the grammar (400) and document the operations;
 * QuestionFinderAnswers does the rest.
 */
export async function questionRoutes (app: FastifyInstance, { answers, cacheControl }: QuestionRoutesOptions): Promise<void> {
  const send = (request: FastifyRequest, reply: FastifyReply, body: PreparedBody, control = cacheControl): void => {
    sendPrepared(request, reply.header('cache-control', control), body)
  }

  // The search index is built a little at a time once the server listens, not during start-up.
  app.addHook('onListen', (done) => {
    answers.finder.buildSearchIndexInBackground()
    done()
  })
  app.addHook('preClose', (done) => {
    answers.finder.stopBackgroundWork()
    done()
  })

  app.get<{ Querystring: FindQuestionsQuery }>('/questions', {
    attachValidation: true,
    schema: {
      operationId: 'findQuestions',
      summary: 'Search and filter questions of every exam',
      description: 'Questions of every exam that pass the filters and, with `q`, match the search. Without `q`: newest exam first, then by index, null-language record first. With `q`: best match first (BM25), ties in that same order. `offset` is a position in the list, so consecutive pages never overlap or skip. Example: `/questions?q=fotoss%C3%ADntese&discipline=ciencias-natureza&limit=5`.',
      tags: ['Finding questions'],
      querystring: FindQuestionsQuerySchema,
      response: { 200: FoundQuestionPageSchema, ...errorResponses(400, 422, 429, 500) }
    }
  }, (request, reply) => {
    checkGrammar(request)
    send(request, reply, answers.questions(request.params as object, request.query))
  })

  app.get<{ Querystring: RandomQuestionsQuery }>('/questions/random', {
    attachValidation: true,
    schema: {
      operationId: 'randomQuestions',
      summary: 'Draw questions at random',
      description: 'Distinct questions drawn at random from those `/questions` lists for the same filters, every one equally likely. The same `seed`, filters and dataset give the same questions in the same order; without `seed` the server picks one (and returns it), and the answer is `Cache-Control: no-store`. Example: `/questions/random?count=5&discipline=matematica&seed=42`.',
      tags: ['Finding questions'],
      querystring: RandomQuestionsQuerySchema,
      response: { 200: RandomDrawSchema, ...errorResponses(400, 422, 429, 500) }
    }
  }, (request, reply) => {
    checkGrammar(request)
    send(request, reply, answers.random(request.params as object, request.query), randomDrawCacheControl(request.query, cacheControl))
  })

  app.get<{ Querystring: ExportQuery }>('/export/questions.jsonl', {
    attachValidation: true,
    schema: {
      operationId: 'exportQuestions',
      summary: 'Download every question (JSONL)',
      description: 'Every question record of every exam (every language variant, exactly as `/exams/{year}/questions/{index}` serves it), one JSON object per line (`application/x-ndjson`), by year ascending, then index, null-language record first. `year` narrows it. Counts once against the rate limit. Example: `/export/questions.jsonl?year=2020`.',
      tags: ['Finding questions'],
      querystring: ExportQuerySchema,
      response: {
        200: {
          description: 'The records, one JSON object (a Question) per line',
          headers: {
            'Content-Disposition': { type: 'string', description: 'Names the file: `attachment; filename="enem-questions.jsonl"`, or with the years asked for (`enem-questions-2020.jsonl`, `enem-questions-2018_2020.jsonl`)' }
          },
          content: { 'application/x-ndjson': { schema: { type: 'string', description: 'JSON Lines: one Question record per line' } } }
        },
        ...errorResponses(400, 422, 429, 500)
      }
    }
  }, (request, reply) => {
    checkGrammar(request)
    send(request, reply, answers.exportQuestions(request.params as object, request.query))
  })
}

/**
 * The 400 of a value off the grammar or a parameter given twice, in the words of ../schemas/finding.ts
 * (these routes keep their own grammar: `year` here is a list or range, not one integer).
 */
function checkGrammar (request: FastifyRequest): void {
  const error = request.validationError
  if (error === undefined) return
  const first = (error.validation as Array<{ instancePath?: string }> | undefined)?.[0]
  const name = first?.instancePath?.replace(/^\//, '').split('/')[0] ?? ''
  const value = (request.query as Record<string, unknown>)[name]
  if (Array.isArray(value)) throw new ApiError(400, `${name} was given ${value.length} times; give it once`)
  const grammar = FINDING_GRAMMAR[name]
  throw new ApiError(400, grammar === undefined ? `query is invalid: ${error.message}` : `query parameter ${name} must be ${grammar}, got ${describeValue(value)}`)
}
