import { ERROR_CODES, type ErrorCode, type ErrorStatus } from '../error-codes.ts'
import { ErrorSchema } from './responses.ts'

/**
 * The error responses of an operation, for its route schema (and so for the OpenAPI document).
 * The response's description goes in `x-response-description`, which @fastify/swagger moves to
 * the response object, so the body schema stays the one named `Error` schema.
 */
export function errorResponses (descriptions: Readonly<Record<ErrorCode, string>>, statuses: readonly ErrorStatus[]): Record<number, typeof ErrorSchema & { 'x-response-description': string }> {
  return Object.fromEntries(statuses.map((status) => [status, { ...ErrorSchema, 'x-response-description': descriptions[ERROR_CODES[status]] }]))
}
