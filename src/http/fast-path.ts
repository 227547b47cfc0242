import { createServer, type IncomingMessage, type Server, type ServerOptions, type ServerResponse } from 'node:http'
import type { FastifyBaseLogger, FastifyServerFactory } from 'fastify'
import { clientAddress, type TrustProxy } from './client-address.ts'
import { ApiError, errorBody } from './errors.ts'
import { CORS_HEADERS } from './plugins/cors.ts'
import type { ExamAnswers } from './exam-answers.ts'
import { preparedAnswer, type PreparedAnswer, type PreparedBody } from './prepared-body.ts'
import { accessLogEntry, nextRequestId } from './plugins/request-logging.ts'
import { UNHOOKED_ERROR_HEADERS, declaresBody, lacksHost } from './request-limits.ts'
import type { RateLimitState, RequestCounter } from './plugins/rate-limit.ts'
import { INTEGER_PATTERN, SLUG_MAX_LENGTH, SLUG_PATTERN, type QuestionListQuery, type QuestionQuery } from './schemas/parameters.ts'

/*
 * The fast path: answers of the four exam endpoints to well-formed requests (the prepared bodies,
 * and the 404s and 422s of values that name nothing), written straight to Node's response without
 * going through Fastify's request pipeline.
 *
 * Why: these answers are prepared bytes, so what a request costs is the framework around them.
 * Measured on one core (bench/, docs in the README's "Performance"), our routes on Fastify, even
 * without a plugin, answered at about 0.6 of what a bare node:http server sends from memory; the
 * issue asks for 0.8. The fast path does only what these requests need, with the app's own parts:
 * ExamAnswers picks the body (the same calls the routes make), preparedAnswer negotiates ETag and
 * encoding (the same function sendPrepared uses), error bodies come from the error handler's
 * errorBody, and the rate limit counts in the very store @fastify/rate-limit counts the routes in
 * (RequestCounter), so a client has one quota.
 *
 * A client over its limit gets the 429 here too, built by the limiter's own RequestCounter.refusal.
 *
 * What it does not understand, it hands to Fastify untouched: any method but GET and HEAD, any
 * other path, a value off the grammar (400), percent-encoding, a repeated or bare parameter, a
 * request with a body, and everything while the server closes.
 * A test (test/http/fast-path.test.ts) sends the same requests both ways and compares the answers.
 */

export interface FastPathOptions {
  answers: ExamAnswers
  /** Base of the docUrl of error bodies. */
  publicUrl: string
  /** Cache-Control of every answer it sends (the routes' own). */
  cacheControl: string
  trustProxy: TrustProxy
  /** Counts the request against its client's quota; absent when rate limiting is off. */
  requestCounter?: RequestCounter | undefined
  /** Where the access-log line goes; absent when the log level is quieter than info. */
  accessLog?: FastifyBaseLogger | undefined
  /** Where a fault of the fast path itself is reported. */
  errorLog?: FastifyBaseLogger | undefined
}

type Fallback = (request: IncomingMessage, response: ServerResponse) => void

/** Longest request target the fast path reads; real addresses of these endpoints are far shorter. */
const MAX_URL_LENGTH = 256
const PREFIX = '/v1/exams'
const INTEGER = new RegExp(INTEGER_PATTERN)
const SLUG = new RegExp(SLUG_PATTERN)
/** Names of unknown parameters it ignores as the routes do (cache-busters); anything odder goes to Fastify. */
const PLAIN_NAME = /^[A-Za-z0-9_.-]+$/

const LIST_PARAMETERS = { limit: INTEGER, offset: INTEGER, language: SLUG, discipline: SLUG } as const
const QUESTION_PARAMETERS = { language: SLUG } as const
const NO_PARAMETERS = {} as const

/** The headers every fast answer carries whatever it is (the CORS plugin's and the app's onSend hook's). */
const CONSTANT_HEADERS = {
  ...CORS_HEADERS,
  'x-content-type-options': 'nosniff'
} as const

/** Most error answers kept by URL (each well under 1 KB with its key). */
const ERROR_ANSWERS_MAX = 1_000

/** An error answer ready to send: status, every header but the rate limit's, and the contract's error body. */
class ErrorAnswer {
  constructor (
    readonly statusCode: number,
    readonly headers: ReadonlyArray<string | number>,
    readonly payload: Buffer
  ) {}
}

/** Those of every error answer, as the error handler and the hooks give them (Content-Length aside). */
const ERROR_HEADERS: ReadonlyArray<string | number> = Object.entries({
  ...UNHOOKED_ERROR_HEADERS,
  'content-type': 'application/json; charset=utf-8'
}).flat()

export class FastPath {
  readonly #answers: ExamAnswers
  readonly #publicUrl: string
  readonly #cacheControl: string
  readonly #trustProxy: TrustProxy
  readonly #requestCounter: RequestCounter | undefined
  readonly #accessLog: FastifyBaseLogger | undefined
  readonly #errorLog: FastifyBaseLogger | undefined
  #open = true
  /**
   * The headers of each answer sent so far, built once: assembling them per request was the
   * largest cost of the fast path's own code. Bounded by the answers that exist (a few per
   * prepared body); weak, so a page dropped from the page cache takes its list with it.
   */
  readonly #headerLists = new WeakMap<PreparedAnswer, Array<string | number>>()
  /**
   * Error answers by request URL. A 404 built afresh (the lookup, an exception, the message, the
   * JSON) cost about twice the CPU of a prepared answer; clients that hit a missing URL tend to hit
   * it again. Also the 429s, by seconds to the window's end: a client over its limit may send
   * many. Cleared when full, so a flood of distinct bad URLs costs memory for at most this many.
   */
  readonly #errorAnswers = new Map<string, ErrorAnswer>()

  constructor ({ answers, publicUrl, cacheControl, trustProxy, requestCounter, accessLog, errorLog }: FastPathOptions) {
    this.#answers = answers
    this.#publicUrl = publicUrl
    this.#cacheControl = cacheControl
    this.#trustProxy = trustProxy
    this.#requestCounter = requestCounter
    this.#accessLog = accessLog
    this.#errorLog = errorLog
  }

  /** From now on every request goes to Fastify, which answers 503 while the server closes. */
  close (): void {
    this.#open = false
  }

  /** Answers the request if it is one of the fast path's, otherwise hands it to `fallback` as it came. */
  dispatch (request: IncomingMessage, response: ServerResponse, fallback: Fallback): void {
    try {
      const startedAt = this.#accessLog === undefined ? 0 : performance.now()
      const answer = this.#open ? this.#answerFor(request) : undefined
      const client = answer === undefined ? undefined : clientAddress(request, this.#trustProxy)
      if (answer === undefined || client === undefined) {
        fallback(request, response)
        return
      }
      if (this.#requestCounter === undefined) {
        this.#send(request, response, answer, client, undefined, startedAt)
        return
      }
      const counter = this.#requestCounter
      counter.count(client, (state) => {
        try {
          // Over the limit: the contract's 429, in the limiter's own words (a client over its limit
          // may send many; each costs this path's price, and one count, not Fastify's pipeline and two).
          const sent = state.exceeded ? this.#refusal(counter, state.resetSeconds) : answer
          this.#send(request, response, sent, client, state, startedAt)
        } catch (error) {
          this.#failed(request, response, fallback, error)
        }
      })
    } catch (error) {
      this.#failed(request, response, fallback, error)
    }
  }

  /**
   * A fault of the fast path itself (none is known): a request listener that throws would take the
   * process down, so the request goes to Fastify instead, or, if answering had begun, is cut off.
   */
  #failed (request: IncomingMessage, response: ServerResponse, fallback: Fallback, error: unknown): void {
    this.#errorLog?.error({ err: error, url: request.url }, 'fast path failed; the request went to Fastify')
    if (response.headersSent) response.destroy()
    else fallback(request, response)
  }

  #send (request: IncomingMessage, response: ServerResponse, body: PreparedBody | ErrorAnswer, client: string, limit: RateLimitState | undefined, startedAt: number): void {
    let statusCode: number
    let headers: ReadonlyArray<string | number>
    let payload: Buffer | undefined
    if (body instanceof ErrorAnswer) {
      ({ statusCode, headers, payload } = body)
    } else {
      const answer = preparedAnswer(body, request.headers['if-none-match'], request.headers['accept-encoding'])
      statusCode = answer.statusCode
      payload = answer.payload
      headers = this.#headerLists.get(answer) ?? this.#headerList(answer)
    }
    if (limit !== undefined) {
      headers = [...headers, 'ratelimit-limit', limit.limit, 'ratelimit-remaining', limit.remaining, 'ratelimit-reset', limit.resetSeconds]
    }
    response.writeHead(statusCode, headers as Array<string | number>)
    response.end(payload)
    if (this.#accessLog !== undefined) {
      this.#accessLog.info(accessLogEntry(nextRequestId(), request.method!, request.url!, statusCode, performance.now() - startedAt, client), 'request')
    }
  }

  /** The answer of an error: the contract's body and the headers the error handler would send. */
  #errorAnswer (error: ApiError): ErrorAnswer {
    const payload = Buffer.from(JSON.stringify(errorBody(this.#publicUrl, error.statusCode, error.message)))
    return new ErrorAnswer(error.statusCode, [...ERROR_HEADERS, ...Object.entries(error.headers).flat(), 'content-length', payload.length], payload)
  }

  /** The 429 of a client whose window ends in `resetSeconds`; one per second of the window, kept beside the URL errors. */
  #refusal (counter: RequestCounter, resetSeconds: number): ErrorAnswer {
    // Keys of URL errors begin with '/', so these cannot meet one.
    const key = `429 ${resetSeconds}`
    return this.#errorAnswers.get(key) ?? this.#rememberError(key, this.#errorAnswer(counter.refusal(resetSeconds)))
  }

  /** Keeps an error answer by URL (the same URL always meets the same error), or by a refusal's key. */
  #rememberError (key: string, answer: ErrorAnswer): ErrorAnswer {
    if (this.#errorAnswers.size >= ERROR_ANSWERS_MAX) this.#errorAnswers.clear()
    this.#errorAnswers.set(key, answer)
    return answer
  }

  /** Every header of an answer but the rate limit's, as the flat list writeHead takes; kept for the next time. */
  #headerList (answer: PreparedAnswer): Array<string | number> {
    const headers: Record<string, string | number> = { ...CONSTANT_HEADERS, 'cache-control': this.#cacheControl, ...answer.headers }
    // A 304 has no body and, as Fastify sends it, no Content-Length.
    if (answer.payload !== undefined) headers['content-length'] = answer.payload.length
    const list = Object.entries(headers).flat()
    this.#headerLists.set(answer, list)
    return list
  }

  /**
   * The body answering this request, or the 404/422 ExamAnswers raised for it; undefined when the
   * request is not the fast path's to answer.
   */
  #answerFor (request: IncomingMessage): PreparedBody | ErrorAnswer | undefined {
    const { method, url } = request
    if ((method !== 'GET' && method !== 'HEAD') || url === undefined || url.length > MAX_URL_LENGTH || !url.startsWith(PREFIX)) return undefined
    // What request-limits.ts refuses (a body, HTTP/1.1 without Host) stays Fastify's to refuse.
    if (declaresBody(request.headers) || lacksHost(request)) return undefined

    const known = this.#errorAnswers.get(url)
    if (known !== undefined) return known

    const queryStart = url.indexOf('?')
    const path = queryStart === -1 ? url : url.slice(0, queryStart)
    const query = queryStart === -1 ? '' : url.slice(queryStart + 1)
    // ['', 'v1', 'exams', year, 'questions', index]
    const segments = path.split('/')
    if (segments[2] !== 'exams') return undefined
    try {
      switch (segments.length) {
        case 3:
          return parseQuery(query, NO_PARAMETERS) === undefined ? undefined : this.#answers.examList()
        case 4:
          return isInteger(segments[3]!) && parseQuery(query, NO_PARAMETERS) !== undefined ? this.#answers.examDetail(segments[3]!) : undefined
        case 5: {
          if (segments[4] !== 'questions' || !isInteger(segments[3]!)) return undefined
          const values = parseQuery(query, LIST_PARAMETERS)
          return values === undefined ? undefined : this.#answers.questionPage(segments[3]!, values as QuestionListQuery)
        }
        case 6: {
          if (segments[4] !== 'questions' || !isInteger(segments[3]!) || !isInteger(segments[5]!)) return undefined
          const values = parseQuery(query, QUESTION_PARAMETERS)
          return values === undefined ? undefined : this.#answers.question(segments[3]!, segments[5]!, values as QuestionQuery)
        }
        default:
          return undefined
      }
    } catch (error) {
      // A 404 or 422 of well-formed values is answered here, from the error handler's own errorBody;
      // anything unforeseen goes to Fastify, whose error handler logs it and answers 500.
      return error instanceof ApiError && error.statusCode < 500 ? this.#rememberError(url, this.#errorAnswer(error)) : undefined
    }
  }
}

function isInteger (value: string): boolean {
  return value.length <= 11 && INTEGER.test(value)
}

/**
 * The known parameters of a query string when every one follows the grammar, appears at most once
 * and needs no decoding; undefined otherwise (the request then goes to Fastify, whose schema
 * validation has the last word). Unknown parameters with plain names are ignored, as the routes do.
 */
function parseQuery (query: string, known: Readonly<Record<string, RegExp>>): Record<string, string> | undefined {
  const values: Record<string, string> = {}
  if (query === '') return values
  if (query.includes('%') || query.includes('+')) return undefined
  for (const pair of query.split('&')) {
    const equals = pair.indexOf('=')
    const name = equals === -1 ? pair : pair.slice(0, equals)
    const grammar = Object.hasOwn(known, name) ? known[name] : undefined
    if (grammar === undefined) {
      if (!PLAIN_NAME.test(name)) return undefined
      continue
    }
    if (equals === -1 || Object.hasOwn(values, name)) return undefined
    const value = pair.slice(equals + 1)
    if (value.length > SLUG_MAX_LENGTH || !grammar.test(value)) return undefined
    values[name] = value
  }
  return values
}

/** Servers made by fastPathServerFactory, with the slot their requests look into for a fast path. */
const slots = new WeakMap<Server, { fastPath: FastPath | undefined }>()

/** What Fastify itself would set on the server it makes: the same values as its own options of these names. */
export interface ServerSettings {
  http: ServerOptions
  keepAliveTimeout: number
  requestTimeout: number
  connectionTimeout: number
}

/**
 * Fastify's `serverFactory`: the HTTP server Fastify would make (same options and timeouts),
 * whose requests first meet the fast path once the app has installed one (installFastPath).
 * Until then, and for `inject`, which never passes through a server, Fastify answers everything.
 */
export function fastPathServerFactory (settings: ServerSettings): FastifyServerFactory<Server> {
  // One slot per Fastify instance, shared by every server it makes (it makes one per address it listens on).
  const slot: { fastPath: FastPath | undefined } = { fastPath: undefined }
  return (handler) => {
    const server = createServer(settings.http, (request, response) => {
      const { fastPath } = slot
      if (fastPath === undefined) handler(request, response)
      else fastPath.dispatch(request, response, handler)
    })
    server.keepAliveTimeout = settings.keepAliveTimeout
    server.requestTimeout = settings.requestTimeout
    server.setTimeout(settings.connectionTimeout)
    slots.set(server, slot)
    return server
  }
}

/** Routes the requests of a server made by fastPathServerFactory through this fast path; any other server is left as it is. */
export function installFastPath (server: Server, fastPath: FastPath): void {
  const slot = slots.get(server)
  if (slot !== undefined) slot.fastPath = fastPath
}
