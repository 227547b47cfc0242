import { after, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { Ajv2020 } from 'ajv/dist/2020.js'
import { Client, StreamableHTTPClientTransport, type Transport } from '@modelcontextprotocol/client'
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio'
import type { InjectOptions } from 'fastify'
import { build, TEST_PUBLIC_URL, type ErrorResponseBody } from '../helper.ts'
import { keyShownIn, SHEET_2023_CH, STDIO_SERVER } from './agent-calls.ts'

/*
 * Every tool through the SDK's own client, over both transports: POST /mcp on the server's real
 * listener (both protocol eras), and stdio by spawning `npm run mcp` as a desktop assistant does.
 * Each call is compared with what the endpoint answers for the same arguments (typed for what they
 * mean, the endpoint's in its query string's grammar) on an HTTP server of the same dataset and
 * PUBLIC_URL: the structured result is the endpoint's JSON with the answer key withheld unless
 * asked for, and valid against the tool's output schema (the client checks it, and so does Ajv
 * here); a refusal is a tool error naming the argument, or carrying the endpoint's message where
 * only the data can say no.
 */

const server = await build({ after }, { PUBLIC_URL: TEST_PUBLIC_URL })
const port = await server.listen()

async function endpointAnswer (request: InjectOptions | string): Promise<{ statusCode: number, body: unknown }> {
  const answer = await server.request(request)
  return { statusCode: answer.statusCode, body: answer.json() }
}

interface QuestionRecord {
  correctAlternative: string
  alternatives: Array<{ letter: string, isCorrect: boolean }>
  inep: { key: string, annulled: boolean } | null
  [field: string]: unknown
}

const post = (body: unknown): InjectOptions => ({ method: 'POST', url: '/v1/scores', headers: { 'content-type': 'application/json' }, payload: JSON.stringify(body) })

/** A record without its key, field by field as the contract names them. */
function keyWithheld (record: unknown): unknown {
  const { correctAlternative: _key, ...rest } = structuredClone(record) as QuestionRecord
  for (const alternative of rest.alternatives) delete (alternative as Partial<typeof alternative>).isCorrect
  if (rest.inep !== null) delete (rest.inep as Partial<NonNullable<QuestionRecord['inep']>>).key
  return rest
}

/** An answer with `questions` (a page, a draw), every record without its key. */
const keysWithheld = (body: unknown) => ({ ...(body as object), questions: (body as { questions: unknown[] }).questions.map(keyWithheld) })

/** A tool call and the request of the endpoint it stands for; `expected` turns the endpoint's answer into the tool's structured result. */
interface Case {
  tool: string
  args: Record<string, unknown>
  request: InjectOptions | string
  expected?: (body: unknown) => unknown
}

const PRACTICE_RUN = { year: 2020, language: 'ingles', answers: [{ index: 1, answer: 'A' }, { index: 12, answer: 'B' }, { index: 16, answer: 'C' }] }
const PRACTICE_RUN_BODY = { year: 2020, language: 'ingles', answers: { 1: 'A', 12: 'B', 16: 'C' } }

const ANSWERS: Case[] = [
  { tool: 'list_exams', args: {}, request: '/v1/exams', expected: (exams) => ({ exams }) },
  { tool: 'search_questions', args: {}, request: '/v1/questions', expected: keysWithheld },
  { tool: 'search_questions', args: { q: 'fotossíntese', limit: 5, reveal_answer: true }, request: `/v1/questions?q=${encodeURIComponent('fotossíntese')}&limit=5` },
  { tool: 'search_questions', args: { year: [2020], discipline: 'matematica', hasImages: false, limit: 3, offset: 1 }, request: '/v1/questions?year=2020&discipline=matematica&hasImages=false&limit=3&offset=1', expected: keysWithheld },
  { tool: 'search_questions', args: { year: [2016, 2020], application: 'regular', language: 'espanhol', limit: 2, reveal_answer: true }, request: '/v1/questions?year=2016,2020&application=regular&language=espanhol&limit=2' },
  { tool: 'search_questions', args: { difficulty_min: 600, difficulty_max: 750.5, skill: ['MT-H21', 'CN-H17'], annulled: false, reveal_answer: false }, request: '/v1/questions?difficulty=600-750.5&skill=MT-H21,CN-H17&annulled=false', expected: keysWithheld },
  { tool: 'search_questions', args: { difficulty_max: 450 }, request: '/v1/questions?difficulty=-450', expected: keysWithheld },
  { tool: 'get_question', args: { year: 2020, index: 12, reveal_answer: true }, request: '/v1/exams/2020/questions/12' },
  { tool: 'get_question', args: { year: 2020, index: 1, language: 'espanhol', reveal_answer: true }, request: '/v1/exams/2020/questions/1?language=espanhol' },
  { tool: 'get_question', args: { year: 2020, index: 9, application: 'ppl', reveal_answer: true }, request: '/v1/exams/2020/questions/9?application=ppl' },
  { tool: 'get_question', args: { year: 2020, index: 16 }, request: '/v1/exams/2020/questions/16', expected: keyWithheld },
  { tool: 'random_questions', args: { count: 3, seed: 42 }, request: '/v1/questions/random?count=3&seed=42', expected: keysWithheld },
  { tool: 'random_questions', args: { count: 2, seed: 7, discipline: 'linguagens', annulled: false, reveal_answer: true }, request: '/v1/questions/random?count=2&seed=7&discipline=linguagens&annulled=false' },
  { tool: 'practice_questions', args: { discipline: 'matematica', score: 620, count: 3, seed: 5 }, request: '/v1/questions/practice?discipline=matematica&score=620&count=3&seed=5', expected: keysWithheld },
  { tool: 'practice_questions', args: { discipline: 'linguagens', score: 612.3, year: [2020], seed: 5, reveal_answer: true }, request: '/v1/questions/practice?discipline=linguagens&score=612.3&year=2020&seed=5' },
  { tool: 'list_skills', args: { discipline: 'ciencias-natureza' }, request: '/v1/skills', expected: (body) => ({ ...(body as object), areas: (body as { areas: Array<{ discipline: string }> }).areas.filter((area) => area.discipline === 'ciencias-natureza') }) },
  { tool: 'score_answers', args: PRACTICE_RUN, request: post(PRACTICE_RUN_BODY) },
  { tool: 'score_answers', args: { ...PRACTICE_RUN, application: 'regular' }, request: post({ ...PRACTICE_RUN_BODY, application: 'regular' }) },
  { tool: 'score_answers', args: { year: 2023, booklet: 1191, sheet: SHEET_2023_CH }, request: post({ year: 2023, booklet: 1191, answers: SHEET_2023_CH }) }
]

/** Arguments the data refuses: the tool error carries the endpoint's own message for the same request. */
const DATA_REFUSALS: Case[] = [
  { tool: 'get_question', args: { year: 1999, index: 1 }, request: '/v1/exams/1999/questions/1' },
  { tool: 'get_question', args: { year: 2020, index: 999 }, request: '/v1/exams/2020/questions/999' },
  { tool: 'get_question', args: { year: 2020, index: 1, language: 'frances' }, request: '/v1/exams/2020/questions/1?language=frances' },
  { tool: 'check_answer', args: { year: 2023, index: 1, application: 'ppl', answer: 'A' }, request: '/v1/exams/2023/questions/1?application=ppl' },
  { tool: 'search_questions', args: { q: '+++' }, request: '/v1/questions?q=%2B%2B%2B' },
  { tool: 'search_questions', args: { year: [2020, 1999] }, request: '/v1/questions?year=2020,1999' },
  { tool: 'random_questions', args: { language: 'frances' }, request: '/v1/questions/random?language=frances' },
  { tool: 'practice_questions', args: { discipline: 'matematica', score: 650, year: [1999] }, request: '/v1/questions/practice?discipline=matematica&score=650&year=1999' },
  { tool: 'score_answers', args: { year: 1999, answers: [{ index: 1, answer: 'A' }] }, request: post({ year: 1999, answers: { 1: 'A' } }) },
  { tool: 'score_answers', args: { year: 2023, booklet: 999_999, sheet: SHEET_2023_CH }, request: post({ year: 2023, booklet: 999_999, answers: SHEET_2023_CH }) },
  { tool: 'score_answers', args: { year: 2020, answers: [{ index: 1, answer: 'A' }] }, request: post({ year: 2020, answers: { 1: 'A' } }) }
]

/** Arguments the tool's input schema does not allow, and the argument the message must name first. */
const ARGUMENT_REFUSALS: Array<{ tool: string, args: Record<string, unknown>, names: string }> = [
  { tool: 'get_question', args: { year: '2020', index: 1 }, names: 'year' },
  { tool: 'get_question', args: { year: 2020, index: 1.5 }, names: 'index' },
  { tool: 'get_question', args: { year: 2020, index: 0 }, names: 'index' },
  { tool: 'get_question', args: { year: 2020, index: 1e12 }, names: 'index' },
  { tool: 'get_question', args: { year: 2020, index: 1, language: 'INGLES' }, names: 'language' },
  { tool: 'get_question', args: { year: 2020, index: 1, application: 'extra' }, names: 'application' },
  { tool: 'get_question', args: { year: 2020, index: 1, reveal_answer: 'yes' }, names: 'reveal_answer' },
  { tool: 'search_questions', args: { limit: 0 }, names: 'limit' },
  { tool: 'search_questions', args: { limit: 51 }, names: 'limit' },
  { tool: 'search_questions', args: { q: '' }, names: 'q' },
  { tool: 'search_questions', args: { year: 2020 }, names: 'year' },
  { tool: 'search_questions', args: { year: [] }, names: 'year' },
  { tool: 'search_questions', args: { year: ['2020'] }, names: 'year[0]' },
  { tool: 'search_questions', args: { year: '2016-2020' }, names: 'year' },
  { tool: 'search_questions', args: { hasImages: 'yes' }, names: 'hasImages' },
  { tool: 'search_questions', args: { discipline: 'fisica' }, names: 'discipline' },
  { tool: 'search_questions', args: { skill: 'MT-H21' }, names: 'skill' },
  { tool: 'search_questions', args: { skill: ['MT-H31'] }, names: 'skill[0]' },
  { tool: 'search_questions', args: { difficulty: '600-700' }, names: '"difficulty"' },
  { tool: 'search_questions', args: { difficulty_min: -1 }, names: 'difficulty_min' },
  { tool: 'search_questions', args: { difficulty_max: 1000.5 }, names: 'difficulty_max' },
  { tool: 'search_questions', args: { difficulty_min: 700, difficulty_max: 600 }, names: 'difficulty_min' },
  { tool: 'search_questions', args: { disciplina: 'matematica' }, names: '"disciplina"' },
  { tool: 'random_questions', args: { count: 51 }, names: 'count' },
  { tool: 'random_questions', args: { seed: -1 }, names: 'seed' },
  { tool: 'practice_questions', args: { discipline: 'matematica' }, names: 'score' },
  { tool: 'practice_questions', args: { score: 650 }, names: 'discipline' },
  { tool: 'practice_questions', args: { discipline: 'matematica', score: '650' }, names: 'score' },
  { tool: 'practice_questions', args: { discipline: 'matematica', score: 1001 }, names: 'score' },
  { tool: 'list_exams', args: { year: 2020 }, names: '"year"' },
  { tool: 'score_answers', args: { answers: [{ index: 1, answer: 'A' }] }, names: 'year' },
  { tool: 'score_answers', args: { year: 2020 }, names: 'sheet or answers' },
  { tool: 'score_answers', args: { year: 2020, answers: { 1: 'A' } }, names: 'answers' },
  { tool: 'score_answers', args: { year: 2020, answers: [{ index: 1, answer: 'F' }] }, names: 'answers[0].answer' },
  { tool: 'score_answers', args: { year: 2020, answers: [{ index: 181, answer: 'A' }] }, names: 'answers[0].index' },
  { tool: 'score_answers', args: { year: 2020, answers: [{ index: 1 }] }, names: 'answers[0].answer' },
  { tool: 'score_answers', args: { year: 2020, answers: [{ index: 1, answer: 'A', weight: 2 }] }, names: 'answers[0]' },
  { tool: 'score_answers', args: { year: 2020, answers: [{ index: 1, answer: 'A' }, { index: 1, answer: 'B' }] }, names: 'answers' },
  { tool: 'score_answers', args: { year: 2020, booklet: 1191, answers: [{ index: 1, answer: 'A' }] }, names: 'booklet' },
  { tool: 'score_answers', args: { year: 2023, booklet: 1191, sheet: 'ABC' }, names: 'sheet' },
  { tool: 'score_answers', args: { year: 2023, sheet: SHEET_2023_CH }, names: 'booklet' },
  { tool: 'score_answers', args: { year: 2023, booklet: 1191, sheet: `${SHEET_2023_CH}ABCDE` }, names: 'sheet' },
  { tool: 'score_answers', args: { year: 2023, booklet: 1191, sheet: SHEET_2023_CH, application: 'regular' }, names: 'application' },
  { tool: 'score_answers', args: { year: 2023, booklet: 1191, sheet: SHEET_2023_CH, answers: [{ index: 1, answer: 'A' }] }, names: 'sheet' }
]

/** Words of the HTTP side a tool's message must not use: it speaks of arguments. */
const HTTP_WORDS = /query parameter|path parameter|body field|\bthe body\b/

const TOOL_NAMES = ['list_exams', 'search_questions', 'get_question', 'check_answer', 'random_questions', 'practice_questions', 'score_answers', 'list_skills']

interface ToolResult {
  isError?: boolean
  content: Array<{ type: string, text?: string }>
  structuredContent?: Record<string, unknown>
}

async function call (client: Client, tool: string, args: Record<string, unknown>): Promise<ToolResult> {
  return await client.callTool({ name: tool, arguments: args }) as ToolResult
}

function textOf (result: ToolResult): string {
  const [first] = result.content
  assert.equal(first?.type, 'text')
  return first.text ?? ''
}

/** Each transport, and the protocol revision its client negotiates. */
const TRANSPORTS: Array<[name: string, protocol: string, connect: () => Promise<Client>]> = [
  ['Streamable HTTP, protocol 2025-11-25', '2025-11-25', () => connected(new Client({ name: 'enem-test', version: '1.0.0' }), new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)))],
  ['Streamable HTTP, protocol 2026-07-28', '2026-07-28', () => connected(new Client({ name: 'enem-test', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } }), new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)))],
  // The sample dataset (no ENEM_DATA_DIR), with the addresses of the HTTP server compared with.
  ['stdio (npm run mcp)', '2025-11-25', () => connected(new Client({ name: 'enem-test', version: '1.0.0' }), new StdioClientTransport({ ...STDIO_SERVER, stderr: 'pipe' }))]
]

async function connected (client: Client, transport: Transport): Promise<Client> {
  await client.connect(transport)
  return client
}

/** Every place of a JSON Schema, with its path. */
function * schemaNodes (schema: unknown, path = '#'): Generator<[string, Record<string, unknown>]> {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return
  const node = schema as Record<string, unknown>
  yield [path, node]
  for (const [keyword, value] of Object.entries(node)) {
    if (keyword === 'properties' && typeof value === 'object' && value !== null) {
      for (const [name, property] of Object.entries(value)) yield * schemaNodes(property, `${path}/properties/${name}`)
    } else if (Array.isArray(value)) {
      for (const [at, item] of value.entries()) yield * schemaNodes(item, `${path}/${keyword}/${at}`)
    } else if (typeof value === 'object' && keyword !== 'examples' && keyword !== 'default' && keyword !== 'const') {
      yield * schemaNodes(value, `${path}/${keyword}`)
    }
  }
}

/** Ajv in strict mode, as the Inspector's strict checks: an unknown keyword or a malformed schema is an error. */
const ajv = new Ajv2020({ strict: true, allErrors: true })

for (const [name, protocol, connect] of TRANSPORTS) {
  describe(`the MCP tools over ${name}`, { timeout: 180_000 }, async () => {
    const client = await connect()
    after(() => client.close())
    // Listed first, as clients do: the client keeps each tool's output schema and checks every result against it.
    const { tools } = await client.listTools()
    const outputValidators = new Map(tools.map((tool) => [tool.name, ajv.compile(tool.outputSchema ?? {})]))

    test(`it speaks protocol ${protocol}, and advertises no tools.listChanged (its tools never change)`, () => {
      assert.equal(client.getNegotiatedProtocolVersion(), protocol)
      const capabilities = client.getServerCapabilities()
      assert.equal(typeof capabilities?.tools, 'object', 'it serves tools')
      assert.notEqual(capabilities?.tools?.listChanged, true)
    })

    test('every tool has a closed, typed input schema (no anyOf, oneOf or pattern-keyed maps) and an object output schema', () => {
      assert.deepEqual(tools.map((tool) => tool.name).sort(), [...TOOL_NAMES].sort())
      for (const tool of tools) {
        ajv.compile(tool.inputSchema)
        for (const [path, node] of schemaNodes(tool.inputSchema)) {
          const where = `${tool.name} input ${path}`
          for (const keyword of ['anyOf', 'oneOf', 'allOf', 'patternProperties', 'propertyNames', 'not', 'if']) assert.equal(keyword in node, false, `${where} has ${keyword}`)
          assert.equal(typeof node.type, 'string', `${where} names one JSON type`)
          if (node.type === 'object') assert.equal(node.additionalProperties, false, `${where} is closed`)
          for (const required of (node.required ?? []) as string[]) assert.ok(Object.hasOwn(node.properties as object, required), `${where} requires ${required}, a property it has`)
        }
        assert.equal(tool.outputSchema?.type, 'object', `${tool.name} declares an object output schema`)
      }
      const input = (toolName: string) => tools.find((tool) => tool.name === toolName)!.inputSchema
      assert.deepEqual(input('get_question').required, ['year', 'index'])
      assert.deepEqual(input('practice_questions').required, ['discipline', 'score'])
      assert.deepEqual(input('check_answer').required, ['year', 'index', 'answer'])
      assert.deepEqual(input('score_answers').required, ['year'])
      const types = (toolName: string) => Object.fromEntries(Object.entries(input(toolName).properties as Record<string, { type: string, items?: { type: string } }>).map(([property, schema]) => [property, schema.items === undefined ? schema.type : `${schema.type} of ${schema.items.type}`]))
      assert.deepEqual(types('practice_questions'), { discipline: 'string', score: 'number', count: 'integer', year: 'array of integer', application: 'string', language: 'string', skill: 'array of string', seed: 'integer', reveal_answer: 'boolean', figures: 'boolean' })
      assert.deepEqual(types('score_answers'), { year: 'integer', sheet: 'string', booklet: 'integer', answers: 'array of object', application: 'string', language: 'string' })
      assert.equal(types('search_questions').difficulty_min, 'number')
      assert.equal(types('search_questions').difficulty_max, 'number')
    })

    for (const { tool, args, request, expected } of ANSWERS) {
      test(`${tool} ${JSON.stringify(args)} answers what ${typeof request === 'string' ? request : `POST ${request.url} ${String(request.payload)}`} answers, valid against its output schema`, async () => {
        const endpoint = await endpointAnswer(request)
        assert.equal(endpoint.statusCode, 200, JSON.stringify(endpoint.body))
        const result = await call(client, tool, args)
        assert.notEqual(result.isError, true, textOf(result))
        assert.deepEqual(result.structuredContent, expected === undefined ? endpoint.body : expected(endpoint.body))
        const validate = outputValidators.get(tool)!
        assert.ok(validate(result.structuredContent), JSON.stringify(validate.errors))
        assert.ok(textOf(result).length > 0)
      })
    }

    for (const { tool, args, request } of DATA_REFUSALS) {
      test(`${tool} ${JSON.stringify(args)} is a tool error with the message of ${typeof request === 'string' ? request : `POST ${request.url} ${String(request.payload)}`}`, async () => {
        const endpoint = await endpointAnswer(request)
        assert.ok(endpoint.statusCode >= 400 && endpoint.statusCode < 500, `the endpoint refuses it: ${endpoint.statusCode}`)
        const result = await call(client, tool, args)
        assert.equal(result.isError, true)
        assert.equal(textOf(result), (endpoint.body as ErrorResponseBody).error.message)
        // No structured content: clients check it against the output schema, some even an error's.
        assert.equal(result.structuredContent, undefined)
      })
    }

    for (const { tool, args, names } of ARGUMENT_REFUSALS) {
      test(`${tool} ${JSON.stringify(args)} is a tool error naming ${names}`, async () => {
        const result = await call(client, tool, args)
        assert.equal(result.isError, true)
        const message = textOf(result)
        assert.ok(message.startsWith(`${names} `), message)
        assert.doesNotMatch(message, HTTP_WORDS)
        assert.equal(result.structuredContent, undefined)
      })
    }

    test('a required argument left out is named as the tool argument: "score is required"', async () => {
      assert.equal(textOf(await call(client, 'practice_questions', { discipline: 'matematica' })), 'score is required')
      assert.equal(textOf(await call(client, 'get_question', { year: 2020 })), 'index is required')
      assert.equal(textOf(await call(client, 'check_answer', { year: 2020, index: 16 })), 'answer is required')
      assert.equal(textOf(await call(client, 'score_answers', { year: 2023, sheet: SHEET_2023_CH })), 'booklet is required with sheet')
    })

    test('search_questions, random_questions, practice_questions and get_question withhold the key unless reveal_answer is true, in the result and its text', async () => {
      // A question with INEP's facts, whose key is one more place to withhold.
      const page = (await endpointAnswer('/v1/questions?limit=50')).body as { questions: Array<QuestionRecord & { year: number, index: number, application: string, language: string | null }> }
      const withFacts = page.questions.find((question) => question.inep !== null && question.language === null && question.application === 'regular')
      assert.ok(withFacts !== undefined, 'the sample has a question with INEP facts')
      const calls: Array<[string, Record<string, unknown>]> = [
        ['search_questions', { limit: 50 }],
        ['random_questions', { count: 50, seed: 3 }],
        ['practice_questions', { discipline: 'ciencias-natureza', score: 580, count: 10, seed: 3 }],
        ['get_question', { year: withFacts.year, index: withFacts.index }]
      ]
      for (const [tool, args] of calls) {
        const hidden = await call(client, tool, args)
        const records = (hidden.structuredContent?.questions ?? [hidden.structuredContent]) as Array<Partial<QuestionRecord>>
        assert.ok(records.length > 0, `${tool} finds questions`)
        assert.ok(records.some((record) => record.inep !== null), `${tool} shows a question with INEP's facts`)
        assert.deepEqual(keyShownIn(hidden.structuredContent), [], tool)
        assert.deepEqual(keyShownIn(textOf(hidden)), [], tool)
        for (const record of records) {
          assert.equal(record.alternatives?.length, 5, 'the alternatives stay')
          if (record.inep !== null) assert.equal(typeof record.inep?.annulled, 'boolean', 'the other facts stay')
        }

        const shown = await call(client, tool, { ...args, reveal_answer: true })
        const whole = (shown.structuredContent?.questions ?? [shown.structuredContent]) as QuestionRecord[]
        assert.deepEqual(whole.map(keyWithheld), records, `${tool}: the same records, with their keys`)
        for (const record of whole) {
          assert.match(textOf(shown), new RegExp(`\\*\\*Gabarito:\\*\\* ${record.correctAlternative}`))
          assert.equal(record.alternatives.filter((alternative) => alternative.isCorrect).map((alternative) => alternative.letter).join(), record.correctAlternative)
          if (record.inep !== null) assert.ok(['X', record.correctAlternative].includes(record.inep.key))
        }
      }
    })

    test('the question\'s text shows its alternatives A to E and its images as links to this server', async () => {
      const endpoint = await endpointAnswer('/v1/exams/2020/questions/12')
      const record = endpoint.body as QuestionRecord & { files: string[] }
      assert.ok(record.files.length > 0, 'the sample\'s 2020/12 has images')
      const text = textOf(await call(client, 'get_question', { year: 2020, index: 12 }))
      for (const letter of ['A', 'B', 'C', 'D', 'E']) assert.match(text, new RegExp(`^\\*\\*${letter}\\)\\*\\*`, 'm'))
      for (const file of record.files) {
        assert.ok(file.startsWith(`${TEST_PUBLIC_URL}/files/`))
        assert.ok(text.includes(`](${file})`), `a link to ${file}`)
      }
      assert.doesNotMatch(text, /!\[/, 'no inline image')
    })

    test('check_answer says right or wrong against the endpoint\'s key, and whether INEP annulled the question', async () => {
      const { body } = await endpointAnswer('/v1/exams/2020/questions/16')
      const record = body as QuestionRecord & { year: number, index: number, application: string, language: string | null }
      const wrong = ['A', 'B', 'C', 'D', 'E'].find((letter) => letter !== record.correctAlternative)!
      for (const answer of [record.correctAlternative, wrong]) {
        const result = await call(client, 'check_answer', { year: 2020, index: 16, answer })
        assert.deepEqual(result.structuredContent, {
          year: record.year,
          application: record.application,
          index: record.index,
          language: record.language,
          answer,
          correct: answer === record.correctAlternative,
          correctAlternative: record.correctAlternative,
          annulled: record.inep?.annulled === true
        })
        assert.ok(outputValidators.get('check_answer')!(result.structuredContent))
      }
      const annulled = (await endpointAnswer('/v1/questions?annulled=true&limit=1')).body as { questions: Array<QuestionRecord & { year: number, index: number, application: string, language: string | null }> }
      const [question] = annulled.questions
      assert.ok(question !== undefined, 'the sample has an annulled question')
      const result = await call(client, 'check_answer', { year: question.year, index: question.index, application: question.application, ...(question.language === null ? {} : { language: question.language }), answer: 'A' })
      assert.equal(result.structuredContent?.annulled, true)
      assert.match(textOf(result), /anulada/)
    })

    test('check_answer refuses a letter other than A to E', async () => {
      for (const answer of ['F', 'a', 1]) {
        const result = await call(client, 'check_answer', { year: 2020, index: 16, answer })
        assert.equal(result.isError, true)
        assert.match(textOf(result), /^answer must be one of A, B, C, D, E, got /)
      }
    })

    test('an argument set to null counts as left out, as a model in OpenAI\'s strict mode sends it', async () => {
      const result = await call(client, 'get_question', { year: 2020, index: 16, language: null, application: null, reveal_answer: null })
      assert.deepEqual(result.structuredContent, keyWithheld((await endpointAnswer('/v1/exams/2020/questions/16')).body))
    })

    test('a tool that does not exist is an error, not an answer', async () => {
      const result = await call(client, 'delete_everything', {}).catch((error: unknown) => ({ isError: true, content: [{ type: 'text', text: String(error) }] }))
      assert.equal(result.isError, true)
    })
  })
}

describe('every numeric bound a tool declares is the one its endpoint keeps', { timeout: 120_000 }, async () => {
  const client = await connected(new Client({ name: 'enem-test', version: '1.0.0' }), new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)))
  after(() => client.close())
  const { tools } = await client.listTools()
  // Each tool's required arguments, answerable, so that one argument at a time can be moved to its bounds.
  const BASE: Record<string, Record<string, unknown>> = {
    search_questions: {},
    get_question: { year: 2020, index: 1 },
    check_answer: { year: 2020, index: 1, answer: 'A' },
    random_questions: {},
    practice_questions: { discipline: 'matematica', score: 600 },
    // The sheet form: the one that takes a booklet.
    score_answers: { year: 2023, booklet: 1191, sheet: SHEET_2023_CH }
  }
  for (const tool of tools) {
    const properties = tool.inputSchema.properties as Record<string, { type: string, minimum?: number, maximum?: number }>
    for (const [argument, schema] of Object.entries(properties)) {
      if (schema.type !== 'integer' && schema.type !== 'number') continue
      const step = schema.type === 'integer' ? 1 : 0.01
      for (const [bound, beyond] of [[schema.minimum, -step], [schema.maximum, step]] as const) {
        if (bound === undefined) continue
        test(`${tool.name}'s ${argument}: ${bound} is taken, ${bound + beyond} is refused naming it`, async () => {
          const refusal = new RegExp(`^${argument} must be an? (integer|number)`)
          const at = await call(client, tool.name, { ...BASE[tool.name], [argument]: bound })
          if (at.isError === true) assert.doesNotMatch(textOf(at), refusal, 'the bound itself is within')
          if (at.isError === true) assert.doesNotMatch(textOf(at), new RegExp(`^${argument} must be between`), 'and the endpoint agrees')
          const past = await call(client, tool.name, { ...BASE[tool.name], [argument]: bound + beyond })
          assert.equal(past.isError, true)
          assert.match(textOf(past), refusal)
        })
      }
    }
  }
})
