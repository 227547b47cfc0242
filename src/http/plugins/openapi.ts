import { isDeepStrictEqual } from 'node:util'
import fastifySwagger, { type FastifyDynamicSwaggerOptions, type SwaggerTransformObject } from '@fastify/swagger'
import type { FastifyInstance } from 'fastify'
import fastifyPlugin from 'fastify-plugin'
import { ERROR_CODES, type ErrorStatus } from '../errors.ts'
import { errorDescriptions } from '../error-descriptions.ts'
import { errorExample, successExamples, type ExampleOperation } from './openapi-examples.ts'
import { API_BASE, ENDPOINTS, MCP_ENDPOINT, practiceAddress, type Endpoint } from '../endpoints.ts'
import { SCORE_REQUEST_EXAMPLES, scoreAnswerExamples } from '../schemas/scores.ts'
import { withPractice } from '../answers/score-answers.ts'
import { JSON_CACHE_CONTROL } from '../response-headers.ts'
import { CODE_LICENSE, dataProvenanceEn, dataProvenancePt } from '../data-provenance.ts'
import type { DataCredit } from '../../data/dataset/dataset-manifest.ts'

export interface OpenApiOptions {
  /** Base of the server's public addresses; the document's server is `${publicUrl}/v1`. */
  publicUrl: string
  /** The configured rate limit, so the introduction states this server's real numbers. */
  rateLimit: { max: number, windowMs: number }
  /** The JSON endpoints, for the introduction's list and the errors' descriptions: the table, unless a test gives its own. */
  endpoints?: readonly Endpoint[] | undefined
  /** The sources of the exams served (LoadedDataset.credits), credited in the introduction. */
  credits?: readonly DataCredit[] | null | undefined
}

/** A parsed JSON value's object form; the document is plain JSON built by @fastify/swagger. */
type JsonObject = { [key: string]: unknown }

interface ResponseObject extends JsonObject {
  headers?: JsonObject
  content?: { [mediaType: string]: JsonObject }
}

interface OperationObject extends JsonObject {
  operationId?: string
  parameters?: unknown[]
  responses: { [status: string]: ResponseObject }
}

const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * Registers @fastify/swagger so that it sees every route registered after it (register this
 * before the routes) and builds the OpenAPI 3.1 document from the routes' own TypeBox schemas,
 * then finishes it: paths relative to the `/v1` server, named component schemas, the caching and
 * rate-limit headers every operation has, the 304 answer, and examples from the real dataset.
 * @see https://github.com/fastify/fastify-swagger
 */
export const openApi = fastifyPlugin(async (app: FastifyInstance, options: OpenApiOptions) => {
  const finish: SwaggerTransformObject = (documentObject) => {
    if (!('openapiObject' in documentObject)) throw new Error('expected an OpenAPI document, got Swagger 2')
    return finishDocument(documentObject.openapiObject, options)
  }
  const swaggerOptions: FastifyDynamicSwaggerOptions = {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'ENEM API',
        version: '1.0.0',
        summary: 'The questions of ENEM, Brazil\'s national high-school exam, as read-only JSON.',
        description: introduction(options),
        license: { ...CODE_LICENSE }
      },
      servers: [{ url: `${options.publicUrl}${API_BASE}`, description: 'This server' }],
      tags: [
        { name: 'Exams', description: 'The exams: one per year of application, with their disciplines and foreign languages.' },
        { name: 'Questions', description: 'The questions of an exam, whole records with their alternatives and images.' },
        { name: 'Scores', description: 'ENEM scores computed the way INEP computes them, from a practice run or an answer sheet.' },
        { name: 'MCP', description: 'The Model Context Protocol endpoint, for AI assistants: the same data as tools.' }
      ],
      components: { headers: HEADERS, parameters: PARAMETERS, responses: { NotModified: NOT_MODIFIED } }
    },
    // The server URL carries a path (`/v1`, and maybe a proxy prefix in PUBLIC_URL): strip
    // exactly the routes' own prefix rather than whatever @fastify/swagger guesses from it.
    stripBasePath: false,
    transform: ({ schema, url }) => ({
      schema,
      url: url.startsWith(`${API_BASE}/`) ? url.slice(API_BASE.length) : url
    }),
    transformObject: finish
  }
  await app.register(fastifySwagger, swaggerOptions)
}, { name: 'openapi', fastify: '5.x' })

const rateLimitHeader = (description: string, example: number) =>
  ({ description, required: false, schema: { type: 'integer', minimum: 0 }, example }) as const

/** Response headers, named once and referenced by every operation. */
const HEADERS = {
  'RateLimit-Limit': rateLimitHeader('Requests a client may make in the current window. Sent on every /v1 JSON answer while rate limiting is on.', 600),
  'RateLimit-Remaining': rateLimitHeader('Requests left to this client in the current window.', 599),
  'RateLimit-Reset': rateLimitHeader('Seconds until the current window ends and the quota is whole again.', 42),
  'Retry-After': { description: 'Seconds to wait before trying again (an integer number of seconds, never milliseconds).', required: true, schema: { type: 'integer', minimum: 0 }, example: 42 },
  ETag: { description: 'Strong entity tag of the body. Send it back in If-None-Match to get 304 while the data is unchanged.', required: true, schema: { type: 'string' }, example: '"lZ3d2oYd5vT0Z8yq1Qm4y3kq9sI"' },
  'Cache-Control': { description: 'Successful answers may be cached by anyone; the data only changes when the server is redeployed.', required: true, schema: { type: 'string' } },
  'Cache-Control-Error': { description: 'Errors are never cached.', required: true, schema: { type: 'string', const: 'no-store' } },
  'Cache-Control-No-Store': { description: 'Computed for this request: never cached.', required: true, schema: { type: 'string', const: 'no-store' } },
  Vary: { description: 'The body is compressed (br, gzip) by Accept-Encoding.', required: true, schema: { type: 'string', pattern: 'Accept-Encoding' } }
} as const

const PARAMETERS = {
  IfNoneMatch: {
    name: 'If-None-Match',
    in: 'header',
    required: false,
    description: 'The ETag of a copy the client holds: when it is still current the answer is 304 with no body.',
    schema: { type: 'string' }
  }
} as const

const NOT_MODIFIED = {
  description: 'Not Modified: the If-None-Match tag is the current one; no body. Keep using the copy you have.',
  headers: {
    ETag: { $ref: '#/components/headers/ETag' },
    'Cache-Control': { $ref: '#/components/headers/Cache-Control' }
  }
} as const

const RATE_LIMIT_HEADER_REFS = {
  'RateLimit-Limit': { $ref: '#/components/headers/RateLimit-Limit' },
  'RateLimit-Remaining': { $ref: '#/components/headers/RateLimit-Remaining' },
  'RateLimit-Reset': { $ref: '#/components/headers/RateLimit-Reset' }
}

/**
 * The parts of the document that @fastify/swagger cannot derive from a route schema. Mutates and
 * returns the document, which is built once per process.
 */
function finishDocument<T extends JsonObject> (document: T, options: OpenApiOptions): T {
  const paths = document.paths
  if (!isObject(paths)) throw new Error('the OpenAPI document has no paths')
  const examples = successExamples(options.publicUrl)
  for (const pathItem of Object.values(paths)) {
    if (!isObject(pathItem)) continue
    const operation = pathItem.get
    if (isOperation(operation)) finishOperation(operation, examples, options)
    const post = pathItem.post
    if (isOperation(post) && post.operationId === MCP_ENDPOINT.operationId) {
      finishPostOperation(post, options, { body: { example: MCP_EXAMPLE_CALL } })
      // Outside /v1: the path is relative to the server's root, not to the document's server.
      pathItem.servers = [{ url: options.publicUrl, description: 'This server (the MCP endpoint is not under /v1)' }]
    } else if (isOperation(post)) {
      finishPostOperation(post, options, { body: { examples: SCORE_REQUEST_EXAMPLES }, answers: () => scoreAnswerExamples((area) => withPractice(area, practiceAddress)) })
    }
  }
  const components = isObject(document.components) ? document.components : {}
  const schemas = isObject(components.schemas) ? components.schemas : {}
  Object.assign(schemas, hoistNamedSchemas(paths))
  return Object.assign(document, { components: { ...components, schemas } })
}

function isOperation (value: unknown): value is OperationObject {
  return isObject(value) && isObject(value.responses)
}

function finishOperation (operation: OperationObject, examples: Record<ExampleOperation, unknown>, { publicUrl }: OpenApiOptions): void {
  operation.parameters = [...(operation.parameters ?? []), { $ref: '#/components/parameters/IfNoneMatch' }]
  const responses: OperationObject['responses'] = {}
  for (const [status, response] of Object.entries(operation.responses)) {
    const code = Number(status)
    const json = response.content?.['application/json']
    if (code >= 200 && code < 300) {
      response.headers = {
        ...response.headers,
        ETag: { $ref: '#/components/headers/ETag' },
        'Cache-Control': { $ref: '#/components/headers/Cache-Control', example: JSON_CACHE_CONTROL },
        Vary: { $ref: '#/components/headers/Vary' },
        ...RATE_LIMIT_HEADER_REFS
      }
      const operationId = operation.operationId
      if (json !== undefined && operationId !== undefined && operationId in examples) {
        json.example = examples[operationId as ExampleOperation]
      }
      responses[status] = response
      // The conditional answer sits right after the success it stands for.
      responses['304'] = { $ref: '#/components/responses/NotModified' }
      continue
    }
    if (status in ERROR_CODES) describeErrorResponse(response, code as ErrorStatus, publicUrl)
    responses[status] = response
  }
  operation.responses = responses
}

/** What a POST operation's document shows: on its request body's JSON media (`example` or `examples`), and the examples of its answer. */
interface PostExamples {
  body: JsonObject
  answers?: () => JsonObject
}

/** A tools/call of the MCP endpoint, for the document. */
const MCP_EXAMPLE_CALL = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_question', arguments: { year: 2020, index: 94 } } }

/**
 * A POST operation (POST /scores, POST /mcp): its request body's examples and its answer's;
 * no conditional request (no ETag, no 304); successes and errors alike are no-store.
 */
function finishPostOperation (operation: OperationObject, { publicUrl }: OpenApiOptions, examples: PostExamples): void {
  const requestBody = operation.requestBody
  const media = isObject(requestBody) && isObject(requestBody.content) ? requestBody.content['application/json'] : undefined
  if (isObject(media)) Object.assign(media, examples.body)
  for (const [status, response] of Object.entries(operation.responses)) {
    const code = Number(status)
    const json = response.content?.['application/json']
    if (code >= 200 && code < 300) {
      response.headers = { ...response.headers, 'Cache-Control': { $ref: '#/components/headers/Cache-Control-No-Store' }, ...RATE_LIMIT_HEADER_REFS }
      if (json !== undefined && examples.answers !== undefined) json.examples = examples.answers()
      continue
    }
    if (status in ERROR_CODES) describeErrorResponse(response, code as ErrorStatus, publicUrl)
  }
}

/** An error response of an operation: its headers (Retry-After on a 429, no-store, the rate limit's) and its example body. */
function describeErrorResponse (response: OperationObject['responses'][string], status: ErrorStatus, publicUrl: string): void {
  response.headers = {
    ...response.headers,
    ...(status === 429 ? { 'Retry-After': { $ref: '#/components/headers/Retry-After' } } : {}),
    'Cache-Control': { $ref: '#/components/headers/Cache-Control-Error' },
    ...RATE_LIMIT_HEADER_REFS
  }
  const json = response.content?.['application/json']
  const example = errorExample(publicUrl, status)
  if (json !== undefined && example !== undefined) json.examples = { [ERROR_CODES[status]]: example }
}

/**
 * Moves every titled schema of the operations (the TypeBox schemas carry `title`: Question,
 * Alternative, ExamSummary, ...) into `components.schemas` under its title and leaves a `$ref`
 * in its place, so clients and the reference page see named types. Two different schemas with
 * the same title are a programming error and stop the start.
 */
function hoistNamedSchemas (paths: JsonObject): JsonObject {
  const named: JsonObject = {}
  const visit = (node: unknown, inSchema: boolean): unknown => {
    if (Array.isArray(node)) return node.map((item) => visit(item, inSchema))
    if (!isObject(node)) return node
    const copy: JsonObject = {}
    for (const [key, value] of Object.entries(node)) {
      // Only JSON Schemas are hoisted: what sits under a `schema` key and everything inside it.
      copy[key] = visit(value, inSchema || key === 'schema')
    }
    const title = copy.title
    if (!inSchema || typeof title !== 'string') return copy
    const known = named[title]
    if (known === undefined) named[title] = copy
    else if (!isDeepStrictEqual(known, copy)) throw new Error(`two different schemas are titled ${title}; give one another title`)
    return { $ref: `#/components/schemas/${encodeURIComponent(title)}` }
  }
  for (const [path, pathItem] of Object.entries(paths)) paths[path] = visit(pathItem, false)
  return Object.fromEntries(Object.entries(named).sort(([a], [b]) => a.localeCompare(b)))
}

function introduction ({ publicUrl, rateLimit, endpoints = ENDPOINTS, credits = null }: OpenApiOptions): string {
  const base = `${publicUrl}${API_BASE}`
  const windowSeconds = Math.round(rateLimit.windowMs / 1000)
  const limitPt = rateLimit.max === 0
    ? 'Este servidor não limita a taxa de requisições.'
    : `Cada cliente pode fazer até ${rateLimit.max} requisições a cada ${windowSeconds} segundos; os cabeçalhos \`RateLimit-Limit\`, \`RateLimit-Remaining\` e \`RateLimit-Reset\` dizem quanto resta, e quem passa do limite recebe 429 com \`Retry-After\` (em segundos).`
  const limitEn = rateLimit.max === 0
    ? 'This server does not rate limit requests.'
    : `Each client may make up to ${rateLimit.max} requests every ${windowSeconds} seconds; the \`RateLimit-Limit\`, \`RateLimit-Remaining\` and \`RateLimit-Reset\` headers tell how many are left, and a client over the limit gets 429 with \`Retry-After\` (in seconds).`
  return `A public, read-only JSON API of the questions of ENEM (Exame Nacional do Ensino Médio), Brazil's national high-school exam. / Uma API JSON pública, somente leitura, com as questões do ENEM.

Base address / endereço base: \`${base}\` · OpenAPI 3.1: [\`${base}/openapi.json\`](${base}/openapi.json)

## Português

**Os dados.** Cada prova do ENEM (uma por ano de aplicação) com suas disciplinas e idiomas estrangeiros, e cada questão completa: texto de apoio (\`context\`, em Markdown), imagens, enunciado, alternativas e a alternativa correta. Os textos estão em português (e em inglês ou espanhol nas questões de língua estrangeira), exatamente como na prova. As imagens são servidas por este mesmo servidor, em \`${publicUrl}/files/...\`.

**Como usar.** Os endpoints e os seus parâmetros estão listados em "Endpoints", abaixo, e descritos em detalhe em cada operação. Sem \`language\`, vale o primeiro idioma da prova. Para ler todas as questões, baixe a exportação (\`GET /export/questions.jsonl\`, uma só requisição) em vez de paginar. Cada questão traz \`inep\`: os dados oficiais do INEP (item, área, habilidade, gabarito, anulação, TRI), com gabaritos e áreas corrigidos a partir deles.

**Limites e cache.** ${limitPt} As respostas trazem \`ETag\` e \`Cache-Control: ${JSON_CACHE_CONTROL}\`; envie o \`ETag\` em \`If-None-Match\` para receber 304 sem corpo. CORS liberado para qualquer origem.

**Hospedagem própria.** O servidor é um processo Node.js (24 ou mais) sem banco de dados: \`npm ci\`, depois \`ENEM_DATA_DIR=/caminho/dos/dados PUBLIC_URL=https://seu.endereco npm start\`. Sem \`ENEM_DATA_DIR\` ele serve um pequeno conjunto de amostra. Outras variáveis: \`PORT\`, \`HOST\`, \`RATE_LIMIT_MAX\`, \`RATE_LIMIT_WINDOW\`, \`REDIS_URL\`, \`TRUST_PROXY\`, \`LOG_LEVEL\`. Esta página funciona sem internet.

${dataProvenancePt(credits)}

## English

**The data.** Every ENEM exam (one per year of application) with its disciplines and foreign languages, and every question in full: supporting text (\`context\`, Markdown), images, statement, alternatives and the correct one. Texts are in Portuguese (English or Spanish for the foreign-language questions), exactly as printed in the exam. Images are served by this same server, under \`${publicUrl}/files/...\`.

**How to use it.** The endpoints and their parameters are listed under "Endpoints" below, and described in full in each operation. Without \`language\`, the exam's first language applies. To read every question, download the export (\`GET /export/questions.jsonl\`, one request) rather than paging. Every question carries \`inep\`: INEP's official item data (item, area, skill, key, annulment, IRT), from which answer keys and areas are corrected.

**Limits and caching.** ${limitEn} Answers carry \`ETag\` and \`Cache-Control: ${JSON_CACHE_CONTROL}\`; send the \`ETag\` back in \`If-None-Match\` to get 304 with no body. CORS is open to any origin.

**Self-hosting.** The server is one Node.js (24 or later) process with no database: \`npm ci\`, then \`ENEM_DATA_DIR=/path/to/data PUBLIC_URL=https://your.address npm start\`. Without \`ENEM_DATA_DIR\` it serves a small sample dataset. Other variables: \`PORT\`, \`HOST\`, \`RATE_LIMIT_MAX\`, \`RATE_LIMIT_WINDOW\`, \`REDIS_URL\`, \`TRUST_PROXY\`, \`LOG_LEVEL\`. This page works with no internet access.

${dataProvenanceEn(credits)}

## Endpoints

${endpointList(endpoints, publicUrl)}

## Errors

Every error answers \`{"error": {"code", "message", "docUrl"}}\`: \`code\` is one of those below, \`message\` says in English what was wrong and with which value, \`docUrl\` links to the code's entry here. Checks run in the order 400, 422, 404: a request with both a grammar error and an unknown year gets 400.

${errorSection(endpoints)}`
}

/** One line per endpoint of the table: method, path (relative to the base address), summary, parameters; then the MCP endpoint's. */
function endpointList (endpoints: readonly Endpoint[], publicUrl: string): string {
  return [...endpoints.map((endpoint) => {
    const path = endpoint.path.replace(/:([A-Za-z]+)/g, '{$1}')
    const query = Object.keys(endpoint.querystring.properties).map((name) => `\`${name}\``)
    return `- \`${endpoint.method} ${path}\`: ${endpoint.summary}.${query.length === 0 ? '' : ` Query: ${query.join(', ')}.`}`
  }), `- \`POST ${publicUrl}${MCP_ENDPOINT.path}\` (outside \`/v1\`): ${MCP_ENDPOINT.summary}. Point an MCP client (Streamable HTTP) at it.`].join('\n')
}

/** One heading per error code; the page turns each into the anchor `docPathFor(code)` points at. */
function errorSection (endpoints: readonly Endpoint[]): string {
  const descriptions = errorDescriptions(endpoints)
  return Object.entries(ERROR_CODES).map(([status, code]) =>
    `## ${errorHeading(code)}\n\n\`${code}\` · HTTP ${status}. ${descriptions[code]}`
  ).join('\n\n')
}

/** The heading text of a code's entry; its slug is the fragment of `docPathFor(code)`. */
export function errorHeading (code: string): string {
  // Words rather than the code itself: Scalar derives slugs and sidebar labels from heading text
  // with a naive Markdown reading, where the underscores of method_not_allowed read as emphasis
  // (and a code span would drop out of the slug). The entry's first line shows the code.
  return `Errors: ${code.replaceAll('_', ' ')}`
}
