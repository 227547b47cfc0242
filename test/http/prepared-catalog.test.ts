import { test } from 'node:test'
import assert from 'node:assert/strict'
import { loadConfig } from '../../src/config.ts'
import type { Exam } from '../../src/data/catalog.ts'
import { PreparedCatalog } from '../../src/http/answers/prepared-catalog.ts'
import { TEST_PUBLIC_URL, loadTestDataset } from '../helper.ts'

/*
 * PreparedCatalog serializes each exam detail and question once: in the background after the
 * server listens, or on first use when a request comes first. Both ways must give the same bytes
 * and tags, and each body must be made assembled.
 */

async function sampleCatalog () {
  const dataset = await loadTestDataset(loadConfig({ PUBLIC_URL: TEST_PUBLIC_URL }))
  return dataset.catalog!
}

/** How many bodies the catalog serializes besides the exam list: one per exam detail and one per question. */
function bodyCountOf (exams: readonly Exam[]): number {
  return exams.length + exams.reduce((sum, exam) => sum + exam.questions.length, 0)
}

test('the background preparation serializes every exam and question once, as first use would', async () => {
  const catalog = await sampleCatalog()
  const exams = catalog.listExams()
  const bodyCount = bodyCountOf(exams)
  const background = new PreparedCatalog(catalog)
  const onDemand = new PreparedCatalog(catalog)

  assert.equal(await background.prepareInBackground(), bodyCount)
  // All made: a second pass has nothing left to do.
  assert.equal(await background.prepareInBackground(), 0)
  for (const exam of exams) {
    assert.deepEqual(background.examDetail(exam).raw, onDemand.examDetail(exam).raw)
    assert.equal(background.examDetail(exam).etag, onDemand.examDetail(exam).etag)
    for (const question of exam.questions) {
      const body = background.question(question)
      assert.equal(body, background.question(question), 'kept, not made again')
      assert.deepEqual(JSON.parse(body.raw.toString()), JSON.parse(JSON.stringify(question)))
      assert.equal(body.etag, onDemand.question(question).etag)
    }
  }
})

test('what a request asked for first is not made again by the background preparation', async () => {
  const catalog = await sampleCatalog()
  const exams = catalog.listExams()
  const bodyCount = bodyCountOf(exams)
  const prepared = new PreparedCatalog(catalog)
  const first = exams[0]!
  const asked = prepared.question(first.questions[0]!)
  prepared.examDetail(first)
  assert.equal(await prepared.prepareInBackground(), bodyCount - 2)
  assert.equal(prepared.question(first.questions[0]!), asked)
})

test('stopping the background preparation settles its promise; the rest is made on first use', async () => {
  const catalog = await sampleCatalog()
  const prepared = new PreparedCatalog(catalog)
  const running = prepared.prepareInBackground()
  prepared.stopBackground()
  assert.equal(await running, 0, 'stopped before its first step')
  const question = catalog.listExams()[0]!.questions[0]!
  assert.deepEqual(JSON.parse(prepared.question(question).raw.toString()), JSON.parse(JSON.stringify(question)))
})

test('a page is kept only under the name its caller gives its list: a list made for one request leaves nothing', async () => {
  const catalog = await sampleCatalog()
  const prepared = new PreparedCatalog(catalog)
  const questions = catalog.listExams()[0]!.questions
  const unnamed = prepared.page(questions, 0, 5)
  assert.notEqual(prepared.page(questions, 0, 5), unnamed, 'made again: nothing was kept')
  assert.equal(prepared.page(questions, 0, 5).raw.toString(), unnamed.raw.toString())
  const named = prepared.page(questions, 0, 5, { keepAs: 'list' })
  // The name, not the array, says which list it is: another array of the same list finds the kept page.
  assert.equal(prepared.page([...questions], 0, 5, { keepAs: 'list' }), named)
  assert.notEqual(prepared.page(questions, 5, 5, { keepAs: 'list' }), named, 'offset and limit are part of the key')
})

test('a list made for a request is its questions\' own bytes: sent as parts, never copied, and its encodings equal a joined body\'s', async () => {
  const { gunzipSync, brotliDecompressSync } = await import('node:zlib')
  const catalog = await sampleCatalog()
  const prepared = new PreparedCatalog(catalog)
  const questions = catalog.listExams()[0]!.questions.slice(0, 5)
  const assembled = prepared.list('{"seed":7,"questions":[', questions, { effort: 'parts' })
  const expected = Buffer.from(`{"seed":7,"questions":[${questions.map((question) => JSON.stringify(question)).join(',')}]}`)
  // Every question but the last is sent with its comma, from its own buffer (PreparedBody.listedRaw).
  const shared = questions.reduce((sum, question) => sum + prepared.question(question).byteLength, 0) + questions.length - 1
  assert.equal(assembled.byteLength, expected.length)
  assert.equal(assembled.sharedBytes, shared)
  // Its head and close, and a reference per part (head, questions, close).
  assert.equal(assembled.ownBytes, expected.length - shared + 16 * (questions.length + 2))
  assert.equal(assembled.keptBytes, 2 * assembled.ownBytes)
  const identity = assembled.answer('identity').payload
  assert.ok(Array.isArray(identity), 'identity is sent as parts')
  // Each question's part is the very buffer of its prepared body, not a copy.
  for (const [at, question] of questions.entries()) {
    const body = prepared.question(question)
    assert.ok((identity as Buffer[]).includes(at === questions.length - 1 ? body.raw : body.listedRaw))
  }
  assert.deepEqual(Buffer.concat(identity as Buffer[]), expected)
  assert.deepEqual(assembled.raw, expected)
  const gzip = assembled.answer('gzip').payload
  assert.ok(Array.isArray(gzip), 'gzip is sent as its parts\' chunks')
  assert.deepEqual(gunzipSync(Buffer.concat(gzip as Buffer[])), expected)
  // br is made for each request that takes it, and not kept on the body.
  const br = assembled.answer('br')
  assert.notEqual(br, assembled.answer('br'))
  assert.deepEqual(brotliDecompressSync(br.payload as Buffer), expected)
  // The same list kept with its compressed forms is one buffer of its own, with the same tag.
  const kept = prepared.list('{"seed":7,"questions":[', questions, { effort: 'fast' })
  assert.equal(kept.sharedBytes, 0)
  assert.equal(kept.etag, assembled.etag)
  assert.deepEqual(kept.answer('identity').payload, expected)
})
