import { test, type TestContext } from 'node:test'
import assert from 'node:assert/strict'
import net, { type AddressInfo, type Socket } from 'node:net'
import { once } from 'node:events'
import Fastify, { type FastifyInstance } from 'fastify'
import { app as appPlugin, serverOptions } from '../../src/app.ts'
import { loadConfig } from '../../src/config.ts'
import { SERVER_TIMEOUTS, type ServerTimeouts } from '../../src/http/http-server-options.ts'
import { TEST_PUBLIC_URL, buildTestApp, loadTestDataset, type ErrorResponseBody } from '../helper.ts'
import { rawRequest } from '../raw-http.ts'

interface Listening { app: FastifyInstance, port: number, serverSockets: Socket[] }

/** The app as the server builds it, listening on a free port, optionally with shorter timeouts. */
async function listen (t: TestContext, timeouts: ServerTimeouts = SERVER_TIMEOUTS, extraRoutes?: (app: FastifyInstance) => void): Promise<Listening> {
  const config = loadConfig({ PUBLIC_URL: TEST_PUBLIC_URL, LOG_LEVEL: 'silent', RATE_LIMIT_MAX: '0' })
  const dataset = await loadTestDataset(config)
  if (dataset.catalog === null) throw new Error('test dataset has errors')
  const app = Fastify(serverOptions(config, timeouts))
  await app.register(appPlugin, { config, catalog: dataset.catalog, servableFiles: dataset.servableFiles })
  extraRoutes?.(app)
  const serverSockets: Socket[] = []
  app.server.on('connection', (socket: Socket) => serverSockets.push(socket))
  await app.listen({ port: 0, host: '127.0.0.1' })
  t.after(() => app.close())
  return { app, port: (app.server.address() as AddressInfo).port, serverSockets }
}

function errorCode (body: Buffer): string {
  return JSON.parse(body.toString('utf8')).error.code
}

test('the server defaults: 10 s for headers and for the whole request, checked every second', () => {
  assert.equal(SERVER_TIMEOUTS.headersMs, 10_000)
  assert.equal(SERVER_TIMEOUTS.requestMs, 10_000)
  assert.equal(SERVER_TIMEOUTS.checkIntervalMs, 1_000)
})

test('a client sending its headers one byte a second is cut off with 408 once the headers timeout passes', async (t) => {
  const { port } = await listen(t, { ...SERVER_TIMEOUTS, headersMs: 1_000, requestMs: 1_000, checkIntervalMs: 100 })
  const socket = net.connect(port, '127.0.0.1')
  await once(socket, 'connect')
  const startedAt = Date.now()
  const headers = `GET /v1/exams HTTP/1.1\r\nHost: api.test\r\nX-Slow: ${'a'.repeat(60)}\r\n\r\n`
  let sent = 0
  let received = ''
  socket.setEncoding('latin1').on('data', (chunk: string) => { received += chunk })
  socket.on('error', () => {})
  const dribble = setInterval(() => {
    if (socket.writable && sent < headers.length) socket.write(headers[sent++]!)
  }, 1_000)
  await once(socket, 'close')
  clearInterval(dribble)
  assert.ok(sent < headers.length, `cut off before the headers were complete (${sent} of ${headers.length} bytes sent)`)
  assert.match(received, /^HTTP\/1\.1 408 Request Timeout\r\n/)
  assert.ok(Date.now() - startedAt < 15_000, 'cut off long before the client would have finished')
})

test('a GET with a 64 MiB body is refused at once with a JSON 413, and the connection dropped without reading the body', async (t) => {
  const { port, serverSockets } = await listen(t)
  const TOTAL = 64 * 1024 * 1024
  for (const framing of ['content-length', 'chunked'] as const) {
    const socket = net.connect(port, '127.0.0.1')
    await once(socket, 'connect')
    const lengthHeader = framing === 'chunked' ? 'Transfer-Encoding: chunked' : `Content-Length: ${TOTAL}`
    socket.write(`GET /v1/exams HTTP/1.1\r\nHost: api.test\r\n${lengthHeader}\r\n\r\n`)
    const chunk = Buffer.alloc(64 * 1024, 'a')
    const framed = framing === 'chunked' ? Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]) : chunk
    let received = Buffer.alloc(0)
    socket.on('data', (data: Buffer) => { received = Buffer.concat([received, data]) })
    socket.on('error', () => {})
    // (events.once would reject on the EPIPE the client gets for writing after the server hung up.)
    const closed = new Promise((resolve) => socket.once('close', resolve))
    // Send as fast as the server takes it, until it hangs up.
    let sent = 0
    while (sent < TOTAL && !socket.destroyed && socket.writable) {
      if (!socket.write(framed)) await new Promise((resolve) => { socket.once('drain', resolve).once('close', resolve) })
      sent += chunk.length
    }
    await closed
    const text = received.toString('latin1')
    assert.match(text, /^HTTP\/1\.1 413 /, framing)
    assert.match(text, /\r\nconnection: close\r\n/i, framing)
    const body = text.slice(text.indexOf('\r\n\r\n') + 4)
    assert.equal(JSON.parse(body).error.code, 'payload_too_large', framing)
  }
  // What was never read cannot have been buffered: the server read what was in flight when its
  // answer went out (the client's send buffer, 4 MiB at most on Linux's defaults), then the client
  // stopped; a quarter of the body is far more than that, and far less than the whole.
  for (const socket of serverSockets) assert.ok(socket.bytesRead < TOTAL / 4, `the server read ${socket.bytesRead} bytes`)
})

test('bodies on other methods: 405 on a known path (before any body parsing), 413 elsewhere', async (t) => {
  const { port } = await listen(t)
  const post = await rawRequest(port, 'POST /v1/exams HTTP/1.1\r\nHost: api.test\r\nContent-Type: application/xml\r\nContent-Length: 5\r\n\r\n<a/>!')
  assert.equal(post.status, 405)
  assert.equal(post.headers.allow, 'GET, HEAD, OPTIONS')
  assert.equal(errorCode(post.body), 'method_not_allowed')
  const unknown = await rawRequest(port, 'PUT /nope HTTP/1.1\r\nHost: api.test\r\nContent-Length: 5\r\n\r\nhello')
  assert.equal(unknown.status, 413)
  assert.equal(errorCode(unknown.body), 'payload_too_large')
  const empty = await rawRequest(port, 'GET /v1/exams HTTP/1.1\r\nHost: api.test\r\nContent-Length: 0\r\nConnection: close\r\n\r\n')
  assert.equal(empty.status, 200, 'an empty body is no body')
})

test('overlong requests: a 20 KB URL is 414, past 32 KB of request line and headers 431, both with the contract body', async (t) => {
  const { port } = await listen(t)
  const longQuery = await rawRequest(port, `GET /v1/exams?q=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: api.test\r\n\r\n`)
  assert.equal(longQuery.status, 414)
  assert.equal(errorCode(longQuery.body), 'uri_too_long')
  const longPath = await rawRequest(port, `GET /v1/exams/${'1'.repeat(20_000)} HTTP/1.1\r\nHost: api.test\r\n\r\n`)
  assert.equal(longPath.status, 414)
  assert.ok(longPath.body.length < 300, 'the message does not repeat the path')
  const hugeUrl = await rawRequest(port, `GET /v1/exams?q=${'a'.repeat(40_000)} HTTP/1.1\r\nHost: api.test\r\n\r\n`)
  assert.equal(hugeUrl.status, 431)
  assert.equal(errorCode(hugeUrl.body), 'request_header_fields_too_large')
  const hugeHeader = await rawRequest(port, `GET /v1/exams HTTP/1.1\r\nHost: api.test\r\nX-Big: ${'a'.repeat(40_000)}\r\n\r\n`, { untilClosed: true })
  assert.equal(hugeHeader.status, 431)
  assert.equal(hugeHeader.headers['content-type'], 'application/json; charset=utf-8')
  assert.equal(hugeHeader.closed, true)
  // Node's count is approximate for many small headers (it keeps the first ~1,000 and flushes in
  // batches), so this goes well past the limit.
  const manyHeaders = Array.from({ length: 8_000 }, (_, i) => `X-H${i}: v\r\n`).join('')
  assert.equal((await rawRequest(port, `GET /v1/exams HTTP/1.1\r\nHost: api.test\r\n${manyHeaders}\r\n`)).status, 431)
  // Under the limits, a large header is fine.
  const bigButFine = await rawRequest(port, `GET /v1/exams HTTP/1.1\r\nHost: api.test\r\nX-Big: ${'a'.repeat(20_000)}\r\nConnection: close\r\n\r\n`)
  assert.equal(bigButFine.status, 200)
})

test('an unparseable request gets the contract 400 body from the parser handler', async (t) => {
  const { port } = await listen(t)
  for (const request of ['GARBAGE\r\n\r\n', 'GET /v1/exams HTTP/1.1\r\nHost: api.test\r\nBad Header\r\n\r\n',
    'GET /v1/exams HTTP/1.1\r\nHost: api.test\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n', 'GET / HTTP/9.9\r\n\r\n']) {
    const response = await rawRequest(port, request, { untilClosed: true })
    assert.equal(response.status, 400, JSON.stringify(request))
    assert.equal(errorCode(response.body), 'bad_request')
    assert.equal(response.headers['x-content-type-options'], 'nosniff')
    assert.equal(response.closed, true)
  }
})

test('nosniff on every answer, and no header naming the framework or its version', async (t) => {
  const { port } = await listen(t)
  const requests = ['/v1/exams', '/v1/exams/1999', '/v1/exams/%zz', `/v1/exams/${'1'.repeat(200)}`, '/healthz', '/nope', '/']
  for (const path of requests) {
    const response = await rawRequest(port, `GET ${path} HTTP/1.1\r\nHost: api.test\r\nConnection: close\r\n\r\n`)
    assert.equal(response.headers['x-content-type-options'], 'nosniff', path)
    assert.equal(response.headers['x-powered-by'], undefined, path)
    assert.equal(response.headers.server, undefined, path)
  }
  for (const request of ['OPTIONS /v1/exams HTTP/1.1\r\nHost: api.test\r\n\r\n', 'GARBAGE\r\n\r\n']) {
    const response = await rawRequest(port, request)
    assert.equal(response.headers['x-content-type-options'], 'nosniff', request)
    assert.equal(response.headers.server, undefined, request)
  }
})

test('a 500 never carries the error\'s message, stack trace or paths', async (t) => {
  const { port } = await listen(t, SERVER_TIMEOUTS, (app) => {
    app.get('/boom/error', async () => { throw new Error(`ENOENT: no such file, open '/srv/secret/${'x'.repeat(10)}.json'`) })
    app.get('/boom/status', async () => { throw Object.assign(new Error('db password wrong at /etc/secret'), { statusCode: 502 }) })
    app.get('/boom/string', async () => { throw 'a thrown string' }) // eslint-disable-line no-throw-literal
    app.get('/boom/serialize', async (_request, reply) => reply.send({ toJSON () { throw new Error('/srv/secret serializer') } }))
  })
  for (const path of ['/boom/error', '/boom/status', '/boom/string', '/boom/serialize']) {
    const response = await rawRequest(port, `GET ${path} HTTP/1.1\r\nHost: api.test\r\nConnection: close\r\n\r\n`)
    assert.equal(response.status, 500, path)
    const text = response.body.toString('utf8')
    const body = JSON.parse(text) as ErrorResponseBody
    assert.deepEqual(body, { error: { code: 'internal_server_error', message: 'Internal server error', docUrl: 'http://api.test/docs#errors-internal-server-error' } }, path)
    assert.doesNotMatch(text, /secret|thrown|\/srv|at .*\.ts/, path)
    assert.equal(response.headers['cache-control'], 'no-store', path)
  }
})

test('HEAD and GET refused alike: an overlong HEAD is 414 with no body', async () => {
  const app = await buildTestApp()
  try {
    const response = await app.inject({ method: 'HEAD', url: `/v1/exams?q=${'a'.repeat(9_000)}` })
    assert.equal(response.statusCode, 414)
    assert.equal(response.body, '')
  } finally {
    await app.close()
  }
})

// Regressions found by the hostile-input test: answers Node used to give by itself, bare.

test('an Expect other than 100-continue is ignored rather than answered with a bare 417', async (t) => {
  const { port } = await listen(t)
  const response = await rawRequest(port, 'GET /v1/exams HTTP/1.1\r\nHost: api.test\r\nExpect: nothing\r\nConnection: close\r\n\r\n')
  assert.equal(response.status, 200)
  const continued = await rawRequest(port, 'GET /v1/exams/2020 HTTP/1.1\r\nHost: api.test\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n')
  assert.equal(continued.status, 200)
})

test('CONNECT gets the contract 405 instead of a dropped connection', async (t) => {
  const { port } = await listen(t)
  const response = await rawRequest(port, 'CONNECT api.test:443 HTTP/1.1\r\nHost: api.test\r\n\r\n', { untilClosed: true })
  assert.equal(response.status, 405)
  assert.equal(response.headers.allow, 'GET, HEAD, OPTIONS')
  assert.equal(response.headers['access-control-allow-origin'], '*')
  assert.equal(errorCode(response.body), 'method_not_allowed')
  assert.equal(response.closed, true)
})

test('an HTTP/1.1 request without Host gets the contract 400 instead of Node\'s bare one; HTTP/1.0 needs none', async (t) => {
  const { port } = await listen(t)
  const response = await rawRequest(port, 'GET /v1/exams HTTP/1.1\r\n\r\n')
  assert.equal(response.status, 400)
  assert.equal(response.headers['x-content-type-options'], 'nosniff')
  assert.equal(JSON.parse(response.body.toString('utf8')).error.message, 'An HTTP/1.1 request needs a Host header')
  assert.equal((await rawRequest(port, 'GET /v1/exams HTTP/1.0\r\n\r\n')).status, 200)
})
