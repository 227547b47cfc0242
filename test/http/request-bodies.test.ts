import { test } from 'node:test'
import assert from 'node:assert/strict'
import net from 'node:net'
import { gzipSync } from 'node:zlib'
import { SCORES_BODY_LIMIT } from '../../src/http/schemas/scores.ts'
import { SERVER_TIMEOUTS } from '../../src/http/http-server-options.ts'
import { build, TEST_PUBLIC_URL, type ErrorResponseBody } from '../helper.ts'
import { parseResponse, rawRequest } from '../raw-http.ts'

/*
 * Issue 32, item 6: how the server meets a request body it should not read as it came, through
 * the real listener on a real socket: a slow one (408 in the contract's shape), one announced too
 * large for `100 Continue`, a compressed one, one in another charset.
 */

const SHEET = JSON.stringify({ year: 2023, booklet: 1191, answers: 'ABCDE'.repeat(9) })

function head (length: number, extra = ''): string {
  return `POST /v1/scores HTTP/1.1\r\nHost: api.test\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n${extra}\r\n`
}

/** Sends `request`, then reads everything the server sends until it closes (or `ms` pass). */
function exchange (port: number, request: string, ms = 5_000): Promise<{ data: string, closed: boolean }> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(request))
    let data = ''
    socket.setEncoding('latin1').on('data', (chunk: string) => { data += chunk })
    socket.on('error', () => {})
    const timer = setTimeout(() => {
      socket.destroy()
      resolve({ data, closed: false })
    }, ms)
    socket.on('close', () => {
      clearTimeout(timer)
      resolve({ data, closed: true })
    })
  })
}

function errorOf (body: Buffer): ErrorResponseBody['error'] {
  return (JSON.parse(body.toString('utf8')) as ErrorResponseBody).error
}

test('a body sent too slowly is cut off with a 408 in the contract\'s error shape (it was a bare, empty 408)', async (t) => {
  const port = await (await build(t, {}, { timeouts: { ...SERVER_TIMEOUTS, headersMs: 1_000, requestMs: 1_000, checkIntervalMs: 100 } })).listen()
  // The headers at once, then half the body, and never the rest.
  const { data, closed } = await exchange(port, head(SHEET.length) + SHEET.slice(0, 20), 5_000)
  assert.ok(closed, 'the connection is closed')
  const response = parseResponse(Buffer.from(data, 'latin1'), false, true)
  assert.equal(response?.status, 408, data)
  assert.equal(response.headers['content-type'], 'application/json; charset=utf-8')
  assert.equal(response.headers['access-control-allow-origin'], '*')
  const error = errorOf(response.body)
  assert.equal(error.code, 'request_timeout')
  assert.equal(error.docUrl, `${TEST_PUBLIC_URL}/docs#errors-request-timeout`)
  assert.match(error.message, /within 1 s/)
})

test('a Content-Length over the body limit with Expect: 100-continue is refused with 413 before any 100 Continue; one within it is told to continue', async (t) => {
  const port = await (await build(t)).listen()
  const tooLarge = await exchange(port, head(SCORES_BODY_LIMIT + 1, 'Expect: 100-continue\r\n'))
  assert.ok(tooLarge.data.startsWith('HTTP/1.1 413 '), JSON.stringify(tooLarge.data.slice(0, 40)))
  assert.doesNotMatch(tooLarge.data, /100 Continue/)
  assert.match(tooLarge.data, /\r\nconnection: close\r\n/i)
  assert.ok(tooLarge.closed, 'the connection is closed rather than drained')
  assert.equal(errorOf(parseResponse(Buffer.from(tooLarge.data, 'latin1'), false, true)!.body).code, 'payload_too_large')

  // Within the limit: 100 Continue, then the body, then its answer.
  const answered = await new Promise<string>((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(head(SHEET.length, 'Expect: 100-continue\r\nConnection: close\r\n')))
    let data = ''
    socket.setEncoding('latin1').on('data', (chunk: string) => {
      if (data === '' && chunk.startsWith('HTTP/1.1 100 Continue\r\n\r\n')) socket.write(SHEET)
      data += chunk
    })
    socket.on('error', reject)
    socket.on('close', () => resolve(data))
  })
  assert.ok(answered.startsWith('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\n'), answered.slice(0, 60))
})

test('a compressed body (Content-Encoding) is refused with 415, not parsed as if plain', async (t) => {
  const port = await (await build(t)).listen()
  const gzipped = gzipSync(SHEET)
  for (const [encoding, body] of [['gzip', gzipped], ['deflate', gzipped], ['br', gzipped], ['GZIP', gzipped], ['gzip, identity', gzipped]] as const) {
    const request = Buffer.concat([Buffer.from(head(body.length, `Content-Encoding: ${encoding}\r\n`), 'latin1'), body])
    const response = await rawRequest(port, request)
    assert.equal(response.status, 415, encoding)
    assert.equal(errorOf(response.body).code, 'unsupported_media_type')
    assert.match(errorOf(response.body).message, /Content-Encoding .* is not accepted: send the body uncompressed/)
  }
  // Identity is no encoding: read as it is.
  const plain = await rawRequest(port, head(SHEET.length, 'Content-Encoding: identity\r\n') + SHEET)
  assert.equal(plain.status, 200)
})

test('a body in a charset other than UTF-8 is refused with 415 naming it, not read as UTF-8', async (t) => {
  const port = await (await build(t)).listen()
  const utf16 = Buffer.from(`\ufeff${SHEET}`, 'utf16le')
  for (const contentType of ['application/json; charset=utf-16', 'application/json;charset="UTF-16LE"', 'application/json; charset=iso-8859-1']) {
    const request = Buffer.concat([Buffer.from(head(utf16.length).replace('Content-Type: application/json', `Content-Type: ${contentType}`), 'latin1'), utf16])
    const response = await rawRequest(port, request)
    assert.equal(response.status, 415, contentType)
    assert.match(errorOf(response.body).message, /charset "[^"]+" is not accepted: a JSON body is UTF-8/)
  }
  for (const contentType of ['application/json; charset=utf-8', 'application/json; charset=UTF-8', 'application/json']) {
    const response = await rawRequest(port, head(SHEET.length).replace('Content-Type: application/json', `Content-Type: ${contentType}`) + SHEET)
    assert.equal(response.status, 200, contentType)
  }
})
