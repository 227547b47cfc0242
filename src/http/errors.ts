import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { grammarOfParameter } from './schemas/parameters.ts'
import { ERROR_CODES, errorBody, type ErrorCode, type ErrorStatus } from './error-codes.ts'

export { ERROR_CODES, docPathFor, errorBody, type ErrorBody, type ErrorCode, type ErrorStatus } from './error-codes.ts'

/** The one error type of the HTTP layer: whatever throws it gets the contract's error body. */
export class ApiError extends Error {
  readonly statusCode: ErrorStatus
  readonly code: ErrorCode
  readonly headers: Record<string, string>

  constructor (statusCode: ErrorStatus, message: string, headers: Record<string, string> = {}) {
    // A client error is an answer, not a fault: recording a stack trace for it was a large share of
    // the CPU of a 404 under load. 5xx keep theirs for the log.
    const stackTraceLimit = Error.stackTraceLimit
    if (statusCode < 500) Error.stackTraceLimit = 0
    super(message)
    Error.stackTraceLimit = stackTraceLimit
    this.name = 'ApiError'
    this.statusCode = statusCode
    this.code = ERROR_CODES[statusCode]
    this.headers = headers
  }
}

/** The 405 of a method the API does not serve, with the Allow header the contract requires. */
export function methodNotAllowed (method: string, allowedMethods: readonly string[]): ApiError {
  const allow = allowedMethods.join(', ')
  return new ApiError(405, `Method ${method} is not allowed; use ${allow}`, { allow })
}

/** Longest rendering of a request value in an error message, in UTF-16 units. */
const MAX_DESCRIBED_LENGTH = 60

/** Ends a value cut short: an ellipsis and the closing quote of the JSON string. */
const CUT_MARK = '..."'

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' })

/**
 * Renders a raw request value for an error message, cut short so a huge value cannot bloat the
 * answer. The cut falls between user-perceived characters (grapheme clusters): a cut inside a
 * surrogate pair would leave half of it, which strict JSON parsers and UTF-8 encoders refuse.
 */
export function describeValue (value: unknown): string {
  const text = JSON.stringify(value) ?? String(value)
  if (text.length <= MAX_DESCRIBED_LENGTH) return text
  return `${text.slice(0, characterBoundaryBefore(text, MAX_DESCRIBED_LENGTH - CUT_MARK.length))}${CUT_MARK}`
}

/**
 * The last end of a grapheme cluster at most `maxUnits` into `text`; for a cluster so long
 * (a letter under hundreds of accents) that little would be left, the last end of a code point.
 */
function characterBoundaryBefore (text: string, maxUnits: number): number {
  let end = 0
  for (const { segment } of graphemes.segment(text)) {
    if (end + segment.length > maxUnits) break
    end += segment.length
  }
  if (end >= maxUnits / 2) return end
  const lastUnit = text.charCodeAt(maxUnits - 1)
  return lastUnit >= 0xd800 && lastUnit <= 0xdbff ? maxUnits - 1 : maxUnits
}

/**
 * Installs the central error handler and the not-found handler: every failure, whoever raises it
 * (our routes, Fastify's validation, a plugin), leaves as the contract's error body, and a 5xx
 * never carries the original message, a stack trace or a path.
 */
export function installErrorHandling (app: FastifyInstance, publicUrl: string): void {
  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    const { statusCode, message, headers } = toApiError(error, request)
    if (statusCode >= 500) request.log.error({ err: error }, 'request failed')
    return sendError(reply, publicUrl, statusCode, message, headers)
  })

  app.setNotFoundHandler((request, reply) => {
    return sendError(reply, publicUrl, 404, `No resource at ${describeValue(pathOf(request.url))}`)
  })
}

export function sendError (
  reply: FastifyReply,
  publicUrl: string,
  statusCode: ErrorStatus,
  message: string,
  headers: Record<string, string> = {}
): FastifyReply {
  return reply.code(statusCode).headers(headers).type('application/json; charset=utf-8')
    .send(errorBody(publicUrl, statusCode, message))
}

function pathOf (url: string): string {
  const query = url.indexOf('?')
  return query === -1 ? url : url.slice(0, query)
}

function toApiError (error: FastifyError | ApiError, request: FastifyRequest): ApiError {
  if (error instanceof ApiError) return error
  const fastifyError = error as FastifyError
  if (fastifyError.validation !== undefined) return fromValidationError(fastifyError, request)
  const status = fastifyError.statusCode
  if (status === 413) {
    const limit = request.routeOptions.schema?.body === undefined ? undefined : request.routeOptions.bodyLimit
    return new ApiError(413, limit === undefined ? 'Request bodies are not accepted' : `The request body is larger than ${limit} bytes`)
  }
  if (status !== undefined && status >= 400 && status < 500) {
    // Client errors raised by Fastify itself (bad URL, bad content type, ...): the message is safe to show.
    const known = status in ERROR_CODES ? status as ErrorStatus : 400
    return new ApiError(known, fastifyError.message)
  }
  return new ApiError(500, 'Internal server error')
}

/** Explains a failed schema check in terms of the parameter and the value the client sent. */
function fromValidationError (error: FastifyError, request: FastifyRequest): ApiError {
  const first = error.validation?.[0]
  const context = error.validationContext === 'params' ? 'path' : 'query'
  const source = (error.validationContext === 'params' ? request.params : request.query) as Record<string, unknown>
  const name = first?.instancePath.replace(/^\//, '').split('/')[0] ?? ''
  const value = source?.[name]
  if (Array.isArray(value)) return new ApiError(400, `${name} was given ${value.length} times; give it once`)
  const schema = error.validationContext === 'params' ? request.routeOptions.schema?.params : request.routeOptions.schema?.querystring
  return new ApiError(400, grammarProblem(context, name, value, schema, first?.message))
}

/**
 * The 400's message for a parameter value off its grammar, naming the parameter, what it must be
 * and the value. Every caller that checks parameters against the table's schemas words it so (the
 * routes, the MCP tools).
 * @example grammarProblem('query', 'limit', 'abc', QuestionListQuerySchema) // 'query parameter limit must be a decimal integer …, got "abc"'
 */
export function grammarProblem (context: 'path' | 'query', name: string, value: unknown, parameters: unknown, detail?: string): string {
  const grammar = grammarOfParameter(parameters, name)
  const what = grammar === undefined ? (detail ?? 'is invalid') : `must be ${grammar}`
  return `${context} parameter ${name} ${what}, got ${describeValue(value)}`
}
