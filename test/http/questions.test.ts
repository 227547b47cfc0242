import { after, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import type { Question } from '../../src/data/record-schemas.ts'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { build, FULL_DATA_DIR, TEST_PUBLIC_URL, type ErrorResponseBody } from '../helper.ts'

/** A question record as served: the record schema's own type. */
type QuestionBody = Question
interface PageBody {
  metadata: { limit: number, offset: number, total: number, hasMore: boolean }
  questions: QuestionBody[]
}
interface DrawBody {
  seed: number
  questions: QuestionBody[]
}
interface ExamSummaryBody { year: number, application: string, languages: Array<{ value: string }>, disciplines: Array<{ value: string }> }

/** The sample dataset, or the full one when ENEM_DATA_DIR is set; requests through the server's own listener. */
const server = await build({ after }, FULL_DATA_DIR === undefined ? {} : { ENEM_DATA_DIR: FULL_DATA_DIR })
const exams = (await server.request('/v1/exams')).json<ExamSummaryBody[]>()
/** The years held, newest first (a year may hold two exams: regular and ppl). */
const yearsNewestFirst = [...new Set(exams.map((exam) => exam.year))]

const get = (url: string, headers: Record<string, string> = {}) => server.request({ method: 'GET', url, headers })
const key = (question: QuestionBody) => `${question.year}${question.application === 'regular' ? '' : `-${question.application}`}/${question.index}/${question.language ?? '-'}`

async function json<T> (url: string): Promise<T> {
  const response = await get(url)
  assert.equal(response.statusCode, 200, `${url}: ${response.body}`)
  return response.json<T>()
}

/** Every record a /v1/questions request lists, walked page by page with `limit`. */
async function walk (query: string, limit: number): Promise<{ items: QuestionBody[], total: number }> {
  const items: QuestionBody[] = []
  let total = -1
  for (let offset = 0; ; offset += limit) {
    const page = await json<PageBody>(`/v1/questions?${query}${query === '' ? '' : '&'}limit=${limit}&offset=${offset}`)
    if (total === -1) total = page.metadata.total
    assert.equal(page.metadata.total, total, 'total is the same on every page')
    assert.ok(page.questions.length <= limit)
    assert.equal(page.metadata.hasMore, offset + page.questions.length < total)
    items.push(...page.questions)
    if (!page.metadata.hasMore) break
  }
  return { items, total }
}

/**
 * What the language views of a year's exams hold (the regular exam's, then the second
 * application's), walked through the per-exam endpoint (the contract's reference); `applications`
 * narrows which exams of the year count.
 */
async function examView (year: number, language?: string, discipline?: string, applications?: readonly string[]): Promise<QuestionBody[]> {
  const items: QuestionBody[] = []
  const extra = `${language === undefined ? '' : `&language=${language}`}${discipline === undefined ? '' : `&discipline=${discipline}`}`
  for (const exam of exams.filter((one) => one.year === year && (applications?.includes(one.application) ?? true))) {
    for (let offset = 0; ; offset += 50) {
      const page = await json<PageBody>(`/v1/exams/${year}/questions?limit=50&offset=${offset}${extra}&application=${exam.application}`)
      items.push(...page.questions)
      if (!page.metadata.hasMore) break
    }
  }
  return items
}

/** Every record of every exam, every language variant: the export's lines. */
async function everyRecord (): Promise<QuestionBody[]> {
  const response = await get('/v1/export/questions.jsonl')
  assert.equal(response.statusCode, 200)
  return response.body.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as QuestionBody)
}

async function assertError (url: string, status: number, code: string, messagePart?: RegExp) {
  const response = await get(url)
  assert.equal(response.statusCode, status, `${url}: ${response.body}`)
  assert.equal(response.headers['content-type'], 'application/json; charset=utf-8')
  assert.equal(response.headers['cache-control'], 'no-store')
  const body = response.json<ErrorResponseBody>()
  assert.equal(body.error.code, code, url)
  assert.equal(body.error.docUrl, `${TEST_PUBLIC_URL}/docs#errors-${code.replaceAll('_', '-')}`)
  if (messagePart !== undefined) assert.match(body.error.message, messagePart, url)
}

describe('GET /v1/questions', () => {
  test('without filters: the exams\' default views one after another, newest first; pages never overlap or skip', async () => {
    const expected: QuestionBody[] = []
    for (const year of yearsNewestFirst) expected.push(...await examView(year))
    for (const limit of [50, 7]) {
      const { items, total } = await walk('', limit)
      assert.equal(total, expected.length)
      assert.deepEqual(items.map(key), expected.map(key))
    }
  })

  test('year, discipline and language select what the per-exam views hold', async () => {
    const [newest, oldest] = [exams[0]!, exams.at(-1)!]
    const language = newest.languages.at(-1)?.value
    const discipline = newest.disciplines[0]!.value
    const cases: Array<[string, () => Promise<QuestionBody[]>]> = [
      [`year=${oldest.year}`, () => examView(oldest.year)],
      [`year=${oldest.year},${newest.year}`, async () => [...await examView(newest.year), ...await examView(oldest.year)]],
      [`year=${oldest.year}-${newest.year}`, async () => (await Promise.all(yearsNewestFirst.map((year) => examView(year)))).flat()],
      [`year=${newest.year}&discipline=${discipline}`, () => examView(newest.year, undefined, discipline)]
    ]
    if (language !== undefined) {
      cases.push([`year=${newest.year}&language=${language}`, () => examView(newest.year, language)])
      cases.push([`year=${newest.year}&language=${language}&discipline=${discipline}`, () => examView(newest.year, language, discipline)])
    }
    for (const [query, expected] of cases) {
      const { items } = await walk(query, 50)
      assert.deepEqual(items.map(key), (await expected()).map(key), query)
    }
  })

  test('hasImages and annulled split the list in two', async () => {
    const all = (await walk('', 50)).items.map(key)
    for (const name of ['hasImages', 'annulled']) {
      const yes = (await walk(`${name}=true`, 50)).items
      const no = (await walk(`${name}=false`, 50)).items
      assert.deepEqual([...yes, ...no].map(key).sort(), [...all].sort(), name)
    }
    const annulled = (await walk('annulled=true', 50)).items
    assert.ok(annulled.length > 0, 'the dataset has annulled questions')
    for (const question of annulled) assert.equal(question.inep?.annulled, true, key(question))
    for (const question of (await walk('annulled=false', 50)).items) assert.notEqual(question.inep?.annulled, true, key(question))
    const withImages = (await walk('hasImages=true', 50)).items
    assert.ok(withImages.length > 0)
    for (const question of withImages) {
      assert.ok(question.files.length > 0 || question.alternatives.some((a) => a.file !== null) || (question.context ?? '').includes('/files/'), key(question))
    }
  })

  test('q: a search walks like any list, best match first, and every match is a record the service holds', async () => {
    const first = (await json<PageBody>('/v1/questions?limit=50')).questions.find((question) => /\p{L}{7,}/u.test(question.context ?? ''))!
    const word = first.context!.match(/\p{L}{7,}/u)![0]
    const { items, total } = await walk(`q=${encodeURIComponent(word)}`, 3)
    assert.ok(total >= 1)
    assert.equal(new Set(items.map(key)).size, items.length, 'no record twice')
    assert.ok(items.some((question) => key(question) === key(first)))
    // With no language named, a search looks in every language's records: every record of every exam.
    const held = new Set((await everyRecord()).map(key))
    for (const question of items) assert.ok(held.has(key(question)))
    // Accents and capitals do not change the answer, not even its bytes.
    const plain = word.normalize('NFD').replace(/\p{M}/gu, '').toUpperCase()
    assert.equal((await get(`/v1/questions?q=${encodeURIComponent(plain)}`)).body, (await get(`/v1/questions?q=${encodeURIComponent(word)}`)).body)
  })

  test('answers carry ETag (304 on a match), Cache-Control, compression, CORS and nosniff; HEAD has no body', async () => {
    const url = '/v1/questions?limit=20'
    const response = await get(url)
    assert.equal(response.headers['content-type'], 'application/json; charset=utf-8')
    assert.equal(response.headers['cache-control'], 'public, max-age=3600')
    assert.equal(response.headers['access-control-allow-origin'], '*')
    assert.equal(response.headers['x-content-type-options'], 'nosniff')
    assert.equal(response.headers.vary, 'Accept-Encoding')
    const etag = String(response.headers.etag)
    assert.match(etag, /^"[^"]+"$/)
    assert.equal((await get(url, { 'if-none-match': etag })).statusCode, 304)
    const br = await get(url, { 'accept-encoding': 'br' })
    assert.equal(br.headers['content-encoding'], 'br')
    assert.equal(brotliDecompressSync(br.rawPayload).toString(), response.body)
    const gzip = await get(url, { 'accept-encoding': 'gzip' })
    assert.equal(gunzipSync(gzip.rawPayload).toString(), response.body)
    const head = await server.request({ method: 'HEAD', url })
    assert.equal(head.statusCode, 200)
    assert.equal(head.body, '')
    assert.equal(head.headers.etag, etag)
    assert.equal((await get('/v1/questions?limit=20&cachebuster=1')).body, response.body, 'unknown parameters are ignored')
    // Answers kept by the values as sent never stand in for other parameters spelled alike.
    const year = exams[0]!.year
    const byYear = await get(`/v1/questions?year=${year}`)
    const byText = await get(`/v1/questions?q=${year}`)
    assert.notEqual(byText.body, byYear.body)
    assert.equal((await get(`/v1/questions?q=${year}`)).body, byText.body)
  })
})

describe('q and language', () => {
  test('a search with no language looks in every language\'s records; a language named keeps its view; without q, the default views', async () => {
    const records = await everyRecord()
    const defaultOf = new Map(exams.map((exam) => [`${exam.year}/${exam.application}`, exam.languages[0]?.value]))
    // A record of a language that is not its exam's default, with a phrase of three words of its own.
    const threeWords = /\p{L}{4,}[^\p{L}\p{N}]+\p{L}{4,}[^\p{L}\p{N}]+\p{L}{4,}/u
    const variant = records.find((record) => record.language !== null && record.language !== defaultOf.get(`${record.year}/${record.application}`) && threeWords.test(record.context ?? ''))
    assert.ok(variant !== undefined, 'the dataset holds a record in a language that is not its exam\'s default')
    const phrase = encodeURIComponent(`"${variant.context!.match(threeWords)![0]}"`)
    const inYear = `year=${variant.year}&application=${variant.application}`
    const found = (await walk(`q=${phrase}&${inYear}`, 50)).items
    assert.ok(found.some((record) => key(record) === key(variant)), `q finds ${key(variant)} with no language named`)
    // MCP's search_questions answers as /v1/questions does.
    const mcp = await server.request({
      method: 'POST',
      url: '/mcp',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
      payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search_questions', arguments: { q: decodeURIComponent(phrase), year: [variant.year], application: variant.application, limit: 50 } } })
    })
    const mcpText = mcp.body.startsWith('{') ? mcp.body : /^data: (.*)$/m.exec(mcp.body)![1]!
    const mcpFound = (JSON.parse(mcpText) as { result: { structuredContent: { questions: QuestionBody[] } } }).result.structuredContent.questions
    assert.ok(mcpFound.some((record) => key(record) === key(variant)), `search_questions finds ${key(variant)} with no language named: ${mcpText.slice(0, 200)}`)
    // Naming a language: that language's view only (null-language records plus its own).
    const defaultLanguage = defaultOf.get(`${variant.year}/${variant.application}`)!
    const inDefault = (await walk(`q=${phrase}&${inYear}&language=${defaultLanguage}`, 50)).items
    assert.ok(inDefault.every((record) => record.language === null || record.language === defaultLanguage))
    assert.ok((await walk(`q=${phrase}&${inYear}&language=${variant.language}`, 50)).items.some((record) => key(record) === key(variant)))
    // Without q, and for random draws with q, the absent language keeps each exam's default view.
    assert.ok((await walk(inYear, 50)).items.every((record) => record.language === null || record.language === defaultLanguage))
    for (let seed = 0; seed < 10; seed++) {
      const draw = await json<DrawBody>(`/v1/questions/random?q=${phrase}&${inYear}&count=50&seed=${seed}`)
      assert.ok(draw.questions.every((record) => record.language === null || record.language === defaultLanguage), `seed ${seed}`)
    }
  })
})

describe('GET /v1/questions/random', () => {
  test('the same seed and filters give the same questions; every one is distinct and from the filtered list', async () => {
    const discipline = exams[0]!.disciplines[0]!.value
    const listed = new Set((await walk(`discipline=${discipline}`, 50)).items.map(key))
    for (const seed of [0, 1, 42, 4294967295]) {
      const url = `/v1/questions/random?count=5&seed=${seed}&discipline=${discipline}`
      const draw = await json<DrawBody>(url)
      assert.equal(draw.seed, seed)
      assert.equal(draw.questions.length, Math.min(5, listed.size))
      assert.equal(new Set(draw.questions.map(key)).size, draw.questions.length)
      for (const question of draw.questions) assert.ok(listed.has(key(question)), key(question))
      assert.equal((await get(url)).body, JSON.stringify(draw))
      const response = await get(url)
      assert.equal(response.headers['cache-control'], 'public, max-age=3600')
      assert.equal((await get(url, { 'if-none-match': String(response.headers.etag) })).statusCode, 304)
    }
  })

  test('without a seed the server picks one, says which, and the answer is no-store; that seed replays the draw', async () => {
    const response = await get('/v1/questions/random?count=3')
    assert.equal(response.statusCode, 200)
    assert.equal(response.headers['cache-control'], 'no-store')
    const draw = response.json<DrawBody>()
    assert.ok(Number.isInteger(draw.seed) && draw.seed >= 0 && draw.seed <= 4294967295)
    assert.deepEqual((await json<DrawBody>(`/v1/questions/random?count=3&seed=${draw.seed}`)).questions.map(key), draw.questions.map(key))
  })

  test('fewer questions when fewer match; none when nothing does', async () => {
    const threeWords = /\p{L}{4,}[^\p{L}\p{N}]+\p{L}{4,}[^\p{L}\p{N}]+\p{L}{4,}/u
    const first = (await json<PageBody>('/v1/questions?limit=50')).questions.find((question) => threeWords.test(question.context ?? ''))!
    const phrase = first.context!.match(threeWords)![0]
    // A draw is among the default views (the search's list, with no language named, holds every language's records), never a record without its statement.
    const defaultViews = new Set((await walk('', 50)).items.map(key))
    const matching = (await walk(`q=${encodeURIComponent(`"${phrase}"`)}`, 50)).items.filter((question) => defaultViews.has(key(question)) && question.incomplete === null)
    const draw = await json<DrawBody>(`/v1/questions/random?count=50&seed=7&q=${encodeURIComponent(`"${phrase}"`)}`)
    assert.deepEqual(draw.questions.map(key).sort(), matching.map(key).sort())
    assert.deepEqual((await json<DrawBody>(`/v1/questions/random?count=3&seed=7&year=${exams[0]!.year}&q=zzzqqqxxx`)).questions, [])
  })
})

describe('GET /v1/export/questions.jsonl', () => {
  test('holds every record exactly as the single-question endpoint serves it, by year ascending, index, null-language first', async () => {
    const response = await get('/v1/export/questions.jsonl')
    assert.equal(response.statusCode, 200)
    assert.equal(response.headers['content-type'], 'application/x-ndjson; charset=utf-8')
    assert.equal(response.headers['content-disposition'], 'attachment; filename="enem-questions.jsonl"')
    assert.ok(response.body.endsWith('\n'))
    const lines = response.body.slice(0, -1).split('\n')
    const records = lines.map((line) => JSON.parse(line) as QuestionBody)

    // Every exam's every record, in the order of the exam detail's entries.
    const expectedKeys: string[] = []
    // Year ascending; within a year, /v1/exams lists the regular exam before the second application, as the export does.
    for (const exam of [...exams].sort((a, b) => a.year - b.year)) {
      const detail = await json<{ questions: Array<{ index: number, language: string | null }> }>(`/v1/exams/${exam.year}?application=${exam.application}`)
      const examPart = exam.application === 'regular' ? '' : `-${exam.application}`
      for (const entry of detail.questions) expectedKeys.push(`${exam.year}${examPart}/${entry.index}/${entry.language ?? '-'}`)
    }
    assert.deepEqual(records.map(key), expectedKeys)

    // Byte for byte what /v1/exams/{year}/questions/{index} answers, wherever a language reaches the record.
    let compared = 0
    for (const [i, record] of records.entries()) {
      const exam = exams.find((one) => one.year === record.year && one.application === record.application)!
      const siblings = new Set(records.filter((other) => other.year === record.year && other.application === record.application && other.index === record.index).map((other) => other.language))
      const language = record.language ?? exam.languages.map((option) => option.value).find((slug) => !siblings.has(slug))
      if (record.language === null && language === undefined && exam.languages.length > 0) continue
      const single = await get(`/v1/exams/${record.year}/questions/${record.index}?application=${record.application}${language === undefined ? '' : `&language=${language}`}`)
      assert.equal(single.statusCode, 200)
      assert.equal(single.body, lines[i], key(record))
      compared++
    }
    assert.ok(compared >= records.length * 0.95, `${compared} of ${records.length} compared`)
  })

  test('year narrows it to those exams, in the same bytes; gzip, br, ETag and 304 as everywhere', async () => {
    const whole = (await get('/v1/export/questions.jsonl')).body
    const years = [...yearsNewestFirst].sort((a, b) => a - b)
    const perYear = new Map<number, string>()
    for (const year of years) {
      const response = await get(`/v1/export/questions.jsonl?year=${year}`)
      assert.equal(response.headers['content-disposition'], `attachment; filename="enem-questions-${year}.jsonl"`)
      perYear.set(year, response.body)
      assert.ok(response.body.split('\n').slice(0, -1).every((line) => (JSON.parse(line) as QuestionBody).year === year))
    }
    assert.equal(years.map((year) => perYear.get(year)).join(''), whole)
    const pair = `${years.at(-1)},${years[0]}`
    assert.equal((await get(`/v1/export/questions.jsonl?year=${pair}`)).body, `${perYear.get(years[0]!)}${perYear.get(years.at(-1)!)}`)
    assert.equal((await get(`/v1/export/questions.jsonl?year=${years[0]}-${years.at(-1)}`)).body, whole)
    // Year combinations are many: gzip, assembled from each year's compressed part, and never br (the whole dataset and each year are both).
    const combination = await get(`/v1/export/questions.jsonl?year=${pair}`, { 'accept-encoding': 'gzip, br' })
    assert.equal(combination.headers['content-encoding'], 'gzip')
    assert.equal(gunzipSync(combination.rawPayload).toString(), `${perYear.get(years[0]!)}${perYear.get(years.at(-1)!)}`)
    assert.equal((await get(`/v1/export/questions.jsonl?year=${pair}`, { 'accept-encoding': 'br' })).headers['content-encoding'], undefined)
    assert.equal((await get(`/v1/export/questions.jsonl?year=${years[0]}`, { 'accept-encoding': 'br' })).headers['content-encoding'], 'br')

    const response = await get('/v1/export/questions.jsonl', { 'accept-encoding': 'gzip' })
    assert.equal(response.headers['content-encoding'], 'gzip')
    assert.equal(gunzipSync(response.rawPayload).toString(), whole)
    const br = await get('/v1/export/questions.jsonl', { 'accept-encoding': 'br' })
    assert.equal(brotliDecompressSync(br.rawPayload).toString(), whole)
    assert.equal((await get('/v1/export/questions.jsonl', { 'if-none-match': String(response.headers.etag) })).statusCode, 304)
  })
})

describe('errors of the new parameters (the contract\'s table)', () => {
  test('400: a value off the grammar', async () => {
    const bad = [
      'year=abc', 'year=2020-', 'year=-2020', 'year=02020', 'year=2020;2021', 'year=2020,,2021', 'year=', 'year=12345678901',
      'q=', 'hasImages=TRUE', 'hasImages=1', 'hasImages=', 'annulled=yes', 'limit=abc', 'limit=01', 'offset=1.5', 'limit=1e2',
      'language=INGLES', 'discipline=Matematica', 'language=', 'year=2020%202021'
    ]
    for (const query of bad) await assertError(`/v1/questions?${query}`, 400, 'bad_request', new RegExp(query.split('=')[0]!))
    for (const query of ['count=abc', 'count=+1', 'seed=1e2', 'seed=12345678901', 'seed=', 'count=05']) {
      await assertError(`/v1/questions/random?${query}`, 400, 'bad_request', new RegExp(query.split('=')[0]!))
    }
    for (const query of ['year=abc', 'year=2020-2021-2022']) await assertError(`/v1/export/questions.jsonl?${query}`, 400, 'bad_request', /year/)
    await assertError('/v1/questions?year=x', 400, 'bad_request', /year must be a year \(2020\), a comma-separated list/)
  })

  test('400: a known parameter given twice', async () => {
    for (const name of ['q', 'year', 'discipline', 'language', 'hasImages', 'annulled', 'limit', 'offset']) {
      await assertError(`/v1/questions?${name}=a&${name}=b`, 400, 'bad_request', new RegExp(`${name} was given 2 times`))
    }
    await assertError('/v1/questions/random?seed=1&seed=2', 400, 'bad_request', /seed was given 2 times/)
    await assertError('/v1/questions/random?count=1&count=2', 400, 'bad_request', /count was given 2 times/)
    await assertError('/v1/export/questions.jsonl?year=2020&year=2021', 400, 'bad_request', /year was given 2 times/)
  })

  test('422: out of range, unknown year, a range backwards, an unknown slug, q without a word or too long', async () => {
    const held = exams.map((exam) => exam.year)
    await assertError('/v1/questions?limit=0', 422, 'unprocessable_entity', /limit must be between 1 and 50, got 0/)
    await assertError('/v1/questions?limit=51', 422, 'unprocessable_entity', /limit must be between 1 and 50, got 51/)
    await assertError('/v1/questions?offset=-1', 422, 'unprocessable_entity', /offset must be 0 or more, got -1/)
    await assertError('/v1/questions?year=1999', 422, 'unprocessable_entity', /year 1999 .*years available/)
    await assertError(`/v1/questions?year=${held[0]},1999`, 422, 'unprocessable_entity', /year 1999/)
    await assertError('/v1/questions?year=0', 422, 'unprocessable_entity', /year 0/)
    await assertError('/v1/questions?year=2020-2011', 422, 'unprocessable_entity', /2020-2011 starts after it ends/)
    await assertError('/v1/questions?language=frances', 422, 'unprocessable_entity', /language "frances"/)
    await assertError('/v1/questions?discipline=astrologia', 422, 'unprocessable_entity', /discipline "astrologia"/)
    await assertError('/v1/questions?q=%2B%2B%2B', 422, 'unprocessable_entity', /q must hold at least one word/)
    await assertError('/v1/questions?q=%22%22', 422, 'unprocessable_entity', /q must hold at least one word/)
    await assertError(`/v1/questions?q=${'á'.repeat(201)}`, 422, 'unprocessable_entity', /q must be at most 200 characters, got 201/)
    assert.equal((await get(`/v1/questions?q=${encodeURIComponent('á'.repeat(200))}`)).statusCode, 200, '200 characters, accented, are allowed')
    await assertError('/v1/questions/random?count=0', 422, 'unprocessable_entity', /count must be between 1 and 50, got 0/)
    await assertError('/v1/questions/random?count=51', 422, 'unprocessable_entity', /count must be between 1 and 50/)
    await assertError('/v1/questions/random?seed=-1', 422, 'unprocessable_entity', /seed must be between 0 and 4294967295, got -1/)
    await assertError('/v1/questions/random?seed=4294967296', 422, 'unprocessable_entity', /seed must be between 0 and 4294967295/)
    await assertError('/v1/questions/random?language=frances', 422, 'unprocessable_entity', /frances/)
    await assertError('/v1/export/questions.jsonl?year=1999', 422, 'unprocessable_entity', /year 1999/)
    await assertError('/v1/export/questions.jsonl?year=2023-2009', 422, 'unprocessable_entity', /starts after it ends/)
    // A range may reach past the years held; it selects those it covers.
    assert.equal((await get(`/v1/questions?year=1900-${held[0]}`)).statusCode, 200)
  })

  test('checks run in the table\'s order: a grammar error wins over an unknown year', async () => {
    await assertError('/v1/questions?year=1999&limit=abc', 400, 'bad_request')
    await assertError('/v1/questions/random?year=1999&seed=x', 400, 'bad_request')
    await assertError('/v1/questions?language=frances&limit=0', 422, 'unprocessable_entity', /limit/)
  })

  test('a trailing slash names the same resource; HEAD answers like GET without a body; preflight is 204', async () => {
    for (const url of ['/v1/questions?limit=3', '/v1/questions/random?seed=5', '/v1/export/questions.jsonl']) {
      const slashed = url.replace('?', '/?').replace(/jsonl$/, 'jsonl/')
      assert.equal((await get(slashed)).body, (await get(url)).body, slashed)
      const head = await server.request({ method: 'HEAD', url })
      const full = await get(url)
      assert.equal(head.statusCode, 200)
      assert.equal(head.body, '')
      for (const name of ['etag', 'content-type', 'cache-control', 'content-disposition']) assert.equal(head.headers[name], full.headers[name], `${url} ${name}`)
      const preflight = await server.request({ method: 'OPTIONS', url, headers: { origin: 'https://example.org', 'access-control-request-method': 'GET' } })
      assert.equal(preflight.statusCode, 204)
    }
  })

  test('405 for another method, with Allow', async () => {
    for (const url of ['/v1/questions', '/v1/questions/random', '/v1/export/questions.jsonl']) {
      const response = await server.request({ method: 'DELETE', url })
      assert.equal(response.statusCode, 405, url)
      assert.equal(response.headers.allow, 'GET, HEAD, OPTIONS')
    }
  })
})

test('2,000 seeded hostile query strings: always 200, 400 or 422 with the error body, never a 500', async () => {
  // A fixed linear congruential sequence: every run sends the same requests.
  let state = 20_261_123
  const next = (bound: number) => {
    state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0
    return state % bound
  }
  const values = ['', '0', '-1', '1', '50', '51', '2020', '1999', '2015-2020', '2020-2015', '2020,', ',', '-', '--', '1e2', '01', 'true', 'false',
    'TRUE', 'ingles', 'matematica', '%22', '%22%22', '%00', '%FF', '%E2%80%AE', 'a%20b', '%2B%2B%2B', 'fotoss%C3%ADntese', '%22efeito%20estufa%22',
    'x'.repeat(300), '%C3%A1'.repeat(201), '9'.repeat(11), '4294967296', '4294967295', '%5B%5D', '__proto__', 'constructor']
  const names = ['q', 'year', 'discipline', 'language', 'hasImages', 'annulled', 'limit', 'offset', 'count', 'seed', '__proto__', 'q[]']
  const paths = ['/v1/questions', '/v1/questions/random', '/v1/export/questions.jsonl']
  const seen = new Map<number, number>()
  for (let i = 0; i < 2000; i++) {
    const parameters = Array.from({ length: 1 + next(4) }, () => `${names[next(names.length)]}=${values[next(values.length)]}`)
    const url = `${paths[next(paths.length)]}?${parameters.join('&')}`
    const response = await get(url)
    seen.set(response.statusCode, (seen.get(response.statusCode) ?? 0) + 1)
    assert.ok([200, 400, 422].includes(response.statusCode), `${url}: ${response.statusCode} ${response.body.slice(0, 200)}`)
    if (response.statusCode !== 200) {
      const body = response.json<ErrorResponseBody>()
      assert.ok(body.error.message.length > 0 && body.error.message.length < 400, url)
    }
  }
  for (const status of [200, 400, 422]) assert.ok((seen.get(status) ?? 0) > 50, `status ${status} seen ${seen.get(status) ?? 0} times`)
})

test('the new endpoints count against the rate limit, the export once per download', async (t) => {
  const limited = await build(t, { RATE_LIMIT_MAX: '3', RATE_LIMIT_WINDOW: '1m' })
  const urls = ['/v1/questions?q=agua', '/v1/questions/random', '/v1/export/questions.jsonl']
  for (const [i, url] of urls.entries()) {
    const response = await limited.request(url)
    assert.equal(response.statusCode, 200, url)
    assert.equal(response.headers['ratelimit-limit'], '3')
    assert.equal(response.headers['ratelimit-remaining'], String(2 - i))
  }
  const refused = await limited.request('/v1/questions')
  assert.equal(refused.statusCode, 429)
  assert.match(String(refused.headers['retry-after']), /^\d+$/)
})

describe('application on the endpoints that find questions', () => {
  const applications = [...new Set(exams.map((exam) => exam.application))]

  test('/v1/questions: each application lists its exams\' views, in listing order; both, or none given, list every exam', async () => {
    const all = (await walk('', 50)).items.map(key)
    assert.deepEqual((await walk('application=regular,ppl', 50)).items.map(key), all)
    assert.deepEqual((await walk('application=ppl,regular', 50)).items.map(key), all)
    for (const application of ['regular', 'ppl']) {
      const expected: QuestionBody[] = []
      for (const year of yearsNewestFirst) expected.push(...await examView(year, undefined, undefined, [application]))
      const { items } = await walk(`application=${application}`, 50)
      assert.deepEqual(items.map(key), expected.map(key), application)
      assert.ok(items.every((question) => question.application === application))
      // An application no exam has selects nothing: the list is empty, not an error.
      assert.equal(items.length > 0, applications.includes(application), application)
    }
  })

  test('/v1/questions/random draws from the application asked for only', async () => {
    for (const application of applications) {
      const draw = await json<DrawBody>(`/v1/questions/random?application=${application}&count=50&seed=7`)
      assert.ok(draw.questions.length > 0)
      assert.ok(draw.questions.every((question) => question.application === application), application)
    }
  })

  test('the export: application narrows it to those exams, named in the file name when it narrows', async () => {
    const whole = (await get('/v1/export/questions.jsonl')).body
    assert.equal((await get('/v1/export/questions.jsonl?application=regular,ppl')).body, whole)
    const lines = (body: string) => body.split('\n').slice(0, -1).map((line) => JSON.parse(line) as QuestionBody)
    for (const application of ['regular', 'ppl']) {
      const response = await get(`/v1/export/questions.jsonl?application=${application}`)
      assert.equal(response.statusCode, 200)
      const records = lines(response.body)
      assert.deepEqual(records.map(key), lines(whole).filter((record) => record.application === application).map(key))
      const name = records.length === 0 ? `enem-questions-${application}-empty.jsonl` : applications.length === 1 ? 'enem-questions.jsonl' : `enem-questions-${application}.jsonl`
      assert.equal(response.headers['content-disposition'], `attachment; filename="${name}"`)
    }
    const ppl = exams.find((exam) => exam.application === 'ppl')
    if (ppl !== undefined) {
      const response = await get(`/v1/export/questions.jsonl?year=${ppl.year}&application=ppl`)
      assert.equal(response.headers['content-disposition'], `attachment; filename="enem-questions-${ppl.year}-ppl.jsonl"`)
      assert.ok(lines(response.body).every((record) => record.year === ppl.year && record.application === 'ppl'))
      // Every exam of one year is kept and compressed like a year alone.
      assert.equal((await get(`/v1/export/questions.jsonl?year=${ppl.year}`, { 'accept-encoding': 'br' })).headers['content-encoding'], 'br')
    }
  })

  test('an export that selects no exam is an empty download, not an error, named by what was asked and "empty" (it was enem-questions-none.jsonl whatever was asked)', async () => {
    // A range of years before any exam, a year without the application asked, and (on a dataset without one) an application no exam has.
    const before = Math.min(...yearsNewestFirst) - 10
    const cases: Array<[string, string]> = [[`year=${before}-${before + 5}`, `enem-questions-${before}_${before + 5}-empty.jsonl`]]
    const regularOnly = exams.find((exam) => exam.application === 'regular' && !exams.some((other) => other.year === exam.year && other.application === 'ppl'))
    if (regularOnly !== undefined) cases.push([`year=${regularOnly.year}&application=ppl`, `enem-questions-${regularOnly.year}-ppl-empty.jsonl`])
    for (const missing of ['regular', 'ppl'].filter((one) => !applications.includes(one))) cases.push([`application=${missing}`, `enem-questions-${missing}-empty.jsonl`])
    for (const [query, name] of cases) {
      const response = await get(`/v1/export/questions.jsonl?${query}`, { 'accept-encoding': 'gzip, br' })
      assert.equal(response.statusCode, 200, query)
      assert.equal(response.body, '', query)
      assert.equal(response.headers['content-disposition'], `attachment; filename="${name}"`, query)
    }
  })

  test('a value off the grammar is 400 naming application, on all three', async () => {
    for (const path of ['/v1/questions', '/v1/questions/random', '/v1/export/questions.jsonl']) {
      for (const value of ['PPL', 'regular,', 'second', 'regular;ppl']) {
        await assertError(`${path}?application=${encodeURIComponent(value)}`, 400, 'bad_request', /application/)
      }
    }
  })
})
