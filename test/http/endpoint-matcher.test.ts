import { test } from 'node:test'
import assert from 'node:assert/strict'
import Type from 'typebox'
import { ENDPOINTS, type Endpoint } from '../../src/http/endpoints.ts'
import { EndpointMatcher } from '../../src/http/server/endpoint-matcher.ts'
import { stringParameter } from '../../src/http/schemas/parameters.ts'

/*
 * The fast path's matcher on its own: which endpoint a target names and with which values, or
 * undefined where the request must go to Fastify (whose answers test/http/fast-path.test.ts and
 * the case table compare).
 */

const matcher = new EndpointMatcher(ENDPOINTS)
const operationOf = (target: string) => matcher.match(target)?.endpoint.operationId

test('each path of the table names its endpoint, path values checked by their grammar', () => {
  assert.equal(operationOf('/exams'), 'listExams')
  assert.equal(operationOf('/exams/2020'), 'getExam')
  assert.equal(operationOf('/exams/2020/questions'), 'listQuestions')
  assert.deepEqual(matcher.match('/exams/2020/questions/94')?.params, { year: '2020', index: '94' })
  assert.equal(operationOf('/exams/2020/'), 'getExam', 'a trailing slash names the same resource')
  assert.equal(operationOf('/exams/02020'), undefined, 'off the grammar: Fastify\'s 400')
  assert.equal(operationOf('/exams/abc/questions'), undefined)
  assert.equal(operationOf('/nothing'), undefined)
  assert.equal(operationOf('/exams/2020/questions/1/more'), undefined)
})

test('a literal segment wins over a parameter, as in Fastify\'s router', () => {
  assert.equal(operationOf('/questions/random'), 'randomQuestions')
  assert.equal(operationOf('/questions'), 'findQuestions')
})

test('query values are decoded as Fastify decodes them, and checked by their grammar', () => {
  assert.deepEqual(matcher.match('/questions?q=%C3%A1gua+viva&limit=5')?.query, { q: 'água viva', limit: '5' })
  assert.deepEqual(matcher.match('/exams/2020/questions?_=1700000000&utm_source=x')?.query, {}, 'unknown plain names are ignored')
  for (const target of [
    '/exams/2020/questions?limit=5&limit=6', // repeated
    '/exams/2020/questions?limit', // bare
    '/exams/2020/questions?limit=01', // off the grammar
    '/questions?q=%E0%A4%A', // malformed encoding
    '/exams/2020/questions?li%6Dit=5', // a name that needs decoding
    '/exams/2020/questions?a[b]=1' // an odd unknown name
  ]) assert.equal(matcher.match(target), undefined, target)
})

test('a parameter whose schema gives no pattern sends the request to Fastify; one with a pattern does not', () => {
  const table = (schema: ReturnType<typeof Type.String>): Endpoint[] => ENDPOINTS.map((endpoint) => endpoint.operationId !== 'listExams'
    ? endpoint
    : { ...endpoint, querystring: Type.Object({ tag: Type.Optional(schema) }) })
  const withoutPattern = new EndpointMatcher(table(Type.String({ minLength: 1 })))
  assert.equal(withoutPattern.match('/exams?tag=x'), undefined)
  assert.equal(withoutPattern.match('/exams')?.endpoint.operationId, 'listExams', 'without the parameter it is matched')
  const withPattern = new EndpointMatcher(table(stringParameter({ pattern: '^[a-z]+$', maxLength: 3, grammar: 'letters', description: 'A tag', examples: ['x'] })))
  assert.deepEqual(withPattern.match('/exams?tag=abc')?.query, { tag: 'abc' })
  assert.equal(withPattern.match('/exams?tag=abcd'), undefined, 'past maxLength')
})

test('an endpoint whose path parameter has no pattern is left to Fastify altogether', () => {
  const table = ENDPOINTS.map((endpoint) => endpoint.operationId !== 'getExam' ? endpoint : { ...endpoint, params: Type.Object({ year: Type.String() }) })
  assert.equal(new EndpointMatcher(table).match('/exams/2020'), undefined)
})
