import { after, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { loadConfig } from '../../src/config.ts'
import { loadDataset } from '../../src/data/dataset/load-dataset.ts'
import { ERROR_CODES, type ErrorStatus } from '../../src/http/errors.ts'
import { getChecked, loadContract, type Contract } from '../contract.ts'
import { build, FULL_DATA_DIR, TEST_PUBLIC_URL, type SendRequest } from '../helper.ts'

/*
 * Every answer these requests get, success or error, must be one the OpenAPI document describes
 * for that operation and status: the body valid against its schema, the required headers there.
 */

interface ExamSummaryBody { year: number, languages: Array<{ value: string }>, disciplines: Array<{ value: string }> }
interface PageBody { metadata: { total: number, hasMore: boolean }, questions: unknown[] }

const server = await build({ after })
const contract: Contract = await loadContract(server.request)

/** Requests one URL, asserts the status and that the answer conforms to the document; returns the answer. */
async function expectConforming (url: string, status: number, headers: Record<string, string> = {}, on: SendRequest = server.request, oracle: Contract = contract) {
  const { response, problems } = await getChecked(on, oracle, url, headers)
  assert.equal(response.statusCode, status, `${url}: ${response.body.slice(0, 300)}`)
  assert.deepEqual(problems, [], url)
  if (status >= 400) {
    // The document allows any code in an error body; the contract ties each status to one.
    assert.equal(response.json<{ error: { code: string } }>().error.code, ERROR_CODES[status as ErrorStatus], url)
  }
  return response
}

describe('answers on the sample dataset conform to the OpenAPI document', () => {
  test('GET /exams: the list, with a trailing slash, a cache-buster, and as a 304', async () => {
    const list = await expectConforming('/v1/exams', 200)
    await expectConforming('/v1/exams/', 200)
    await expectConforming('/v1/exams?_=123', 200)
    await expectConforming('/v1/exams', 304, { 'if-none-match': String(list.headers.etag) })
    await expectConforming('/v1/exams', 200, { 'accept-encoding': 'identity' })
  })

  test('GET /exams/{year}: every exam, and each error class', async () => {
    for (const exam of (await server.request('/v1/exams')).json<ExamSummaryBody[]>()) {
      const detail = await expectConforming(`/v1/exams/${exam.year}`, 200)
      await expectConforming(`/v1/exams/${exam.year}`, 304, { 'if-none-match': String(detail.headers.etag) })
    }
    for (const year of ['abc', '01', '1e2', '+1', '12345678901', '%20']) await expectConforming(`/v1/exams/${year}`, 400)
    for (const year of ['0', '-1']) await expectConforming(`/v1/exams/${year}`, 422)
    await expectConforming('/v1/exams/1999', 404)
  })

  test('GET /exams/{year}/questions: every page of every view, and each error class', async () => {
    let questions = 0
    for (const exam of (await server.request('/v1/exams')).json<ExamSummaryBody[]>()) {
      const languages = exam.languages.length === 0 ? [undefined] : exam.languages.map((option) => option.value)
      for (const language of languages) {
        for (const discipline of [undefined, ...exam.disciplines.map((option) => option.value)]) {
          const query = [language === undefined ? '' : `&language=${language}`, discipline === undefined ? '' : `&discipline=${discipline}`].join('')
          for (let offset = 0; ; offset += 7) {
            const page = (await expectConforming(`/v1/exams/${exam.year}/questions?limit=7&offset=${offset}${query}`, 200)).json<PageBody>()
            if (discipline === undefined) questions += page.questions.length
            if (!page.metadata.hasMore) break
          }
        }
      }
    }
    assert.ok(questions >= 50, `${questions} questions walked`)
    await expectConforming('/v1/exams/2020/questions', 200)
    await expectConforming('/v1/exams/2020/questions?offset=1000', 200)
    await expectConforming('/v1/exams/2020/questions?limit=50&offset=0', 200)
    const page = await expectConforming('/v1/exams/2020/questions?limit=3', 200)
    await expectConforming('/v1/exams/2020/questions?limit=3', 304, { 'if-none-match': String(page.headers.etag) })
    for (const query of ['limit=abc', 'limit=', 'offset=1.5', 'limit=1&limit=2', 'language=INGLES', 'discipline=a--b', 'offset=%2B1']) {
      await expectConforming(`/v1/exams/2020/questions?${query}`, 400)
    }
    for (const query of ['limit=0', 'limit=51', 'offset=-1', 'language=frances', 'discipline=filosofia']) {
      await expectConforming(`/v1/exams/2020/questions?${query}`, 422)
    }
    await expectConforming('/v1/exams/2011/questions?language=ingles', 422)
    await expectConforming('/v1/exams/0/questions', 422)
    await expectConforming('/v1/exams/1999/questions', 404)
    await expectConforming('/v1/exams/x/questions', 400)
  })

  test('GET /exams/{year}/questions/{index}: every question in every language, and each error class', async () => {
    let questions = 0
    for (const exam of (await server.request('/v1/exams')).json<ExamSummaryBody[]>()) {
      const detail = (await server.request(`/v1/exams/${exam.year}`)).json<{ questions: Array<{ index: number, language: string | null }> }>()
      for (const entry of detail.questions) {
        const query = entry.language === null ? '' : `?language=${entry.language}`
        await expectConforming(`/v1/exams/${exam.year}/questions/${entry.index}${query}`, 200)
        questions++
      }
    }
    assert.ok(questions >= 50, `${questions} questions fetched`)
    const question = await expectConforming('/v1/exams/2020/questions/1', 200)
    await expectConforming('/v1/exams/2020/questions/1', 304, { 'if-none-match': String(question.headers.etag) })
    for (const url of ['/v1/exams/2020/questions/abc', '/v1/exams/2020/questions/01', '/v1/exams/2020/questions/1?language=Ingles', '/v1/exams/2020/questions/1?language=a&language=b']) {
      await expectConforming(url, 400)
    }
    for (const url of ['/v1/exams/2020/questions/0', '/v1/exams/2020/questions/1?language=frances', '/v1/exams/2011/questions/1?language=ingles']) {
      await expectConforming(url, 422)
    }
    await expectConforming('/v1/exams/2020/questions/999', 404)
    await expectConforming('/v1/exams/1999/questions/1', 404)
    // A gap in the numbering of the exam's questions.
    await expectConforming('/v1/exams/2011/questions/7', 404)
  })

  test('a malformed path under an operation is a 400 the document describes', async () => {
    await expectConforming('/v1/exams/%E0%A4%A', 400)
    await expectConforming('/v1/exams/2020/questions/%00', 400)
  })
})

test('the oracle itself refuses what the document does not describe', async () => {
  const question = await server.request('/v1/exams/2020/questions/1')
  const observed = { method: 'GET', url: '/v1/exams/2020/questions/1', status: 200, headers: question.headers, body: question.body }
  assert.deepEqual(contract.problems(observed), [])
  const wrongLetter = JSON.stringify({ ...question.json<object>(), correctAlternative: 'F' })
  assert.match(contract.problems({ ...observed, body: wrongLetter }).join('\n'), /correctAlternative/)
  const { etag: _etag, ...withoutEtag } = question.headers
  assert.match(contract.problems({ ...observed, headers: withoutEtag }).join('\n'), /required header ETag is missing/)
  assert.match(contract.problems({ ...observed, status: 418 }).join('\n'), /documents no 418 answer/)
  assert.match(contract.problems({ ...observed, status: 304 }).join('\n'), /no body/)
  assert.match(contract.problems({ ...observed, url: '/v1/exams/2020/answers' }).join('\n'), /no such operation/)
  assert.match(contract.problems({ ...observed, method: 'POST' }).join('\n'), /no such operation/)
  const error = await server.request('/v1/exams/1999')
  const errorObserved = { method: 'GET', url: '/v1/exams/1999', status: 404, headers: error.headers, body: error.body }
  assert.deepEqual(contract.problems(errorObserved), [])
  assert.match(contract.problems({ ...errorObserved, body: '{"error":{"code":"oops","message":"m","docUrl":"u"}}' }).join('\n'), /code/)
  assert.match(contract.problems({ ...errorObserved, headers: { ...error.headers, 'cache-control': 'public' } }).join('\n'), /Cache-Control/)
})

test('429 answers, and the RateLimit headers on every counted answer, conform to the document', async (t) => {
  const limited = await build(t, { RATE_LIMIT_MAX: '3', RATE_LIMIT_WINDOW: '1m' })
  const limitedContract = await loadContract(limited.request)
  const urls = ['/v1/exams', '/v1/exams/2020', '/v1/exams/1999']
  for (const [position, url] of urls.entries()) {
    const response = await expectConforming(url, position < 2 ? 200 : 404, {}, limited.request, limitedContract)
    assert.equal(response.headers['ratelimit-remaining'], String(2 - position), 'the document\'s headers are really sent')
  }
  const refused = await expectConforming('/v1/exams/2020/questions', 429, {}, limited.request, limitedContract)
  assert.match(String(refused.headers['retry-after']), /^\d+$/)
})

test('500 answers conform to the document and say nothing of the failure', async (t) => {
  // A dataset whose lookups fail unexpectedly: every operation that reaches one must answer the
  // contract's 500. Loaded apart from the shared test dataset, which stays untouched.
  const config = loadConfig({ PUBLIC_URL: TEST_PUBLIC_URL })
  const dataset = await loadDataset(config.dataDirs, { filesBaseUrl: `${config.publicUrl}/files` })
  const broken = await build(t, {}, { dataset })
  const fail = () => { throw new Error('simulated failure in /secret/path') }
  Object.assign(dataset.catalog!, { getExam: fail, languageView: fail, findQuestion: fail })
  const brokenContract = await loadContract(broken.request)
  for (const url of ['/v1/exams/2020', '/v1/exams/2020/questions', '/v1/exams/2020/questions/1']) {
    const response = await expectConforming(url, 500, {}, broken.request, brokenContract)
    assert.ok(!response.body.includes('secret'), url)
  }
})

test('every question record of the full dataset conforms to the document (every view walked, limit=50)', { skip: FULL_DATA_DIR === undefined && 'ENEM_DATA_DIR is not set' }, async (t) => {
  const full = await build(t, { ENEM_DATA_DIR: FULL_DATA_DIR! })
  const fullContract = await loadContract(full.request)
  const exams = (await expectConforming('/v1/exams', 200, {}, full.request, fullContract)).json<ExamSummaryBody[]>()
  assert.ok(exams.length >= 15)
  let records = 0
  for (const exam of exams) {
    await expectConforming(`/v1/exams/${exam.year}`, 200, {}, full.request, fullContract)
    const languages = exam.languages.length === 0 ? [undefined] : exam.languages.map((option) => option.value)
    for (const language of languages) {
      let walked = 0
      let total = 0
      for (let offset = 0; ; offset += 50) {
        const url = `/v1/exams/${exam.year}/questions?limit=50&offset=${offset}${language === undefined ? '' : `&language=${language}`}`
        const page = (await expectConforming(url, 200, {}, full.request, fullContract)).json<PageBody>()
        walked += page.questions.length
        total = page.metadata.total
        if (!page.metadata.hasMore) break
      }
      assert.equal(walked, total, `${exam.year} ${language ?? ''}`)
      records += walked
    }
  }
  assert.ok(records >= 2500, `${records} records validated`)
})
