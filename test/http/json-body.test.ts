import { test } from 'node:test'
import assert from 'node:assert/strict'
import Fastify from 'fastify'
import { ApiError } from '../../src/http/errors.ts'
import { containersBeyond, parseJsonText } from '../../src/http/plugins/json-body.ts'

/*
 * The app's JSON body parser against the one it replaces, Fastify's default (secure-json-parse,
 * refusing `__proto__` and `constructor.prototype`): the same value for every text it accepts, a
 * 400 with the same message for every text it refuses.
 */

const fastifyParse = Fastify().getDefaultJsonParser('error', 'error')

function fastifyOutcome (text: string): { value?: unknown, message?: string } {
  let outcome: { value?: unknown, message?: string } = {}
  fastifyParse(undefined as never, text, (error, value) => { outcome = error === null ? { value } : { message: error.message } })
  return outcome
}

function ourOutcome (text: string): { value?: unknown, message?: string } {
  try {
    return { value: parseJsonText(text) }
  } catch (error) {
    assert.ok(error instanceof ApiError && error.statusCode === 400, String(error))
    return { message: error.message }
  }
}

const constructorObjects = (count: number) => `[${Array(count).fill('{"constructor":1}').join(',')}]`

const TEXTS = [
  '', ' ', '{', '[1,', 'null', '1', '"text"', 'true', '{}', '[]', '\uFEFF{"a":1}', '\uFEFF',
  '{"year":2023,"answers":{"1":"A"}}',
  '{"__proto__":{"x":1}}', '{"a":{"__proto__":1}}', '[[{"__proto__":null}]]', '{"\\u005f_proto__":1}', '{"__proto__" :1}',
  '{"constructor":1}', '{"constructor":{"prototype":1}}', '{"constructor":{"prototype":null}}', '{"constructor":{"x":1}}',
  '{"a":[1,{"constructor":{"prototype":{}}}]}', '[{"\\u0063onstructor":{"prototype":1}}]', '{"constructor":[{"prototype":1}]}',
  '{"constructor":null}', '{"x":"\\"constructor\\":{\\"prototype\\":1}"}', '{"prototype":1,"constructor":"__proto__"}',
  constructorObjects(900), `{"answers":${constructorObjects(900)}}`, `[${constructorObjects(3)},{"constructor":{"prototype":0}}]`,
  // Whitespace between the key, its colon and its object, and the name as a value.
  '{"constructor" :\n\t{"prototype":1}}', '{"constructor"\r\n:\r\n{"prototype":{}}}', `[${constructorObjects(2)},{"constructor" : {"prototype":1}}]`,
  '{"a":"constructor","b":{"constructor":{"x":{"prototype":1}}}}', '{"a":"__proto__"}', '{"constructor" : [], "b": {"constructor" :{"prototype":2}}}'
]

test('every text gets from parseJsonText what Fastify\'s default parser gives it: the value, or its 400 message', () => {
  for (const text of TEXTS) assert.deepEqual(ourOutcome(text), fastifyOutcome(text), JSON.stringify(text).slice(0, 80))
})

/** The bound a parsed value's arrays and objects pass first, in the text's order (a value's preorder): the reference containersBeyond is held to. */
function boundPassed (value: unknown, depth: number, count: number): 'depth' | 'count' | undefined {
  let opened = 0
  const visit = (node: unknown, level: number): 'depth' | 'count' | undefined => {
    if (node === null || typeof node !== 'object') return undefined
    if (level > depth) return 'depth'
    if (++opened > count) return 'count'
    for (const item of Array.isArray(node) ? node : Object.values(node)) {
      const passed = visit(item, level + 1)
      if (passed !== undefined) return passed
    }
    return undefined
  }
  return visit(value, 1)
}

test('containersBeyond tells the bound a text passes as its parsed value shows it, with brackets, quotes and escapes inside strings not counting', () => {
  let seed = 7
  // The generator's high bits: its low ones repeat with short periods.
  const random = (below: number) => { seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31; return Math.floor(seed / 2 ** 16) % below }
  const STRINGS = ['', '[', ']{', '"', '\\', '\\"[', '}}}]]]', 'constructor', '\u00e7[']
  // A value of at most about 400 items, some deep and narrow, some wide.
  let budget = 0
  const valueOf = (): unknown => {
    const kind = budget-- > 0 ? random(6) : random(3)
    if (kind === 0) return random(100)
    if (kind === 1) return STRINGS[random(STRINGS.length)]
    if (kind === 2) return null
    const items = Array.from({ length: random(kind === 5 ? 12 : 3) }, () => valueOf())
    return kind === 3 ? items : Object.fromEntries(items.map((item, at) => [STRINGS[at % STRINGS.length]! + String(at), item]))
  }
  const seen = { depth: 0, count: 0, none: 0 }
  for (let round = 0; round < 3_000; round++) {
    budget = random(400)
    const value = valueOf()
    const text = JSON.stringify(value, undefined, round % 3 === 0 ? 1 : undefined)
    for (const [depth, count] of [[4, 20], [32, 256], [6, 3], [2, 1_000]] as const) {
      const expected = boundPassed(value, depth, count)
      assert.equal(containersBeyond(text, depth, count), expected, `${text.slice(0, 120)} (${depth}, ${count})`)
      seen[expected ?? 'none']++
    }
  }
  // Every outcome is met, so the comparison is not of one outcome only.
  assert.ok(seen.depth > 100 && seen.count > 100 && seen.none > 100, JSON.stringify(seen))
})
