import { test } from 'node:test'
import assert from 'node:assert/strict'
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http'
import type { FastifyBaseLogger, InjectOptions } from 'fastify'
import { inject } from 'light-my-request'
import { pino } from 'pino'
import { loadConfig } from '../../src/config.ts'
import { endpointAnswers } from '../../src/http/endpoint-answers.ts'
import type { EndpointAnswers } from '../../src/http/endpoints.ts'
import type { BodyRoute } from '../../src/http/server/body-route.ts'
import { FAST_PATH_MAX_TARGET, FastPath } from '../../src/http/server/fast-path.ts'
import { FairTurns } from '../../src/http/server/fair-turns.ts'
import { jsonTextParser } from '../../src/http/plugins/json-body.ts'
import { McpEndpoint } from '../../src/mcp/mcp-endpoint.ts'
import { mcpServerFactory } from '../../src/mcp/mcp-server.ts'
import { PreparedResults } from '../../src/mcp/prepared-results.ts'
import type { RateLimitState, RequestCounter } from '../../src/http/rate-limit/request-counter.ts'
import { FULL_DATA_DIR, TEST_PUBLIC_URL, loadTestDataset } from '../helper.ts'
import { buildCounted, comparable, compareBothWays } from './both-ways.ts'

/*
 * The fast path (src/http/server/fast-path.ts) answers most successful exam requests before Fastify sees
 * them. These tests send each request both ways, through the server's own request listener (fast
 * path first, Fastify for the rest) and through `app.inject` (Fastify only), and require the same
 * answer; they also check which of the two answered, so a fast path that declined everything
 * (and so passed the comparisons trivially) would fail. Fastify alone is what the fast path is
 * held to, so this file keeps `injectIntoFastify` beside the front door on purpose.
 */

const FAST_URLS = [
  '/v1/exams',
  '/v1/exams?_=1700000000',
  '/v1/exams/2020',
  '/v1/exams/2011',
  '/v1/exams/2023?utm_source=app',
  '/v1/exams/2020/questions',
  '/v1/exams/2020/questions?limit=5',
  '/v1/exams/2020/questions?limit=50&offset=3',
  '/v1/exams/2020/questions?offset=1000',
  '/v1/exams/2020/questions?language=espanhol&limit=7',
  '/v1/exams/2020/questions?discipline=matematica',
  '/v1/exams/2020/questions?discipline=linguagens&language=ingles&offset=2&limit=3&_=9',
  '/v1/exams/2011/questions?limit=50',
  '/v1/exams/2020/questions/1',
  '/v1/exams/2020/questions/1?language=espanhol',
  '/v1/exams/2020/questions/5',
  '/v1/exams/2020/questions/12?language=ingles',
  '/v1/exams/2011/questions/1',
  '/v1/exams/2023/questions/2?cache=no',
  '/v1/questions',
  '/v1/questions?q=agua&limit=5',
  '/v1/questions?q=%C3%81GUA+energia&year=2011-2023',
  '/v1/questions?q=%22efeito+estufa%22',
  '/v1/questions?year=2020,2023&discipline=linguagens&language=ingles&hasImages=false&annulled=false&offset=2&limit=3',
  '/v1/questions/random?seed=42&count=5',
  '/v1/questions/random?seed=7&discipline=matematica&year=2020',
  '/v1/export/questions.jsonl',
  '/v1/export/questions.jsonl?year=2011,2020'
]

/** Well-formed requests whose values name nothing: the fast path answers their 404 or 422 too. */
const FAST_ERRORS: Array<[string, number]> = [
  ['/v1/exams/1999', 404],
  ['/v1/exams/0', 422],
  ['/v1/exams/-1/questions', 422],
  ['/v1/exams/2020/questions?limit=0', 422],
  ['/v1/exams/2020/questions?limit=51', 422],
  ['/v1/exams/2020/questions?offset=-1', 422],
  ['/v1/exams/2020/questions?language=frances', 422],
  ['/v1/exams/2011/questions?language=ingles', 422],
  ['/v1/exams/2020/questions?discipline=astrologia', 422],
  ['/v1/exams/2020/questions/999', 404],
  ['/v1/exams/2020/questions/0', 422],
  ['/v1/exams/2020/questions/1?language=frances', 422],
  ['/v1/exams/1999/questions/1?language=ingles', 404],
  ['/v1/questions?year=1999', 422],
  ['/v1/questions?year=2023-2011', 422],
  ['/v1/questions?q=%2B%2B%2B', 422],
  ['/v1/questions?discipline=astrologia', 422],
  ['/v1/questions/random?count=51', 422],
  ['/v1/questions/random?seed=4294967296', 422],
  ['/v1/export/questions.jsonl?year=1999', 422]
]

/** Requests the fast path must leave to Fastify, with the status Fastify gives them. */
/** Spellings the router takes for the same resource: a trailing slash, a percent-encoded value. */
const EQUIVALENT_SPELLINGS = ['/v1/exams/', '/v1/exams/2020/', '/v1/exams/2020/questions/1/', '/v1/exams/2020/questions?language=ingl%65s', '/v1/exams/2020/questions?language=ingles&limit=2&_=a+b']

const FASTIFY_CASES: Array<[InjectOptions, number]> = [
  [{ url: '/v1/exams/2020/questions?language=ingles+' }, 400],
  [{ url: '/v1/exams/02020' }, 400],
  [{ url: '/v1/exams/2020/questions?limit=abc' }, 400],
  [{ url: '/v1/exams/2020/questions?limit=' }, 400],
  [{ url: '/v1/exams/2020/questions?limit' }, 400],
  [{ url: '/v1/exams/2020/questions?limit=1&limit=2' }, 400],
  [{ url: '/v1/exams/2020/questions/1?language=INGLES' }, 400],
  [{ url: '/v1/Exams' }, 404],
  [{ url: '/v1/examsx' }, 404],
  [{ url: '/v1/exams/2020/answers' }, 404],
  [{ url: '/v1/exams/2020/questions/1/extra' }, 404],
  [{ url: '/v1/exams/2020/questions/1?weird[name]=1' }, 200],
  [{ url: `/v1/exams/2020/questions?_=${'x'.repeat(FAST_PATH_MAX_TARGET)}` }, 200],
  [{ url: '/v1/exams', method: 'POST' }, 405],
  [{ url: '/v1/exams', method: 'OPTIONS', headers: { origin: 'https://app.example', 'access-control-request-method': 'GET' } }, 204],
  [{ url: '/v1/exams', headers: { 'content-length': '5' }, payload: 'hello' }, 413]
]

/** A POST of the scores endpoint with a JSON body, as a client sends it. */
function scoresPost (body: unknown, headers: Record<string, string> = {}, url = '/v1/scores'): InjectOptions {
  return { method: 'POST', url, headers: { 'content-type': 'application/json', ...headers }, payload: typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body) }
}

const PRACTICE_RUN = { year: 2020, language: 'ingles', answers: { 1: 'B', 8: 'D', 10: 'A' } }
const ANSWER_SHEET = { year: 2023, booklet: 1191, answers: 'ABCDE'.repeat(9) }

/** POSTs with plain headers: the fast path reads their body and answers them, errors included, as the route does. */
const FAST_POSTS: Array<[InjectOptions, number]> = [
  [scoresPost(PRACTICE_RUN), 200],
  [scoresPost(ANSWER_SHEET), 200],
  [scoresPost(ANSWER_SHEET, { 'accept-encoding': 'br' }), 200],
  [scoresPost(ANSWER_SHEET, { 'accept-encoding': 'gzip, deflate' }), 200],
  [scoresPost(ANSWER_SHEET, { 'if-none-match': '*' }), 200],
  [scoresPost(ANSWER_SHEET, { 'content-type': 'application/json; charset=utf-8' }), 200],
  [scoresPost(ANSWER_SHEET, { 'content-type': 'application/json;charset=UTF-8' }), 200],
  [scoresPost(ANSWER_SHEET, {}, '/v1/scores/'), 200],
  [scoresPost(ANSWER_SHEET, {}, '/v1/scores?refused=nested'), 200],
  [scoresPost(`  ${JSON.stringify(ANSWER_SHEET)}\n`), 200],
  [scoresPost('{"year": 2023,'), 400],
  [scoresPost(' '), 400],
  [scoresPost('[]'), 400],
  [scoresPost('"text"'), 400],
  [scoresPost('['.repeat(40) + ']'.repeat(40)), 400],
  [scoresPost(`{"year":2023,"answers":{"1":${'['.repeat(33)}${']'.repeat(33)}}}`), 400],
  [scoresPost('{"year":2023,"answers":{},"__proto__":{"x":1}}'), 400],
  [scoresPost('{"year":2023,"answers":{},"constructor":{"prototype":{"x":1}}}'), 400],
  [scoresPost({ year: '2023', answers: {} }), 400],
  [scoresPost({ year: 2023, answers: { 1: 'F' } }), 400],
  [scoresPost({ year: 2023, answers: { x: 'A' } }), 400],
  [scoresPost({ year: 2023, booklet: 1191, answers: 'A', application: 'regular' }), 400],
  [scoresPost({ year: 2023, answers: Object.fromEntries(Array.from({ length: 200 }, (_, at) => [String(at + 1), 'Z'])) }), 400],
  [scoresPost(Buffer.concat([Buffer.from('{"year":2023,"booklet":1191,"answers":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')])), 422],
  [scoresPost({ year: 2008, answers: {} }), 422],
  [scoresPost({ year: 2022, booklet: 1191, answers: 'A'.repeat(45) }), 422],
  [scoresPost({ year: 2020, answers: { 1: 'A' } }), 422]
]

/** POSTs the fast path leaves to Fastify (refused before their body is read, or headers it does not read a body with), with Fastify's status. */
const FASTIFY_POSTS: Array<[InjectOptions, number]> = [
  [{ method: 'POST', url: '/v1/scores', payload: JSON.stringify(ANSWER_SHEET) }, 415],
  [scoresPost(ANSWER_SHEET, { 'content-type': 'text/plain' }), 415],
  [scoresPost(ANSWER_SHEET, { 'content-type': 'application/json; charset=utf-16' }), 415],
  [scoresPost(ANSWER_SHEET, { 'content-encoding': 'gzip' }), 415],
  [scoresPost(ANSWER_SHEET, { 'content-encoding': 'identity' }), 200],
  [scoresPost({ ...ANSWER_SHEET, answers: 'A'.repeat(16 * 1024) }), 413],
  [{ method: 'POST', url: '/v1/scores', headers: { 'content-type': 'application/json', 'content-length': '0' } }, 400],
  [scoresPost(ANSWER_SHEET, {}, '/v1/scores?x=%zz'), 200],
  // A body on a path that takes none: refused before it is read.
  [scoresPost(ANSWER_SHEET, {}, '/v1/Scores'), 413],
  [{ method: 'PUT', url: '/v1/scores', headers: { 'content-type': 'application/json' }, payload: '{}' }, 405],
  [{ method: 'GET', url: '/v1/scores' }, 405],
  [{ method: 'OPTIONS', url: '/v1/scores', headers: { origin: 'https://example.org', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' } }, 204]
]

test('POST /v1/scores with plain headers is the fast path\'s, every answer (200, 400, 422) exactly as the route gives it', async (t) => {
  const counted = await buildCounted(t)
  for (const [options, status] of FAST_POSTS) {
    const { fast, response } = await compareBothWays(counted, options)
    assert.equal(fast, true, `${options.url as string} ${String(options.payload).slice(0, 60)} should take the fast path`)
    assert.equal(response.statusCode, status, `${options.url as string} ${String(options.payload).slice(0, 60)}: ${response.body.slice(0, 200)}`)
    assert.equal(response.headers['cache-control'], 'no-store')
  }
})

test('a POST the fast path does not read a body for is left to Fastify, which answers it as before', async (t) => {
  const counted = await buildCounted(t)
  for (const [options, status] of FASTIFY_POSTS) {
    const { fast, response } = await compareBothWays(counted, options)
    assert.equal(fast, false, `${options.method as string} ${options.url as string} ${JSON.stringify(options.headers)} should go to Fastify`)
    assert.equal(response.statusCode, status, `${options.url as string} ${JSON.stringify(options.headers)}`)
  }
  // Fastify's own content-type matching has the last word on other spellings; the answer is the same either way.
  for (const type of ['Application/JSON', 'application/json ; charset=utf-8', 'application/json; charset="utf-8"']) {
    const { response } = await compareBothWays(counted, scoresPost(ANSWER_SHEET, { 'content-type': type }))
    assert.equal(response.statusCode, 200, type)
  }
})

test('POSTs draw on the one quota per client, and past it are refused with the same 429 before their body is read', async (t) => {
  const counted = await buildCounted(t, { RATE_LIMIT_MAX: '3' })
  const answers = [
    await counted.request(scoresPost(ANSWER_SHEET)),
    await counted.injectIntoFastify(scoresPost(ANSWER_SHEET)),
    await counted.request('/v1/exams')
  ]
  assert.deepEqual(answers.map((answer) => answer.statusCode), [200, 200, 200])
  assert.deepEqual(answers.map((answer) => answer.headers['ratelimit-remaining']), ['2', '1', '0'])
  const before = counted.fastifySaw()
  const refused = await counted.request(scoresPost(ANSWER_SHEET))
  assert.equal(counted.fastifySaw(), before, 'refused on the fast path')
  assert.equal(refused.statusCode, 429)
  assert.equal(refused.json().error.code, 'rate_limit_exceeded')
  for (const options of [scoresPost(ANSWER_SHEET), scoresPost('{"year": 2023,')]) {
    const { fast, response } = await compareBothWays(counted, options)
    assert.equal(fast, true)
    assert.equal(response.statusCode, 429)
  }
})

test('fast POST answers get the same one access-log line as Fastify\'s', async (t) => {
  const counted = await buildCounted(t, { LOG_LEVEL: 'info' })
  const posts = [scoresPost(ANSWER_SHEET), scoresPost('[]'), scoresPost({ year: 2008, answers: {} })]
  for (const options of posts) await counted.request(options)
  for (const options of posts) await counted.injectIntoFastify(options)
  const lines = counted.logs.filter((line) => line.msg === 'request')
  const expected = [['POST', '/v1/scores', 200, '127.0.0.1'], ['POST', '/v1/scores', 400, '127.0.0.1'], ['POST', '/v1/scores', 422, '127.0.0.1']]
  assert.deepEqual(lines.map((line) => [line.method, line.url, line.statusCode, line.ip]), [...expected, ...expected])
  assert.deepEqual(lines.map((line) => Object.keys(line).filter((key) => key !== 'time').sort()).slice(0, 3), lines.map((line) => Object.keys(line).filter((key) => key !== 'time').sort()).slice(3))
})

test('the fast path answers every plain successful exam request exactly as the Fastify routes do', async (t) => {
  const counted = await buildCounted(t)
  for (const url of FAST_URLS) {
    const plain = await compareBothWays(counted, { url })
    assert.equal(plain.fast, true, `${url} should take the fast path`)
    assert.equal(plain.response.statusCode, 200, url)
    const etag = String(plain.response.headers.etag)
    const variants: InjectOptions[] = [
      { url, method: 'HEAD' },
      { url, headers: { 'accept-encoding': 'br' } },
      { url, headers: { 'accept-encoding': 'gzip, deflate' } },
      { url, headers: { 'accept-encoding': 'gzip;q=0, identity' } },
      { url, headers: { 'if-none-match': etag } },
      { url, headers: { 'if-none-match': `W/${etag}`, 'accept-encoding': 'br' } },
      { url, headers: { 'if-none-match': '"stale"' } }
    ]
    for (const variant of variants) {
      const { fast } = await compareBothWays(counted, variant)
      assert.equal(fast, true, `${url} ${JSON.stringify(variant)} should take the fast path`)
    }
  }
})

test('an unseeded random draw is the fast path\'s too, never cached, with a fresh seed each time', async (t) => {
  const counted = await buildCounted(t)
  const before = counted.fastifySaw()
  const draws = [await counted.request('/v1/questions/random?count=3'), await counted.request('/v1/questions/random?count=3')]
  assert.equal(counted.fastifySaw(), before, 'answered on the fast path')
  const viaFastify = await counted.injectIntoFastify('/v1/questions/random?count=3')
  for (const draw of [...draws, viaFastify]) {
    assert.equal(draw.statusCode, 200)
    assert.equal(draw.headers['cache-control'], 'no-store')
    assert.equal(draw.json<{ questions: unknown[] }>().questions.length, 3)
  }
  // The seed each one reports gives the same draw on either path.
  for (const draw of draws) {
    const { seed } = draw.json<{ seed: number }>()
    const again = await compareBothWays(counted, { url: `/v1/questions/random?count=3&seed=${seed}` })
    assert.equal(again.response.json<{ questions: unknown[] }>().questions.length, 3)
    assert.deepEqual(again.response.json<{ questions: unknown[] }>().questions, draw.json<{ questions: unknown[] }>().questions)
  }
})

test('the 404s and 422s of well-formed requests are the fast path\'s too, with the same error body and headers', async (t) => {
  const counted = await buildCounted(t)
  for (const [url, status] of FAST_ERRORS) {
    for (const options of [{ url }, { url, method: 'HEAD' as const }, { url, headers: { 'accept-encoding': 'br', 'if-none-match': '*' } }]) {
      const { fast, response } = await compareBothWays(counted, options)
      assert.equal(fast, true, `${url} ${JSON.stringify(options)} should take the fast path`)
      assert.equal(response.statusCode, status, url)
    }
    const body = (await counted.request(url)).json() as { error: { code: string, docUrl: string } }
    assert.equal(body.error.code, status === 404 ? 'not_found' : 'unprocessable_entity')
    assert.equal(body.error.docUrl, `${TEST_PUBLIC_URL}/docs#errors-${body.error.code.replaceAll('_', '-')}`)
  }
})

test('a trailing slash and percent-encoded values are read as Fastify reads them, on the fast path', async (t) => {
  const counted = await buildCounted(t)
  for (const url of EQUIVALENT_SPELLINGS) {
    const { fast, response } = await compareBothWays(counted, { url })
    assert.equal(fast, true, `${url} should take the fast path`)
    assert.equal(response.statusCode, 200, url)
  }
})

test('anything else is left to Fastify, which answers it as before', async (t) => {
  const counted = await buildCounted(t)
  for (const [options, status] of FASTIFY_CASES) {
    const { fast, response } = await compareBothWays(counted, options)
    assert.equal(fast, false, `${options.method ?? 'GET'} ${options.url as string} should go to Fastify`)
    assert.equal(response.statusCode, status, options.url as string)
  }
})

test('both paths draw on one quota per client, and past it refuse with the same 429', async (t) => {
  const counted = await buildCounted(t, { RATE_LIMIT_MAX: '3' })
  const answers = [
    await counted.request('/v1/exams/2020/questions/1'),
    await counted.injectIntoFastify('/v1/exams/2020'),
    await counted.request('/v1/exams')
  ]
  assert.deepEqual(answers.map((answer) => answer.headers['ratelimit-remaining']), ['2', '1', '0'])
  assert.deepEqual(answers.map((answer) => answer.headers['ratelimit-limit']), ['3', '3', '3'])
  // One window, begun by the first request: a minute from then, whichever path answered.
  assert.deepEqual(answers.map((answer) => answer.headers['ratelimit-reset']), ['60', '60', '60'])
  const before = counted.fastifySaw()
  const refused = await counted.request('/v1/exams/2020/questions/1')
  assert.equal(counted.fastifySaw(), before, 'refused on the fast path')
  assert.equal(refused.statusCode, 429)
  assert.equal(refused.json().error.code, 'rate_limit_exceeded')
  assert.match(refused.json().error.message, /^Too many requests: at most 3 per 60 seconds from one client; retry in \d+ s\. To read every question, download \/v1\/export\/questions\.jsonl/)
  assert.match(String(refused.headers['retry-after']), /^\d+$/)
  assert.equal(refused.headers['ratelimit-remaining'], '0')
  // The same refusal from Fastify's limiter, byte for byte (the error text names the same second).
  for (const url of ['/v1/exams/2020/questions/1', '/v1/exams/2020/questions/999', '/v1/exams?x=1']) {
    const { fast, response } = await compareBothWays(counted, { url })
    assert.equal(fast, true, url)
    assert.equal(response.statusCode, 429, url)
  }
  // Another address is another client, on the fast path too.
  const other = await counted.request({ url: '/v1/exams', remoteAddress: '192.0.2.77' })
  assert.equal(other.statusCode, 200)
  assert.equal(other.headers['ratelimit-remaining'], '2')
})

test('on the fast path too, IPv6 clients are counted per /64 and an IPv4-mapped address is its IPv4 client', async (t) => {
  const counted = await buildCounted(t, { RATE_LIMIT_MAX: '2' })
  const from = async (remoteAddress: string) => (await counted.request({ url: '/v1/exams', remoteAddress })).statusCode
  assert.deepEqual([await from('2001:db8:1:2::1'), await from('2001:db8:1:2:abcd::3'), await from('2001:db8:1:2::9')], [200, 200, 429])
  assert.equal(await from('2001:db8:1:3::1'), 200, 'another /64')
  assert.deepEqual([await from('192.0.2.5'), await from('::ffff:192.0.2.5'), await from('::ffff:192.0.2.5')], [200, 200, 429])
  assert.equal(counted.fastifySaw(), 0, 'the refusals too were the fast path\'s')
})

test('TRUST_PROXY as a hop count believes that many proxies, on both paths', async (t) => {
  const counted = await buildCounted(t, { RATE_LIMIT_MAX: '1', TRUST_PROXY: '1' })
  const behindBalancer = (client: string, via: 'server' | 'fastify') => {
    const options = { url: '/v1/exams', remoteAddress: '10.0.0.5', headers: { 'x-forwarded-for': `203.0.113.9, ${client}` } }
    return via === 'server' ? counted.request(options) : counted.injectIntoFastify(options)
  }
  assert.equal((await behindBalancer('198.51.100.1', 'server')).statusCode, 200)
  assert.equal((await behindBalancer('198.51.100.2', 'server')).statusCode, 200, 'another client behind the balancer has its own quota')
  assert.equal((await behindBalancer('198.51.100.3', 'fastify')).statusCode, 200)
  assert.equal((await behindBalancer('198.51.100.1', 'server')).statusCode, 429)
  assert.equal((await behindBalancer('198.51.100.2', 'fastify')).statusCode, 429)
})

test('fast answers get the same one access-log line, with ids unique across both paths', async (t) => {
  const counted = await buildCounted(t, { LOG_LEVEL: 'info' })
  const urls = ['/v1/exams/2020/questions/1', '/v1/exams/1999', '/v1/exams?x=1', '/v1/exams/abc']
  for (const url of urls) await counted.request(url)
  const lines = counted.logs.filter((line) => line.msg === 'request')
  assert.deepEqual(lines.map((line) => [line.method, line.url, line.statusCode, line.ip]), [
    ['GET', urls[0], 200, '127.0.0.1'],
    ['GET', urls[1], 404, '127.0.0.1'],
    ['GET', urls[2], 200, '127.0.0.1'],
    ['GET', urls[3], 400, '127.0.0.1']
  ])
  for (const line of lines) {
    assert.match(String(line.reqId), /^req-[0-9a-z]+$/)
    assert.equal(typeof line.responseTimeMs, 'number')
  }
  assert.equal(new Set(lines.map((line) => line.reqId)).size, urls.length)
})

test('over a real socket, the fast path answers with the same bytes', async (t) => {
  const counted = await buildCounted(t)
  const port = await counted.listen()
  const get = (path: string, method = 'GET') => new Promise<{ status: number, headers: IncomingHttpHeaders, body: Buffer }>((resolve, reject) => {
    const outgoing = httpRequest({ host: '127.0.0.1', port, path, method }, (incoming) => {
      const chunks: Buffer[] = []
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk))
      incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, body: Buffer.concat(chunks) }))
    })
    outgoing.on('error', reject)
    outgoing.end()
  })
  for (const url of ['/v1/exams/2020/questions/12', '/v1/exams/2020/questions?limit=3']) {
    const before = counted.fastifySaw()
    const real = await get(url)
    const head = await get(url, 'HEAD')
    assert.equal(counted.fastifySaw(), before, `${url} should take the fast path`)
    const reference = await counted.injectIntoFastify(url)
    assert.equal(real.status, 200)
    assert.deepEqual(real.body, reference.rawPayload)
    assert.deepEqual(comparable(real.headers), comparable(reference.headers))
    assert.equal(head.status, 200)
    assert.equal(head.body.length, 0)
    assert.deepEqual(comparable(head.headers), comparable(reference.headers))
  }
})

test('full dataset: every question and every first page answers the same both ways', { skip: FULL_DATA_DIR === undefined && 'ENEM_DATA_DIR is not set' }, async (t) => {
  const counted = await buildCounted(t, { ENEM_DATA_DIR: FULL_DATA_DIR! })
  const exams = (await counted.injectIntoFastify('/v1/exams')).json() as Array<{ year: number, languages: Array<{ value: string }> }>
  let compared = 0
  for (const { year, languages } of exams) {
    const detail = (await counted.injectIntoFastify(`/v1/exams/${year}`)).json() as { questions: Array<{ index: number }> }
    const indexes = [...new Set(detail.questions.map((question) => question.index))]
    for (const language of languages.length === 0 ? [undefined] : languages.map((option) => option.value)) {
      const query = language === undefined ? '' : `?language=${language}`
      const pageResult = await compareBothWays(counted, { url: `/v1/exams/${year}/questions${query}${query === '' ? '?' : '&'}limit=50` })
      assert.equal(pageResult.fast, true)
      for (const index of indexes) {
        const { fast, response } = await compareBothWays(counted, { url: `/v1/exams/${year}/questions/${index}${query}` })
        // An index held only in another language is a 404, answered on the fast path too.
        assert.equal(fast, true, `${year}/${index}${query}`)
        assert.ok(response.statusCode === 200 || response.statusCode === 404, `${year}/${index}${query}`)
        compared++
      }
    }
  }
  assert.ok(compared > 2_700, `compared ${compared} questions`)
})

test('full dataset: a 180-answer practice run of every exam scores the same both ways, on the fast path', { skip: FULL_DATA_DIR === undefined && 'ENEM_DATA_DIR is not set' }, async (t) => {
  const counted = await buildCounted(t, { ENEM_DATA_DIR: FULL_DATA_DIR! })
  const exams = (await counted.injectIntoFastify('/v1/exams')).json() as Array<{ year: number, application: string, languages: Array<{ value: string }> }>
  const statuses = new Map<number, number>()
  for (const { year, application, languages } of exams) {
    const answers = Object.fromEntries(Array.from({ length: 180 }, (_, at) => [String(at + 1), 'ABCDE'[(at * 7) % 5]!]))
    const body = { year, application, ...(languages[0] === undefined ? {} : { language: languages[0].value }), answers }
    const { fast, response } = await compareBothWays(counted, scoresPost(body))
    assert.equal(fast, true, `${year} ${application}`)
    statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1)
  }
  // Exams without INEP's parameters are a 422; most are scored.
  assert.ok((statuses.get(200) ?? 0) > exams.length / 2, JSON.stringify([...statuses]))
  assert.deepEqual([...statuses.keys()].filter((status) => status !== 200 && status !== 422), [])
})

test('a fault inside the fast path sends the request to Fastify instead of throwing out of the request listener', async () => {
  const config = loadConfig({ PUBLIC_URL: TEST_PUBLIC_URL })
  const dataset = await loadTestDataset(config)
  const { answers } = endpointAnswers(dataset.catalog!)
  const logged: unknown[] = []
  const errorLog = { error: (fields: unknown) => { logged.push(fields) } } as unknown as FastifyBaseLogger
  const failingCounters = {
    // Throws while counting.
    synchronously: { count: () => { throw new Error('store broke') } },
    // Calls back later with a state that cannot be read.
    later: {
      count: (_address: string, callback: (state: RateLimitState) => void) => {
        setImmediate(() => callback(Object.defineProperty({}, 'exceeded', { get: () => { throw new Error('bad state') } }) as RateLimitState))
      }
    }
  }
  for (const [name, counter] of Object.entries(failingCounters)) {
    const fastPath = new FastPath({ answers, publicUrl: TEST_PUBLIC_URL, trustProxy: () => false, requestCounter: counter as unknown as RequestCounter, errorLog })
    let fellBack = 0
    const response = await inject((request, reply) => fastPath.dispatch(request, reply, (_request, fallbackReply) => {
      fellBack++
      fallbackReply.writeHead(503).end()
    }), '/v1/exams/2020/questions/1')
    assert.equal(fellBack, 1, name)
    assert.equal(response.statusCode, 503, name)
  }
  assert.equal(logged.length, 2)
})

/** Turns that hold every piece of work, turns within a turn included, until the test lets it run. */
class HeldTurns extends FairTurns {
  readonly held: Array<{ client: string, release: () => void }> = []
  override run<T> (client: string, work: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.held.push({ client, release: () => { try { resolve(work()) } catch (error) { reject(error) } } })
    })
  }
}

/**
 * A fast path given HeldTurns and one without turns, over the test dataset, each with the body
 * routes `bodyRoutes` makes for it (given its turns, or none); and a wait until the turns hold work.
 */
async function fastPathsWithHeldTurns (bodyRoutes: (answers: EndpointAnswers, turns?: FairTurns) => BodyRoute[] = () => []) {
  const dataset = await loadTestDataset(loadConfig({ PUBLIC_URL: TEST_PUBLIC_URL }))
  const { answers } = endpointAnswers(dataset.catalog!)
  const turns = new HeldTurns()
  const common = { answers, publicUrl: TEST_PUBLIC_URL, trustProxy: () => false, parseJson: jsonTextParser() }
  const untilHeld = async () => {
    for (let pass = 0; pass < 1000 && turns.held.length === 0; pass++) await new Promise((resolve) => setImmediate(resolve))
  }
  return {
    dataset,
    turns,
    untilHeld,
    withTurns: new FastPath({ ...common, turns, bodyRoutes: bodyRoutes(answers, turns) }),
    without: new FastPath({ ...common, bodyRoutes: bodyRoutes(answers) }),
    noFallback: () => { throw new Error('the fast path left the request to Fastify') }
  }
}

test('a POST body is parsed and answered in its client\'s turn when the fast path is given turns, with the answer it has without them; a GET takes none', async () => {
  const { turns, untilHeld, withTurns, without, noFallback } = await fastPathsWithHeldTurns()
  for (const [post, status] of [FAST_POSTS[1]!, FAST_POSTS[10]!, FAST_POSTS.at(-1)!]) {
    const expected = await inject((request, reply) => without.dispatch(request, reply, noFallback), post as never)
    assert.equal(expected.statusCode, status)
    let answered = false
    const pending = inject((request, reply) => withTurns.dispatch(request, reply, noFallback), post as never).then((response) => { answered = true; return response })
    // The body read, its work waits for its turn, and nothing is sent until it has run.
    await untilHeld()
    assert.equal(turns.held.length, 1, `${post.payload} did not wait for its turn`)
    const { client, release } = turns.held.shift()!
    assert.equal(client, '127.0.0.1')
    await new Promise((resolve) => setTimeout(resolve, 20))
    assert.equal(answered, false, `${post.payload} was answered before its turn`)
    // Meanwhile another request, not a body's, is answered at once.
    const question = await inject((request, reply) => withTurns.dispatch(request, reply, noFallback), '/v1/exams/2020/questions/1')
    assert.equal(question.statusCode, 200)
    assert.equal(turns.held.length, 0)
    release()
    const response = await pending
    assert.equal(response.statusCode, expected.statusCode)
    assert.equal(response.body, expected.body)
  }
})

test('a POST /mcp body is parsed in its client\'s turn, and the endpoint\'s own turns come within it, with the answer it has without turns', async () => {
  const log = pino({ level: 'silent' })
  const { dataset, turns, untilHeld, withTurns, without, noFallback } = await fastPathsWithHeldTurns((answers, turns) =>
    [new McpEndpoint({ factory: mcpServerFactory({ answers, log }), prepared: new PreparedResults({ answers, log }), publicUrl: TEST_PUBLIC_URL, log, turns })])
  const exam = dataset.catalog!.listExams()[0]!
  const index = exam.questionSummaries[0]!.index
  const call = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_question', arguments: { year: exam.summary.year, index } } })
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }
  for (const [payload, status] of [[call, 200], ['{"jsonrpc": "2.0",', 400]] as const) {
    const post = { method: 'POST', url: '/mcp', headers, payload } as const
    const expected = await inject((request, reply) => without.dispatch(request, reply, noFallback), post)
    assert.equal(expected.statusCode, status, expected.body)
    let answered = false
    const pending = inject((request, reply) => withTurns.dispatch(request, reply, noFallback), post).then((response) => { answered = true; return response })
    await untilHeld()
    assert.equal(turns.held.length, 1, `${payload} did not wait for its turn`)
    await new Promise((resolve) => setTimeout(resolve, 20))
    assert.equal(answered, false, `${payload} was parsed or answered before its turn`)
    // Its turn, then any the endpoint asks for within it (these turns hold those too), until it is answered.
    for (let turn = 0; turn < 100; turn++) {
      if (answered) break
      while (turns.held.length > 0) {
        const { client, release } = turns.held.shift()!
        assert.equal(client, '127.0.0.1')
        release()
      }
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
    const response = await pending
    assert.equal(response.statusCode, expected.statusCode)
    assert.equal(response.body, expected.body)
  }
})
