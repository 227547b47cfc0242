import { after, test, type TestContext } from 'node:test'
import assert from 'node:assert/strict'
import type { Response as InjectResponse } from 'light-my-request'
import type { TSchema } from 'typebox'
import { API_BASE, ENDPOINTS, type Endpoint } from '../../src/http/endpoints.ts'
import { rangeOfParameter } from '../../src/http/schemas/parameters.ts'
import { build, requestPaths, type SendRequest } from '../helper.ts'

/*
 * One case table for every endpoint, generated from the endpoint table (src/http/endpoints.ts) and
 * nothing else, as hono's src/router/common.case.test.ts runs one table against every router: the
 * fast path and the Fastify routes are two routers over one table. For each entry, from its
 * schemas alone:
 * - every `examples` value of every parameter (200);
 * - one value off each parameter's grammar (400), and each required query parameter left out (400);
 * - one value in its grammar that names nothing (404 or 422, one of the entry's `errors`);
 * - every two query parameters together, each with its first example (200);
 * and each case sent through the front door (the server's listener: the fast path, then Fastify)
 * and through Fastify alone, requiring the same status, headers and bytes. Then, per query
 * parameter, that some example of it changes the answer: a parameter the answer ignored would not.
 * What the table holds that these rules cannot cover is listed in EXCLUSIONS with its reason and
 * shows as a skipped test, never silently.
 */

/** Entries the rules below do not cover, and why (hono's `skip` with a reason). */
const EXCLUSIONS: ReadonlyArray<{ reason: string, applies: (endpoint: Endpoint) => boolean }> = [
  {
    reason: 'cases are generated for GET endpoints, whose parameters are the path and the query; an entry that reads a body needs rules for its body',
    applies: (endpoint) => methodOf(endpoint) !== 'GET'
  }
]

/**
 * Values tried as "in grammar but naming nothing", in this order: the first one a parameter's
 * grammar accepts is its case. Text that holds no word, a range starting past the score scale's
 * end, a negative integer, a slug no exam uses, a year no exam has.
 */
const ABSENT_CANDIDATES = ['+++', '1001-', '-1', 'zz-absent', '9999']
/** Values tried as off the grammar: the first one a parameter's grammar refuses is its case. */
const OFF_GRAMMAR_CANDIDATES = ['!', '']

/** Headers that differ between two answers to the same request. */
const PER_REQUEST_HEADERS = new Set(['date', 'connection', 'keep-alive', 'ratelimit-remaining', 'ratelimit-reset'])

function methodOf (endpoint: Endpoint): string {
  return (endpoint as { method?: string }).method ?? 'GET'
}

interface Parameter { name: string, in: 'path' | 'query', schema: TSchema }

function parametersOf (endpoint: Endpoint): Parameter[] {
  return [
    ...Object.entries(endpoint.params.properties).map(([name, schema]) => ({ name, in: 'path' as const, schema })),
    ...Object.entries(endpoint.querystring.properties).map(([name, schema]) => ({ name, in: 'query' as const, schema }))
  ]
}

function examplesOf (parameter: Parameter): string[] {
  const examples = (parameter.schema as { examples?: unknown }).examples
  assert.ok(Array.isArray(examples) && examples.length > 0 && examples.every((example) => typeof example === 'string'),
    `${parameter.in} parameter ${parameter.name} has no string examples in its schema`)
  return examples as string[]
}

/** Whether a value follows the parameter's grammar, by its schema's own pattern and bounds. */
function followsGrammar (parameter: Parameter, value: string): boolean {
  const { pattern, minLength, maxLength } = parameter.schema as { pattern?: string, minLength?: number, maxLength?: number }
  assert.ok(typeof pattern === 'string', `${parameter.name} has no pattern`)
  return value.length >= (minLength ?? 0) && value.length <= (maxLength ?? Infinity) && new RegExp(pattern).test(value)
}

type Values = Readonly<Record<string, string>>

/** The URL of an endpoint for path and query values. */
function urlOf (endpoint: Endpoint, path: Values, query: Values): string {
  const pathname = endpoint.path.replace(/:([A-Za-z]+)/g, (_match, name: string) => encodeURIComponent(path[name]!))
  const search = new URLSearchParams(query).toString()
  return `${API_BASE}${pathname}${search === '' ? '' : `?${search}`}`
}

function comparable (response: InjectResponse): Record<string, string> {
  return Object.fromEntries(Object.entries(response.headers)
    .filter(([name]) => !PER_REQUEST_HEADERS.has(name))
    .map(([name, value]) => [name, String(value)])
    .sort(([a], [b]) => a!.localeCompare(b!)))
}

const server = await build({ after })
const paths = requestPaths(server)
let caseCount = 0
let changeChecks = 0

/** Sends a request both ways; asserts the same status, headers and bytes; returns the front door's answer. */
async function sameBothWays (url: string, headers: Record<string, string> = {}): Promise<InjectResponse> {
  caseCount++
  const answers: InjectResponse[] = []
  for (const [, send] of paths) answers.push(await send({ url, headers }))
  const [frontDoor, fastify] = answers as [InjectResponse, InjectResponse]
  assert.equal(frontDoor.statusCode, fastify.statusCode, `${url}: status`)
  assert.deepEqual(comparable(frontDoor), comparable(fastify), `${url}: headers`)
  assert.ok(frontDoor.rawPayload.equals(fastify.rawPayload), `${url}: bytes`)
  return frontDoor
}

function expectStatus (response: InjectResponse, statuses: readonly number[], url: string): void {
  assert.ok(statuses.includes(response.statusCode), `${url}: ${response.statusCode}, expected ${statuses.join(' or ')}: ${response.body.slice(0, 300)}`)
}

/** Whether an answer says it is not repeatable (a draw with a seed the server picked). */
const repeatable = (response: InjectResponse) => !String(response.headers['cache-control'] ?? '').includes('no-store')

/**
 * The query every case builds on: the first example of each required query parameter, and, for an
 * entry whose answer to that is not repeatable, the first example of the first other parameter that
 * makes it so, so that both paths' bytes can be compared.
 */
async function baseQueryOf (endpoint: Endpoint, pathValues: Values, send: SendRequest): Promise<Values> {
  const queryParameters = parametersOf(endpoint).filter((candidate) => candidate.in === 'query')
  const required = new Set(endpoint.querystring.required ?? [])
  const base: Values = Object.fromEntries(queryParameters.filter((parameter) => required.has(parameter.name)).map((parameter) => [parameter.name, examplesOf(parameter)[0]!]))
  if (repeatable(await send(urlOf(endpoint, pathValues, base)))) return base
  for (const parameter of queryParameters.filter((candidate) => !required.has(candidate.name))) {
    const query = { ...base, [parameter.name]: examplesOf(parameter)[0]! }
    if (repeatable(await send(urlOf(endpoint, pathValues, query)))) return query
  }
  assert.fail(`${endpoint.path}: no parameter makes its answer repeatable`)
}

/**
 * For a query parameter whose grammar is a closed vocabulary: the URL of one of its examples with
 * an exam year (from /v1/exams) for which it names nothing, if there is one.
 */
async function absentPairing (endpoint: Endpoint, parameter: Parameter, pathValues: Values, query: Values): Promise<string | undefined> {
  if (parameter.in !== 'query' || !Object.hasOwn(pathValues, 'year')) return undefined
  const years = new Set((await server.request(`${API_BASE}/exams`)).json<Array<{ year: number }>>().map((exam) => String(exam.year)))
  for (const year of years) {
    for (const example of examplesOf(parameter)) {
      const url = urlOf(endpoint, { ...pathValues, year }, { ...query, [parameter.name]: example })
      const status = (await server.request(url)).statusCode
      if (status === 404 || status === 422) return url
    }
  }
  return undefined
}

async function endpointCases (t: TestContext, endpoint: Endpoint): Promise<void> {
  const parameters = parametersOf(endpoint)
  const queryParameters = parameters.filter((parameter) => parameter.in === 'query')
  const firstPathValues: Values = Object.fromEntries(parameters.filter((parameter) => parameter.in === 'path').map((parameter) => [parameter.name, examplesOf(parameter)[0]!]))
  const baseQuery = await baseQueryOf(endpoint, firstPathValues, server.request)
  /** The URL with one parameter's value changed (undefined: removed). */
  const withValue = (parameter: Parameter, value: string | undefined, query: Values = baseQuery) => {
    const path = { ...firstPathValues }
    const nextQuery: Record<string, string> = { ...query }
    if (parameter.in === 'path') path[parameter.name] = value!
    else if (value === undefined) delete nextQuery[parameter.name]
    else nextQuery[parameter.name] = value
    return urlOf(endpoint, path, nextQuery)
  }
  const errorStatuses = endpoint.errors.filter((status) => status === 404 || status === 422)

  await t.test('the examples of every parameter', async () => {
    expectStatus(await sameBothWays(urlOf(endpoint, firstPathValues, baseQuery)), [200], 'base')
    for (const parameter of parameters) {
      for (const example of examplesOf(parameter)) {
        assert.ok(followsGrammar(parameter, example), `${parameter.name}'s example ${example} breaks its own grammar`)
        const url = withValue(parameter, example)
        expectStatus(await sameBothWays(url), [200], url)
      }
    }
  })

  await t.test('every kind of Accept-Encoding gets the same answer both ways (a br-only client, a browser, one refusing identity)', async () => {
    for (const acceptEncoding of ['br', 'gzip, deflate, br', 'br, identity;q=0', 'gzip;q=0, br;q=0', 'identity']) {
      const url = urlOf(endpoint, firstPathValues, baseQuery)
      expectStatus(await sameBothWays(url, { 'accept-encoding': acceptEncoding }), [200], `${url} (${acceptEncoding})`)
    }
  })

  const required: readonly string[] = endpoint.querystring.required ?? []
  await t.test('a required query parameter left out is 400, naming it', required.length === 0 ? { skip: 'no required query parameter' } : {}, async () => {
    for (const name of required) {
      const url = withValue(queryParameters.find((parameter) => parameter.name === name)!, undefined)
      const response = await sameBothWays(url)
      expectStatus(response, [400], url)
      assert.match(response.json<{ error: { message: string } }>().error.message, new RegExp(`${name} is required`), url)
    }
  })

  await t.test('a value off each parameter\'s grammar is 400', async () => {
    for (const parameter of parameters) {
      const candidates = parameter.in === 'path' ? OFF_GRAMMAR_CANDIDATES.filter((value) => value !== '') : OFF_GRAMMAR_CANDIDATES
      const value = candidates.find((candidate) => !followsGrammar(parameter, candidate))
      assert.ok(value !== undefined, `no candidate value breaks ${parameter.name}'s grammar`)
      const url = withValue(parameter, value)
      const response = await sameBothWays(url)
      expectStatus(response, [400], url)
      assert.match(response.json<{ error: { message: string } }>().error.message, new RegExp(parameter.name), url)
    }
  })

  for (const parameter of parameters) {
    const value = ABSENT_CANDIDATES.find((candidate) => followsGrammar(parameter, candidate))
    // A schema without range words says every value of its grammar names something (the 422's
    // description lists the ranges): then there is no such case, and it shows as skipped.
    const hasRange = rangeOfParameter(parameter.schema) !== undefined
    await t.test(`a value of ${parameter.name}'s grammar that names nothing is ${errorStatuses.join(' or ')}`,
      value === undefined && !hasRange ? { skip: `every value of ${parameter.name}'s grammar names something: its schema gives no range` } : {},
      async () => {
        assert.ok(hasRange, `${parameter.name} answers ${value ?? ''} with an error, but its schema gives no range words for the 422's description`)
        if (value !== undefined) {
          const url = withValue(parameter, value)
          expectStatus(await sameBothWays(url), errorStatuses, url)
          return
        }
        // A closed vocabulary (`application`: regular or ppl) names nothing only with some path: an
        // exam year without that application. Such a pair is looked for among the exams held.
        const url = await absentPairing(endpoint, parameter, firstPathValues, baseQuery)
        assert.ok(url !== undefined, `no candidate value follows ${parameter.name}'s grammar, and none of its examples names nothing with any exam year held`)
        expectStatus(await sameBothWays(url), errorStatuses, url)
      })
  }

  await t.test('every two query parameters together', async () => {
    for (const [position, first] of queryParameters.entries()) {
      for (const second of queryParameters.slice(position + 1)) {
        const url = withValue(second, examplesOf(second)[0], { ...baseQuery, [first.name]: examplesOf(first)[0]! })
        expectStatus(await sameBothWays(url), [200], url)
      }
    }
  })

  await t.test('some example of each query parameter changes the answer', async () => {
    // In some context: the base query, or it with one example of another parameter (a filter may
    // change nothing on a first page or a single draw, and show on a longer one).
    const contexts: Values[] = [baseQuery, ...queryParameters.flatMap((other) => examplesOf(other).map((example) => ({ ...baseQuery, [other.name]: example })))]
    for (const parameter of queryParameters) {
      let changes = false
      changeChecks++
      for (const context of contexts) {
        const without = await server.request(withValue(parameter, undefined, context))
        for (const example of examplesOf(parameter)) {
          if (!(await server.request(withValue(parameter, example, context))).rawPayload.equals(without.rawPayload)) changes = true
        }
        if (changes) break
      }
      assert.ok(changes, `${parameter.name}=${examplesOf(parameter).join('|')} answers as without it, alone or with any other parameter's example: the answer ignores it, or no example selects anything else on the sample`)
    }
  })
}

for (const endpoint of ENDPOINTS) {
  const name = `${methodOf(endpoint)} ${API_BASE}${endpoint.path}`
  const exclusion = EXCLUSIONS.find((candidate) => candidate.applies(endpoint))
  test(name, exclusion === undefined ? {} : { skip: exclusion.reason }, (t) => endpointCases(t, endpoint))
}

test('the case table covered every entry of the endpoint table', (t) => {
  const covered = ENDPOINTS.filter((endpoint) => EXCLUSIONS.every((exclusion) => !exclusion.applies(endpoint)))
  assert.ok(covered.length > 0)
  t.diagnostic(`${caseCount} cases over ${covered.length} of ${ENDPOINTS.length} endpoints, each sent both ways; ${changeChecks} query parameters shown to change the answer`)
})
