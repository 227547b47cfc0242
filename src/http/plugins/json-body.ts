import { errorCodes, type FastifyInstance } from 'fastify'
import fastifyPlugin from 'fastify-plugin'
import { ApiError } from '../errors.ts'

/** Deepest nesting of arrays and objects a JSON body may have: a scores body has two levels, an MCP message five or six. */
export const MAX_JSON_DEPTH = 32

/**
 * Most arrays and objects a JSON body may hold in all: score_answers' 180 answers `{ index, answer }`
 * in one MCP message are the most any accepted body holds (a scores body holds two). Making an
 * object is most of what parsing costs (900 `{"constructor":1}` took JSON.parse about 80 µs, four
 * single questions, where 900 numbers took 8), so a body of thousands is refused before it is parsed.
 */
export const MAX_JSON_CONTAINERS = 256

/**
 * The one parser of request bodies: JSON (POST /v1/scores, POST /mcp), read as UTF-8 as Fastify's
 * own parser reads it (refusing `__proto__` and `constructor.prototype`), after bounds on its
 * nesting and on how many arrays and objects it holds. Parsing arrays nested thousands deep, or
 * a thousand small objects, which fit in 16 KiB, cost JSON.parse several questions' CPU for a body
 * refused anyway; a scan refuses them first. Every other content type is 415.
 */
export const jsonBody = fastifyPlugin(async (app: FastifyInstance) => {
  const parse = jsonTextParser()
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
 * POST): the bounds on nesting and on arrays and objects, then parseJsonText. Returns the value;
 * throws the 400 the error handler would make of Fastify's parse error (its message, as it is).
 */
export function jsonTextParser (): (text: string) => unknown {
  return (text) => {
    const beyond = containersBeyond(text, MAX_JSON_DEPTH, MAX_JSON_CONTAINERS)
    if (beyond === 'depth') throw new ApiError(400, `The body nests arrays or objects more than ${MAX_JSON_DEPTH} deep`)
    if (beyond === 'count') throw new ApiError(400, `The body holds more than ${MAX_JSON_CONTAINERS} arrays and objects`)
    return parseJsonText(text)
  }
}

const EMPTY_BODY = new errorCodes.FST_ERR_CTP_EMPTY_JSON_BODY().message
const INVALID_BODY = new errorCodes.FST_ERR_CTP_INVALID_JSON_BODY().message
/** secure-json-parse's own test of a text, Fastify's parser: whether it may hold `__proto__` as a key (escaped or not). */
const SUSPECT_PROTO = /"(?:_|\\u005[Ff])(?:_|\\u005[Ff])(?:p|\\u0070)(?:r|\\u0072)(?:o|\\u006[Ff])(?:t|\\u0074)(?:o|\\u006[Ff])(?:_|\\u005[Ff])(?:_|\\u005[Ff])"\s*:/
/**
 * Narrower than secure-json-parse's own test: a `constructor` key whose value is an object. Only
 * such a value can hold `prototype` (an array cannot: Object.hasOwn([], 'prototype') is false), so
 * a text without one is never refused for it, and 900 `{"constructor":1}` are not walked one by
 * one (issue 45: that walk made the refusal of such a scores body cost over 10 questions' CPU).
 */
const SUSPECT_CONSTRUCTOR = /"(?:c|\\u0063)(?:o|\\u006[Ff])(?:n|\\u006[Ee])(?:s|\\u0073)(?:t|\\u0074)(?:r|\\u0072)(?:u|\\u0075)(?:c|\\u0063)(?:t|\\u0074)(?:o|\\u006[Ff])(?:r|\\u0072)"\s*:\s*\{/

/**
 * What Fastify's default JSON parser (secure-json-parse, refusing both `__proto__` and
 * `constructor.prototype`) makes of a text, with its messages: the value, or a 400. Its own
 * walk of a suspect value enumerated an array's elements as keys (`for … in`): a 15 KB body of
 * 900 `{"constructor":1}` cost 33 single questions to refuse (issue 45). This one walks arrays by
 * index and checks the same keys; test/http/json-body.test.ts holds it to secure-json-parse.
 */
export function parseJsonText (text: string): unknown {
  if (text.length === 0) throw new ApiError(400, EMPTY_BODY)
  // secure-json-parse drops a byte order mark.
  const bare = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
  let value: unknown
  try {
    value = JSON.parse(bare)
  } catch {
    throw new ApiError(400, INVALID_BODY)
  }
  if (value === null || typeof value !== 'object') return value
  if (!mayNamePrototypeKey(bare)) return value
  if (holdsPrototypeKey(value)) throw new ApiError(400, INVALID_BODY)
  return value
}

/**
 * Whether a text that parsed may hold a key the prototype check refuses: secure-json-parse's two
 * tests. A backslash may spell either name in escapes, and the two expressions decide. Without one,
 * each quoted name in the text is a string token as it is (a string cannot hold a quote unescaped),
 * with only JSON's four whitespace characters between tokens: scans find what the expressions
 * would, cheaper (bench/results.md). `"__proto__"` as a value, not a key, only sends the value to
 * the walk, which decides.
 */
function mayNamePrototypeKey (text: string): boolean {
  if (text.includes('\\')) return SUSPECT_PROTO.test(text) || SUSPECT_CONSTRUCTOR.test(text)
  return text.includes('"__proto__"') || namesConstructorObject(text)
}

const CONSTRUCTOR_KEY = '"constructor"'

/** Whether `"constructor"` opens an object after it, as SUSPECT_CONSTRUCTOR matches: a colon, then `{`, with whitespace around it. */
function namesConstructorObject (text: string): boolean {
  for (let at = text.indexOf(CONSTRUCTOR_KEY); at !== -1; at = text.indexOf(CONSTRUCTOR_KEY, at + 1)) {
    let next = afterWhitespace(text, at + CONSTRUCTOR_KEY.length)
    if (text.charCodeAt(next) !== 0x3a) continue
    next = afterWhitespace(text, next + 1)
    if (text.charCodeAt(next) === 0x7b) return true
  }
  return false
}

/** The first place from `at` that is not JSON whitespace (space, tab, line feed, carriage return). */
function afterWhitespace (text: string, at: number): number {
  for (;;) {
    const code = text.charCodeAt(at)
    if (code !== 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) return at
    at++
  }
}

/** Whether a parsed value holds, at any depth, an own `__proto__`, or a `constructor` object with an own `prototype`. */
function holdsPrototypeKey (root: object): boolean {
  const pending: object[] = [root]
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    if (Array.isArray(node)) {
      for (let at = 0; at < node.length; at++) {
        const item: unknown = node[at]
        if (item !== null && typeof item === 'object') pending.push(item)
      }
      continue
    }
    if (Object.hasOwn(node, '__proto__')) return true
    const record = node as Record<string, unknown>
    if (Object.hasOwn(node, 'constructor')) {
      const made = record.constructor
      if (made !== null && typeof made === 'object' && Object.hasOwn(made, 'prototype')) return true
    }
    for (const key in record) {
      const item = record[key]
      if (item !== null && typeof item === 'object') pending.push(item)
    }
  }
  return false
}

/**
 * Which bound a JSON text's arrays and objects pass, if any: `depth` when more than `depth` are
 * open inside one another, `count` when it opens more than `count` in all; undefined when it passes
 * neither. Brackets inside strings do not count. Most texts have fewer brackets in all than
 * either bound, which is told without a scan; the scan stops at the first bound passed.
 */
export function containersBeyond (text: string, depth: number, count: number): 'depth' | 'count' | undefined {
  const fewer = Math.min(depth, count)
  let brackets = 0
  for (let at = text.indexOf('['); at !== -1 && brackets <= fewer; at = text.indexOf('[', at + 1)) brackets++
  for (let at = text.indexOf('{'); at !== -1 && brackets <= fewer; at = text.indexOf('{', at + 1)) brackets++
  if (brackets <= fewer) return undefined
  let open = 0
  let opened = 0
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
      if (++open > depth) return 'depth'
      if (++opened > count) return 'count'
    } else if (code === 0x5d || code === 0x7d) {
      open--
    }
  }
  return undefined
}
