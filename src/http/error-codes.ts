/*
 * The contract's error codes and error body, with no dependency: the schemas (src/http/schemas/)
 * describe them, and the error handling (./plugins/error-handling.ts) sends them.
 */

/** The contract's error codes by HTTP status (the "Errors" table of docs/api.md). */
export const ERROR_CODES = {
  400: 'bad_request',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  408: 'request_timeout',
  413: 'payload_too_large',
  414: 'uri_too_long',
  415: 'unsupported_media_type',
  422: 'unprocessable_entity',
  429: 'rate_limit_exceeded',
  431: 'request_header_fields_too_large',
  500: 'internal_server_error',
  503: 'service_unavailable'
} as const

export type ErrorStatus = keyof typeof ERROR_CODES
export type ErrorCode = typeof ERROR_CODES[ErrorStatus]

/** Path of the reference page's anchor for a code, e.g. `/docs#errors-not-found`. */
export function docPathFor (code: ErrorCode): string {
  return `/docs#errors-${code.replaceAll('_', '-')}`
}

export interface ErrorBody {
  error: { code: ErrorCode, message: string, docUrl: string }
}

export function errorBody (publicUrl: string, statusCode: ErrorStatus, message: string): ErrorBody {
  const code = ERROR_CODES[statusCode]
  return { error: { code, message, docUrl: `${publicUrl}${docPathFor(code)}` } }
}
