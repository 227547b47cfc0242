import type { FastifyInstance } from 'fastify'
import fastifyPlugin from 'fastify-plugin'
import { ApiError } from '../errors.ts'

/** Deepest nesting of arrays and objects a JSON body may have: a scores body has two levels, an MCP message five or six. */
export const MAX_JSON_DEPTH = 32

/**
 * The one parser of request bodies: JSON (POST /v1/scores), read as UTF-8 by Fastify's own parser
 * (which refuses `__proto__` and `constructor.prototype`), after a bound on its nesting. Parsing
 * arrays nested thousands deep, which fit in 16 KiB, cost JSON.parse tens of questions' CPU for a
 * body refused anyway; a scan refuses them first. Every other content type is 415.
 */
export const jsonBody = fastifyPlugin(async (app: FastifyInstance) => {
  const parse = jsonTextParser(app)
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    let value: unknown
    try {
      value = parse(body as string)
    } catch (error) {
      done(error as ApiError, undefined)
      return
    }
    done(null, value)
  })
}, { name: 'enem-json-body', fastify: '5.x' })

/**
 * How a JSON body's text is read, on either request path (this plugin's parser, the fast path's
 * POST): the nesting bound, then Fastify's own JSON parser (secure-json-parse, refusing
 * `__proto__` and `constructor.prototype`). Returns the value; throws the 400 the error handler
 * would make of Fastify's parse error (its message, as it is).
 */
export function jsonTextParser (app: FastifyInstance): (text: string) => unknown {
  const parse = app.getDefaultJsonParser('error', 'error')
  return (text) => {
    const depth = nestingBeyond(text, MAX_JSON_DEPTH)
    if (depth !== undefined) throw new ApiError(400, `The body nests arrays or objects more than ${MAX_JSON_DEPTH} deep`)
    let failure: Error | null = null
    let value: unknown
    // Fastify's default parser answers at once, through its callback; it never reads the request.
    parse(undefined as never, text, (error, parsed) => {
      failure = error
      value = parsed
    })
    if (failure !== null) throw new ApiError(400, (failure as Error).message)
    return value
  }
}

/**
 * Whether a JSON text opens more than `limit` arrays or objects inside one another: the depth
 * reached past the limit, or undefined. Brackets inside strings do not count. Most texts have
 * fewer brackets than the limit in all, which is told without a scan.
 */
export function nestingBeyond (text: string, limit: number): number | undefined {
  let brackets = 0
  for (let at = text.indexOf('['); at !== -1 && brackets <= limit; at = text.indexOf('[', at + 1)) brackets++
  for (let at = text.indexOf('{'); at !== -1 && brackets <= limit; at = text.indexOf('{', at + 1)) brackets++
  if (brackets <= limit) return undefined
  let depth = 0
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at)
    if (code === 0x22) {
      // A string: to its closing quote, past escaped characters.
      for (at++; at < text.length; at++) {
        const inner = text.charCodeAt(at)
        if (inner === 0x5c) at++
        else if (inner === 0x22) break
      }
    } else if (code === 0x5b || code === 0x7b) {
      if (++depth > limit) return depth
    } else if (code === 0x5d || code === 0x7d) {
      depth--
    }
  }
  return undefined
}
