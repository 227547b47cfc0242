import { test } from 'node:test'
import assert from 'node:assert/strict'
import net from 'node:net'
import { build } from '../helper.ts'
import { parseResponse, type RawResponse } from '../raw-http.ts'
import { redisUrl, requireRedis, testKeyPrefix } from '../redis.ts'

/*
 * A client may half-close its side once its request is sent (shell pipes, `nc -N`, some proxies):
 * the request is complete and must be answered. Node's default dropped every request whose answer
 * was not written before the client's FIN was read: with REDIS_URL every /v1 request (it waits on
 * its count), and without it the answers that wait on the disk.
 */

/** Sends `request`, half-closes, and reads everything until the server closes. */
function halfClosedRequest (port: number, request: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.end(request))
    const chunks: Buffer[] = []
    const timer = setTimeout(() => {
      socket.destroy()
      reject(new Error(`the server neither answered nor closed within 10 s: ${JSON.stringify(request)}`))
    }, 10_000)
    socket.on('data', (chunk: Buffer) => chunks.push(chunk))
    socket.on('error', () => {})
    socket.on('close', () => {
      clearTimeout(timer)
      const isHead = request.startsWith('HEAD ')
      resolve(parseResponse(Buffer.concat(chunks), isHead, true) ?? { status: 0, headers: {}, body: Buffer.alloc(0), closed: true })
    })
  })
}

test('with REDIS_URL, a half-closed /v1 request gets its answer, on both request paths', async (t) => {
  if (!await requireRedis(t)) return
  const port = await (await build(t, { RATE_LIMIT_MAX: '100', REDIS_URL: redisUrl(testKeyPrefix(t)) })).listen()
  // The fast path's, then one Fastify's routes answer (a percent-escape sends it there).
  for (const target of ['/v1/exams/2020', '/v1/exams/2020?x=%41', '/v1/exams/1999']) {
    const response = await halfClosedRequest(port, `GET ${target} HTTP/1.1\r\nHost: api.test\r\n\r\n`)
    assert.equal(response.status, target.endsWith('1999') ? 404 : 200, target)
    assert.ok(response.headers['ratelimit-remaining'] !== undefined, `${target} was counted`)
    if (response.status === 200) assert.equal(JSON.parse(response.body.toString('utf8')).year, 2020)
  }
})

test('without Redis, half-closed requests that wait on the disk get their answers', async (t) => {
  const port = await (await build(t)).listen()
  const file = '/files/2011/questions/10/0a1b2c3d-0000-4000-8000-000000000001.png'
  const range = await halfClosedRequest(port, `GET ${file} HTTP/1.1\r\nHost: api.test\r\nRange: bytes=0-7\r\n\r\n`)
  assert.equal(range.status, 206)
  assert.equal(range.body.length, 8)
  // The first request for the docs page builds it.
  const docs = await halfClosedRequest(port, 'GET /docs HTTP/1.1\r\nHost: api.test\r\n\r\n')
  assert.equal(docs.status, 200)
  assert.ok(docs.body.length > 0)
  // The second answer on one connection whose client half-closed after both requests.
  const twice = await halfClosedRequest(port, `GET ${file} HTTP/1.1\r\nHost: api.test\r\nRange: bytes=0-3\r\n\r\nGET /healthz HTTP/1.1\r\nHost: api.test\r\n\r\n`)
  assert.equal(twice.status, 206)
})
