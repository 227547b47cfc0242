import { test } from 'node:test'
import assert from 'node:assert/strict'
import { METHODS } from 'node:http'
import { ERROR_CODES, docPathFor, type ErrorStatus } from '../../src/http/errors.ts'
import { build, TEST_PUBLIC_URL } from '../helper.ts'
import { rawRequest, type RawResponse } from '../raw-http.ts'

/**
 * Thousands of generated hostile requests over real HTTP. The generator is seeded: a failure
 * names its seed and request number, and HOSTILE_SEED=<seed> replays the same requests.
 */
const SEED = Number(process.env.HOSTILE_SEED ?? 0x5eed)
const REQUEST_COUNT = 5_000
const CONCURRENCY = 32

/**
 * What a hostile request may get. Successes and redirects: a request can be valid by chance (`/`
 * is the question browser, `/docs/` redirects to `/docs`). 304: a random If-None-Match of `*` matches.
 * 408 never: every generated request is complete.
 */
const ACCEPTED_STATUSES = new Set([200, 204, 206, 301, 302, 304, 400, 404, 405, 413, 414, 422, 429, 431])

/** mulberry32: tiny, fast, and the same sequence from the same seed on every machine. */
function prng (seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

function generator (random: () => number) {
  const int = (max: number) => Math.floor(random() * max)
  const pick = <T>(items: readonly T[]): T => items[int(items.length)]!
  const randomBytes = (length: number) => Buffer.from(Array.from({ length }, () => int(256)))
  const unicode = () => pick(['ç', 'ã', 'é', '日本', '🙂', '\u202e', '\ufeff', '\u0000', 'Ⅻ', '١٢', 'ｆｕｌｌ', '\ud800'])

  const value = (): Buffer | string => pick<() => Buffer | string>([
    () => String(int(3000)),
    () => String(-int(100)),
    () => '2020',
    () => '9'.repeat(11 + int(40)),
    () => `0${int(100)}`,
    () => `${int(10)}.${int(10)}`,
    () => '1e3',
    () => '+1',
    () => ' 1',
    () => '',
    () => 'ingles',
    () => 'INGLES',
    () => 'ciencias-humanas',
    () => 'a'.repeat(41 + int(200)),
    () => unicode(),
    () => encodeURIComponent(pick(['ç', '日本', '🙂', '\u202e', '\u0000', '\ufeff'])),
    () => pick(['%', '%z', '%zz', '%2', '%2f', '%2F', '%00', '%c0%ae', '%252e', '%5c', '%e2%82', '%ff', '%%', '%u0041']),
    () => pick(['..', '.', '%2e%2e', '.%2e', '...', '\\', '..\\..', '/', '//']),
    () => 'x'.repeat(1_000 + int(40_000)),
    () => randomBytes(1 + int(12)),
    () => pick(['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'null', 'undefined', 'NaN', 'Infinity', '[]', '{}'])
  ])()

  const query = (): Array<Buffer | string> => {
    const parts: Array<Buffer | string> = []
    const count = int(6)
    for (let i = 0; i < count; i++) {
      const name = pick(['limit', 'offset', 'language', 'discipline', 'limit', 'x', '__proto__[polluted]', 'constructor[prototype][x]', 'limit[]', 'offset[0]', '', '&', 'a'.repeat(300)])
      parts.push(i === 0 ? '' : '&', name, pick(['=', '=', '=', '', '==']), value())
    }
    return parts
  }

  const target = (): Array<Buffer | string> => pick<() => Array<Buffer | string>>([
    () => ['/v1/exams/', value()],
    () => ['/v1/exams/', value(), '/questions?', ...query()],
    () => ['/v1/exams/', value(), '/questions/', value(), '?', ...query()],
    () => ['/v1/exams/2020/questions?', ...query()],
    () => ['/v1/exams/2020/questions/', value(), '?', ...query()],
    () => ['/v1/exams?', ...query()],
    () => ['/files/', value(), '/', value()],
    () => ['/files/2020/questions/', value()],
    () => ['/', value()],
    () => ['/v1/', value()],
    () => ['/docs/', value()],
    () => ['/healthz?', ...query()],
    () => [pick(['*', '', 'http://api.test/v1/exams', '//v1/exams', '/v1//exams', '/V1/EXAMS', '/v1/exams/', 'api.test:80', '/v1/exams#x', '/v1/exams?'])]
  ])()

  const method = () => pick<() => string>([
    () => 'GET', () => 'GET', () => 'GET', () => 'GET', () => 'GET',
    () => 'HEAD',
    () => 'OPTIONS',
    () => pick(METHODS),
    () => pick(['get', 'FOO', 'G ET', 'GET\u0000', 'BREW', '', 'X'.repeat(100)]),
    () => randomBytes(1 + int(8)).toString('latin1')
  ])()

  const headerLines = (): Array<Buffer | string> => {
    const lines: Array<Buffer | string> = []
    if (random() > 0.05) lines.push('Host: api.test\r\n')
    if (random() < 0.05) lines.push('Host: other.test\r\n')
    const count = int(5)
    for (let i = 0; i < count; i++) {
      lines.push(...pick<() => Array<Buffer | string>>([
        () => ['If-None-Match: ', pick(['*', '"x"', 'W/"y"', '', '"a", "b"', 'garbage']), '\r\n'],
        () => ['Accept-Encoding: ', pick(['gzip', 'br', 'br;q=0, gzip;q=0', '*', 'identity;q=0', 'x'.repeat(500), 'gzip;q=nan']), '\r\n'],
        () => ['X-Forwarded-For: ', pick(['1.2.3.4', 'garbage', '::1, 10.0.0.1', '999.999.999.999', '']), '\r\n'],
        () => ['Range: ', pick(['bytes=0-10', 'bytes=-5', 'bytes=999999-', 'bytes=5-1', 'bytes=0-1,2-3', 'items=0-1', 'bytes=']), '\r\n'],
        () => ['Origin: ', pick(['https://example.org', 'null', '']), '\r\n'],
        () => ['Access-Control-Request-Method: ', pick(['GET', 'DELETE', '']), '\r\n'],
        () => ['Content-Length: ', pick(['0', '5', '-1', '1e3', '99999999999999999999', 'abc', '5, 5', '10485760']), '\r\n'],
        () => ['Transfer-Encoding: ', pick(['chunked', 'gzip', 'identity', 'chunked, chunked', 'x']), '\r\n'],
        () => ['Expect: ', pick(['100-continue', 'nothing']), '\r\n'],
        () => ['Connection: ', pick(['close', 'keep-alive', 'upgrade', 'garbage']), '\r\n'],
        () => ['Upgrade: ', pick(['websocket', 'h2c']), '\r\n'],
        () => ['X-', value(), ': ', value(), '\r\n'],
        () => [randomBytes(1 + int(10)), ': v\r\n'],
        () => ['X-Unicode: ', Buffer.from(unicode(), 'utf8'), '\r\n'],
        () => ['X-Big: ', 'b'.repeat(int(40_000)), '\r\n']
      ])())
    }
    return lines
  }

  /**
   * One whole request, always terminated, so none waits for more bytes. Half of them keep to
   * HTTP's syntax (bytes a request target cannot hold are percent-encoded; `%` is left alone, so
   * malformed escapes still get through) and so reach the app; the others test the parser.
   */
  return (): Buffer => {
    const wellFormed = random() < 0.5
    const version = wellFormed || random() < 0.8 ? 'HTTP/1.1' : pick(['HTTP/1.0', 'HTTP/2.0', 'HTTP/1.1 x', 'http/1.1', 'HTTP/1.', ''])
    const path = wellFormed ? target().map(escapeTarget) : target()
    const parts: Array<Buffer | string> = [wellFormed ? pick(['GET', 'GET', 'GET', 'HEAD', 'OPTIONS', ...METHODS]) : method(), ' ', ...path, ' ', version, '\r\n', ...headerLines()]
    if (random() < 0.2) parts.push('Connection: close\r\n')
    parts.push('\r\n')
    if (random() < 0.1) parts.push(randomBytes(int(64)))
    return Buffer.concat(parts.map((part) => typeof part === 'string' ? Buffer.from(part, 'utf8') : part))
  }
}

/** Percent-encodes what may not appear in a request target: controls, spaces, non-ASCII, `#`. */
function escapeTarget (part: Buffer | string): string {
  const bytes = typeof part === 'string' ? Buffer.from(part, 'utf8') : part
  let escaped = ''
  for (const byte of bytes) escaped += byte > 0x20 && byte < 0x7f && byte !== 0x23 ? String.fromCharCode(byte) : `%${byte.toString(16).padStart(2, '0')}`
  return escaped
}

/** What is wrong with an answer, or undefined when it is one the contract allows. */
function problemWith (response: RawResponse, request: Buffer): string | undefined {
  const { status, headers, body } = response
  if (status === 0) return 'the connection closed without an answer'
  if (!ACCEPTED_STATUSES.has(status)) return `status ${status}`
  if (headers['x-content-type-options'] !== 'nosniff') return 'no X-Content-Type-Options: nosniff'
  if (headers['access-control-allow-origin'] !== '*') return 'no Access-Control-Allow-Origin: *'
  if (status < 400 || body.length === 0) {
    const isHead = request.subarray(0, 5).toString('latin1') === 'HEAD '
    if (status >= 400 && !isHead) return `a ${status} without the error body`
    return undefined
  }
  if (headers['content-type'] !== 'application/json; charset=utf-8') return `error content type ${headers['content-type']}`
  let parsed: unknown
  try {
    parsed = JSON.parse(body.toString('utf8'))
  } catch {
    return 'an error body that is not JSON'
  }
  const code = ERROR_CODES[status as ErrorStatus]
  const error = (parsed as { error?: { code?: unknown, message?: unknown, docUrl?: unknown } }).error
  if (error === undefined || Object.keys(parsed as object).length !== 1) return `not the error shape: ${body.toString('utf8').slice(0, 200)}`
  if (error.code !== code) return `code ${String(error.code)} for status ${status}`
  if (typeof error.message !== 'string' || error.message.length === 0 || error.message.length > 500) return 'a missing or bloated message'
  if (error.docUrl !== `${TEST_PUBLIC_URL}${docPathFor(code)}`) return `docUrl ${String(error.docUrl)}`
  return undefined
}

test(`${REQUEST_COUNT} generated hostile requests over real HTTP: contract statuses and error bodies, no 500, the server unharmed`, async (t) => {
  // Errors only in the log: a server error is the one thing it must not hold afterwards.
  const server = await build(t, { LOG_LEVEL: 'error', RATE_LIMIT_MAX: '1000000' })
  const port = await server.listen()
  const before = await rawRequest(port, 'GET /v1/exams HTTP/1.1\r\nHost: api.test\r\n\r\n')

  const next = generator(prng(SEED))
  const requests = Array.from({ length: REQUEST_COUNT }, () => next())
  const problems: string[] = []
  const statuses = new Map<number, number>()
  let parserRefusals = 0
  let index = 0
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (index < requests.length) {
      const number = index++
      const request = requests[number]!
      let response: RawResponse
      try {
        response = await rawRequest(port, request)
      } catch (error) {
        problems.push(`#${number}: ${String(error)}`)
        continue
      }
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1)
      if (response.body.includes('not valid HTTP/1.1')) parserRefusals++
      const problem = problemWith(response, request)
      if (problem !== undefined) problems.push(`#${number}: ${problem} for ${JSON.stringify(request.subarray(0, 160).toString('latin1'))}`)
    }
  }))
  t.diagnostic(`seed ${SEED}: statuses ${JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b)))}, ${parserRefusals} refused by the HTTP parser`)

  // How many of each kind of problem, to see the whole picture beside the first examples.
  const kinds = new Map<string, number>()
  for (const problem of problems) {
    const kind = problem.replace(/^#\d+: /, '').replace(/ for .*/s, '')
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1)
  }
  assert.deepEqual(problems.slice(0, 20), [], `seed ${SEED} (HOSTILE_SEED=${SEED} replays it): ${problems.length} bad answers: ${JSON.stringify(Object.fromEntries(kinds))}`)
  assert.equal(statuses.get(500), undefined)
  assert.deepEqual(server.logs, [], 'nothing was logged as a server error')

  const after = await rawRequest(port, 'GET /v1/exams HTTP/1.1\r\nHost: api.test\r\n\r\n')
  assert.equal(after.status, 200)
  assert.deepEqual(after.body, before.body)
  assert.equal((await rawRequest(port, 'GET /readyz HTTP/1.1\r\nHost: api.test\r\n\r\n')).status, 200)
})
