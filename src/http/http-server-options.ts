import type { ServerOptions } from 'node:http'

/**
 * How long a client may take, at the socket level. Exported so tests can shorten them; the
 * server runs with SERVER_TIMEOUTS.
 */
export interface ServerTimeouts {
  /** To send the complete request headers, from its first byte (slow-loris guard). Then 408 and the connection is closed. */
  headersMs: number
  /** To send the complete request. The API takes no bodies, so this is the headers' time too. */
  requestMs: number
  /** Of silence on a connection before it is dropped. */
  idleMs: number
  /** An idle keep-alive connection is kept this long for the client's next request. */
  keepAliveMs: number
  /** How often Node checks the headers and request timeouts: a slow client is cut off up to this much late. */
  checkIntervalMs: number
}

export const SERVER_TIMEOUTS: ServerTimeouts = {
  headersMs: 10_000,
  requestMs: 10_000,
  idleMs: 30_000,
  keepAliveMs: 5_000,
  checkIntervalMs: 1_000
}

/**
 * Longest request line plus headers Node's parser accepts; past it, 431. Twice Node's default, so
 * that a long URL (well past MAX_URL_LENGTH) still reaches the app and gets the clearer 414.
 */
export const MAX_HEADER_BYTES = 32 * 1024

/**
 * Node's own options for the HTTP server: its timeouts and header limit. Fastify hands them to
 * http.createServer.
 */
export function httpServerOptions (timeouts: ServerTimeouts): ServerOptions {
  return {
    headersTimeout: timeouts.headersMs,
    requestTimeout: timeouts.requestMs,
    connectionsCheckingInterval: timeouts.checkIntervalMs,
    maxHeaderSize: MAX_HEADER_BYTES,
    // Node would answer a missing Host with a bare 400 of its own; the app answers it with the contract's body.
    requireHostHeader: false
  }
}
