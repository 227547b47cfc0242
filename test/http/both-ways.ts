import assert from 'node:assert/strict'
import type { IncomingHttpHeaders } from 'node:http'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import type { InjectOptions } from 'fastify'
import type { Response as InjectResponse } from 'light-my-request'
import { build, type Cleanup, type TestServer } from '../helper.ts'

/*
 * One request sent both ways: through the server's own request listener (the fast path first,
 * Fastify for the rest) and through `app.inject` (Fastify only). Fastify alone is what the fast
 * path (src/http/server/fast-path.ts) is held to; which of the two answered is told, so a fast path
 * that declined everything (and so passed the comparisons trivially) fails the tests that expect it.
 */

/** Rate limiting on, with a quota no test reaches (unless it sets its own), so both paths' RateLimit headers are compared. */
export function buildCounted (t: Cleanup, env: Record<string, string> = {}): Promise<TestServer> {
  return build(t, { RATE_LIMIT_MAX: '1000000', ...env })
}

/** Headers that legitimately differ between two answers to the same request. */
const PER_REQUEST_HEADERS = new Set(['date', 'connection', 'keep-alive', 'ratelimit-remaining', 'ratelimit-reset'])

/** The headers two answers to the same request must share, sorted, as strings. */
export function comparable (headers: IncomingHttpHeaders | Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(headers)
    .filter(([name]) => !PER_REQUEST_HEADERS.has(name))
    .map(([name, value]) => [name, String(value)])
    .sort(([a], [b]) => a!.localeCompare(b!)))
}

/**
 * Sends one request both ways; asserts equal answers; tells whether the fast path answered it.
 * `compressedAlike: false`: a compressed answer may be compressed in other blocks on each path (an
 * MCP result is gzip of parts the first time it is asked, of its whole bytes once kept): its
 * decoded bytes are compared, and its length is not.
 */
export async function compareBothWays (counted: TestServer, options: InjectOptions, { compressedAlike = true } = {}): Promise<{ fast: boolean, response: InjectResponse }> {
  const label = `${options.method ?? 'GET'} ${options.url as string} ${JSON.stringify(options.headers ?? {})} ${String(options.payload ?? '').slice(0, 120)}`
  const viaFastify = await counted.injectIntoFastify(options)
  const before = counted.fastifySaw()
  const viaServer = await counted.request(options)
  const fast = counted.fastifySaw() === before
  assert.equal(viaServer.statusCode, viaFastify.statusCode, label)
  const encoding = viaServer.headers['content-encoding']
  if (compressedAlike || encoding === undefined) {
    assert.deepEqual(viaServer.rawPayload, viaFastify.rawPayload, label)
    assert.deepEqual(comparable(viaServer.headers), comparable(viaFastify.headers), label)
  } else {
    const decode = encoding === 'br' ? brotliDecompressSync : gunzipSync
    assert.deepEqual(decode(viaServer.rawPayload), decode(viaFastify.rawPayload), label)
    const { 'content-length': _server, ...server } = comparable(viaServer.headers)
    const { 'content-length': _fastify, ...fastify } = comparable(viaFastify.headers)
    assert.deepEqual(server, fastify, label)
  }
  assert.equal(viaServer.headers['ratelimit-remaining'] === undefined, viaFastify.headers['ratelimit-remaining'] === undefined, label)
  return { fast, response: viaServer }
}
