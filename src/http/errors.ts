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

/** What a fault is answered with, whatever path it happened on: its details stay in the log. */
export function internalError (): ApiError {
  return new ApiError(500, 'Internal server error')
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
  const text = jsonPrefix(value, MAX_DESCRIBED_LENGTH + 1)
  if (text.length <= MAX_DESCRIBED_LENGTH) return text
  return `${text.slice(0, characterBoundaryBefore(text, MAX_DESCRIBED_LENGTH - CUT_MARK.length))}${CUT_MARK}`
}

/**
 * The JSON of a value (as JSON.stringify writes it; String(value) for what JSON cannot write),
 * or, when that is longer than `length` units, a prefix of it of at least `length` units. Only
 * that prefix is written: a refused body's value may be thousands of entries or arrays nested
 * thousands deep (JSON.stringify of those cost a hundred questions' CPU, or overflowed the stack),
 * and every level opened writes a unit, so the recursion is never deeper than `length`.
 */
function jsonPrefix (value: unknown, length: number): string {
  const parts: string[] = []
  let written = 0
  const write = (part: string): boolean => {
    parts.push(part)
    written += part.length
    return written < length
  }
  // Returns whether there is room for more.
  const writeValue = (node: unknown): boolean => {
    if (typeof node === 'string') return write(JSON.stringify(node.length > length ? node.slice(0, length) : node))
    if (typeof node !== 'object' || node === null || typeof (node as { toJSON?: unknown }).toJSON === 'function') {
      return write(JSON.stringify(node) ?? (parts.length === 0 ? String(node) : 'null'))
    }
    if (Array.isArray(node)) {
      if (!write('[')) return false
      for (let at = 0; at < node.length; at++) {
        if ((at > 0 && !write(',')) || !writeValue(node[at])) return false
      }
      return write(']')
    }
    if (!write('{')) return false
    let first = true
    for (const key in node) {
      if (!Object.hasOwn(node, key)) continue
      const entry = (node as Record<string, unknown>)[key]
      if (entry === undefined || typeof entry === 'function' || typeof entry === 'symbol') continue
      if ((!first && !write(',')) || !write(`${JSON.stringify(key.length > length ? key.slice(0, length) : key)}:`) || !writeValue(entry)) return false
      first = false
    }
    return write('}')
  }
  writeValue(value)
  return parts.join('')
}

/**
 * The last end of a grapheme cluster at most `maxUnits` into `text`; for a cluster so long
 * (a letter under hundreds of accents) that little would be left, the last end of a code point.
 */
function characterBoundaryBefore (text: string, maxUnits: number): number {
  // Where the text up to the cut and the unit after it are ASCII, every unit is a character (a JSON
  // text holds no raw CR LF, the one pair of ASCII characters that is one cluster): no segmenting.
  if (/^[\x20-\x7e]*$/.test(text.slice(0, maxUnits + 1))) return maxUnits
  let end = 0
  for (const { segment } of graphemes.segment(text)) {
    if (end + segment.length > maxUnits) break
    end += segment.length
  }
  if (end >= maxUnits / 2) return end
  const lastUnit = text.charCodeAt(maxUnits - 1)
  return lastUnit >= 0xd800 && lastUnit <= 0xdbff ? maxUnits - 1 : maxUnits
}
