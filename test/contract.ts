import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js'
import type { SendRequest } from './helper.ts'

/*
 * The OpenAPI document as a test oracle: given a request and the answer it got, says whether the
 * answer is one the document describes for that operation and status (JSON Schema 2020-12, which
 * OpenAPI 3.1 schemas are, checked with Ajv). Tests use it on every answer they receive, so the
 * document cannot drift from what the server really sends.
 */

type JsonObject = { [key: string]: unknown }

export interface ObservedResponse {
  method: string
  /** The request URL as sent to the server, e.g. `/v1/exams/2020/questions?limit=5`. */
  url: string
  status: number
  headers: Record<string, string | string[] | number | undefined>
  /** The body as received (identity encoding); empty for 304 and HEAD. */
  body: string
}

interface Operation {
  /** The path template relative to the server, e.g. `/exams/{year}`. */
  template: string
  pattern: RegExp
  method: string
  responses: JsonObject
}

const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value)

/** JSON Pointer escaping (RFC 6901), for addressing the document's parts by path. */
export const pointerToken = (token: string) => token.replaceAll('~', '~0').replaceAll('/', '~1')

const DOCUMENT_ID = 'https://contract.test/openapi.json'

export class Contract {
  readonly document: JsonObject
  readonly #basePath: string
  readonly #operations: Operation[] = []
  readonly #ajv: Ajv2020
  readonly #validators = new Map<string, ValidateFunction>()

  constructor (document: JsonObject) {
    this.document = document
    const servers = document.servers
    const firstServer = Array.isArray(servers) && isObject(servers[0]) ? servers[0] : undefined
    if (typeof firstServer?.url !== 'string') throw new Error('the document names no server')
    this.#basePath = new URL(firstServer.url).pathname.replace(/\/$/, '')
    const paths = isObject(document.paths) ? document.paths : {}
    for (const [template, pathItem] of Object.entries(paths)) {
      if (!isObject(pathItem)) continue
      for (const [method, operation] of Object.entries(pathItem)) {
        if (!isObject(operation) || !isObject(operation.responses)) continue
        const source = template.split('/').map((part) => /^\{[^}]+\}$/.test(part) ? '[^/]+' : part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')).join('/')
        this.#operations.push({ template, pattern: new RegExp(`^${source}/?$`), method: method.toUpperCase(), responses: operation.responses })
      }
    }
    // strict: an unknown keyword in a schema is a mistake in the document, not something to skip.
    // `example` is OpenAPI's own annotation next to schemas (media types, parameters), not JSON Schema's.
    this.#ajv = new Ajv2020({ strict: true, allErrors: true })
    this.#ajv.addKeyword('example')
    // The whole document under one id: schemas are compiled by reference into it, so their
    // `#/components/schemas/...` references resolve within the document. Its top-level fields
    // (openapi, info, paths, ...) are declared as keywords so that strict mode accepts the root.
    for (const field of Object.keys(document)) this.#ajv.addKeyword(field)
    this.#ajv.addSchema({ ...document, $id: DOCUMENT_ID })
  }

  /** The operation of the document that a request names, with its path template. */
  operationFor (method: string, url: string): Operation | undefined {
    const path = new URL(url, 'http://contract.test').pathname
    if (!path.startsWith(`${this.#basePath}/`)) return undefined
    const relative = path.slice(this.#basePath.length)
    return this.#operations.find((operation) => operation.method === method.toUpperCase() && operation.pattern.test(relative))
  }

  /**
   * What is wrong with an answer, by the document: an operation or status it does not describe,
   * a required header missing, a header or body that breaks its schema. Empty when it conforms.
   */
  problems (response: ObservedResponse): string[] {
    const where = `${response.method} ${response.url} → ${response.status}`
    const operation = this.operationFor(response.method, response.url)
    if (operation === undefined) return [`${where}: the document describes no such operation`]
    const described = operation.responses[String(response.status)]
    if (described === undefined) return [`${where}: ${operation.method} ${operation.template} documents no ${response.status} answer`]
    const pointer = isObject(described) && typeof described.$ref === 'string'
      ? described.$ref
      : `#/paths/${pointerToken(operation.template)}/${operation.method.toLowerCase()}/responses/${response.status}`
    const responseObject = this.#resolve(pointer)
    const problems: string[] = []
    problems.push(...this.#headerProblems(pointer, responseObject, response).map((problem) => `${where}: ${problem}`))

    const content = isObject(responseObject.content) ? responseObject.content : undefined
    if (content === undefined) {
      if (response.body !== '') problems.push(`${where}: the document says no body, got ${response.body.length} bytes`)
      return problems
    }
    const contentType = String(response.headers['content-type'] ?? '').split(';')[0]!.trim()
    const media = content[contentType]
    if (!isObject(media)) return [...problems, `${where}: content type ${contentType} is not one of ${Object.keys(content).join(', ')}`]
    let body: unknown
    try {
      body = JSON.parse(response.body)
    } catch {
      return [...problems, `${where}: the body is not JSON`]
    }
    const validate = this.#validator(`${pointer}/content/${pointerToken(contentType)}/schema`)
    if (!validate(body)) {
      for (const error of validate.errors ?? []) problems.push(`${where}: body${error.instancePath} ${error.message ?? 'is invalid'} (${error.schemaPath})`)
    }
    return problems
  }

  /** Validates any value against the schema at a JSON Pointer of the document (`#/components/schemas/Question`). */
  validatorAt (pointer: string): ValidateFunction {
    return this.#validator(pointer)
  }

  #headerProblems (responsePointer: string, responseObject: JsonObject, response: ObservedResponse): string[] {
    const problems: string[] = []
    const headers = isObject(responseObject.headers) ? responseObject.headers : {}
    for (const [name, declared] of Object.entries(headers)) {
      const pointer = isObject(declared) && typeof declared.$ref === 'string' ? declared.$ref : `${responsePointer}/headers/${pointerToken(name)}`
      const header = this.#resolve(pointer)
      const value = response.headers[name.toLowerCase()]
      if (value === undefined) {
        if (header.required === true) problems.push(`required header ${name} is missing`)
        continue
      }
      if (!isObject(header.schema)) continue
      // Headers are text; an integer header is checked as the number it spells.
      const text = String(value)
      const typed = header.schema.type === 'integer' && /^\d+$/.test(text) ? Number(text) : text
      const validate = this.#validator(`${pointer}/schema`)
      if (!validate(typed)) problems.push(`header ${name}: ${JSON.stringify(text)} ${validate.errors?.[0]?.message ?? 'is invalid'}`)
    }
    return problems
  }

  #resolve (pointer: string): JsonObject {
    let node: unknown = this.document
    for (const token of pointer.replace(/^#\//, '').split('/')) {
      if (!isObject(node)) break
      node = node[token.replaceAll('~1', '/').replaceAll('~0', '~')]
    }
    if (!isObject(node)) throw new Error(`the document has nothing at ${pointer}`)
    return node
  }

  /** A compiled validator for the schema at a JSON Pointer of the document, made once. */
  #validator (pointer: string): ValidateFunction {
    let validate = this.#validators.get(pointer)
    if (validate === undefined) {
      this.#resolve(pointer) // a clear error for a pointer at nothing, before Ajv's
      validate = this.#ajv.compile({ $ref: `${DOCUMENT_ID}${pointer}` })
      this.#validators.set(pointer, validate)
    }
    return validate
  }
}

/** Loads the document the server serves at /v1/openapi.json and builds the oracle from it. */
export async function loadContract (send: SendRequest): Promise<Contract> {
  const response = await send('/v1/openapi.json')
  if (response.statusCode !== 200) throw new Error(`GET /v1/openapi.json answered ${response.statusCode}`)
  return new Contract(response.json<JsonObject>())
}

/**
 * Sends a GET through `send` and checks the answer against the document; returns the answer
 * and the problems found, for `assert.deepEqual(problems, [])`.
 */
export async function getChecked (send: SendRequest, contract: Contract, url: string, headers: Record<string, string> = {}) {
  const response = await send({ method: 'GET', url, headers })
  const problems = contract.problems({ method: 'GET', url, status: response.statusCode, headers: response.headers, body: response.body })
  return { response, problems }
}
