import type { FastifyInstance, FastifyReply } from 'fastify'
import Type from 'typebox'
import { ENDPOINTS, MCP_ENDPOINT } from '../http/endpoints.ts'
import { errorDescriptions } from '../http/error-descriptions.ts'
import { validAddressOr } from '../http/client-address.ts'
import { joinedPayload } from '../http/answers/prepared-body.ts'
import { errorResponses } from '../http/schemas/openapi-responses.ts'
import type { RouteAnswer } from '../http/server/body-route.ts'
import type { McpEndpoint } from './mcp-endpoint.ts'

export interface McpTransportOptions {
  /** POST /mcp's answers (./mcp-endpoint.ts), the fast path's too. */
  endpoint: McpEndpoint
}

/** The body the route reads: one JSON-RPC message, which the SDK checks (its JSON-RPC errors are the protocol's answers). */
const McpMessageSchema = Type.Unknown({ description: 'One JSON-RPC 2.0 message of the Model Context Protocol (a request such as `initialize`, `tools/list`, `tools/call`, or a notification)' })
const McpAnswerSchema = Type.Unknown({ description: 'The JSON-RPC 2.0 response to the message (HTTP 202 and no body for a notification)' })

/**
 * POST /mcp as a Fastify route: what the fast path does not answer (a request with odd headers,
 * one refused before its body is read, and every request `inject` sends) is answered here with the
 * same McpEndpoint. Before the protocol, as for every API request: the rate limit (the scope this
 * is registered in), the 16 KiB body bound, JSON only (415), and the DNS-rebinding rule (403).
 */
export async function mcpTransport (app: FastifyInstance, { endpoint }: McpTransportOptions): Promise<void> {
  app.addHook('onClose', async () => { await endpoint.close() })
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
      // request.host: the Host header, or the forwarded one from a proxy TRUST_PROXY believes.
      done(endpoint.rebindingRefusal(request.host, request.headers.origin))
    }
  }, async (request, reply) => {
    const client = validAddressOr(request.ip, request.socket.remoteAddress) ?? 'unknown'
    return sent(reply, await endpoint.answer(request, client, request.body))
  })
}

/** Sends an answer of the endpoint, its chunks joined (Fastify sends one buffer). */
function sent (reply: FastifyReply, { statusCode, headers, payload }: RouteAnswer): FastifyReply {
  return reply.code(statusCode).headers(headers).send(joinedPayload(payload))
}
