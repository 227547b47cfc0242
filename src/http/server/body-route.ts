import type { IncomingHttpHeaders } from 'node:http'

/*
 * A POST route outside the endpoint table whose plain requests the fast path reads and answers
 * (./fast-path.ts), as its Fastify route does with the same parts: POST /mcp (src/mcp/mcp-endpoint.ts).
 * The route says which requests it answers before their body is read (any other, refusals
 * included, is Fastify's), and answers a body the app's JSON parser has read.
 */

/** What a request shows a body route: its target and headers. */
export interface RouteRequest {
  readonly url: string
  readonly headers: IncomingHttpHeaders
}

/** A body route's answer: its status, its own headers (not every answer's, nor the rate limit's), its bytes (chunks are sent as they are). */
export class RouteAnswer {
  constructor (
    readonly statusCode: number,
    readonly headers: Readonly<Record<string, string>>,
    readonly payload: Buffer | readonly Buffer[] | undefined
  ) {}
}

export interface BodyRoute {
  /** The route's path (with a trailing slash, it names the same). */
  readonly path: string
  /** Largest body it reads, in bytes. */
  readonly bodyLimit: number
  /** Whether its answer to this request is given after the body is read; otherwise the request is Fastify's (a refusal before the body, a header it must judge). */
  takes: (request: RouteRequest) => boolean
  /** The answer to the parsed body; an ApiError below 500 thrown (or rejected) is answered as the error handler answers it. */
  answer: (request: RouteRequest, client: string, body: unknown) => RouteAnswer | Promise<RouteAnswer>
}
