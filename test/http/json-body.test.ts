import { test } from 'node:test'
import assert from 'node:assert/strict'
import Fastify from 'fastify'
import { ApiError } from '../../src/http/errors.ts'
import { parseJsonText } from '../../src/http/plugins/json-body.ts'

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
