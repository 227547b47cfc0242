import { after, test } from 'node:test'
import assert from 'node:assert/strict'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import type { Question } from '../../src/data/record-schemas.ts'
import { build, TEST_PUBLIC_URL } from '../helper.ts'
import { splitSample } from '../split-sample.ts'

/* The server on two dataset folders (ENEM_DATA_DIR=a:b), against the sample served whole. */

const split = await splitSample()
after(() => split.remove())
const together = await build({ after }, { ENEM_DATA_DIR: `${split.regular}${path.delimiter}${split.ppl}` })
const whole = await build({ after })

/** Every image address of the records of an exam, with the record's folder name. */
async function imagesOf (year: number, application: string): Promise<string[]> {
  const page = (await together.request(`/v1/exams/${year}/questions?application=${application}&limit=50`)).json<{ questions: Question[] }>()
  return page.questions.flatMap((question) => question.files)
}

test('the exam list and every exam answer as the sample served from one folder', async () => {
  const list = await together.request('/v1/exams')
  assert.equal(list.body, (await whole.request('/v1/exams')).body)
  for (const exam of list.json<Array<{ year: number, application: string }>>()) {
    const url = `/v1/exams/${exam.year}/questions?application=${exam.application}&limit=50`
    assert.equal((await together.request(url)).body, (await whole.request(url)).body, url)
  }
})

test('images come from the folder that holds their exam, whole or by range', async () => {
  const exams = (await together.request('/v1/exams')).json<Array<{ year: number, application: string }>>()
  let seen = 0
  for (const exam of exams) {
    for (const address of await imagesOf(exam.year, exam.application)) {
      const relative = address.slice(`${TEST_PUBLIC_URL}/files/`.length)
      const folder = exam.application === 'ppl' ? split.ppl : split.regular
      const bytes = await readFile(path.join(folder, relative))
      const response = await together.request(`/files/${relative}`)
      assert.equal(response.statusCode, 200, relative)
      assert.ok(response.rawPayload.equals(bytes), relative)
      const range = await together.request({ url: `/files/${relative}`, headers: { range: 'bytes=0-3' } })
      assert.equal(range.statusCode, 206, relative)
      assert.ok(range.rawPayload.equals(bytes.subarray(0, 4)), relative)
      if (exam.application === 'ppl') seen++
    }
  }
  assert.ok(seen > 0, 'the second folder has an image')
})
