import {
  WebStandardStreamableHTTPServerTransport, createMcpHandler, isLegacyRequest, localhostAllowedHostnames,
  validateHostHeader, validateOriginHeader, type McpServerFactory
} from '@modelcontextprotocol/server'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import Type from 'typebox'
import { ENDPOINTS, MCP_ENDPOINT } from '../http/endpoints.ts'
import { errorDescriptions } from '../http/error-descriptions.ts'
import { ApiError, describeValue } from '../http/errors.ts'
import { deflatePart, LARGE_PART_LEVEL } from '../http/answers/deflated-parts.ts'
import { joinedPayload, PreparedBody, type ContentEncoding } from '../http/answers/prepared-body.ts'
import { NO_STORE } from '../http/response-headers.ts'
import { FairTurns } from '../http/server/fair-turns.ts'
import { validAddressOr } from '../http/client-address.ts'
import { errorResponses } from '../http/schemas/openapi-responses.ts'
import { UNSENT_ETAG, type PreparedResults } from './prepared-results.ts'
import { protocolError } from './protocol-errors.ts'

export interface McpTransportOptions {
  /** The MCP server of one request (./mcp-server.ts). */
  factory: McpServerFactory
  /** The tool calls answered from prepared bytes, before the SDK (./prepared-results.ts); without it, the SDK answers every call. */
  prepared?: PreparedResults | undefined
  /** This server's public address: its host name, with loopback's, is the only one an Origin or Host may name. */
  publicUrl: string
}

/** The body the route reads: one JSON-RPC message, which the SDK checks (its JSON-RPC errors are the protocol's answers). */
const McpMessageSchema = Type.Unknown({ description: 'One JSON-RPC 2.0 message of the Model Context Protocol (a request such as `initialize`, `tools/list`, `tools/call`, or a notification)' })
const McpAnswerSchema = Type.Unknown({ description: 'The JSON-RPC 2.0 response to the message (HTTP 202 and no body for a notification)' })

/**
 * POST /mcp: the Model Context Protocol's Streamable HTTP transport on the API's own server,
 * stateless: every request is answered by a fresh server from the factory, and nothing is kept
 * between requests (so any replica answers any request). Answers are JSON, never an event stream.
 *
 * Both protocol eras are served with the SDK's own parts, routed by its own `isLegacyRequest`: the
 * 2026-07-28 revision (a per-request envelope) by `createMcpHandler`, and the 2025 revisions (an
 * `initialize` handshake, 2025-11-25 the latest) by its Streamable HTTP transport without sessions,
 * in JSON mode (the handler's own 2025 leg streams events).
 *
 * Before the protocol, as for every API request: the rate limit (the scope this is registered in),
 * the 16 KiB body bound, JSON only (415), and the protocol's DNS-rebinding rule: an `Origin` or
 * `Host` must name this server's public host or loopback, else 403 with the API's error body. A
 * JSON-RPC batch is refused (400): since protocol 2025-06-18 a request holds one message, and a batch
 * would be many tool calls counted once against the rate limit.
 */
export async function mcpTransport (app: FastifyInstance, { factory, prepared, publicUrl }: McpTransportOptions): Promise<void> {
  const allowedHostnames = [...new Set([new URL(publicUrl).hostname.toLowerCase(), ...localhostAllowedHostnames()])]
  const modern = createMcpHandler(factory, {
    legacy: 'reject',
    // No tool sends a message before its result, so every answer is one JSON body ('json' would say so on stderr at every start).
    responseMode: 'auto',
    // No subscription stream: one would be a connection held per client, and no list here ever changes.
    maxSubscriptions: 0,
    maxRequestBodySize: MCP_ENDPOINT.bodyLimit,
    // Every refusal of a client's request passes here (a bad header, an unknown method): one short
    // line at info, no stack, its message cut, since a client chooses what it echoes (a 15 KB method name).
    onerror: (error) => { app.log.info({ reason: shortened(error.message) }, 'MCP request refused') }
  })
  app.addHook('onClose', async () => { await modern.close() })
  // A tool call's work takes turns with other clients' (one address's burst of costly calls delays no one else's request for long).
  const turns = new FairTurns()

  const legacy = async (request: Request, parsedBody: unknown): Promise<Response> => {
    const server = await factory({ era: 'legacy', requestInfo: request })
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true })
    await server.connect(transport)
    try {
      return await transport.handleRequest(request, { parsedBody })
    } finally {
      await server.close()
    }
  }

  app.post(MCP_ENDPOINT.path, {
    schema: {
      operationId: MCP_ENDPOINT.operationId,
      summary: MCP_ENDPOINT.summary,
      description: MCP_ENDPOINT.description,
      tags: [...MCP_ENDPOINT.tags],
      body: McpMessageSchema,
      response: { 200: McpAnswerSchema, ...errorResponses(errorDescriptions(ENDPOINTS), MCP_ENDPOINT.errors) }
    },
    bodyLimit: MCP_ENDPOINT.bodyLimit,
    onRequest: (request, _reply, done) => {
      done(rebindingRefusal(request, allowedHostnames))
    }
  }, async (request, reply) => {
    if (Array.isArray(request.body)) throw new ApiError(400, 'A JSON-RPC batch is not accepted: send one message per request (MCP 2025-06-18 and later)')
    const client = validAddressOr(request.ip, request.socket.remoteAddress) ?? 'unknown'
    // The answer and its bytes in the encoding sent (a question's parts are deflated on first use): all the call's work, in its turn.
    const answer = await turns.run(client, () => {
      const body = prepared?.answer(request.headers, request.body)
      return body === undefined ? undefined : encodedAnswer(request, body)
    })
    if (answer !== undefined) return sendEncoded(reply, 200, answer)
    const web = webRequestOf(request, publicUrl)
    const sdkAnswer = await isLegacyRequest(web, request.body, { maxRequestBodySize: MCP_ENDPOINT.bodyLimit })
      ? await legacy(web, request.body)
      : await modern.fetch(web, { parsedBody: request.body })
    return sendWebResponse(request, reply, sdkAnswer)
  })
}

/** Longest refusal message logged. */
const MAX_LOGGED_REASON = 300

function shortened (text: string): string {
  return text.length > MAX_LOGGED_REASON ? `${text.slice(0, MAX_LOGGED_REASON)}…` : text
}

/** An MCP answer's bytes as sent: gzip when the client takes it (from prepared parts), else as they are (as the endpoints send theirs). */
interface EncodedAnswer {
  encoding: ContentEncoding
  varies: boolean
  payload: Buffer | undefined
}

function encodedAnswer (request: FastifyRequest, body: PreparedBody): EncodedAnswer {
  const encoding = body.encodingFor(request.headers['accept-encoding'])
  return { encoding, varies: body.compressible, payload: joinedPayload(body.answer(encoding).payload) }
}

/** Sends an MCP answer, its Content-Type the SDK's, never stored. */
function sendEncoded (reply: FastifyReply, status: number, { encoding, varies, payload }: EncodedAnswer): FastifyReply {
  reply.code(status).header('content-type', 'application/json').header('cache-control', NO_STORE)
  if (varies) reply.header('vary', 'Accept-Encoding')
  if (encoding !== 'identity') reply.header('content-encoding', encoding)
  return reply.send(payload)
}

/** The 403 of a request whose Origin or Host names another site (a page rebinding its name to this address), or undefined. */
function rebindingRefusal (request: FastifyRequest, allowedHostnames: string[]): ApiError | undefined {
  const allowed = allowedHostnames.join(', ')
  // request.host: the Host header, or the forwarded one from a proxy TRUST_PROXY believes.
  const host = validateHostHeader(request.host, allowedHostnames)
  if (!host.ok) return new ApiError(403, `Host ${describeValue(request.host)} is not this server's: ${MCP_ENDPOINT.path} answers only ${allowed} (DNS-rebinding protection)`)
  const origin = request.headers.origin
  const fromOrigin = validateOriginHeader(origin, allowedHostnames)
  if (!fromOrigin.ok) return new ApiError(403, `Origin ${describeValue(origin)} may not call ${MCP_ENDPOINT.path}: only pages of ${allowed} may (DNS-rebinding protection)`)
  return undefined
}

/** The request as the SDK's web-standard parts take it; the body goes beside it, parsed already (within the route's bound). */
function webRequestOf (request: FastifyRequest, publicUrl: string): Request {
  const headers = new Headers()
  for (const [name, value] of Object.entries(request.headers)) {
    if (typeof value === 'string') headers.set(name, value)
    else if (Array.isArray(value)) for (const item of value) headers.append(name, item)
  }
  return new Request(new URL(request.url, publicUrl), { method: request.method, headers })
}

/**
 * Sends the SDK's answer: its status and headers, and its body (JSON, or nothing for a
 * notification's 202), compressed as a prepared answer is; a protocol error the SDK worded as a
 * schema library's dump said in the protocol's words (./protocol-errors.ts).
 */
async function sendWebResponse (request: FastifyRequest, reply: FastifyReply, answer: Response): Promise<FastifyReply> {
  const bytes = Buffer.from(await answer.arrayBuffer())
  answer.headers.forEach((value, name) => { if (name !== 'content-length') reply.header(name, value) })
  if (bytes.length === 0) return reply.code(answer.status).header('cache-control', NO_STORE).send()
  const body = protocolError(bytes) ?? bytes
  return sendEncoded(reply, answer.status, encodedAnswer(request, new PreparedBody([body], { etag: UNSENT_ETAG, effort: 'parts', gzipParts: () => [deflatePart(body, LARGE_PART_LEVEL)] })))
}
