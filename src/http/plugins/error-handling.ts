import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { ApiError, describeValue, internalError } from '../errors.ts'
import { ERROR_CODES, errorBody, type ErrorStatus } from '../error-codes.ts'
import { grammarProblem, missingProblem } from '../schemas/parameters.ts'

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
    // The rest of the body is not read: the connection closes after the answer instead of draining it.
    return new ApiError(413, limit === undefined ? 'Request bodies are not accepted' : `The request body is larger than ${limit} bytes`, { connection: 'close' })
  }
  if (status === 415) {
    // The one body the API reads (POST /v1/scores) is JSON, the one type app.ts leaves a parser for.
    const type = request.headers['content-type']
    return new ApiError(415, `The request body must be sent with Content-Type application/json, got ${type === undefined ? 'no Content-Type' : describeValue(type)}`)
  }
  if (status !== undefined && status >= 400 && status < 500) {
    // Client errors raised by Fastify itself (bad URL, bad content type, ...): the message is safe to show.
    const known = status in ERROR_CODES ? status as ErrorStatus : 400
    return new ApiError(known, fastifyError.message)
  }
  return internalError()
}

/** Explains a failed schema check in terms of the parameter and the value the client sent. */
function fromValidationError (error: FastifyError, request: FastifyRequest): ApiError {
  const first = error.validation?.[0]
  const context = error.validationContext === 'params' ? 'path' : 'query'
  const missing = missingProblem(context, first)
  if (missing !== undefined) return new ApiError(400, missing)
  const source = (error.validationContext === 'params' ? request.params : request.query) as Record<string, unknown>
  const name = first?.instancePath.replace(/^\//, '').split('/')[0] ?? ''
  const value = source?.[name]
  if (Array.isArray(value)) return new ApiError(400, `${name} was given ${value.length} times; give it once`)
  const schema = error.validationContext === 'params' ? request.routeOptions.schema?.params : request.routeOptions.schema?.querystring
  return new ApiError(400, grammarProblem(context, name, value, schema, first?.message === undefined ? undefined : String(first.message)))
}
