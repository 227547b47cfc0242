import { createServer, type IncomingMessage, type Server, type ServerOptions, type ServerResponse } from 'node:http'
import type { FastifyBaseLogger, FastifyServerFactory } from 'fastify'
import { LRUCache } from 'lru-cache'
import { clientAddress, type TrustProxy } from '../client-address.ts'
import { API_BASE, ENDPOINTS, answerOfBody, type EndpointAnswers, type Endpoint } from '../endpoints.ts'
import { EndpointMatcher } from './endpoint-matcher.ts'
import { ApiError, errorBody, internalError } from '../errors.ts'
import { payloadLength, preparedAnswer, type PreparedAnswer, type PreparedBody } from '../answers/prepared-body.ts'
import { RecentKeys } from '../answers/recent-keys.ts'
import { ownedText } from '../../data/dataset/owned-bytes.ts'
import { nextRequestId, writeAccessLog } from '../access-log.ts'
import { declaresBody, lacksHost } from './request-limits.ts'
import { rateLimitHeaderList, type RateLimitState, type RequestCounter } from '../rate-limit/request-counter.ts'
import { ERROR_ANSWER_HEADERS, JSON_CACHE_CONTROL, everyAnswerHeaders } from '../response-headers.ts'
import { RouteAnswer, type BodyRoute } from './body-route.ts'
import type { FairTurns } from './fair-turns.ts'

/*
 * The fast path: answers of the endpoint table (src/http/endpoints.ts) to well-formed requests
 * (the prepared bodies, and the 404s and 422s of values that name nothing), written straight to
 * Node's response without going through Fastify's request pipeline.
 *
 * Why: these answers are prepared bytes, so what a request costs is the framework around them
 * (bench/results.md compares both paths with a bare node:http server). The fast path does only
 * what these requests need, with the app's own parts: the table's answer picks the body (the same
 * call the routes make), preparedAnswer negotiates ETag and encoding (the same function
 * sendPrepared uses), error bodies come from the error handler's errorBody, the headers from
 * src/http/response-headers.ts (everyAnswerHeaders, as the app's onSend hook adds them), and the
 * rate limit counts with the very RequestCounter the routes' hook counts with, so a client has one
 * quota, the same RateLimit-* headers and, over its limit, the same 429 (RequestCounter.refusal).
 *
 * What it accepts it derives from the table: the paths, and for each parameter the pattern and
 * length of its schema. What it cannot check that way it hands to Fastify untouched: any method
 * but GET and HEAD, any other path, a value off the grammar (400), a parameter whose schema has no
 * pattern, malformed percent-encoding, a repeated or bare parameter, a request with a body, and
 * everything while the server closes. test/http/fast-path.test.ts sends the same requests both
 * ways and compares the answers.
 *
 * A POST of the table (POST /v1/scores) is answered here too when its headers are the plain ones
 * every client sends: a Content-Length within the entry's `body.limit`, `application/json` (or
 * with `charset=utf-8`), no Content-Encoding or Transfer-Encoding. Its body is read as Fastify
 * reads it, parsed by the app's own JSON parser (json-body.ts's jsonTextParser), checked by the
 * entry's `body.problem`, and answered by the entry's `answer` as the route does; every refusal a
 * request with other headers may meet (413, 415, the 400 of an empty body) stays Fastify's, which
 * decides it before reading a byte.
 *
 * So is a POST of a body route beside the table (POST /mcp, ./body-route.ts), with the same plain
 * headers and the route's own consent before its body is read (its DNS-rebinding rule): the body
 * is parsed by the same parser and answered by the very object the route's Fastify handler answers
 * with, in time when its answer is the SDK's (a promise).
 */

export interface FastPathOptions {
  answers: EndpointAnswers
  /** The endpoints it answers: the table, unless a test gives its own. */
  endpoints?: readonly Endpoint[] | undefined
  /** Base of the docUrl of error bodies. */
  publicUrl: string
  trustProxy: TrustProxy
  /** Counts the request against its client's quota; absent when rate limiting is off. */
  requestCounter?: RequestCounter | undefined
  /** Where the access-log line goes; absent when the log level is quieter than info. */
  accessLog?: FastifyBaseLogger | undefined
  /** Where a fault of the fast path itself is reported. */
  errorLog?: FastifyBaseLogger | undefined
  /**
   * The app's JSON body parser (json-body.ts's jsonTextParser): the value, or an ApiError thrown.
   * Without it, POSTs are Fastify's.
   */
  parseJson?: ((text: string) => unknown) | undefined
  /** POST routes beside the table whose plain requests are read and answered here too (POST /mcp); none unless given. */
  bodyRoutes?: readonly BodyRoute[] | undefined
  /**
   * The turns a POST body is parsed and answered in, among clients (shared with the body routes',
   * so one budget per pass of the loop bounds all such work); without, at once.
   */
  turns?: FairTurns | undefined
}

type Fallback = (request: IncomingMessage, response: ServerResponse) => void

/**
 * Longest request target the fast path reads; a longer one goes to Fastify, which refuses
 * targets past request-limits.ts's MAX_URL_LENGTH.
 */
export const FAST_PATH_MAX_TARGET = 1024
const API_PREFIX = `${API_BASE}/`
/** Bytes of the answers kept by URL (bodies counted whole, though most are shared with the answers' caches). */
const ANSWERS_BY_URL_BYTES = 16 * 1024 * 1024
/**
 * What a kept answer costs beside the bytes it counts: its objects (a body's answers and their
 * headers, its gzip's list of chunks; an error's header list and its own small buffer), the URL's
 * slot. Counted at their bytes alone, a body made of shared parts (a page, a multi-year export)
 * counts a few hundred, an error as few: under the battery's mix, tens of thousands of multi-year
 * exports asked twice, and of 404s of pages (its 2024 and second-application pages, on a dataset
 * without them), were kept, tens of megabytes the bound did not see (issue 45).
 */
const ANSWER_BY_URL_OVERHEAD_BYTES = 4 * 1024

/** An error answer ready to send: status, every header but the rate limit's, and the contract's error body. */
class ErrorAnswer {
  constructor (
    readonly statusCode: number,
    readonly headers: ReadonlyArray<string | number>,
    readonly payload: Buffer
  ) {}
}

const ERROR_HEADER_LIST: ReadonlyArray<string | number> = Object.entries(ERROR_ANSWER_HEADERS).flat()
/** Content types of a body read here: JSON in UTF-8 as clients spell it; any other spelling is Fastify's to judge. */
const PLAIN_JSON_TYPES = new Set(['application/json', 'application/json; charset=utf-8', 'application/json;charset=utf-8'])
/** A Content-Length of a non-empty body, as digits (an empty body is Fastify's 400). */
const BODY_LENGTH = /^[1-9][0-9]{0,8}$/
/** A query beside a POST's path (the endpoint reads none): plain characters only, anything odder goes to Fastify. */
const PLAIN_QUERY = /^[A-Za-z0-9_.~=&-]*$/

/** An endpoint of the table that reads a body (POST /v1/scores). */
type TablePost = Endpoint & { body: NonNullable<Endpoint['body']> }

/** A POST the fast path reads: the table's endpoint or the body route it names, and the body's declared length. */
class PostRequest {
  constructor (
    readonly target: TablePost | BodyRoute,
    readonly length: number
  ) {}
}

function isBodyRoute (target: TablePost | BodyRoute): target is BodyRoute {
  return 'takes' in target
}
const EVERY_ANSWER_HEADER_LIST: ReadonlyArray<string | number> = Object.entries(everyAnswerHeaders(200)).flat()

export class FastPath {
  readonly #answers: EndpointAnswers
  readonly #matcher: EndpointMatcher
  readonly #publicUrl: string
  readonly #trustProxy: TrustProxy
  readonly #requestCounter: RequestCounter | undefined
  readonly #accessLog: FastifyBaseLogger | undefined
  readonly #errorLog: FastifyBaseLogger | undefined
  readonly #parseJson: ((text: string) => unknown) | undefined
  readonly #turns: FairTurns | undefined
  /** The POST endpoints of the table and the body routes, by their full path (and with a trailing slash, which names the same). */
  readonly #posts = new Map<string, TablePost | BodyRoute>()
  #open = true
  /**
   * The headers of each answer whose body is kept by URL, built once: assembling them per request
   * was the largest cost of the fast path's own code on repeated requests. Bounded by the answers
   * kept by URL (a few per body); weak, so a body dropped from that cache takes its lists with it.
   */
  readonly #headerLists = new WeakMap<PreparedAnswer, Array<string | number>>()
  /** The header lists of body routes' answers, by their headers object (a route shares one among many answers). */
  readonly #routeHeaderLists = new WeakMap<object, { statusCode: number, list: ReadonlyArray<string | number> }>()
  /**
   * Answers by request URL, bodies and errors alike: the same address always gets the same answer
   * (but for a body never reused, an unseeded draw), so a repeated one skips parsing, matching and
   * the answer's own lookups; a 404 built afresh (the lookup, an exception, the message, the JSON)
   * costs far more than a prepared answer. Also the 429s, by seconds to the window's end: a client
   * over its limit may send many. Bounded in bytes, least recently used first out.
   */
  readonly #answersByUrl = new LRUCache<string, PreparedBody | ErrorAnswer>({
    maxSize: ANSWERS_BY_URL_BYTES,
    // ownBytes, not raw.length: asking a body made of parts (a multi-year export) for `raw` joins them, megabytes.
    sizeCalculation: (answer, url) => (answer instanceof ErrorAnswer ? answer.payload.length : answer.ownBytes) + ANSWER_BY_URL_OVERHEAD_BYTES + url.length
  })

  /** URLs asked for lately: a body is kept by URL from its second request on. */
  readonly #repeats = new RecentKeys()

  constructor ({ answers, endpoints = ENDPOINTS, publicUrl, trustProxy, requestCounter, accessLog, errorLog, parseJson, bodyRoutes = [], turns }: FastPathOptions) {
    this.#answers = answers
    this.#parseJson = parseJson
    this.#turns = turns
    for (const endpoint of endpoints) {
      const { body } = endpoint
      // A POST with a path parameter would need the matcher's checks: none is in the table, and one added stays Fastify's.
      if (endpoint.method !== 'POST' || body === undefined || endpoint.path.includes(':')) continue
      const entry = { ...endpoint, body }
      this.#posts.set(`${API_BASE}${endpoint.path}`, entry)
      this.#posts.set(`${API_BASE}${endpoint.path}/`, entry)
    }
    for (const route of bodyRoutes) {
      this.#posts.set(route.path, route)
      this.#posts.set(`${route.path}/`, route)
    }
    this.#matcher = new EndpointMatcher(endpoints)
    this.#publicUrl = publicUrl
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
      const answer = this.#open ? (request.method === 'POST' ? this.#postFor(request) : this.#answerFor(request)) : undefined
      const client = answer === undefined ? undefined : clientAddress(request, this.#trustProxy)
      if (answer === undefined || client === undefined) {
        fallback(request, response)
        return
      }
      if (this.#requestCounter === undefined) {
        if (answer instanceof PostRequest) this.#readPost(request, response, answer, client, undefined, startedAt)
        else this.#send(request, response, answer, client, undefined, startedAt)
        return
      }
      const counter = this.#requestCounter
      counter.count(client, (state) => {
        try {
          // Over the limit: the contract's 429, in the limiter's own words (a client over its limit
          // may send many; each costs this path's price, and one count, not Fastify's pipeline and two).
          // A POST's body is then left unread, as Fastify's limiter leaves it (Node discards it).
          if (state.exceeded) this.#send(request, response, this.#refusal(counter, state.resetSeconds), client, state, startedAt)
          else if (answer instanceof PostRequest) this.#readPost(request, response, answer, client, state, startedAt)
          else this.#send(request, response, answer, client, state, startedAt)
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

  /**
   * Reads a POST's body as Fastify's parser reads it (raw bytes, decoded as UTF-8 once at the end),
   * then answers it as the route does: the body's 400 (JSON, nesting, schema), the answer's 422, or
   * the answer itself. A body cut off before its end gets no answer (the client is gone).
   */
  #readPost (request: IncomingMessage, response: ServerResponse, post: PostRequest, client: string, limit: RateLimitState | undefined, startedAt: number): void {
    const chunks: Buffer[] = []
    let received = 0
    const onData = (chunk: Buffer) => {
      received += chunk.length
      chunks.push(chunk)
    }
    const onEnd = () => {
      request.removeListener('data', onData)
      request.removeListener('error', onError)
      const send = (answer: PostAnswer) => {
        try {
          // A client gone while a route's answer was made is not answered.
          if (!response.destroyed) this.#send(request, response, answer, client, limit, startedAt)
        } catch (error) {
          // A fault of sending itself: the body is read, so Fastify cannot take the request over; it is cut off.
          this.#errorLog?.error({ err: error, url: request.url }, 'fast path failed; the request was cut off')
          response.destroy()
        }
      }
      let answer: PostAnswer | Promise<PostAnswer>
      try {
        const bytes = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, received)
        const work = () => this.#postAnswer(post, request, client, bytes, received)
        // A body is parsed and answered in its client's turn: one address's 32 connections of
        // refused 18 KB bodies were parsed back to back in each pass of the loop, and another
        // address waited for all of them (issue 45). A body route's own turns, asked for within
        // this one, are part of it. (A promise resolved with a promise takes that one's value.)
        answer = this.#turns === undefined ? work() : this.#turns.run(client, work) as PostAnswer | Promise<PostAnswer>
      } catch (error) {
        answer = this.#postFailure(request, error)
      }
      if (answer instanceof Promise) answer.then(send, (error: unknown) => { send(this.#postFailure(request, error)) })
      else send(answer)
    }
    const onError = () => {
      request.removeListener('data', onData)
      request.removeListener('end', onEnd)
      response.destroy()
    }
    request.on('data', onData)
    request.once('end', onEnd)
    request.once('error', onError)
  }

  /**
   * The answer to a POST's body: what the route would answer (its errors below 500 as error
   * answers; it throws anything else); a body route's may come later.
   */
  #postAnswer ({ target, length }: PostRequest, request: IncomingMessage, client: string, bytes: Buffer, received: number): PostAnswer | Promise<PostAnswer> {
    try {
      // Node frames the body by its Content-Length, so this holds; Fastify's parser checks it too.
      if (received !== length) throw new ApiError(400, 'Request body size did not match Content-Length')
      const body = this.#parseJson!(bytes.toString('utf8'))
      if (!isBodyRoute(target)) return answerOfBody(target, this.#answers, body)
      const answer = target.answer({ url: request.url!, headers: request.headers }, client, body)
      return answer instanceof Promise ? answer.catch((error: unknown) => this.#postFailure(request, error)) : answer
    } catch (error) {
      if (error instanceof ApiError && error.statusCode < 500) return this.#errorAnswer(error)
      throw error
    }
  }

  /**
   * The answer of a POST that failed: an ApiError below 500 as the error handler answers it;
   * anything else (none is known) as the 500 Fastify's error handler would answer, logged as it logs it.
   */
  #postFailure (request: IncomingMessage, error: unknown): ErrorAnswer {
    if (error instanceof ApiError && error.statusCode < 500) return this.#errorAnswer(error)
    this.#errorLog?.error({ err: error, url: request.url }, 'request failed')
    return this.#errorAnswer(internalError())
  }

  #send (request: IncomingMessage, response: ServerResponse, body: PostAnswer, client: string, limit: RateLimitState | undefined, startedAt: number): void {
    let statusCode: number
    let headers: ReadonlyArray<string | number>
    let payload: Buffer | readonly Buffer[] | undefined
    if (body instanceof ErrorAnswer) {
      ({ statusCode, headers, payload } = body)
    } else if (body instanceof RouteAnswer) {
      ({ statusCode, payload } = body)
      headers = this.#routeHeaderList(body)
    } else {
      // A POST's answer is not a representation to revalidate: no 304, whatever If-None-Match says
      // (as the route); nor is it kept by URL.
      const post = request.method === 'POST'
      const answer = preparedAnswer(body, post ? undefined : request.headers['if-none-match'], request.headers['accept-encoding'])
      statusCode = answer.statusCode
      payload = answer.payload
      headers = this.#headerLists.get(answer) ?? this.#headerList(body, answer, post ? undefined : request.url!)
    }
    if (limit !== undefined) {
      headers = [...headers, ...rateLimitHeaderList(limit)]
    }
    response.writeHead(statusCode, headers as Array<string | number>)
    if (payload === undefined || Buffer.isBuffer(payload)) {
      response.end(payload)
    } else {
      // A gzip assembled from parts: its chunks as they are, in one writev.
      response.cork()
      for (const chunk of payload) response.write(chunk)
      response.end()
    }
    if (this.#accessLog !== undefined) {
      writeAccessLog(this.#accessLog, nextRequestId(), request.method!, request.url!, statusCode, performance.now() - startedAt, client)
    }
  }

  /**
   * Every header of a body route's answer but the rate limit's, as Fastify sends it (the app's
   * onSend hook sets every answer's last, over the route's): the headers' part made once for each
   * headers object a route shares among its answers.
   */
  #routeHeaderList ({ statusCode, headers, payload }: RouteAnswer): Array<string | number> {
    let kept = this.#routeHeaderLists.get(headers)
    if (kept === undefined || kept.statusCode !== statusCode) {
      kept = { statusCode, list: Object.entries({ ...headers, ...everyAnswerHeaders(statusCode) }).flat() }
      this.#routeHeaderLists.set(headers, kept)
    }
    // Fastify sends Content-Length: 0 with an answer without a body (a notification's 202).
    return [...kept.list, 'content-length', payload === undefined ? 0 : payloadLength(payload)]
  }

  /** The answer of an error: the contract's body and the headers the error handler would send. */
  #errorAnswer (error: ApiError): ErrorAnswer {
    // Its own buffer, not a slice of the shared pool: it is kept by URL (src/data/dataset/owned-bytes.ts).
    const payload = ownedText(JSON.stringify(errorBody(this.#publicUrl, error.statusCode, error.message)))
    return new ErrorAnswer(error.statusCode, [...ERROR_HEADER_LIST, ...Object.entries(error.headers).flat(), 'content-length', payload.length], payload)
  }

  /** The 429 of a client whose window ends in `resetSeconds`; one per second of the window, kept beside the URL errors. */
  #refusal (counter: RequestCounter, resetSeconds: number): ErrorAnswer {
    // Keys of URL errors begin with '/', so these cannot meet one.
    const key = `429 ${resetSeconds}`
    const kept = this.#answersByUrl.get(key)
    return kept instanceof ErrorAnswer ? kept : this.#rememberError(key, this.#errorAnswer(counter.refusal(resetSeconds)))
  }

  /** Keeps an error answer by URL (the same URL always meets the same error), or by a refusal's key. */
  #rememberError (key: string, answer: ErrorAnswer): ErrorAnswer {
    this.#answersByUrl.set(key, answer)
    return answer
  }

  /**
   * Every header of an answer but the rate limit's, as the flat list writeHead takes; kept for the
   * next time only when its body is kept by URL (from a URL's second request on): a weak-map entry
   * per one-off answer (a first search, an unseeded draw) costs more than building its list
   * (bench/results.md).
   */
  #headerList (body: PreparedBody, answer: PreparedAnswer, url: string | undefined): Array<string | number> {
    // No name of answer.headers is one of everyAnswerHeaders' (CORS and nosniff), so nothing is sent twice.
    const list: Array<string | number> = [...EVERY_ANSWER_HEADER_LIST, 'cache-control', body.cacheControl ?? JSON_CACHE_CONTROL]
    for (const name in answer.headers) list.push(name, answer.headers[name]!)
    // A 304 has no body and, as Fastify sends it, no Content-Length.
    if (answer.payload !== undefined) list.push('content-length', payloadLength(answer.payload))
    if (url !== undefined && this.#answersByUrl.has(url)) this.#headerLists.set(answer, list)
    return list
  }

  /**
   * The POST endpoint a request names when its headers are the plain ones the fast path reads a
   * body with; undefined otherwise (Fastify then answers it, refusals included).
   */
  #postFor (request: IncomingMessage): PostRequest | undefined {
    const { url, headers } = request
    if (this.#parseJson === undefined || url === undefined || url.length > FAST_PATH_MAX_TARGET || lacksHost(request)) return undefined
    const queryStart = url.indexOf('?')
    const target = this.#posts.get(queryStart === -1 ? url : url.slice(0, queryStart))
    if (target === undefined || (queryStart !== -1 && !PLAIN_QUERY.test(url.slice(queryStart + 1)))) return undefined
    const { 'content-length': declared, 'content-type': type, 'content-encoding': encoding, 'transfer-encoding': transfer } = headers
    if (transfer !== undefined || encoding !== undefined || declared === undefined || type === undefined) return undefined
    if (!BODY_LENGTH.test(declared) || !PLAIN_JSON_TYPES.has(type.toLowerCase())) return undefined
    const length = Number(declared)
    if (!isBodyRoute(target)) return length > target.body.limit ? undefined : new PostRequest(target, length)
    return length > target.bodyLimit || !target.takes({ url, headers }) ? undefined : new PostRequest(target, length)
  }

  /**
   * The body answering this request, or the 404/422 the table's answer raised for it; undefined
   * when the request is not the fast path's to answer.
   */
  #answerFor (request: IncomingMessage): PreparedBody | ErrorAnswer | undefined {
    const { method, url } = request
    if ((method !== 'GET' && method !== 'HEAD') || url === undefined || url.length > FAST_PATH_MAX_TARGET || !url.startsWith(API_PREFIX)) return undefined
    // What request-limits.ts refuses (a body, HTTP/1.1 without Host) stays Fastify's to refuse.
    if (declaresBody(request.headers) || lacksHost(request)) return undefined

    const known = this.#answersByUrl.get(url)
    if (known !== undefined) return known

    const match = this.#matcher.match(url.slice(API_BASE.length))
    if (match === undefined) return undefined
    try {
      const body = match.endpoint.answer(this.#answers, match.params, match.query, undefined)
      // The same address always gets the same body, but for one never reused (an unseeded draw);
      // it is kept from the second request on (most searches come once).
      if (body.cacheControl === undefined && this.#repeats.seenBefore(url)) this.#answersByUrl.set(url, body)
      return body
    } catch (error) {
      // A 404 or 422 of well-formed values is answered here, from the error handler's own errorBody;
      // anything unforeseen goes to Fastify, whose error handler logs it and answers 500.
      return error instanceof ApiError && error.statusCode < 500 ? this.#rememberError(url, this.#errorAnswer(error)) : undefined
    }
  }
}

/** What a POST is answered with: the table's body, an error, or a body route's answer. */
type PostAnswer = PreparedBody | ErrorAnswer | RouteAnswer

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
