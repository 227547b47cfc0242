import { test } from 'node:test'
import assert from 'node:assert/strict'
import Type from 'typebox'
import { ENDPOINTS, type Endpoint } from '../../src/http/endpoints.ts'
import { PreparedBody } from '../../src/http/answers/prepared-body.ts'
import { stringParameter } from '../../src/http/schemas/parameters.ts'
import { build, requestPaths } from '../helper.ts'

/*
 * Regression: a filter once added to a route's schema and to the answer logic only was answered
 * right by Fastify (`app.inject`) and silently ignored by the fast path, which kept its own list of
 * parameters: the server answered the unfiltered view, and every test stayed green. Now both
 * paths read the one endpoint table, so a parameter added there reaches the answer whichever path
 * serves the request, and one the fast path cannot check goes to Fastify instead of being ignored.
 * The bug was a difference between the two paths, so these tests send requests through Fastify
 * alone (`injectIntoFastify`) as well as through the front door.
 */

/** The exam page endpoint with one more query parameter, whose answer echoes the values it got. */
function tableWithExtraFilter (filter: ReturnType<typeof Type.String>): Endpoint[] {
  return ENDPOINTS.map((endpoint) => endpoint.operationId !== 'listQuestions'
    ? endpoint
    : {
        ...endpoint,
        querystring: Type.Object({ ...endpoint.querystring.properties, minIndex: Type.Optional(filter) }),
        answer: (_answers, params, query) => PreparedBody.json({ params, query })
      })
}

const URL_WITH_FILTER = '/v1/exams/2020/questions?limit=5&minIndex=12'

test('a filter added to the endpoint table reaches its answer through the server as through Fastify', async (t) => {
  const server = await build(t, {}, { endpoints: tableWithExtraFilter(stringParameter({ pattern: '^[0-9]+$', maxLength: 5, grammar: 'digits', description: 'Lowest index', examples: ['12'] })) })
  const viaFastify = await server.injectIntoFastify(URL_WITH_FILTER)
  const before = server.fastifySaw()
  const viaServer = await server.request(URL_WITH_FILTER)
  assert.equal(server.fastifySaw(), before, 'a filter with a pattern is the fast path\'s to answer')
  assert.deepEqual(viaServer.json(), { params: { year: '2020' }, query: { limit: '5', minIndex: '12' } })
  assert.equal(viaServer.body, viaFastify.body)
})

test('a filter whose schema gives the fast path no pattern to check goes to Fastify, never ignored', async (t) => {
  const server = await build(t, {}, { endpoints: tableWithExtraFilter(Type.String({ minLength: 1 })) })
  const before = server.fastifySaw()
  const viaServer = await server.request(URL_WITH_FILTER)
  assert.equal(server.fastifySaw(), before + 1, 'Fastify answered')
  assert.deepEqual(viaServer.json(), { params: { year: '2020' }, query: { limit: '5', minIndex: '12' } })
  // Without the filter the same endpoint stays on the fast path.
  const plain = await server.request('/v1/exams/2020/questions?limit=5')
  assert.equal(server.fastifySaw(), before + 1)
  assert.deepEqual(plain.json(), { params: { year: '2020' }, query: { limit: '5' } })
})

test('a bad value of the new filter is the 400 of its own schema, on both paths', async (t) => {
  const server = await build(t, {}, { endpoints: tableWithExtraFilter(stringParameter({ pattern: '^[0-9]+$', maxLength: 5, grammar: 'digits only', description: 'Lowest index', examples: ['12'] })) })
  for (const [path, send] of requestPaths(server)) {
    const response = await send('/v1/exams/2020/questions?minIndex=twelve')
    assert.equal(response.statusCode, 400, path)
    assert.equal(response.json().error.message, 'query parameter minIndex must be digits only, got "twelve"', path)
  }
})
