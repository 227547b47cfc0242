import { ERROR_DESCRIPTIONS, ERROR_CODES, type ErrorStatus } from '../errors.ts'
import { ErrorSchema } from './responses.ts'

/** The error responses of an operation, for its route schema (and so for the OpenAPI document). */
export function errorResponses (...statuses: ErrorStatus[]): Record<number, typeof ErrorSchema & { description: string }> {
  return Object.fromEntries(statuses.map((status) => [status, { ...ErrorSchema, description: ERROR_DESCRIPTIONS[ERROR_CODES[status]] }]))
}
