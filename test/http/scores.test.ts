import { after, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { Compile } from 'typebox/compile'
import { ScoreAnswerSchema, SCORES_BODY_LIMIT } from '../../src/http/schemas/scores.ts'
import { describeValue } from '../../src/http/errors.ts'
import { readBookletTables } from '../../src/data/scores/booklet-table.ts'
import { build, FULL_DATA_DIR, TEST_PUBLIC_URL, type ErrorResponseBody } from '../helper.ts'

/*
 * POST /v1/scores through the server's real request listener: both forms of the contract, the
 * answer's shape and headers, and every refusal (400, 405, 413, 415, 422, 429) with the
 * contract's error body naming the field. Never a 500.
 */

const server = await build({ after })
const full = FULL_DATA_DIR === undefined ? undefined : await build({ after }, { ENEM_DATA_DIR: FULL_DATA_DIR })
const noFullDataset = full === undefined ? 'ENEM_DATA_DIR is not set: the full dataset was NOT scored' : false
const ANSWER = Compile(ScoreAnswerSchema)

function post (body: unknown, headers: Record<string, string> = {}, send = server.request) {
  return send({ method: 'POST', url: '/v1/scores', headers: { 'content-type': 'application/json', ...headers }, payload: typeof body === 'string' ? body : JSON.stringify(body) })
}

async function assertError (response: Awaited<ReturnType<typeof post>>, status: number, code: string, message?: RegExp) {
  assert.equal(response.statusCode, status, response.body)
  assert.equal(response.headers['content-type'], 'application/json; charset=utf-8')
  assert.equal(response.headers['cache-control'], 'no-store')
  const body = response.json<ErrorResponseBody>()
  assert.equal(body.error.code, code)
  assert.equal(body.error.docUrl, `${TEST_PUBLIC_URL}/docs#errors-${code.replaceAll('_', '-')}`)
  if (message !== undefined) assert.match(body.error.message, message)
}

/** The booklet codes of a year as the 422 names them: runs of consecutive codes, ascending, from INEP's item data. */
function bookletRuns (year: number): string {
  const codes = [...readBookletTables().get(year)!.keys()].sort((a, b) => a - b)
  return codes.map((code, i) => {
    const startsRun = i === 0 || codes[i - 1] !== code - 1
    const endsRun = i === codes.length - 1 || codes[i + 1] !== code + 1
    return `${startsRun ? (i === 0 ? '' : ', ') : ''}${startsRun || endsRun ? (startsRun ? code : `-${code}`) : ''}`
  }).join('')
}

describe('POST /v1/scores answers', () => {
  test('a practice run in our numbering: the answer\'s shape, no-store, the areas answered in the exam\'s order', async () => {
    // The sample's 2020 exam carries invented item parameters at a few linguagens positions.
    const response = await post({ year: 2020, language: 'ingles', answers: { 1: 'B', 8: 'D', 10: 'A' } })
    assert.equal(response.statusCode, 200, response.body)
    assert.equal(response.headers['content-type'], 'application/json; charset=utf-8')
    assert.equal(response.headers['cache-control'], 'no-store')
    assert.equal(response.headers['access-control-allow-origin'], '*')
    const body = response.json<{ year: number, application: string, method: string, areas: Array<{ area: string, correct: number, scored: number, leftOut: Array<{ index: number, reason: string }> }> }>()
    assert.ok(ANSWER.Check(body), JSON.stringify([...ANSWER.Errors(body)]))
    assert.equal(body.application, 'regular')
    assert.equal(body.method, 'inep-3pl-eap')
    assert.deepEqual(body.areas.map((area) => area.area), ['LC'])
    const [lc] = body.areas
    // Right at 1 (English key B) and 8 (D), wrong at 10 (key E); 9 is annulled, the rest of the block missing or without parameters.
    assert.equal(lc!.scored, 3)
    assert.equal(lc!.correct, 2)
    assert.ok(lc!.leftOut.some((entry) => entry.index === 9 && entry.reason === 'annulled'))
    assert.ok(lc!.leftOut.some((entry) => entry.index === 45 && entry.reason === 'missing'))
  })

  test('application=ppl scores the second application: its records\' keys and parameters, its annulled item left out', async () => {
    const page = await server.request('/v1/exams/2020/questions?application=ppl&language=ingles&limit=50')
    const records = page.json<{ questions: Array<{ index: number, correctAlternative: string, inep: { annulled: boolean, irt: unknown } | null }> }>().questions
    const withParameters = records.filter((record) => record.inep?.irt != null && record.inep.annulled === false)
    const annulled = records.filter((record) => record.inep?.annulled === true)
    assert.ok(withParameters.length > 0 && annulled.length > 0, 'the sample\'s 2020-ppl has items with parameters and an annulled one')
    // Every record answered with its own key.
    const answers = Object.fromEntries(records.map((record) => [String(record.index), record.correctAlternative]))
    const response = await post({ year: 2020, application: 'ppl', language: 'ingles', answers })
    assert.equal(response.statusCode, 200, response.body)
    const body = response.json<{ application: string, areas: Array<{ area: string, correct: number, scored: number, leftOut: Array<{ index: number, reason: string }> }> }>()
    assert.equal(body.application, 'ppl')
    const scoredIndexes = new Set(withParameters.map((record) => record.index))
    assert.equal(body.areas.reduce((sum, area) => sum + area.scored, 0), scoredIndexes.size)
    assert.equal(body.areas.reduce((sum, area) => sum + area.correct, 0), scoredIndexes.size)
    for (const record of annulled) assert.ok(body.areas.some((area) => area.leftOut.some((entry) => entry.index === record.index && entry.reason === 'annulled')))
  })

  test('the same practice run in Spanish reads the Spanish record at 1 (key C): B is wrong there', async () => {
    const body = (await post({ year: 2020, language: 'espanhol', answers: { 1: 'B', 8: 'D', 10: 'A' } })).json<{ areas: Array<{ correct: number }> }>()
    assert.equal(body.areas[0]!.correct, 1)
  })

  test('an answer sheet: one area of a booklet, the booklet named, no application', async () => {
    const answers = 'ABCDE'.repeat(9)
    const response = await post({ year: 2023, booklet: 1191, answers })
    assert.equal(response.statusCode, 200, response.body)
    const body = response.json<{ application: null, booklet: { code: number, area: string, colour: string }, areas: Array<{ area: string, scored: number }> }>()
    assert.ok(ANSWER.Check(body))
    assert.equal(body.application, null)
    assert.deepEqual(body.booklet, { code: 1191, area: 'CH', colour: 'azul' })
    assert.deepEqual(body.areas.map((area) => area.area), ['CH'])
    assert.equal(body.areas[0]!.scored, 45)
  })

  test('a linguagens sheet in the 50-character form scores as its 45-character form', async () => {
    const common = 'ABCDE'.repeat(8)
    const short = (await post({ year: 2019, booklet: 511, language: 'ingles', answers: 'BCDEA' + common })).json<{ areas: Array<{ score: number, leftOut: Array<{ reason: string }> }> }>()
    const wide = (await post({ year: 2019, booklet: 511, language: 'ingles', answers: 'BCDEA99999' + common })).json<{ areas: Array<{ score: number, leftOut: Array<{ reason: string }> }> }>()
    assert.equal(wide.areas[0]!.score, short.areas[0]!.score)
    assert.equal(wide.areas[0]!.leftOut.filter((entry) => entry.reason === 'not-taken-language').length, 5)
  })

  test('an all-blank sheet scores no area', async () => {
    const body = (await post({ year: 2023, booklet: 1191, answers: '*'.repeat(45) })).json<{ areas: unknown[] }>()
    assert.deepEqual(body.areas, [])
  })

  test('2023 MT in our numbering leaves out 161 (no parameters) and 164 (annulled), as the contract shows', { skip: noFullDataset }, async () => {
    const answers = Object.fromEntries(Array.from({ length: 45 }, (_, at) => [String(136 + at), 'A']))
    const response = await post({ year: 2023, answers }, {}, full?.request)
    assert.equal(response.statusCode, 200, response.body)
    const body = response.json<{ areas: Array<{ area: string, scored: number, leftOut: Array<{ index: number, reason: string }> }> }>()
    assert.deepEqual(body.areas.map((area) => area.area), ['MT'])
    const [mt] = body.areas
    // Beside those two, only positions the dataset lacks are left out.
    const missing = mt!.leftOut.filter((entry) => entry.reason === 'missing')
    assert.deepEqual(mt!.leftOut.filter((entry) => entry.reason !== 'missing'), [{ index: 161, reason: 'no-parameters' }, { index: 164, reason: 'annulled' }])
    assert.equal(mt!.scored, 43 - missing.length)
  })

  test('a full 180-answer practice run of 2023 scores the four areas', { skip: noFullDataset }, async () => {
    const answers = Object.fromEntries(Array.from({ length: 180 }, (_, at) => [String(at + 1), 'ABCDE'[at % 5]!]))
    const response = await post({ year: 2023, application: 'regular', language: 'espanhol', answers }, {}, full?.request)
    assert.equal(response.statusCode, 200, response.body)
    assert.deepEqual(response.json<{ areas: Array<{ area: string }> }>().areas.map((area) => area.area), ['LC', 'CH', 'CN', 'MT'])
  })
})

describe('POST /v1/scores refuses', () => {
  test('another method on its path with 405 and Allow: POST, OPTIONS; a preflight with 204', async () => {
    for (const method of ['GET', 'HEAD', 'PUT', 'DELETE', 'PATCH'] as const) {
      const response = await server.request({ method, url: '/v1/scores' })
      assert.equal(response.statusCode, 405, method)
      assert.equal(response.headers.allow, 'POST, OPTIONS')
    }
    const withBody = await server.request({ method: 'PUT', url: '/v1/scores', headers: { 'content-type': 'application/json' }, payload: '{}' })
    assert.equal(withBody.statusCode, 405)
    assert.equal(withBody.headers.allow, 'POST, OPTIONS')
    const preflight = await server.request({ method: 'OPTIONS', url: '/v1/scores', headers: { origin: 'https://example.org', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' } })
    assert.equal(preflight.statusCode, 204)
    assert.match(String(preflight.headers['access-control-allow-methods']), /POST/)
    assert.match(String(preflight.headers['access-control-allow-headers']), /content-type/i)
  })

  test('a body that is not the JSON shape with 400, naming the field', async () => {
    const cases: Array<[unknown, RegExp]> = [
      ['{"year": 2023,', /JSON/i],
      ['[]', /JSON object/],
      ['"text"', /JSON object/],
      [{ answers: {} }, /body field year is required/],
      [{ year: 2023 }, /body field answers is required/],
      [{ year: '2023', answers: {} }, /body field year must be integer, got "2023"/],
      [{ year: 2023.5, answers: {} }, /body field year/],
      [{ year: 2023, answers: {}, extra: 1 }, /body field "extra" is not a field of a practice run/],
      [{ year: 2023, booklet: 1191 }, /body field answers is required for an answer sheet/],
      [{ year: 2023, booklet: '1191', answers: 'A' }, /body field booklet must be integer/],
      [{ year: 2023, booklet: 1191, answers: 'A', application: 'regular' }, /body field "application" is not a field of an answer sheet/],
      [{ year: 2023, answers: { x: 'A' } }, /body field answers has key "x"/],
      [{ year: 2023, answers: { '01': 'A' } }, /body field answers has key "01"/],
      [{ year: 2023, answers: { 1: 'F' } }, /body field answers\.1 must be one of A, B, C, D, E, got "F"/],
      [{ year: 2023, answers: { 1: 'a' } }, /body field answers\.1/],
      [{ year: 2023, answers: [] }, /body field answers/],
      [{ year: 2023, language: 3, answers: {} }, /body field language/]
    ]
    for (const [body, message] of cases) await assertError(await post(body), 400, 'bad_request', message)
  })

  test('a body over 16 KiB with 413, another content type with 415', async () => {
    const padding = 'A'.repeat(SCORES_BODY_LIMIT)
    await assertError(await post({ year: 2023, booklet: 1191, answers: padding }), 413, 'payload_too_large', /16384 bytes/)
    await assertError(await post('{"year":2023,"booklet":1191,"answers":"A"}', { 'content-type': 'text/plain' }), 415, 'unsupported_media_type',
      /^The request body must be sent with Content-Type application\/json, got "text\/plain"$/)
    await assertError(await post('year=2023', { 'content-type': 'application/x-www-form-urlencoded' }), 415, 'unsupported_media_type', /application\/json/)
    const untyped = await server.request({ method: 'POST', url: '/v1/scores', payload: '{"year":2023,"booklet":1191,"answers":"A"}' })
    await assertError(untyped, 415, 'unsupported_media_type', /^The request body must be sent with Content-Type application\/json, got no Content-Type$/)
  })

  test('values that parse but do not exist with 422, naming the field', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ year: 2008, booklet: 1191, answers: 'A'.repeat(45) }, /year 2008 has no item data/],
      [{ year: 2022, booklet: 1191, answers: 'A'.repeat(45) }, new RegExp(`^booklet 1191 is not a booklet of 2022; its booklets: ${bookletRuns(2022)}$`)],
      [{ year: 2023, booklet: 1191, answers: 'A'.repeat(44) }, /answers must be 45 characters/],
      [{ year: 2013, booklet: 187, answers: 'A'.repeat(45) }, /booklet 187 of 2013 cannot be scored/],
      [{ year: 2008, answers: {} }, /^No exam for year 2008; years available: 20/],
      [{ year: 2023, answers: { 46: 'A' } }, /year 2023 has no item parameters/],
      // 2023 has no second application in the sample (2020 has).
      [{ year: 2023, application: 'ppl', answers: {} }, /^application "ppl" is not an exam of 2023: its applications are regular$/],
      [{ year: 2020, application: 'second', answers: {} }, /application "second"/],
      [{ year: 2020, language: 'ingles', answers: { 181: 'A' } }, /answers index 181 is outside the exam/],
      [{ year: 2020, language: 'ingles', answers: { 0: 'A' } }, /answers index 0 is outside the exam/],
      [{ year: 2020, language: 'frances', answers: { 1: 'A' } }, /language "frances" is not one the 2020 exam offers/],
      [{ year: 2020, answers: { 1: 'A' } }, /language is required when linguagens is answered/]
    ]
    const linguagens = [...readBookletTables().get(2023)!.values()].find((booklet) => booklet.area === 'LC')!
    cases.push([{ year: 2023, booklet: linguagens.code, answers: 'A'.repeat(45) }, /language is required for linguagens booklet/])
    cases.push([{ year: 2023, booklet: linguagens.code, language: 'frances', answers: 'A'.repeat(45) }, /language "frances" is not one booklet/])
    for (const [body, message] of cases) await assertError(await post(body), 422, 'unprocessable_entity', message)
  })

  test('a sheet\'s characters are counted in code points: 22 emoji and "A" are 23 characters (they passed as 45 UTF-16 units); 45 emoji are 45 blanks', async () => {
    await assertError(await post({ year: 2023, booklet: 1191, answers: '\u{1F600}'.repeat(22) + 'A' }), 422, 'unprocessable_entity', /answers must be 45 characters for booklet 1191, got 23/)
    const blanks = await post({ year: 2023, booklet: 1191, answers: '\u{1F600}'.repeat(45) })
    assert.equal(blanks.statusCode, 200, blanks.body)
    assert.deepEqual(blanks.json<{ areas: unknown[] }>().areas, [], 'a sheet of blanks scores no area')
    // An emoji among the letters is one blank: the letters after it keep their positions.
    const letters = 'ABCDE'.repeat(9)
    const plain = (await post({ year: 2023, booklet: 1191, answers: `*${letters.slice(1)}` })).json<{ areas: Array<{ correct: number }> }>()
    const withEmoji = (await post({ year: 2023, booklet: 1191, answers: `\u{1F600}${letters.slice(1)}` })).json<{ areas: Array<{ correct: number }> }>()
    assert.deepEqual(withEmoji, plain)
  })

  test('one mistake, one message: an application the year has no exam of, or a year without exams, worded as the exam endpoints word it', async () => {
    for (const [year, application] of [[2023, 'ppl'], [2008, 'regular']] as const) {
      const scored = (await post({ year, application, answers: {} })).json<ErrorResponseBody>()
      const asked = (await server.request(`/v1/exams/${year}?application=${application}`)).json<ErrorResponseBody>()
      assert.equal(scored.error.message, asked.error.message)
    }
  })

  test('odd bodies never get a 500', async () => {
    const bodies = ['null', '0', 'true', '{}', '{"answers":null,"year":2023}', '{"year":2023,"answers":"' + '\\u0000'.repeat(45) + '"}',
      '{"year":2023,"booklet":1191,"answers":"' + '\u00e9'.repeat(45) + '"}', '{"year":1e400,"answers":{}}', '{"year":-1,"answers":{}}',
      '{"year":2023,"answers":{"999999":"A"}}', '{"__proto__":{"x":1},"year":2023,"answers":{}}', '{"year":2023,"answers":{"constructor":"A"}}']
    for (const body of bodies) {
      const response = await post(body)
      assert.ok([200, 400, 422].includes(response.statusCode), `${body}: ${response.statusCode} ${response.body}`)
    }
  })

  test('arrays nested 4,389 deep or more are a 400, not a 500 (describeValue overflowed the stack: RangeError)', async () => {
    // Up to the body limit: as a whole body, as a field, as an answer.
    for (const depth of [4_389, 5_000, Math.floor((SCORES_BODY_LIMIT - 40) / 2)]) {
      const nested = '['.repeat(depth) + ']'.repeat(depth)
      for (const body of [nested, `{"year":2023,"answers":${nested}}`, `{"year":2023,"answers":{"1":${nested}}}`, `{"year":${nested},"answers":{}}`, `{"year":2023,"booklet":1191,"answers":${nested}}`]) {
        const response = await post(body)
        await assertError(response, 400, 'bad_request')
        // The message describes a bounded prefix of the value, not the whole of it.
        assert.ok(response.body.length < 600, `${depth}: ${response.body.length} bytes`)
      }
    }
  })

  test('a body of more answers than an exam has questions, or nested past 32 levels, with 400', async () => {
    const many = Object.fromEntries(Array.from({ length: 1_400 }, (_, at) => [String(at + 1), 'Z']))
    await assertError(await post({ year: 2023, answers: many }), 400, 'bad_request', /body field answers has 1400 answers; an exam has 180 questions/)
    const valid = Object.fromEntries(Array.from({ length: 181 }, (_, at) => [String(at + 1), 'A']))
    await assertError(await post({ year: 2023, answers: valid }), 400, 'bad_request', /has 181 answers/)
    // 180 is a whole exam: read, and its last bad letter named.
    const last = Object.fromEntries(Array.from({ length: 180 }, (_, at) => [String(at + 1), at === 179 ? 'Z' : 'A']))
    await assertError(await post({ year: 2023, answers: last }), 400, 'bad_request', /body field answers\.180 must be one of A, B, C, D, E, got "Z"/)
    const deep = `{"year":2023,"answers":{"1":${'['.repeat(33)}${']'.repeat(33)}}}`
    await assertError(await post(deep), 400, 'bad_request', /nests arrays or objects more than 32 deep/)
    // Brackets inside strings are not nesting: this is a sheet whose letters are blanks.
    await assertError(await post({ year: 2023, booklet: 1191, answers: '['.repeat(100) }), 422, 'unprocessable_entity', /answers must be 45 characters/)
  })

  test('a body holding more than 256 arrays and objects is a 400 before it is parsed; up to 256, the schema decides; braces in strings do not count', async () => {
    const objects = (count: number) => Array(count).fill('{"constructor":1}').join(',')
    for (const body of [`[${objects(900)}]`, `{"year":2023,"answers":[${objects(256)}]}`, `{"year":2023,"answers":{"1":[${'[],'.repeat(300)}[]]}}`]) {
      await assertError(await post(body), 400, 'bad_request', /^The body holds more than 256 arrays and objects$/)
    }
    await assertError(await post(`[${objects(255)}]`), 400, 'bad_request', /^The body must be a JSON object, got \[\{"constructor":1\}/)
    await assertError(await post({ year: 2023, booklet: 1191, answers: '{}'.repeat(300) }), 422, 'unprocessable_entity', /answers must be 45 characters/)
  })

  test('describeValue writes a bounded prefix of any value, however deep or wide (it stringified the whole, and overflowed the stack)', () => {
    let deep: unknown = []
    for (let level = 0; level < 100_000; level++) deep = [deep]
    assert.equal(describeValue(deep), `${'['.repeat(56)}..."`)
    const wide = Object.fromEntries(Array.from({ length: 10_000 }, (_, at) => [`k${at}`, 'x'.repeat(at % 7)]))
    assert.equal(describeValue(wide), `${JSON.stringify(wide).slice(0, 56)}..."`)
    assert.equal(describeValue({ a: [1, 'b', null, true, { c: 2.5 }] }), JSON.stringify({ a: [1, 'b', null, true, { c: 2.5 }] }))
    assert.equal(describeValue(undefined), 'undefined')
  })

  test('a long bad value is described by a short prefix of it', async () => {
    const numbers = Array.from({ length: 3_000 }, (_, at) => at)
    const response = await post({ year: 2023, answers: numbers })
    await assertError(response, 400, 'bad_request', /body field answers must be object, got \[0,1,2,3,.*\.\.\."$/)
  })

  test('is rate limited like every endpoint', async (t) => {
    const send = (await build(t, { RATE_LIMIT_MAX: '2' })).request
    const statuses = []
    for (let count = 0; count < 3; count++) statuses.push((await post({ year: 2023, booklet: 1191, answers: 'A'.repeat(45) }, {}, send)).statusCode)
    assert.deepEqual(statuses, [200, 200, 429])
  })
})
