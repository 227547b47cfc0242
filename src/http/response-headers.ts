/*
 * The headers the API decides for itself, in one place: both request paths (Fastify's hooks and
 * the fast path) and the error answers written straight to a socket take them from here, so an
 * answer never depends on which path served it.
 */

/** Response headers a browser script may read: caching and rate-limit state. */
export const EXPOSED_HEADERS = ['ETag', 'Retry-After', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'] as const

/**
 * The CORS headers of every answer. A public read-only API without credentials: any origin may
 * read it, and the answer does not depend on the Origin, so it needs no `Vary: Origin` and a
 * CDN can cache one copy for everybody.
 */
export const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': EXPOSED_HEADERS.join(', ')
} as const

/** Headers of every answer, whatever it is. */
export const EVERY_ANSWER_HEADERS = {
  ...CORS_HEADERS,
  'x-content-type-options': 'nosniff'
} as const

/** Cache-Control of successful JSON answers: the data only changes with a redeploy. */
export const JSON_CACHE_CONTROL = 'public, max-age=3600'

/** Cache-Control of bytes whose address changes with their content (dataset files, hashed assets): kept a year. */
export const IMMUTABLE_CACHE_CONTROL = 'public, max-age=31536000, immutable'

/** Cache-Control of answers that must not be reused: errors, health checks, unseeded random draws. */
export const NO_STORE = 'no-store'

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8'

const EVERY_ERROR_HEADERS = {
  ...EVERY_ANSWER_HEADERS,
  'cache-control': NO_STORE
} as const

/**
 * The headers the API adds to an answer of this status, whichever path sends it (the app's onSend
 * hook, the fast path): CORS and nosniff on every answer, and no caching of an error.
 */
export function everyAnswerHeaders (statusCode: number): Readonly<Record<string, string>> {
  return statusCode >= 400 ? EVERY_ERROR_HEADERS : EVERY_ANSWER_HEADERS
}

/** Headers of every error answer (its body is the contract's error body, in JSON). */
export const ERROR_ANSWER_HEADERS = {
  ...EVERY_ERROR_HEADERS,
  'content-type': JSON_CONTENT_TYPE
} as const
