import { after, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { brotliDecompressSync } from 'node:zlib'
import { compileErrors, validate } from '@readme/openapi-parser'
import { AlternativeSchema, ExamSummarySchema, BookletSchema, IncompleteSchema, InepSchema, IrtSchema, OptionSchema, QuestionSchema, ServedQuestionSummarySchema } from '../../src/data/record-schemas.ts'
import { docPathFor, ERROR_CODES, type ErrorStatus } from '../../src/http/errors.ts'
import { errorHeading } from '../../src/http/plugins/openapi.ts'
import { EXAMPLE_REQUESTS, errorExampleRequests, successExamples } from '../../src/http/plugins/openapi-examples.ts'
import { INTEGER_PATTERN, LIMIT_MAX, SLUG_MAX_LENGTH, SLUG_PATTERN, rangeOfParameter } from '../../src/http/schemas/parameters.ts'
import { ENDPOINTS, MCP_ENDPOINT } from '../../src/http/endpoints.ts'
import { errorDescriptions } from '../../src/http/error-descriptions.ts'
import { ErrorSchema, ExamDetailSchema, PaginationMetadataSchema, QuestionPageSchema } from '../../src/http/schemas/responses.ts'
import { FoundQuestionPageSchema, PracticeDrawSchema, RandomDrawSchema } from '../../src/http/schemas/finding.ts'
import { SkillAreaSchema, SkillCatalogSchema, SkillSchema } from '../../src/http/schemas/skills.ts'
import { AnswerSheetSchema, AreaScoreSchema, LeftOutSchema, PracticeRunSchema, ScoreAnswerSchema } from '../../src/http/schemas/scores.ts'
import { Compile } from 'typebox/compile'
import { Contract, pointerToken } from '../contract.ts'
import { build, FULL_DATA_DIR, TEST_PUBLIC_URL } from '../helper.ts'

type JsonObject = { [key: string]: unknown }
interface Parameter { name: string, in: string, required: boolean, description: string, example?: string, examples?: Record<string, { value: unknown }>, schema: { pattern?: string, maxLength?: number } }
interface Operation {
  operationId: string
  summary: string
  tags: string[]
  parameters: Array<Parameter | { $ref: string }>
  responses: Record<string, { $ref?: string, description?: string, headers?: Record<string, { $ref: string }>, content?: Record<string, { schema: { $ref?: string }, example?: unknown, examples?: Record<string, { value: unknown }> }> }>
}
interface Document {
  openapi: string
  info: { title: string, version: string, description: string }
  servers: Array<{ url: string }>
  paths: Record<string, { get: Operation }>
  components: { schemas: Record<string, JsonObject>, headers: Record<string, JsonObject>, responses: Record<string, JsonObject> }
}

const server = await build({ after })
const postOperation = (path: string) => (document.paths[path] as unknown as { post: Operation & { requestBody: { required: boolean, content: Record<string, { schema: { $ref?: string }, examples: Record<string, { summary: string, value: unknown }> }> } } }).post
const document = (await server.request('/v1/openapi.json')).json<Document>()

const OPERATIONS = {
  listExams: '/exams',
  getExam: '/exams/{year}',
  listQuestions: '/exams/{year}/questions',
  getQuestion: '/exams/{year}/questions/{index}',
  findQuestions: '/questions',
  randomQuestions: '/questions/random',
  practiceQuestions: '/questions/practice',
  listSkills: '/skills',
  exportQuestions: '/export/questions.jsonl'
} as const
/** The POST operations, answered by POST and OPTIONS only. */
const POST_OPERATIONS = {
  computeScores: '/scores'
} as const
/** Outside /v1: its path item names its own server, the server's root. */
const MCP_PATH = MCP_ENDPOINT.path
const EVERY_PATH = [...Object.values(OPERATIONS), ...Object.values(POST_OPERATIONS), MCP_PATH].sort()

const operation = (path: string): Operation => document.paths[path]!.get
const responseSchemaPointer = (path: string, status: string) =>
  `#/paths/${pointerToken(path)}/get/responses/${status}/content/application~1json/schema`

describe('the document routes', () => {
  test('GET /v1 and GET /v1/openapi.json serve the same document, byte for byte, as UTF-8 JSON with a strong ETag', async () => {
    const root = await server.request('/v1')
    const named = await server.request('/v1/openapi.json')
    const slash = await server.request('/v1/')
    for (const response of [root, named, slash]) {
      assert.equal(response.statusCode, 200)
      assert.equal(response.headers['content-type'], 'application/json; charset=utf-8')
      assert.match(String(response.headers.etag), /^"[A-Za-z0-9_-]+"$/)
      assert.equal(response.headers['cache-control'], 'public, max-age=3600')
    }
    assert.deepEqual(root.rawPayload, named.rawPayload)
    assert.deepEqual(slash.rawPayload, named.rawPayload)
    assert.equal(root.headers.etag, named.headers.etag)
    // Accents travel as UTF-8, not escaped: the examples are Portuguese.
    assert.ok(named.rawPayload.includes(Buffer.from('Questão 94 - ENEM 2020', 'utf8')))
  })

  test('the document is serialized once: answers 304 to its ETag and compresses with br', async () => {
    const first = await server.request('/v1/openapi.json')
    const cached = await server.request({ url: '/v1/openapi.json', headers: { 'if-none-match': String(first.headers.etag) } })
    assert.equal(cached.statusCode, 304)
    assert.equal(cached.body, '')
    const br = await server.request({ url: '/v1', headers: { 'accept-encoding': 'br' } })
    assert.equal(br.headers['content-encoding'], 'br')
    assert.equal(br.headers.vary, 'Accept-Encoding')
    assert.deepEqual(brotliDecompressSync(br.rawPayload), first.rawPayload)
    assert.ok(br.rawPayload.length < first.rawPayload.length / 4)
  })
})

describe('the OpenAPI document', () => {
  test('passes @readme/openapi-parser validation as OpenAPI 3.1, without warnings', async () => {
    assert.equal(document.openapi, '3.1.0')
    // validate() dereferences in place: give it a copy, parsed afresh from what the server sends.
    const served: Parameters<typeof validate>[0] = JSON.parse((await server.request('/v1/openapi.json')).body)
    const result = await validate(served)
    assert.ok(result.valid, compileErrors(result))
    assert.deepEqual(result.warnings, [])
    assert.equal(result.specification, 'OpenAPI')
  })

  test('info names the API at version 1.0.0; its server is PUBLIC_URL/v1', () => {
    assert.equal(document.info.title, 'ENEM API')
    assert.equal(document.info.version, '1.0.0')
    assert.deepEqual(document.servers.map((server) => server.url), [`${TEST_PUBLIC_URL}/v1`])
  })

  test('describes exactly the endpoints of the contract, with paths relative to the server', () => {
    assert.deepEqual(Object.keys(document.paths).sort(), EVERY_PATH)
    for (const [operationId, path] of Object.entries(POST_OPERATIONS)) {
      assert.deepEqual(Object.keys(document.paths[path]!), ['post'], path)
      assert.equal((document.paths[path] as unknown as { post: Operation }).post.operationId, operationId)
    }
    for (const [operationId, path] of Object.entries(OPERATIONS)) {
      assert.deepEqual(Object.keys(document.paths[path]!), ['get'], path)
      const { summary, tags } = operation(path)
      assert.equal(operation(path).operationId, operationId)
      assert.ok(summary.length > 0)
      assert.ok(tags.length > 0)
    }
    // So the document's own routes, /docs, the files, health checks, `/` and the 405 routes are hidden.
  })

  test('mentions the MCP endpoint, POST at the server\'s root (its path item\'s own server), with its refusals\' error bodies', () => {
    const item = document.paths[MCP_PATH] as unknown as { servers: Array<{ url: string }>, post: Operation & { requestBody: { content: Record<string, { example: unknown }> } } }
    assert.deepEqual(Object.keys(item).sort(), ['post', 'servers'])
    assert.deepEqual(item.servers.map((entry) => entry.url), [TEST_PUBLIC_URL])
    assert.equal(item.post.operationId, MCP_ENDPOINT.operationId)
    assert.deepEqual(Object.keys(item.post.responses).sort(), ['200', ...MCP_ENDPOINT.errors.map(String)].sort())
    assert.equal((item.post.requestBody.content['application/json']?.example as { method: string }).method, 'tools/call')
    assert.match(document.info.description, new RegExp(`POST ${TEST_PUBLIC_URL}${MCP_PATH}`))
  })

  test('a PUBLIC_URL with a path prefix keeps the paths relative to the server', async (t) => {
    const proxied = await build(t, { PUBLIC_URL: 'https://example.org/enem' })
    const proxiedDocument = (await proxied.request('/v1/openapi.json')).json<Document>()
    assert.deepEqual(proxiedDocument.servers.map((server) => server.url), ['https://example.org/enem/v1'])
    assert.deepEqual(Object.keys(proxiedDocument.paths).sort(), EVERY_PATH)
    assert.deepEqual((proxiedDocument.paths[MCP_PATH] as unknown as { servers: Array<{ url: string }> }).servers.map((entry) => entry.url), ['https://example.org/enem'])
  })

  test('path and query parameters carry their grammar, range and an example', () => {
    const parameters = (path: string) => new Map(operation(path).parameters
      .filter((parameter): parameter is Parameter => !('$ref' in parameter))
      .map((parameter) => [`${parameter.in}:${parameter.name}`, parameter]))
    const list = parameters(OPERATIONS.listQuestions)
    assert.deepEqual([...list.keys()].sort(), ['path:year', 'query:application', 'query:discipline', 'query:language', 'query:limit', 'query:offset'])
    for (const path of [OPERATIONS.getExam, OPERATIONS.listQuestions, OPERATIONS.getQuestion]) {
      const year = parameters(path).get('path:year')!
      assert.equal(year.required, true)
      assert.equal(year.schema.pattern, INTEGER_PATTERN)
      assert.match(year.description, /at least 1/)
    }
    const index = parameters(OPERATIONS.getQuestion).get('path:index')!
    assert.equal(index.schema.pattern, INTEGER_PATTERN)
    assert.match(index.description, /at least 1/)
    const limit = list.get('query:limit')!
    assert.equal(limit.required, false)
    assert.equal(limit.schema.pattern, INTEGER_PATTERN)
    assert.match(limit.description, new RegExp(`1 to ${LIMIT_MAX}; default 10`))
    assert.match(list.get('query:offset')!.description, /at least 0; default 0/)
    for (const name of ['query:language', 'query:discipline']) {
      assert.equal(list.get(name)!.schema.pattern, SLUG_PATTERN)
      assert.equal(list.get(name)!.schema.maxLength, SLUG_MAX_LENGTH)
    }
    for (const parameter of list.values()) {
      // One example is `example`; several are `examples`, by name.
      const examples = parameter.examples === undefined ? [parameter.example] : Object.values(parameter.examples).map((example) => example.value)
      assert.ok(examples.length > 0 && examples[0] !== undefined, parameter.name)
      for (const example of examples) assert.match(String(example), new RegExp(String(parameter.schema.pattern)), parameter.name)
      assert.match(parameter.description, /Grammar: /, parameter.name)
    }
    // Conditional requests: every operation takes If-None-Match.
    for (const path of Object.values(OPERATIONS)) {
      assert.ok(operation(path).parameters.some((parameter) => '$ref' in parameter && parameter.$ref === '#/components/parameters/IfNoneMatch'), path)
    }
  })

  test('every operation documents its success, the 304, and each error status it can answer', () => {
    const errorStatuses: Record<string, ErrorStatus[]> = {
      [OPERATIONS.listExams]: [400, 404, 429, 500],
      [OPERATIONS.getExam]: [400, 404, 422, 429, 500],
      [OPERATIONS.listQuestions]: [400, 404, 422, 429, 500],
      [OPERATIONS.getQuestion]: [400, 404, 422, 429, 500],
      [OPERATIONS.findQuestions]: [400, 422, 429, 500],
      [OPERATIONS.randomQuestions]: [400, 422, 429, 500],
      [OPERATIONS.exportQuestions]: [400, 422, 429, 500]
    }
    for (const [path, statuses] of Object.entries(errorStatuses)) {
      const { responses } = operation(path)
      assert.deepEqual(Object.keys(responses), ['200', '304', ...statuses.map(String)], path)
      assert.deepEqual(responses['304'], { $ref: '#/components/responses/NotModified' })
      for (const status of statuses) {
        const response = responses[status]!
        const media = response.content!['application/json']!
        assert.deepEqual(media.schema, { $ref: '#/components/schemas/Error' }, `${path} ${status}`)
        assert.ok(response.description!.length > 20)
        // The example of each error status carries that status's code and its documentation link.
        const [example] = Object.values(media.examples ?? {})
        const code = ERROR_CODES[status]
        assert.deepEqual((example?.value as { error: { code: string, docUrl: string } }).error.code, code)
        assert.equal((example?.value as { error: { docUrl: string } }).error.docUrl, `${TEST_PUBLIC_URL}${docPathFor(code)}`)
      }
    }
    assert.equal(document.components.responses.NotModified!.content, undefined, '304 has no body')
    assert.ok(!JSON.stringify(document).includes('x-response-description'))
  })

  test('successes carry ETag, Cache-Control, Vary and the RateLimit headers; 429 adds Retry-After; errors are no-store', () => {
    for (const path of Object.values(OPERATIONS)) {
      const { responses } = operation(path)
      // The export also names its file.
      const own = path === OPERATIONS.exportQuestions ? ['Content-Disposition'] : []
      assert.deepEqual(Object.keys(responses['200']!.headers!).sort(), ['Cache-Control', ...own, 'ETag', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Vary'])
      assert.deepEqual(Object.keys(responses['429']!.headers!).sort(), ['Cache-Control', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After'])
      assert.equal((responses['404'] ?? responses['422'])!.headers!['Cache-Control']!.$ref, '#/components/headers/Cache-Control-Error')
    }
    const { headers } = document.components
    assert.match(String(headers['Retry-After']!.description), /seconds/)
    assert.deepEqual(headers['Retry-After']!.schema, { type: 'integer', minimum: 0 })
    for (const name of ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']) assert.deepEqual(headers[name]!.schema, { type: 'integer', minimum: 0 })
  })

  test('the response schemas are the routes\' TypeBox schemas, named by their titles', () => {
    // The TypeBox schemas carry their title and description as plain JSON Schema annotations.
    const named: Record<string, { title?: unknown, description?: unknown, required?: unknown, properties: object }> = { Option: OptionSchema, ExamSummary: ExamSummarySchema, QuestionSummary: ServedQuestionSummarySchema, Incomplete: IncompleteSchema.anyOf[0], Alternative: AlternativeSchema, Question: QuestionSchema, Inep: InepSchema, Irt: IrtSchema, Booklet: BookletSchema, ExamDetail: ExamDetailSchema, PaginationMetadata: PaginationMetadataSchema, QuestionPage: QuestionPageSchema, Error: ErrorSchema, FoundQuestionPage: FoundQuestionPageSchema, RandomDraw: RandomDrawSchema, PracticeRun: PracticeRunSchema, AnswerSheet: AnswerSheetSchema, AreaScore: AreaScoreSchema, LeftOut: LeftOutSchema, ScoreAnswer: ScoreAnswerSchema, PracticeDraw: PracticeDrawSchema, Skill: SkillSchema, SkillArea: SkillAreaSchema, SkillCatalog: SkillCatalogSchema }
    // ScoreRequest is the union of PracticeRun and AnswerSheet: it has no properties of its own.
    // Competency and SkillOutcome are named items of arrays inside SkillArea and AreaScore.
    assert.deepEqual(Object.keys(document.components.schemas).sort(), [...Object.keys(named), 'ScoreRequest', 'Competency', 'SkillOutcome'].sort())
    assert.deepEqual(document.components.schemas.ScoreRequest!.anyOf, [{ $ref: '#/components/schemas/PracticeRun' }, { $ref: '#/components/schemas/AnswerSheet' }])
    for (const [name, source] of Object.entries(named)) {
      const component = document.components.schemas[name]!
      assert.equal(component.title, source.title)
      assert.equal(component.description, source.description, name)
      assert.deepEqual(component.required, source.required, name)
      assert.deepEqual(Object.keys(component.properties as JsonObject), Object.keys(source.properties), name)
    }
    assert.deepEqual(operation(OPERATIONS.getQuestion).responses['200']!.content!['application/json']!.schema, { $ref: '#/components/schemas/Question' })
    assert.deepEqual(operation(OPERATIONS.getExam).responses['200']!.content!['application/json']!.schema, { $ref: '#/components/schemas/ExamDetail' })
    assert.deepEqual(operation(OPERATIONS.listQuestions).responses['200']!.content!['application/json']!.schema, { $ref: '#/components/schemas/QuestionPage' })
    assert.deepEqual((document.components.schemas.QuestionPage!.properties as JsonObject).metadata, { $ref: '#/components/schemas/PaginationMetadata' })
    assert.deepEqual(((document.components.schemas.Question!.properties as JsonObject).alternatives as JsonObject).items, { $ref: '#/components/schemas/Alternative' })
  })

  test('every example validates against the schema of the response it illustrates', () => {
    const contract = new Contract(document as unknown as JsonObject)
    let checked = 0
    for (const path of Object.values(OPERATIONS)) {
      for (const [status, response] of Object.entries(operation(path).responses)) {
        const media = response.content?.['application/json']
        if (media === undefined) continue
        const values = [...(media.example === undefined ? [] : [media.example]), ...Object.values(media.examples ?? {}).map((example) => example.value)]
        assert.ok(values.length > 0, `${path} ${status} has an example`)
        const validate = contract.validatorAt(responseSchemaPointer(path, status))
        for (const value of values) {
          assert.ok(validate(value), `${path} ${status}: ${JSON.stringify(validate.errors)}`)
          checked++
        }
      }
    }
    assert.ok(checked >= 4 + 19)
  })

  test('the examples are real records: Portuguese text, file addresses under PUBLIC_URL/files', () => {
    const question = operation(OPERATIONS.getQuestion).responses['200']!.content!['application/json']!.example as { title: string, files: string[], context: string }
    assert.equal(question.title, 'Questão 94 - ENEM 2020')
    assert.deepEqual(question.files, [`${TEST_PUBLIC_URL}/files/2020/questions/94/cd807044-741c-49d0-893a-9d11bfd1e72b.png`])
    assert.ok(question.context.includes(`](${question.files[0]})`))
    assert.ok(!JSON.stringify(document).includes('enem.dev'), 'no address of the predecessor')
  })

  test('the introduction is in Portuguese and English and has an Errors entry per code', () => {
    const { description } = document.info
    for (const heading of ['## Português', '## English', '## Errors']) assert.ok(description.includes(`\n${heading}\n`), heading)
    for (const word of ['Hospedagem própria', 'Self-hosting', 'Limites', 'Limits']) assert.ok(description.includes(word), word)
    for (const code of Object.values(ERROR_CODES)) {
      assert.ok(description.includes(`\n## ${errorHeading(code)}\n`), code)
      // The page's anchor for the heading is its slug, which must be docPathFor's fragment.
      assert.equal(`/docs#${errorHeading(code).toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/[\s_-]+/g, '-')}`, docPathFor(code))
    }
    assert.match(description, /This server does not rate limit requests\./)
  })

  test('the introduction lists every endpoint of the table with its query parameters, and the 400 and 422 name every parameter', () => {
    const { description } = document.info
    const descriptions = errorDescriptions(ENDPOINTS)
    for (const endpoint of ENDPOINTS) {
      const line = description.split('\n').find((candidate) => candidate.startsWith(`- \`${endpoint.method} ${endpoint.path.replace(/:([A-Za-z]+)/g, '{$1}')}\``))
      assert.ok(line !== undefined, endpoint.path)
      for (const name of Object.keys(endpoint.querystring.properties)) assert.ok(line.includes(`\`${name}\``), `${endpoint.path} ${name}`)
      for (const [where, schema] of [['path', endpoint.params], ['query', endpoint.querystring]] as const) {
        for (const [name, parameter] of Object.entries(schema.properties)) {
          const label = where === 'path' ? `\`{${name}}\`` : `\`${name}\``
          assert.ok(descriptions.bad_request.includes(label), `400 ${label}`)
          const range = rangeOfParameter(parameter)
          if (range === undefined) continue
          const entry = descriptions.unprocessable_entity.split('; ').find((candidate) => candidate.includes(`${label} must be `))
          assert.ok(entry?.includes(range), `422 ${label}`)
        }
      }
    }
    for (const code of ['bad_request', 'unprocessable_entity'] as const) assert.ok(description.includes(descriptions[code]), code)
  })

  test('the introduction states the configured rate limit', async (t) => {
    const limited = await build(t, { RATE_LIMIT_MAX: '100', RATE_LIMIT_WINDOW: '30s' })
    const { info } = (await limited.request('/v1/openapi.json')).json<Document>()
    assert.ok(info.description.includes('up to 100 requests every 30 seconds'))
    assert.ok(info.description.includes('até 100 requisições a cada 30 segundos'))
  })

  test('the examples are what the server answers on the full dataset', { skip: FULL_DATA_DIR === undefined && 'ENEM_DATA_DIR is not set' }, async (t) => {
    const full = await build(t, { ENEM_DATA_DIR: FULL_DATA_DIR! })
    const examples = successExamples(TEST_PUBLIC_URL) as Record<keyof typeof EXAMPLE_REQUESTS, JsonObject & { questions?: unknown[] }>
    const answer = async (operationId: keyof typeof EXAMPLE_REQUESTS) => {
      const response = await full.request(EXAMPLE_REQUESTS[operationId])
      assert.equal(response.statusCode, 200, EXAMPLE_REQUESTS[operationId])
      return response.json<JsonObject & { questions: unknown[] }>()
    }
    assert.deepEqual(await answer('getQuestion'), examples.getQuestion)
    assert.deepEqual(await answer('listQuestions'), examples.listQuestions)
    assert.deepEqual(await answer('findQuestions'), examples.findQuestions)
    assert.deepEqual(await answer('randomQuestions'), examples.randomQuestions)
    assert.deepEqual(await answer('practiceQuestions'), examples.practiceQuestions)
    // The skills example: the CN area, its first competência and first skill.
    const skills = await answer('listSkills') as unknown as { areas: Array<{ area: string, competencies: unknown[], skills: unknown[] }> }
    const cn = skills.areas.find((area) => area.area === 'CN')!
    assert.deepEqual({ areas: [{ ...cn, competencies: cn.competencies.slice(0, 1), skills: cn.skills.slice(0, 1) }] }, examples.listSkills)
    // Trimmed lists: the example holds the first entries of the real answer.
    const exam = await answer('getExam')
    assert.deepEqual({ ...exam, questions: exam.questions.slice(0, examples.getExam.questions!.length) }, examples.getExam)
    const exams = (await full.request(EXAMPLE_REQUESTS.listExams)).json<unknown[]>()
    assert.deepEqual(exams.slice(0, (examples.listExams as unknown as unknown[]).length), examples.listExams)
    // Each error example is what its request gets, message and all.
    const errors = errorExampleRequests()
    assert.deepEqual(errors.map((example) => example.status), [400, 404, 422])
    for (const { status, request, message } of errors) {
      const response = await full.request(request)
      assert.equal(response.statusCode, status, request)
      assert.equal(response.json<{ error: { message: string } }>().error.message, message, request)
    }
  })
})

describe('GET /docs', () => {
  test('serves the reference page, which loads nothing but this server\'s own assets', async () => {
    const page = await server.request('/docs')
    assert.equal(page.statusCode, 200)
    assert.equal(page.headers['content-type'], 'text/html; charset=utf-8')
    assert.equal(page.headers['cache-control'], 'no-cache')
    assert.match(String(page.headers.etag), /^"/)
    const csp = String(page.headers['content-security-policy'])
    assert.match(csp, /default-src 'none'/)
    assert.match(csp, /script-src 'self';/)
    assert.match(csp, new RegExp(`connect-src 'self' ${TEST_PUBLIC_URL}`))
    assert.doesNotMatch(page.body, /(src|href)="(https?:)?\/\//, 'no address on another host')
    const scripts = [...page.body.matchAll(/<script src="([^"]+)"/g)].map((match) => match[1]!)
    assert.equal(scripts.length, 2)
    for (const script of scripts) {
      assert.match(script, /^docs\/assets\/[a-z]+\.[A-Za-z0-9]{12}\.js$/, 'relative, fingerprinted')
      const asset = await server.request({ url: `/${script}`, headers: { 'accept-encoding': 'br, gzip' } })
      assert.equal(asset.statusCode, 200, script)
      assert.equal(asset.headers['content-type'], 'application/javascript; charset=utf-8')
      assert.equal(asset.headers['cache-control'], 'public, max-age=31536000, immutable')
      const again = await server.request({ url: `/${script}`, headers: { 'if-none-match': String(asset.headers.etag) } })
      assert.equal(again.statusCode, 304)
    }
    const bundle = await server.request({ url: `/${scripts[0]}`, headers: { 'accept-encoding': 'br' } })
    assert.equal(bundle.headers['content-encoding'], 'br')
    assert.ok(brotliDecompressSync(bundle.rawPayload).includes('createApiReference'))
    // The page asks for the document relative to itself, so it works behind a path prefix too.
    const init = (await server.request(`/${scripts[1]}`)).body
    assert.ok(init.includes('"url":"v1/openapi.json"'))
    assert.ok(init.includes('"withDefaultFonts":false'), 'no fonts from fonts.scalar.com')
    assert.ok(init.includes('"telemetry":false'))
  })

  test('/docs/ redirects to /docs, whose relative asset addresses need the page at that level', async () => {
    const response = await server.request('/docs/')
    assert.equal(response.statusCode, 301)
    assert.equal(response.headers.location, '../docs')
  })

  test('an unknown asset is a contract 404', async () => {
    const response = await server.request('/docs/assets/scalar.000000000000.js')
    assert.equal(response.statusCode, 404)
    assert.equal(response.json<{ error: { code: string } }>().error.code, 'not_found')
  })
})

describe('POST /scores in the document', () => {
  test('its body is the ScoreRequest union, with a named, valid example of each form', () => {
    const { requestBody } = postOperation(POST_OPERATIONS.computeScores)
    const media = requestBody.content['application/json']!
    assert.deepEqual(media.schema, { $ref: '#/components/schemas/ScoreRequest' })
    assert.deepEqual(Object.keys(media.examples), ['practiceRun', 'answerSheet', 'answerSheetWide'])
    assert.ok(Compile(PracticeRunSchema).Check(media.examples.practiceRun!.value))
    assert.ok(Compile(AnswerSheetSchema).Check(media.examples.answerSheet!.value))
    assert.ok(Compile(AnswerSheetSchema).Check(media.examples.answerSheetWide!.value))
    assert.equal((media.examples.answerSheetWide!.value as { answers: string }).answers.length, 50)
  })

  test('its answers are no-store, carry no ETag, and the sheet examples are what the server answers to them', async () => {
    const { responses } = postOperation(POST_OPERATIONS.computeScores)
    assert.deepEqual(Object.keys(responses).sort(), ['200', '400', '413', '415', '422', '429', '500'])
    assert.deepEqual(responses['200']!.headers!['Cache-Control'], { $ref: '#/components/headers/Cache-Control-No-Store' })
    assert.equal(responses['200']!.headers!.ETag, undefined)
    const { requestBody } = postOperation(POST_OPERATIONS.computeScores)
    const examples = responses['200']!.content!['application/json']!.examples!
    for (const name of ['answerSheet', 'answerSheetWide']) {
      const answer = await server.request({ method: 'POST', url: '/v1/scores', headers: { 'content-type': 'application/json' }, payload: JSON.stringify(requestBody.content['application/json']!.examples[name]!.value) })
      assert.equal(answer.statusCode, 200, answer.body)
      assert.ok(Compile(ScoreAnswerSchema).Check(examples[name]!.value))
      assert.deepEqual(examples[name]!.value, answer.json())
    }
  })
})
