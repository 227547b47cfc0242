import { after, test } from 'node:test'
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import path from 'node:path'
import { promisify } from 'node:util'
import { SAMPLE_DATA_DIR } from '../../src/config.ts'
import { loadDataset } from '../../src/data/dataset/load-dataset.ts'
import { splitSample } from '../split-sample.ts'

/*
 * Several dataset folders served together (ENEM_DATA_DIR=a:b): the sample split into its regular
 * exams and its second application must serve exactly what the sample serves whole.
 */

const OPTIONS = { filesBaseUrl: 'http://api.test/files' }
const split = await splitSample()
after(() => split.remove())

test('two folders serve what one folder holding both serves: the same exams, records and corrections', async () => {
  const whole = await loadDataset(SAMPLE_DATA_DIR, OPTIONS)
  const together = await loadDataset([split.regular, split.ppl], OPTIONS)
  assert.equal(together.report.errors.length, 0, together.report.summaryLine())
  assert.deepEqual(together.catalog!.listExams().map((exam) => exam.summary), whole.catalog!.listExams().map((exam) => exam.summary))
  assert.deepEqual(together.catalog!.listExams().map((exam) => exam.questions), whole.catalog!.listExams().map((exam) => exam.questions))
  // Each folder's official table applied to its own exams: the same corrections as the whole sample's.
  const applied = (loaded: typeof whole) => loaded.folders.flatMap((folder) => folder.official.flatMap((report) => report.applied.map(({ row }) => row))).length
  assert.equal(applied(together), applied(whole))
  assert.deepEqual(together.folders.map((folder) => folder.examKeys), [
    whole.folders[0]!.examKeys.filter((key) => !key.endsWith('-ppl')),
    whole.folders[0]!.examKeys.filter((key) => key.endsWith('-ppl'))
  ])
})

test('a file is served from the folder that holds it', async () => {
  const together = await loadDataset([split.regular, split.ppl], OPTIONS)
  const pplFiles = [...together.servableFiles].filter(([file]) => file.split('/')[0]!.endsWith('-ppl'))
  assert.ok(pplFiles.length > 0, 'the sample\'s second application has an image')
  for (const [, folder] of pplFiles) assert.equal(folder, split.ppl)
  for (const [file, folder] of together.servableFiles) if (!file.split('/')[0]!.endsWith('-ppl')) assert.equal(folder, split.regular, file)
})

test('the same exam in two folders is an error naming the exam and both folders: nothing is served', async () => {
  const loaded = await loadDataset([SAMPLE_DATA_DIR, split.ppl], OPTIONS)
  assert.equal(loaded.catalog, null)
  const [duplicate, ...others] = loaded.report.errors
  assert.equal(others.length, 0)
  assert.equal(duplicate!.kind, 'duplicate_exam')
  assert.match(duplicate!.message, new RegExp(`year 2020 \\(ppl\\) is held by ${SAMPLE_DATA_DIR} too`))
  assert.equal(duplicate!.file, `${split.ppl}/exams.json`)
})

const run = promisify(execFile)
async function checkData (...args: string[]): Promise<{ code: number, stdout: string }> {
  try {
    return { code: 0, stdout: (await run(process.execPath, ['--import', 'tsx', 'src/cli/check-data.ts', ...args])).stdout }
  } catch (error) {
    const failed = error as { code: number, stdout: string }
    return { code: failed.code, stdout: failed.stdout }
  }
}

test('check-data covers every folder, given as ENEM_DATA_DIR gives them or as several arguments', async () => {
  for (const args of [[`${split.regular}${path.delimiter}${split.ppl}`], [split.regular, split.ppl], ['--summary', split.regular, split.ppl]]) {
    const { code, stdout } = await checkData(...args)
    assert.equal(code, 0, stdout)
    assert.match(stdout, new RegExp(`^Dataset: ${split.regular}$`, 'm'))
    assert.match(stdout, new RegExp(`^Dataset: ${split.ppl}\\nExams: 1, question records: \\d+ \\(2020-ppl\\)$`, 'm'))
    assert.match(stdout, /^Exams of application ppl:$/m)
    assert.match(stdout, /^All 2 folders: 0 errors/m)
  }
  const { code, stdout } = await checkData(SAMPLE_DATA_DIR, split.ppl)
  assert.equal(code, 1)
  assert.match(stdout, /^ERROR duplicate_exam .*year 2020 \(ppl\) is held by/m)
})
