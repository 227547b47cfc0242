import { after, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { fileURLToPath } from 'node:url'
import { Client, StreamableHTTPClientTransport, type Transport } from '@modelcontextprotocol/client'
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio'
import type { InjectOptions } from 'fastify'
import { build, TEST_PUBLIC_URL, type ErrorResponseBody } from '../helper.ts'

/*
 * Every tool through the SDK's own client, over both transports: POST /mcp on the server's real
 * listener (both protocol eras), and stdio by spawning `npm run mcp` as a desktop assistant does.
 * Each call is compared with what the endpoint answers for the same arguments on an HTTP server of
 * the same dataset and PUBLIC_URL: the structured result is the endpoint's JSON, a refusal is a tool
 * error carrying the endpoint's message and error body.
 */

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url))

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

/** A tool call and the request of the endpoint it stands for; `expected` turns the endpoint's answer into the tool's structured result. */
interface Case {
  tool: string
  args: Record<string, unknown>
  request: InjectOptions | string
  expected?: (body: unknown) => unknown
}

const PRACTICE_RUN = { year: 2020, language: 'ingles', answers: { 1: 'A', 12: 'B', 16: 'C' } }
const ANSWER_SHEET = { year: 2023, booklet: 1191, answers: 'CABBAEDCEB*ADCBEEDACABCDEABDCBEAEDCBABCDEAB*C' }

const ANSWERS: Case[] = [
  { tool: 'list_exams', args: {}, request: '/v1/exams', expected: (exams) => ({ exams }) },
  { tool: 'search_questions', args: {}, request: '/v1/questions' },
  { tool: 'search_questions', args: { q: 'fotossíntese', limit: 5 }, request: `/v1/questions?q=${encodeURIComponent('fotossíntese')}&limit=5` },
  { tool: 'search_questions', args: { year: '2020', discipline: 'matematica', hasImages: false, limit: 3, offset: 1 }, request: '/v1/questions?year=2020&discipline=matematica&hasImages=false&limit=3&offset=1' },
  { tool: 'search_questions', args: { year: '2016-2020', application: 'regular', language: 'espanhol', limit: '2' }, request: '/v1/questions?year=2016-2020&application=regular&language=espanhol&limit=2' },
  { tool: 'get_question', args: { year: 2020, index: 12, reveal_answer: true }, request: '/v1/exams/2020/questions/12' },
  { tool: 'get_question', args: { year: 2020, index: 1, language: 'espanhol', reveal_answer: true }, request: '/v1/exams/2020/questions/1?language=espanhol' },
  { tool: 'get_question', args: { year: '2020', index: '9', application: 'ppl', reveal_answer: true }, request: '/v1/exams/2020/questions/9?application=ppl' },
  {
    tool: 'get_question',
    args: { year: 2020, index: 16 },
    request: '/v1/exams/2020/questions/16',
    // The record without its key, field by field as the contract names them.
    expected: (body) => {
      const record = structuredClone(body) as QuestionRecord
      const { correctAlternative: _key, ...rest } = record
      for (const alternative of rest.alternatives) delete (alternative as Partial<typeof alternative>).isCorrect
      if (rest.inep !== null) delete (rest.inep as Partial<NonNullable<QuestionRecord['inep']>>).key
      return rest
    }
  },
  { tool: 'random_questions', args: { count: 3, seed: 42 }, request: '/v1/questions/random?count=3&seed=42' },
  { tool: 'random_questions', args: { count: 2, seed: 7, discipline: 'linguagens', annulled: false }, request: '/v1/questions/random?count=2&seed=7&discipline=linguagens&annulled=false' },
  { tool: 'practice_questions', args: { discipline: 'matematica', score: 620, count: 3, seed: 5 }, request: '/v1/questions/practice?discipline=matematica&score=620&count=3&seed=5' },
  { tool: 'list_skills', args: {}, request: '/v1/skills' },
  { tool: 'score_answers', args: PRACTICE_RUN, request: post(PRACTICE_RUN) },
  { tool: 'score_answers', args: ANSWER_SHEET, request: post(ANSWER_SHEET) }
]

/** Bad arguments and the endpoint request that is refused the same way. */
const REFUSALS: Case[] = [
  { tool: 'get_question', args: { year: 'abc', index: 1 }, request: '/v1/exams/abc/questions/1' },
  { tool: 'get_question', args: { year: 2020, index: 1.5 }, request: '/v1/exams/2020/questions/1.5' },
  { tool: 'get_question', args: { year: 2020, index: 0 }, request: '/v1/exams/2020/questions/0' },
  { tool: 'get_question', args: { year: 1999, index: 1 }, request: '/v1/exams/1999/questions/1' },
  { tool: 'get_question', args: { year: 2020, index: 999 }, request: '/v1/exams/2020/questions/999' },
  { tool: 'get_question', args: { year: 2020, index: 1, language: 'frances' }, request: '/v1/exams/2020/questions/1?language=frances' },
  { tool: 'get_question', args: { year: 2020, index: 1, language: 'INGLES' }, request: '/v1/exams/2020/questions/1?language=INGLES' },
  { tool: 'check_answer', args: { year: 2023, index: 1, application: 'ppl', answer: 'A' }, request: '/v1/exams/2023/questions/1?application=ppl' },
  { tool: 'search_questions', args: { limit: 0 }, request: '/v1/questions?limit=0' },
  { tool: 'search_questions', args: { limit: 51 }, request: '/v1/questions?limit=51' },
  { tool: 'search_questions', args: { q: '+++' }, request: '/v1/questions?q=%2B%2B%2B' },
  { tool: 'search_questions', args: { year: '2020-2016' }, request: '/v1/questions?year=2020-2016' },
  { tool: 'search_questions', args: { hasImages: 'yes' }, request: '/v1/questions?hasImages=yes' },
  { tool: 'random_questions', args: { count: 51 }, request: '/v1/questions/random?count=51' },
  { tool: 'practice_questions', args: { discipline: 'matematica' }, request: '/v1/questions/practice?discipline=matematica' },
  { tool: 'practice_questions', args: { discipline: 'matematica', score: 1001 }, request: '/v1/questions/practice?discipline=matematica&score=1001' },
  { tool: 'random_questions', args: { seed: -1 }, request: '/v1/questions/random?seed=-1' },
  { tool: 'score_answers', args: { year: 2020, answers: { 1: 'F' } }, request: post({ year: 2020, answers: { 1: 'F' } }) },
  { tool: 'score_answers', args: { year: 2020 }, request: post({ year: 2020 }) },
  { tool: 'score_answers', args: { year: 1999, answers: { 1: 'A' } }, request: post({ year: 1999, answers: { 1: 'A' } }) },
  { tool: 'score_answers', args: { year: 2023, booklet: 1191, answers: 'ABC' }, request: post({ year: 2023, booklet: 1191, answers: 'ABC' }) }
]

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
  ['stdio (npm run mcp)', '2025-11-25', () => connected(new Client({ name: 'enem-test', version: '1.0.0' }), new StdioClientTransport({
    command: 'npm',
    args: ['run', '--silent', 'mcp'],
    cwd: REPO_ROOT,
    // The sample dataset (no ENEM_DATA_DIR), with the addresses of the HTTP server compared with.
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ENEM_DATA_DIR: '', PUBLIC_URL: TEST_PUBLIC_URL, LOG_LEVEL: 'warn' },
    stderr: 'pipe'
  }))]
]

async function connected (client: Client, transport: Transport): Promise<Client> {
  await client.connect(transport)
  return client
}

for (const [name, protocol, connect] of TRANSPORTS) {
  describe(`the MCP tools over ${name}`, { timeout: 180_000 }, async () => {
    const client = await connect()
    after(() => client.close())

    test(`it speaks protocol ${protocol}`, () => {
      assert.equal(client.getNegotiatedProtocolVersion(), protocol)
    })

    test('it lists the tools, each with an object input schema drawn from its endpoint\'s', async () => {
      const { tools } = await client.listTools()
      assert.deepEqual(tools.map((tool) => tool.name).sort(), [...TOOL_NAMES].sort())
      for (const tool of tools) assert.equal(tool.inputSchema.type, 'object', tool.name)
      const getQuestion = tools.find((tool) => tool.name === 'get_question')!
      assert.deepEqual(getQuestion.inputSchema.required, ['year', 'index'])
      const properties = getQuestion.inputSchema.properties as Record<string, { type: string }>
      assert.deepEqual(Object.keys(properties).sort(), ['application', 'index', 'language', 'reveal_answer', 'year'])
      assert.equal(properties.year?.type, 'integer')
    })

    for (const { tool, args, request, expected } of ANSWERS) {
      test(`${tool} ${JSON.stringify(args)} answers what ${typeof request === 'string' ? request : `POST ${request.url} ${String(request.payload)}`} answers`, async () => {
        const endpoint = await endpointAnswer(request)
        assert.equal(endpoint.statusCode, 200, JSON.stringify(endpoint.body))
        const result = await call(client, tool, args)
        assert.notEqual(result.isError, true, textOf(result))
        assert.deepEqual(result.structuredContent, expected === undefined ? endpoint.body : expected(endpoint.body))
        assert.ok(textOf(result).length > 0)
      })
    }

    for (const { tool, args, request } of REFUSALS) {
      test(`${tool} ${JSON.stringify(args)} is a tool error with the message of ${typeof request === 'string' ? request : `POST ${request.url} ${String(request.payload)}`}`, async () => {
        const endpoint = await endpointAnswer(request)
        assert.ok(endpoint.statusCode >= 400 && endpoint.statusCode < 500, `the endpoint refuses it: ${endpoint.statusCode}`)
        const result = await call(client, tool, args)
        assert.equal(result.isError, true)
        const error = endpoint.body as ErrorResponseBody
        assert.equal(textOf(result), error.error.message)
        assert.deepEqual(result.structuredContent, error)
      })
    }

    test('get_question withholds the key unless reveal_answer is true, in the result and in its text', async () => {
      // A question with INEP's facts, whose key is one more place to withhold.
      const page = (await endpointAnswer('/v1/questions?limit=50')).body as { questions: Array<QuestionRecord & { year: number, index: number, application: string, language: string | null }> }
      const withFacts = page.questions.find((question) => question.inep !== null && question.language === null && question.application === 'regular')
      assert.ok(withFacts !== undefined, 'the sample has a question with INEP facts')
      const which = { year: withFacts.year, index: withFacts.index }
      const hidden = await call(client, 'get_question', which)
      const record = hidden.structuredContent as Partial<QuestionRecord>
      assert.equal('correctAlternative' in record, false)
      assert.ok(record.alternatives !== undefined && record.alternatives.length === 5)
      for (const alternative of record.alternatives) assert.equal('isCorrect' in alternative, false)
      assert.ok(record.inep !== null && record.inep !== undefined)
      assert.equal('key' in record.inep, false)
      assert.equal(record.inep.annulled, withFacts.inep?.annulled, 'the other facts stay')
      assert.doesNotMatch(textOf(hidden), /Gabarito/)

      const shown = await call(client, 'get_question', { ...which, reveal_answer: true })
      const whole = shown.structuredContent as QuestionRecord
      assert.match(textOf(shown), new RegExp(`\\*\\*Gabarito:\\*\\* ${whole.correctAlternative}`))
      assert.equal(whole.inep?.key, whole.correctAlternative)
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
      }
      const annulled = (await endpointAnswer('/v1/questions?annulled=true&limit=1')).body as { questions: Array<QuestionRecord & { year: number, index: number, application: string, language: string | null }> }
      const [question] = annulled.questions
      assert.ok(question !== undefined, 'the sample has an annulled question')
      const result = await call(client, 'check_answer', { year: question.year, index: question.index, application: question.application, ...(question.language === null ? {} : { language: question.language }), answer: 'A' })
      assert.equal(result.structuredContent?.annulled, true)
      assert.match(textOf(result), /anulada/)
    })

    test('check_answer refuses a letter other than A to E, and a missing one', async () => {
      for (const answer of ['F', 'a', 1, undefined]) {
        const result = await call(client, 'check_answer', { year: 2020, index: 16, ...(answer === undefined ? {} : { answer }) })
        assert.equal(result.isError, true)
        assert.match(textOf(result), /^answer must be one of A, B, C, D, E, got /)
      }
    })

    test('a tool that does not exist is an error, not an answer', async () => {
      const result = await call(client, 'delete_everything', {}).catch((error: unknown) => ({ isError: true, content: [{ type: 'text', text: String(error) }] }))
      assert.equal(result.isError, true)
    })
  })
}
