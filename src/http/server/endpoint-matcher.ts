import type { TSchema } from 'typebox'
import type { Endpoint, ParameterValues } from '../endpoints.ts'

/*
 * Which endpoint of the table a request target names, and its parameter values, checked with the
 * schemas' own patterns and decoded as Fastify decodes them: the fast path's matcher
 * (src/http/server/fast-path.ts), pure, with its own tests (test/http/endpoint-matcher.test.ts).
 * What it cannot decide that way it declines (undefined), and the request goes to Fastify.
 */

/** An endpoint a request names, with its parameter values (strings that follow their grammar). */
export interface EndpointMatch {
  readonly endpoint: Endpoint
  readonly params: ParameterValues
  readonly query: ParameterValues
}

/** Names of unknown parameters it ignores as the routes do (cache-busters); anything odder goes to Fastify. */
const PLAIN_NAME = /^[A-Za-z0-9_.-]+$/

/** How the fast path checks one parameter value: its schema's own pattern and length bounds. */
interface Grammar {
  readonly pattern: RegExp
  readonly minLength: number
  readonly maxLength: number
}

/** One segment of an endpoint's path: a literal, or the name and grammar of a path parameter (one shape for both, so the matcher's reads stay monomorphic). */
interface Segment {
  readonly literal: string | null
  readonly name: string
  readonly grammar: Grammar | null
}

/** One endpoint as the fast path matches it. */
interface Matcher {
  readonly endpoint: Endpoint
  /** Segments of the path after API_BASE: a literal, or the name and grammar of a path parameter. */
  readonly segments: readonly Segment[]
  /** Query parameters by name: their grammar, or null when the schema gives none the fast path can check. */
  readonly query: ReadonlyMap<string, Grammar | null>
  /** Query parameters the schema requires: a request without one is Fastify's 400. */
  readonly required: readonly string[]
}

/** The grammar of a string schema with a pattern; undefined for anything else. */
function grammarOf (schema: TSchema): Grammar | undefined {
  const { type, pattern, minLength, maxLength } = schema as { type?: unknown, pattern?: unknown, minLength?: unknown, maxLength?: unknown }
  if (type !== 'string' || typeof pattern !== 'string') return undefined
  return {
    pattern: new RegExp(pattern),
    minLength: typeof minLength === 'number' ? minLength : 0,
    maxLength: typeof maxLength === 'number' ? maxLength : Number.POSITIVE_INFINITY
  }
}

function accepts (grammar: Grammar, value: string): boolean {
  return value.length >= grammar.minLength && value.length <= grammar.maxLength && grammar.pattern.test(value)
}

/**
 * The table as the fast path matches it, by number of path segments; an endpoint with a path
 * parameter it cannot check is left to Fastify altogether. Endpoints with more literal segments
 * come first, as Fastify's router prefers a static segment to a parameter.
 */
function matchersBySegmentCount (endpoints: readonly Endpoint[]): Map<number, Matcher[]> {
  const byCount = new Map<number, Matcher[]>()
  for (const endpoint of endpoints) {
    // A POST endpoint is matched by its path alone, by the fast path itself (fast-path.ts); the 405 of a GET on its path is Fastify's.
    if (endpoint.method !== 'GET') continue
    const segments: Segment[] = []
    let checkable = true
    for (const part of endpoint.path.slice(1).split('/')) {
      if (!part.startsWith(':')) {
        segments.push({ literal: part, name: '', grammar: null })
        continue
      }
      const name = part.slice(1)
      const schema = endpoint.params.properties[name]
      const grammar = schema === undefined ? undefined : grammarOf(schema)
      if (grammar === undefined) checkable = false
      else segments.push({ literal: null, name, grammar })
    }
    if (!checkable) continue
    const query = new Map(Object.entries(endpoint.querystring.properties).map(([name, schema]) => [name, grammarOf(schema) ?? null]))
    const list = byCount.get(segments.length) ?? []
    list.push({ endpoint, segments, query, required: endpoint.querystring.required ?? [] })
    byCount.set(segments.length, list)
  }
  const literals = (matcher: Matcher) => matcher.segments.filter((segment) => segment.literal !== null).length
  for (const list of byCount.values()) list.sort((a, b) => literals(b) - literals(a))
  return byCount
}

/**
 * The path parameters of a request whose segments are this endpoint's: literals equal, every
 * parameter within its grammar; undefined otherwise (a value off the grammar is Fastify's 400).
 */
function matchPath (matcher: Matcher, segments: readonly string[]): ParameterValues | undefined {
  let params: Record<string, string> | undefined
  for (let position = 0; position < segments.length; position++) {
    const expected = matcher.segments[position]!
    const segment = segments[position]!
    if (expected.literal !== null) {
      if (segment !== expected.literal) return undefined
    } else {
      if (!accepts(expected.grammar!, segment)) return undefined
      params ??= {}
      params[expected.name] = segment
    }
  }
  return params ?? NO_VALUES
}

const NO_VALUES: ParameterValues = Object.freeze({})

/**
 * The known parameters of a query string when every one follows its grammar and appears at most
 * once; undefined otherwise (the request then goes to Fastify, whose schema validation has the
 * last word). Values are decoded as Fastify's query parser decodes them (`+` is a space, then
 * percent-decoding); a name that needs decoding, or a value that cannot be decoded, goes to
 * Fastify. Unknown parameters with plain names are ignored, as the routes do; a known one whose
 * schema gives no pattern (grammar null) sends the request to Fastify.
 */
function parseQuery (query: string, known: ReadonlyMap<string, Grammar | null>): ParameterValues | undefined {
  const values: Record<string, string> = {}
  if (query === '') return values
  for (const pair of query.split('&')) {
    const equals = pair.indexOf('=')
    const name = equals === -1 ? pair : pair.slice(0, equals)
    const grammar = known.get(name)
    if (grammar === undefined) {
      if (!PLAIN_NAME.test(name)) return undefined
      continue
    }
    if (grammar === null || equals === -1 || Object.hasOwn(values, name)) return undefined
    const value = decodeValue(pair.slice(equals + 1))
    if (value === undefined || !accepts(grammar, value)) return undefined
    values[name] = value
  }
  return values
}

/** A query value as Fastify's parser gives it, or undefined when it is malformed. */
function decodeValue (raw: string): string | undefined {
  if (!raw.includes('%') && !raw.includes('+')) return raw
  try {
    return decodeURIComponent(raw.replaceAll('+', ' '))
  } catch {
    return undefined
  }
}

/** The endpoints of a table, as the fast path matches request targets against them. */
export class EndpointMatcher {
  readonly #matchers: ReadonlyMap<number, readonly Matcher[]>

  constructor (endpoints: readonly Endpoint[]) {
    this.#matchers = matchersBySegmentCount(endpoints)
  }

  /**
   * The endpoint a target names (its path relative to API_BASE, starting with '/', and its query),
   * with its values; undefined when no endpoint's path matches or when its query is not one to
   * answer here (a value off the grammar, a repeated or bare parameter, malformed encoding, an odd
   * unknown name, a parameter whose schema has no pattern, a required parameter missing).
   * @example new EndpointMatcher(ENDPOINTS).match('/exams/2020/questions?limit=5')?.query // { limit: '5' }
   */
  match (target: string): EndpointMatch | undefined {
    const queryStart = target.indexOf('?')
    const path = queryStart === -1 ? target : target.slice(0, queryStart)
    const query = queryStart === -1 ? '' : target.slice(queryStart + 1)
    // A trailing slash names the same resource, as Fastify's router is told (ignoreTrailingSlash).
    const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(1, -1) : path.slice(1)
    const segments = trimmed.split('/')
    const candidates = this.#matchers.get(segments.length)
    if (candidates === undefined) return undefined
    for (const matcher of candidates) {
      const params = matchPath(matcher, segments)
      if (params === undefined) continue
      const values = parseQuery(query, matcher.query)
      if (values === undefined || matcher.required.some((name) => !Object.hasOwn(values, name))) return undefined
      return { endpoint: matcher.endpoint, params, query: values }
    }
    return undefined
  }
}
