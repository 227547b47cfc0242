import { test } from 'node:test'
import assert from 'node:assert/strict'
import { loadConfig } from '../../src/config.ts'
import { ExamAnswers } from '../../src/http/answers/exam-answers.ts'
import { PreparedCatalog } from '../../src/http/answers/prepared-catalog.ts'
import { TEST_PUBLIC_URL, loadTestDataset } from '../helper.ts'

/*
 * Issue 45: an exam's pages are as many as its limits times its offsets. A page asked once is made
 * of its questions' own bytes and left behind; one asked again is kept, joined and compressed as
 * kept bodies are, so that a stream of pages asked once does not turn the page cache over.
 */

const dataset = await loadTestDataset(loadConfig({ PUBLIC_URL: TEST_PUBLIC_URL }))
const catalog = dataset.catalog!
const exam = catalog.listExams()[0]!
const year = String(exam.summary.year)
const query = (offset: number, limit: number) => ({ offset: String(offset), limit: String(limit), application: exam.summary.application })

test('a page asked once is made for that request, of its questions\' own bytes; asked again, it is kept', () => {
  const answers = new ExamAnswers(catalog, new PreparedCatalog(catalog))
  const first = answers.questionPage(year, query(1, 5))
  assert.equal(first.effort, 'parts')
  assert.ok(first.sharedBytes > 0, 'the questions\' bytes, not a copy')
  const second = answers.questionPage(year, query(1, 5))
  assert.equal(second.effort, 'fast', 'kept, compressed as kept bodies are')
  assert.equal(answers.questionPage(year, query(1, 5)), second, 'and found again')
  assert.deepEqual(second.raw, first.raw, 'the same bytes')
  assert.equal(second.etag, first.etag, 'the same tag')
})

test('pages asked once each, every limit and offset of an exam, leave none kept', () => {
  const answers = new ExamAnswers(catalog, new PreparedCatalog(catalog))
  const count = Math.min(exam.questions.length, 20)
  for (let limit = 1; limit <= count; limit++) {
    for (let offset = 0; offset < count; offset++) {
      const page = answers.questionPage(year, query(offset, limit))
      assert.equal(page.effort, 'parts', `offset ${offset}, limit ${limit}: asked once, not kept`)
    }
  }
})
