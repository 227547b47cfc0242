import { ERROR_CODES, type ErrorCode, type ErrorStatus } from './error-codes.ts'

export { ERROR_CODES, docPathFor, errorBody, type ErrorBody, type ErrorCode, type ErrorStatus } from './error-codes.ts'

/*
 * The one error type of the HTTP layer and how a request value is quoted in its message, below
 * everything that raises one; the Fastify error handler that sends them is plugins/error-handling.ts.
 */

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
