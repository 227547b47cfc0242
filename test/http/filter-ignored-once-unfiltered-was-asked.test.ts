import { test } from 'node:test'
import assert from 'node:assert/strict'
import Type from 'typebox'
import { QuestionFinder } from '../../src/data/finding/question-finder.ts'
import { RECORD_FILTERS, recordFilter, type QuestionFilters } from '../../src/data/finding/question-filters.ts'
import { PreparedCatalog } from '../../src/http/answers/prepared-catalog.ts'
import { QuestionFinderAnswers } from '../../src/http/answers/question-finder-answers.ts'
import { ENDPOINTS, type Endpoint } from '../../src/http/endpoints.ts'
import { FINDING_FILTERS, booleanParameter, type FindingFilter } from '../../src/http/schemas/finding-filters.ts'
import { loadConfig } from '../../src/config.ts'
import { build, requestPaths, TEST_PUBLIC_URL, loadTestDataset, type SendRequest } from '../helper.ts'

/*
 * Regression (issue 21): a filter added to /v1/questions the obvious way was silently ignored once
 * the request without it had been asked: the list of matches was kept under a key that listed the
 * filters a second time by hand, the new one missing, so `?year=2020&withContext=false` was
 * answered with the 21 questions of `?year=2020` (a fresh server answered 0). The key is now
 * derived from the filter object itself (src/data/finding/question-filters.ts's filtersKey), and a filter
 * is one entry of src/http/schemas/finding-filters.ts plus its record test.
 */

const UNFILTERED = '/v1/questions?year=2020&application=regular&limit=50'
const FILTERED = `${UNFILTERED}&withContext=false`

interface Page { metadata: { total: number }, questions: Array<{ year: number, index: number, language: string | null }> }

/** The experiment's filter, added as a contributor would now: a record test and a table entry. */
const withContextRecordFilter = recordFilter<boolean>((records) => (position, value) => (records[position]!.context !== null) === value)
const withContextFilter: FindingFilter = {
  parameter: booleanParameter('Whether the question has a context', ['false']),
  // QuestionFilters does not know this field: the finder given here does.
  read: (value) => ({ withContext: value === 'true' }) as QuestionFilters
}

/** The endpoint table with /v1/questions answered by finder answers that know `withContext`. */
async function tableWithContextFilter (): Promise<Endpoint[]> {
  const dataset = await loadTestDataset(loadConfig({ PUBLIC_URL: TEST_PUBLIC_URL }))
  const catalog = dataset.catalog!
  const answers = new QuestionFinderAnswers(
    catalog,
    new PreparedCatalog(catalog),
    new QuestionFinder(catalog, { ...RECORD_FILTERS, withContext: withContextRecordFilter }),
    { ...FINDING_FILTERS, withContext: withContextFilter })
  return ENDPOINTS.map((endpoint) => endpoint.operationId !== 'findQuestions'
    ? endpoint
    : {
        ...endpoint,
        querystring: Type.Object({ ...endpoint.querystring.properties, withContext: Type.Optional(withContextFilter.parameter) }),
        answer: (_answers, _params, query) => answers.questions(query)
      })
}

async function page (send: SendRequest, url: string): Promise<{ body: string, page: Page }> {
  const response = await send(url)
  assert.equal(response.statusCode, 200, `${url}: ${response.body.slice(0, 200)}`)
  return { body: response.body, page: response.json<Page>() }
}

test('a filter added to /v1/questions is not ignored once the request without it was asked', async (t) => {
  const dataset = await loadTestDataset(loadConfig({ PUBLIC_URL: TEST_PUBLIC_URL }))
  const exam = dataset.catalog!.getExam(2020)!
  const view = dataset.catalog!.languageView(exam, exam.defaultLanguage, null)
  const withoutContext = view.filter((question) => question.context === null).length
  assert.notEqual(withoutContext, view.length, 'the sample must hold 2020 questions with a context, or the filter would change nothing')

  for (const [path, send] of requestPaths(await build(t, {}, { endpoints: await tableWithContextFilter() }))) {
    await t.test(path, async () => {
      // A fresh server's answer first (in its own build, so nothing was kept before it).
      const fresh = await page(send, FILTERED)
      assert.equal(fresh.page.metadata.total, withoutContext)
    })
  }
  for (const [path, send] of requestPaths(await build(t, {}, { endpoints: await tableWithContextFilter() }))) {
    await t.test(`${path}, after the request without the filter was asked twice`, async () => {
      const unfiltered = await page(send, UNFILTERED)
      assert.equal(unfiltered.page.metadata.total, view.length)
      await page(send, UNFILTERED)
      const filtered = await page(send, FILTERED)
      assert.equal(filtered.page.metadata.total, withoutContext)
      assert.deepEqual(filtered.page.questions.map(({ index, language }) => [index, language]),
        view.filter((question) => question.context === null).map(({ index, language }) => [index, language]))
    })
  }
})

test('every filter of /v1/questions gives the same answer whether the request without it was asked before or not', async (t) => {
  const fresh = await build(t)
  const warm = await build(t)
  const base = '/v1/questions?limit=50'
  const { querystring } = ENDPOINTS.find((endpoint) => endpoint.operationId === 'findQuestions')!
  // Every query parameter of the schema but the paging ones, which choose a page, not the questions.
  const filters = Object.entries(querystring.properties).filter(([name]) => name !== 'limit' && name !== 'offset')
  assert.ok(filters.length >= Object.keys(FINDING_FILTERS).length)
  for (const [name, schema] of filters) {
    const examples = (schema as { examples?: string[] }).examples ?? []
    assert.ok(examples.length > 0, `${name} has no examples`)
    let changes = 0
    for (const example of examples) {
      const url = `${base}&${name}=${encodeURIComponent(example)}`
      const expected = await page(fresh.request, url)
      // Asked twice: the second asking keeps the list (and its pages) of the request without the filter.
      await page(warm.request, base)
      const unfiltered = await page(warm.request, base)
      for (const [path, send] of requestPaths(warm)) {
        const answer = await page(send, url)
        assert.equal(answer.page.metadata.total, expected.page.metadata.total, `${url} ${path}: total`)
        assert.equal(answer.body, expected.body, `${url} ${path}`)
      }
      if (expected.body !== unfiltered.body) changes++
    }
    assert.ok(changes > 0, `no example of ${name} (${examples.join(', ')}) changes the answer on the sample: the test could not see it ignored`)
  }
})
