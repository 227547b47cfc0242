import type { FastifyInstance } from 'fastify'
import { ApiError } from '../errors.ts'

/**
 * Refuses paths that are malformed or try to climb out of where they point: bad percent-encoding,
 * NUL bytes, `.`/`..` segments and encoded slashes or backslashes inside a segment (400 bad_request).
 * Runs before routing decisions matter, so `/files/..%2F..` never reaches the file server.
 */
export function installRequestGuard (app: FastifyInstance): void {
  // Callback-style: this runs on every request, and an async hook costs a promise and a microtask.
  app.addHook('onRequest', (request, _reply, done) => {
    const problem = pathProblem(request.url)
    done(problem === undefined ? undefined : new ApiError(400, problem))
  })
}

/** Why a request URL's path is refused, or undefined when it is fine. Exported for tests. */
export function pathProblem (url: string): string | undefined {
  const queryStart = url.indexOf('?')
  const path = queryStart === -1 ? url : url.slice(0, queryStart)
  // Fast path: most paths have neither escapes nor dots.
  if (!path.includes('%') && !path.includes('.') && !path.includes('\\') && !path.includes('\0')) return undefined
  for (const segment of path.split('/')) {
    let decoded: string
    try {
      decoded = decodeURIComponent(segment)
    } catch {
      return 'The path has malformed percent-encoding'
    }
    if (decoded.includes('\0')) return 'The path contains a NUL byte'
    if (decoded === '..' || decoded === '.') return 'The path contains a "." or ".." segment'
    if (decoded.includes('/') || decoded.includes('\\')) return 'The path contains an encoded slash or a backslash inside a segment'
  }
  return undefined
}
