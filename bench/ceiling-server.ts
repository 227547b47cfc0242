import { createServer, type OutgoingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * The ceiling of the benchmark: a bare node:http server that answers each benchmarked request
 * with the very bytes and headers our server sent for it, held as constant buffers. Nothing is
 * looked up, validated, negotiated or hashed per request, so whatever separates our figures
 * from these is the price of doing the work the contract asks for.
 *
 * Run as a child of bench/run.ts (pinned to the server's core): it receives its answers over
 * IPC, listens on an ephemeral port and reports the port back.
 */

/** One canned answer, as bench/run.ts captured it from our server. */
export interface CannedAnswer {
  url: string
  /** True for the answer to a request that sends Accept-Encoding (the br scenario). */
  encoded: boolean
  status: number
  headers: Record<string, string>
  bodyBase64: string
}

export interface CeilingReady {
  port: number
}

interface Answer {
  status: number
  headers: OutgoingHttpHeaders
  body: Buffer
}

function isCannedAnswers (message: unknown): message is CannedAnswer[] {
  return Array.isArray(message) && message.every((entry: unknown) =>
    typeof entry === 'object' && entry !== null && 'url' in entry && 'bodyBase64' in entry)
}

// Answers for plain requests and for requests that name an encoding, by URL: one Map lookup per request.
const plain = new Map<string, Answer>()
const encoded = new Map<string, Answer>()
const notFound: Answer = { status: 404, headers: { 'content-length': 0 }, body: Buffer.alloc(0) }

process.once('message', (message: unknown) => {
  if (!isCannedAnswers(message)) throw new Error('ceiling-server: expected an array of canned answers')
  for (const entry of message) {
    const body = Buffer.from(entry.bodyBase64, 'base64')
    const answer = { status: entry.status, headers: { ...entry.headers, 'content-length': body.length }, body }
    ;(entry.encoded ? encoded : plain).set(entry.url, answer)
  }

  const server = createServer((request, response) => {
    const table = request.headers['accept-encoding'] === undefined ? plain : encoded
    const answer = table.get(request.url ?? '') ?? notFound
    response.writeHead(answer.status, answer.headers)
    response.end(answer.body)
  })
  // Same keep-alive behaviour as our server, so both hold their connections alike.
  server.keepAliveTimeout = 5_000
  server.listen(0, '127.0.0.1', () => {
    const ready: CeilingReady = { port: (server.address() as AddressInfo).port }
    process.send?.(ready)
  })
})

// The bench is over when its parent goes; nothing here needs a graceful close.
process.once('disconnect', () => process.exit(0))
process.once('SIGTERM', () => process.exit(0))
