import { after, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import type { Question } from '../../src/data/record-schemas.ts'
import { build, requestPaths, TEST_PUBLIC_URL, type ErrorResponseBody, type SendRequest } from '../helper.ts'

/** A question record as served: the record schema's own type. */
type QuestionBody = Question
interface PageBody {
  metadata: { limit: number, offset: number, total: number, hasMore: boolean }
  questions: QuestionBody[]
}

/*
 * One case table, run on both request paths of the server (the way one router test suite runs
 * against every router): through the front door, where the fast path answers first, and through
 * Fastify alone. A behaviour that holds on one path only fails here.
 */
const server = await build({ after })

for (const [pathName, send] of requestPaths(server)) {
  describe(`exam endpoints ${pathName}`, () => {
    endpointCases(send)
  })
}

function endpointCases (send: SendRequest): void {
  async function get (url: string) {
    return send({ method: 'GET', url })
  }

  async function assertError (url: string, status: number, code: string, messagePart?: RegExp) {
    const response = await get(url)
    assert.equal(response.statusCode, status, `${url}: ${response.body}`)
    assert.match(String(response.headers['content-type']), /^application\/json; charset=utf-8/)
    const body = response.json<ErrorResponseBody>()
    assert.deepEqual(Object.keys(body), ['error'])
    assert.equal(body.error.code, code, url)
    assert.equal(typeof body.error.message, 'string')
    assert.ok(body.error.message.length > 0)
    assert.equal(body.error.docUrl, `${TEST_PUBLIC_URL}/docs#errors-${code.replaceAll('_', '-')}`)
    if (messagePart !== undefined) assert.match(body.error.message, messagePart)
    return body
  }

  describe('GET /v1/exams', () => {
    test('lists every exam newest first with the summary fields only', async () => {
      const response = await get('/v1/exams')
      assert.equal(response.statusCode, 200)
      assert.equal(response.headers['content-type'], 'application/json; charset=utf-8')
      const exams = response.json<Array<Record<string, unknown>>>()
      // Within a year, the regular exam before the second application.
      assert.deepEqual(exams.map((exam) => [exam.year, exam.application]), [[2023, 'regular'], [2020, 'regular'], [2020, 'ppl'], [2016, 'regular'], [2011, 'regular']])
      for (const exam of exams) assert.deepEqual(Object.keys(exam), ['title', 'year', 'application', 'disciplines', 'languages'])
      assert.equal(exams[0]!.title, 'ENEM 2023')
      assert.deepEqual(exams.at(-1)!.languages, [])
    })

    test('keeps accents intact in UTF-8', async () => {
      const response = await get('/v1/exams')
      assert.ok(response.rawPayload.includes(Buffer.from('Ciências Humanas e suas Tecnologias', 'utf8')))
    })

    test('a trailing slash names the same resource', async () => {
      assert.equal((await get('/v1/exams/')).body, (await get('/v1/exams')).body)
    })

    test('paths are case-sensitive', async () => {
      await assertError('/v1/EXAMS', 404, 'not_found')
    })
  })

  describe('GET /v1/exams/{year}', () => {
    test('returns the summary plus every question entry, by index then language order', async () => {
      const response = await get('/v1/exams/2020')
      assert.equal(response.statusCode, 200)
      const exam = response.json<{ title: string, year: number, questions: Array<{ index: number, language: string | null, title: string, discipline: string | null }> }>()
      assert.equal(exam.year, 2020)
      assert.equal(exam.questions.length, 26)
      assert.deepEqual(Object.keys(exam.questions[0]!), ['title', 'index', 'discipline', 'language', 'incomplete'])
      assert.deepEqual(exam.questions.slice(0, 3).map((q) => [q.index, q.language]), [[1, 'espanhol'], [1, 'ingles'], [2, 'espanhol']])
      // Index 5 has a mislabelled null-language record: it comes before the variants.
      assert.deepEqual(exam.questions.filter((q) => q.index === 5).map((q) => q.language), [null, 'espanhol', 'ingles'])
    })

    test('orders variants by the exam\'s languages array, not by details.json', async () => {
      const exam = (await get('/v1/exams/2023')).json<{ questions: Array<{ index: number, language: string | null }> }>()
      assert.deepEqual(exam.questions.filter((q) => q.index === 1).map((q) => q.language), ['ingles', 'espanhol'])
    })

    test('unknown year is 404 and says which years exist', async () => {
      await assertError('/v1/exams/1999', 404, 'not_found', /1999.*2011, 2016, 2020, 2023/)
    })

    for (const year of ['0', '-1', '-2020']) {
      test(`year ${year} is out of range: 422`, async () => {
        await assertError(`/v1/exams/${year}`, 422, 'unprocessable_entity', new RegExp(`year must be at least 1, got ${year}`))
      })
    }

    for (const year of ['abc', '1.5', '1e2', '+1', '02020', '01', '%201', '12345678901', '2020abc', '-0x1']) {
      test(`year ${JSON.stringify(year)} breaks the grammar: 400`, async () => {
        await assertError(`/v1/exams/${year}`, 400, 'bad_request', /year/)
      })
    }
  })

  describe('application: which exam of the year', () => {
    interface ExamListEntry { title: string, year: number, application: string }
    interface ExamBody extends ExamListEntry { questions: Array<{ index: number, language: string | null }> }
    const examList = async () => (await get('/v1/exams')).json<ExamListEntry[]>()
    /** A year the sample has both applications of, and one it has only the regular exam of, read from the list. */
    async function years () {
      const exams = await examList()
      const both = exams.find((exam) => exam.application === 'ppl')!.year
      const regularOnly = exams.find((exam) => !exams.some((other) => other.year === exam.year && other.application === 'ppl'))!.year
      return { both, regularOnly, exams }
    }

    test('absent, it is regular: every exam endpoint answers byte for byte as with application=regular', async () => {
      const { both } = await years()
      for (const path of [`/v1/exams/${both}`, `/v1/exams/${both}/questions?limit=50`, `/v1/exams/${both}/questions/1`, `/v1/exams/${both}/questions/6`]) {
        const plain = await get(path)
        const explicit = await get(`${path}${path.includes('?') ? '&' : '?'}application=regular`)
        assert.equal(plain.statusCode, 200, path)
        assert.ok(plain.rawPayload.equals(explicit.rawPayload), path)
        assert.equal(plain.headers.etag, explicit.headers.etag, path)
      }
    })

    test('ppl answers the second application: its summary as /v1/exams lists it, its entries, its records', async () => {
      const { both, exams } = await years()
      const listed = exams.find((exam) => exam.year === both && exam.application === 'ppl')!
      const response = await get(`/v1/exams/${both}?application=ppl`)
      assert.equal(response.statusCode, 200)
      const exam = response.json<ExamBody>()
      const { questions, ...summary } = exam
      assert.deepEqual(summary, listed)
      assert.ok(questions.length > 0)
      const regular = (await get(`/v1/exams/${both}`)).json<ExamBody>()
      assert.notEqual(regular.title, exam.title)

      const page = (await get(`/v1/exams/${both}/questions?application=ppl&limit=50`)).json<PageBody>()
      assert.ok(page.questions.length > 0)
      assert.ok(page.questions.every((question) => question.application === 'ppl' && question.year === both && question.title.endsWith(exam.title)))
      for (const entry of page.questions) {
        const record = await get(`/v1/exams/${both}/questions/${entry.index}?application=ppl${entry.language === null ? '' : `&language=${entry.language}`}`)
        assert.deepEqual(record.json<QuestionBody>(), entry)
      }
      // Every record of the regular exam says so too.
      const regularPage = (await get(`/v1/exams/${both}/questions?limit=50`)).json<PageBody>()
      assert.ok(regularPage.questions.every((question) => question.application === 'regular'))
    })

    test('a year without an exam of that application is 422 naming the applications it has', async () => {
      const { regularOnly } = await years()
      for (const path of [`/v1/exams/${regularOnly}`, `/v1/exams/${regularOnly}/questions`, `/v1/exams/${regularOnly}/questions/1`]) {
        await assertError(`${path}?application=ppl`, 422, 'unprocessable_entity', new RegExp(`application "ppl" is not an exam of ${regularOnly}: its applications are regular$`))
      }
    })

    test('a year without any exam stays 404, whatever the application', async () => {
      await assertError('/v1/exams/1999?application=ppl', 404, 'not_found', /1999/)
    })

    for (const value of ['PPL', 'second', 'regular,ppl', '']) {
      test(`application=${JSON.stringify(value)} breaks the grammar: 400`, async () => {
        const { both } = await years()
        await assertError(`/v1/exams/${both}/questions/1?application=${encodeURIComponent(value)}`, 400, 'bad_request', /application/)
      })
    }
  })

  describe('GET /v1/exams/{year}/questions', () => {
    test('defaults: limit 10, offset 0, the first language of the exam', async () => {
      const page = (await get('/v1/exams/2020/questions')).json<PageBody>()
      assert.deepEqual(page.metadata, { limit: 10, offset: 0, total: 21, hasMore: true })
      assert.equal(page.questions.length, 10)
      assert.ok(page.questions.every((q) => q.language === null || q.language === 'espanhol'))
      const page2023 = (await get('/v1/exams/2023/questions?limit=5')).json<PageBody>()
      assert.deepEqual(page2023.questions.map((q) => q.language), ['ingles', 'ingles', 'ingles', 'ingles', 'ingles'])
    })

    test('the language view holds the null-language record before the variant on the same index', async () => {
      const page = (await get('/v1/exams/2020/questions?limit=7')).json<PageBody>()
      assert.deepEqual(page.questions.map((q) => [q.index, q.language]),
        [[1, 'espanhol'], [2, 'espanhol'], [3, 'espanhol'], [4, 'espanhol'], [5, null], [5, 'espanhol'], [6, null]])
    })

    test('walking the pages returns the view exactly once each, in index order, with hasMore false only at the end', async () => {
      for (const limit of [1, 3, 7, 10, 50]) {
        const seen: Array<[number, string | null]> = []
        let offset = 0
        for (;;) {
          const page = (await get(`/v1/exams/2020/questions?limit=${limit}&offset=${offset}&language=ingles`)).json<PageBody>()
          assert.ok(page.questions.length <= limit)
          assert.equal(page.metadata.total, 21)
          seen.push(...page.questions.map((q): [number, string | null] => [q.index, q.language]))
          offset += page.questions.length
          assert.equal(page.metadata.hasMore, offset < 21)
          if (!page.metadata.hasMore) break
        }
        assert.equal(seen.length, 21, `limit ${limit}`)
        assert.equal(new Set(seen.map(String)).size, 21)
        const indexes = seen.map(([index]) => index)
        assert.deepEqual(indexes, [...indexes].sort((a, b) => a - b))
      }
    })

    test('an exam with no languages has only its null-language questions', async () => {
      const page = (await get('/v1/exams/2011/questions?limit=50')).json<PageBody>()
      assert.equal(page.metadata.total, 11)
      assert.deepEqual(page.questions.map((q) => q.index), [1, 2, 3, 4, 5, 6, 8, 9, 10, 11, 12])
    })

    test('discipline narrows the view', async () => {
      const page = (await get('/v1/exams/2020/questions?discipline=matematica&limit=50')).json<PageBody>()
      assert.deepEqual(page.questions.map((q) => q.index), [19, 20])
      assert.equal(page.metadata.total, 2)
      assert.equal(page.metadata.hasMore, false)
    })

    test('an offset at or past the end is an empty last page', async () => {
      for (const offset of [21, 22, 9999999999]) {
        const response = await get(`/v1/exams/2020/questions?offset=${offset}`)
        assert.equal(response.statusCode, 200)
        assert.deepEqual(response.json(), { metadata: { limit: 10, offset, total: 21, hasMore: false }, questions: [] })
      }
    })

    test('unknown query parameters are ignored', async () => {
      assert.equal((await get('/v1/exams/2020/questions?_=12345&foo=bar&foo=baz')).body, (await get('/v1/exams/2020/questions')).body)
    })

    test('limit out of range is 422 and names the value', async () => {
      await assertError('/v1/exams/2020/questions?limit=0', 422, 'unprocessable_entity', /limit must be between 1 and 50, got 0/)
      await assertError('/v1/exams/2020/questions?limit=51', 422, 'unprocessable_entity', /got 51/)
      await assertError('/v1/exams/2020/questions?limit=-3', 422, 'unprocessable_entity', /got -3/)
      await assertError('/v1/exams/2020/questions?offset=-1', 422, 'unprocessable_entity', /offset must be 0 or more, got -1/)
    })

    for (const query of ['limit=abc', 'limit=', 'limit=1.5', 'limit=1e2', 'limit=%2B1', 'limit=01', 'offset=%201', 'offset=12345678901',
      'language=INGLES', 'language=', 'language=ingl%C3%AAs', 'discipline=Matematica', `language=${'a'.repeat(41)}`]) {
      test(`${query} breaks the grammar: 400`, async () => {
        await assertError(`/v1/exams/2020/questions?${query}`, 400, 'bad_request', new RegExp(query.split('=')[0]!))
      })
    }

    test('a known parameter given twice is 400', async () => {
      await assertError('/v1/exams/2020/questions?limit=1&limit=2', 400, 'bad_request', /limit was given 2 times/)
      await assertError('/v1/exams/2020/questions?language=ingles&language=ingles', 400, 'bad_request', /language/)
    })

    test('a language or discipline the exam does not offer is 422', async () => {
      await assertError('/v1/exams/2020/questions?language=frances', 422, 'unprocessable_entity', /frances.*espanhol, ingles/)
      await assertError('/v1/exams/2011/questions?language=ingles', 422, 'unprocessable_entity', /no foreign-language/)
      await assertError('/v1/exams/2020/questions?discipline=filosofia', 422, 'unprocessable_entity', /filosofia/)
    })

    test('checks run in the table\'s order: grammar before range before existence', async () => {
      await assertError('/v1/exams/1999/questions?limit=abc', 400, 'bad_request')
      await assertError('/v1/exams/1999/questions?limit=0', 422, 'unprocessable_entity')
      await assertError('/v1/exams/1999/questions', 404, 'not_found')
    })
  })

  describe('GET /v1/exams/{year}/questions/{index}', () => {
    test('returns the full record, unwrapped, in the default language', async () => {
      const response = await get('/v1/exams/2020/questions/1')
      assert.equal(response.statusCode, 200)
      const question = response.json<QuestionBody>()
      assert.deepEqual(Object.keys(question), ['title', 'index', 'discipline', 'language', 'year', 'application', 'context', 'files',
        'correctAlternative', 'alternativesIntroduction', 'alternatives', 'inep', 'incomplete'])
      assert.equal(question.application, 'regular')
      assert.equal(question.language, 'espanhol')
      assert.equal(question.title, 'Questão 1 - ENEM 2020')
    })

    test('language picks the variant', async () => {
      const question = (await get('/v1/exams/2020/questions/1?language=ingles')).json<QuestionBody>()
      assert.equal(question.language, 'ingles')
    })

    test('on an index with a null-language record and a variant, the variant in the chosen language wins', async () => {
      assert.equal((await get('/v1/exams/2020/questions/5')).json<QuestionBody>().language, 'espanhol')
      assert.equal((await get('/v1/exams/2020/questions/5?language=ingles')).json<QuestionBody>().language, 'ingles')
    })

    test('file addresses are rewritten to /files under PUBLIC_URL, in files, context and alternatives', async () => {
      const withImage = (await get('/v1/exams/2020/questions/12')).json<QuestionBody>()
      assert.equal(withImage.files.length, 2)
      for (const address of withImage.files) {
        assert.ok(address.startsWith(`${TEST_PUBLIC_URL}/files/2020/questions/12/`), address)
        assert.ok(withImage.context?.includes(`](${address})`))
      }
      const onlyFiles = (await get('/v1/exams/2011/questions/11')).json<QuestionBody>()
      for (const alternative of onlyFiles.alternatives) {
        assert.equal(alternative.text, null)
        assert.ok(alternative.file?.startsWith(`${TEST_PUBLIC_URL}/files/2011/questions/11/`))
      }
      assert.ok(!JSON.stringify(withImage).includes('enem.dev'))
    })

    test('unknown index is 404', async () => {
      await assertError('/v1/exams/2011/questions/7', 404, 'not_found', /no question 7/)
      await assertError('/v1/exams/2020/questions/181', 404, 'not_found')
    })

    test('index 0 or negative is 422; a malformed index is 400', async () => {
      await assertError('/v1/exams/2020/questions/0', 422, 'unprocessable_entity', /index must be at least 1, got 0/)
      await assertError('/v1/exams/2020/questions/-5', 422, 'unprocessable_entity')
      await assertError('/v1/exams/2020/questions/01', 400, 'bad_request', /index/)
      await assertError('/v1/exams/2020/questions/one', 400, 'bad_request', /index/)
    })

    test('language the exam does not offer is 422', async () => {
      await assertError('/v1/exams/2020/questions/1?language=frances', 422, 'unprocessable_entity')
    })
  })

  describe('paths, methods and framing', () => {
    test('unknown paths are 404 with the error body', async () => {
      for (const url of ['/v1/nothing', '/v2/exams', '/v1/exams/2020/questions/1/extra', '/nothing']) {
        await assertError(url, 404, 'not_found')
      }
    })

    // Dot segments are tested over real HTTP in path-guard.test.ts: inject() normalises them away.
    test('malformed percent-encoding, NUL and encoded slashes are 400', async () => {
      for (const url of ['/v1/exams/%ZZ', '/v1/exams/20%2F20', '/v1/exams/%00', '/files/2020/..%2F..%2Fpackage.json', '/v1/exams/%E0%A4%A']) {
        await assertError(url, 400, 'bad_request')
      }
    })

    test('methods other than GET, HEAD and OPTIONS are 405 with Allow', async () => {
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
        for (const url of ['/v1/exams', '/v1/exams/2020', '/v1/exams/2020/questions', '/v1/exams/2020/questions/1']) {
          const response = await send({ method, url })
          assert.equal(response.statusCode, 405, `${method} ${url}`)
          assert.equal(response.headers.allow, 'GET, HEAD, OPTIONS')
          assert.equal(response.json<ErrorResponseBody>().error.code, 'method_not_allowed')
        }
      }
    })

    test('HEAD answers with the status and headers of GET and no body', async () => {
      for (const url of ['/v1/exams', '/v1/exams/2020/questions?limit=3', '/v1/exams/1999']) {
        const getResponse = await send({ method: 'GET', url })
        const headResponse = await send({ method: 'HEAD', url })
        assert.equal(headResponse.statusCode, getResponse.statusCode)
        assert.equal(headResponse.body, '')
        for (const header of ['content-type', 'etag', 'cache-control', 'content-length']) {
          assert.equal(headResponse.headers[header], getResponse.headers[header], `${url} ${header}`)
        }
      }
    })

    test('GET / is the question browser, a page that links to the docs', async () => {
      const response = await get('/')
      assert.equal(response.statusCode, 200)
      assert.equal(response.headers['content-type'], 'text/html; charset=utf-8')
      assert.match(response.body, /<html lang="pt-BR">/)
      assert.match(response.body, /<a href="docs">/)
    })

    test('every JSON response says nosniff and reveals no framework', async () => {
      for (const url of ['/v1/exams', '/v1/exams/1999', '/nothing']) {
        const response = await get(url)
        assert.equal(response.headers['x-content-type-options'], 'nosniff')
        assert.equal(response.headers['x-powered-by'], undefined)
        assert.equal(response.headers.server, undefined)
      }
    })
  })
}
