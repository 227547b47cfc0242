import {
  WebStandardStreamableHTTPServerTransport, createMcpHandler, isLegacyRequest, localhostAllowedHostnames,
  validateHostHeader, validateOriginHeader, type McpServerFactory
} from '@modelcontextprotocol/server'
import type { FastifyBaseLogger } from 'fastify'
import { LRUCache } from 'lru-cache'
import { MCP_ENDPOINT } from '../http/endpoints.ts'
import { ApiError, describeValue } from '../http/errors.ts'
import { deflatePart, LARGE_PART_LEVEL } from '../http/answers/deflated-parts.ts'
import { PreparedBody, partsAnswerGzip } from '../http/answers/prepared-body.ts'
import { NO_STORE } from '../http/response-headers.ts'
import { FairTurns } from '../http/server/fair-turns.ts'
import { RouteAnswer, type BodyRoute, type RouteRequest } from '../http/server/body-route.ts'
import { UNSENT_ETAG, type BegunCall, type PreparedResults } from './prepared-results.ts'
import { protocolError } from './protocol-errors.ts'

export interface McpEndpointOptions {
  /** The MCP server of one request (./mcp-server.ts). */
  factory: McpServerFactory
  /** The tool calls answered from prepared bytes, before the SDK (./prepared-results.ts); without it, the SDK answers every call. */
  prepared?: PreparedResults | undefined
  /** This server's public address: its host name, with loopback's, is the only one an Origin or Host may name. */
  publicUrl: string
  /** Where the refusals of clients' requests are noted, one short line each. */
  log: FastifyBaseLogger
  /** The turns tool calls take among clients, shared with the fast path's POST bodies (src/app.ts); its own unless given. */
  turns?: FairTurns | undefined
}

/** A call begun whose questions are not all made: the pieces that make them, one turn each. */
interface ColdCall {
  readonly begun: BegunCall
  readonly pieces: ReadonlyArray<() => void>
}

/** A call begun whose figures are being read. */
interface FiguresRead {
  readonly reading: Promise<BegunCall>
}

/** Longest refusal message logged. */
const MAX_LOGGED_REASON = 300
/** Host and Origin pairs kept as admitted (a client sends the same with every request). */
const ADMITTED_KEPT = 256

/**
 * POST /mcp's answers, whichever path a request takes (the Fastify route, ./http-transport.ts, or
 * the fast path, src/http/server/fast-path.ts): the Model Context Protocol's Streamable HTTP
 * transport, stateless: every request is answered by a fresh server from the factory, and nothing
 * is kept between requests (so any replica answers any request). Answers are JSON, never an event
 * stream. A plain tools/call is answered from prepared bytes (./prepared-results.ts), in its turn
 * among clients (FairTurns): the SDK is not asked.
 *
 * Both protocol eras are served with the SDK's own parts, routed by its own `isLegacyRequest`: the
 * 2026-07-28 revision (a per-request envelope) by `createMcpHandler`, and the 2025 revisions (an
 * `initialize` handshake, 2025-11-25 the latest) by its Streamable HTTP transport without sessions,
 * in JSON mode (the handler's own 2025 leg streams events).
 *
 * Before the protocol: the protocol's DNS-rebinding rule (an `Origin` or `Host` must name this
 * server's public host or loopback, else 403 with the API's error body), and a JSON-RPC batch is
 * refused (400): since protocol 2025-06-18 a request holds one message, and a batch would be many
 * tool calls counted once against the rate limit.
 */
export class McpEndpoint implements BodyRoute {
  readonly path = MCP_ENDPOINT.path
  readonly bodyLimit = MCP_ENDPOINT.bodyLimit
  readonly #factory: McpServerFactory
  readonly #prepared: PreparedResults | undefined
  readonly #publicUrl: string
  readonly #allowedHostnames: string[]
  readonly #modern: ReturnType<typeof createMcpHandler>
  /** A tool call's work takes turns with other clients' (one address's burst of costly calls delays no one else's request for long). */
  readonly #turns: FairTurns
  /** Host and Origin pairs the rebinding rule admitted: the SDK's checks parse each as a URL, on every request. */
  readonly #admitted = new LRUCache<string, true>({ max: ADMITTED_KEPT })

  constructor ({ factory, prepared, publicUrl, log, turns = new FairTurns() }: McpEndpointOptions) {
    this.#turns = turns
    this.#factory = factory
    this.#prepared = prepared
    this.#publicUrl = publicUrl
    this.#allowedHostnames = [...new Set([new URL(publicUrl).hostname.toLowerCase(), ...localhostAllowedHostnames()])]
    this.#modern = createMcpHandler(factory, {
      legacy: 'reject',
      // No tool sends a message before its result, so every answer is one JSON body ('json' would say so on stderr at every start).
      responseMode: 'auto',
      // No subscription stream: one would be a connection held per client, and no list here ever changes.
      maxSubscriptions: 0,
      maxRequestBodySize: MCP_ENDPOINT.bodyLimit,
      // Every refusal of a client's request passes here (a bad header, an unknown method): one short
      // line at info, no stack, its message cut, since a client chooses what it echoes (a 15 KB method name).
      onerror: (error) => { log.info({ reason: shortened(error.message) }, 'MCP request refused') }
    })
  }

  async close (): Promise<void> {
    await this.#modern.close()
  }

  /**
   * The 403 of a request whose Origin or Host names another site (a page rebinding its name to
   * this address), or undefined. `host`: the Host header, or the forwarded one from a proxy
   * TRUST_PROXY believes.
   */
  rebindingRefusal (host: string | undefined, origin: string | undefined): ApiError | undefined {
    const key = `${host}\n${origin}`
    if (this.#admitted.has(key)) return undefined
    const allowed = this.#allowedHostnames.join(', ')
    if (!validateHostHeader(host, this.#allowedHostnames).ok) return new ApiError(403, `Host ${describeValue(host)} is not this server's: ${MCP_ENDPOINT.path} answers only ${allowed} (DNS-rebinding protection)`)
    if (!validateOriginHeader(origin, this.#allowedHostnames).ok) return new ApiError(403, `Origin ${describeValue(origin)} may not call ${MCP_ENDPOINT.path}: only pages of ${allowed} may (DNS-rebinding protection)`)
    this.#admitted.set(key, true)
    return undefined
  }

  /** The requests answered after their body is read: every one the rebinding rule admits, when no proxy may have named another host (X-Forwarded-Host is Fastify's to weigh). */
  takes ({ headers }: RouteRequest): boolean {
    return headers['x-forwarded-host'] === undefined && this.rebindingRefusal(headers.host, headers.origin) === undefined
  }

  /** The answer to one message (the rebinding rule already applied). */
  answer (request: RouteRequest, client: string, message: unknown): RouteAnswer | Promise<RouteAnswer> {
    if (Array.isArray(message)) throw new ApiError(400, 'A JSON-RPC batch is not accepted: send one message per request (MCP 2025-06-18 and later)')
    const prepared = this.#prepared
    if (prepared === undefined) return this.#sdkAnswer(request, message)
    const acceptEncoding = request.headers['accept-encoding']
    // The tool's work, and, when its questions' parts are all made (a warm cache), the answer in
    // the encoding sent: one turn. Else each question's parts are made in a turn of their own (a
    // draw of 50 cold questions was tens of milliseconds in one piece), and the answer in a last one.
    const first = this.#turns.run(client, (): RouteAnswer | ColdCall | FiguresRead | undefined => {
      const begun = prepared.begin(request.headers, message)
      if (begun === undefined) return undefined
      // A call that carries figures reads them first (from the files' cache, or the disk), then goes on in turns.
      const reading = prepared.withFigures(begun)
      if (reading !== undefined) return { reading }
      const pieces = prepared.pieces(begun, partsAnswerGzip(acceptEncoding))
      return pieces.length === 0 ? encodedAnswer(200, undefined, prepared.finish(begun), acceptEncoding) : { begun, pieces }
    })
    const settle = (step: RouteAnswer | ColdCall | FiguresRead | undefined): RouteAnswer | Promise<RouteAnswer> => {
      if (step === undefined) return this.#sdkAnswer(request, message)
      if ('reading' in step) return step.reading.then((begun) => this.#inPieces(client, prepared, { begun, pieces: prepared.pieces(begun, partsAnswerGzip(acceptEncoding)) }, acceptEncoding))
      return step instanceof RouteAnswer ? step : this.#inPieces(client, prepared, step, acceptEncoding)
    }
    return first instanceof Promise ? first.then(settle) : settle(first)
  }

  async #inPieces (client: string, prepared: PreparedResults, { begun, pieces }: ColdCall, acceptEncoding: string | undefined): Promise<RouteAnswer> {
    for (const piece of pieces) await this.#turns.run(client, piece)
    return await this.#turns.run(client, () => encodedAnswer(200, undefined, prepared.finish(begun), acceptEncoding))
  }

  async #sdkAnswer (request: RouteRequest, message: unknown): Promise<RouteAnswer> {
    const web = webRequestOf(request, this.#publicUrl)
    const answer = await isLegacyRequest(web, message, { maxRequestBodySize: MCP_ENDPOINT.bodyLimit })
      ? await this.#legacy(web, message)
      : await this.#modern.fetch(web, { parsedBody: message })
    return webAnswer(answer, request.headers['accept-encoding'])
  }

  async #legacy (request: Request, parsedBody: unknown): Promise<Response> {
    const server = await this.#factory({ era: 'legacy', requestInfo: request })
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true })
    await server.connect(transport)
    try {
      return await transport.handleRequest(request, { parsedBody })
    } finally {
      await server.close()
    }
  }
}

function shortened (text: string): string {
  return text.length > MAX_LOGGED_REASON ? `${text.slice(0, MAX_LOGGED_REASON)}…` : text
}

/** The headers of a prepared answer, by encoding and whether it varies by it: made once, so the fast path builds its list once for each (weakly keyed). */
const PREPARED_HEADERS = new Map<string, Readonly<Record<string, string>>>()

/** An MCP answer as sent: gzip when the client takes it (from prepared parts), else as it is (as the endpoints send theirs); its Content-Type the SDK's, never stored. */
function encodedAnswer (statusCode: number, headers: Readonly<Record<string, string>> | undefined, body: PreparedBody, acceptEncoding: string | undefined): RouteAnswer {
  const encoding = body.encodingFor(acceptEncoding)
  const { compressible } = body
  const shared = headers === undefined ? `${encoding}|${compressible}` : undefined
  let own = shared === undefined ? undefined : PREPARED_HEADERS.get(shared)
  if (own === undefined) {
    const made: Record<string, string> = { ...headers, 'content-type': 'application/json', 'cache-control': NO_STORE }
    if (compressible) made.vary = 'Accept-Encoding'
    if (encoding !== 'identity') made['content-encoding'] = encoding
    own = Object.freeze(made)
    if (shared !== undefined) PREPARED_HEADERS.set(shared, own)
  }
  return new RouteAnswer(statusCode, own, body.answer(encoding).payload)
}

/** The request as the SDK's web-standard parts take it; the body goes beside it, parsed already (within the route's bound). */
function webRequestOf ({ url, headers }: RouteRequest, publicUrl: string): Request {
  const web = new Headers()
  for (const [name, value] of Object.entries(headers)) {
    if (typeof value === 'string') web.set(name, value)
    else if (Array.isArray(value)) for (const item of value) web.append(name, item)
  }
  return new Request(new URL(url, publicUrl), { method: 'POST', headers: web })
}

/**
 * The SDK's answer as sent: its status and headers, and its body (JSON, or nothing for a
 * notification's 202), compressed as a prepared answer is; a protocol error the SDK worded as a
 * schema library's dump said in the protocol's words (./protocol-errors.ts).
 */
async function webAnswer (answer: Response, acceptEncoding: string | undefined): Promise<RouteAnswer> {
  const bytes = Buffer.from(await answer.arrayBuffer())
  const headers: Record<string, string> = {}
  answer.headers.forEach((value, name) => { if (name !== 'content-length') headers[name] = value })
  if (bytes.length === 0) return new RouteAnswer(answer.status, { ...headers, 'cache-control': NO_STORE }, undefined)
  const body = protocolError(bytes) ?? bytes
  return encodedAnswer(answer.status, headers, new PreparedBody([body], { etag: UNSENT_ETAG, effort: 'parts', gzipParts: () => [deflatePart(body, LARGE_PART_LEVEL)] }), acceptEncoding)
}
