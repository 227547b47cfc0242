import { test } from 'node:test'
import assert from 'node:assert/strict'
import { cp, mkdtemp, readdir, readFile, rm, writeFile, mkdir } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { SAMPLE_DATA_DIR } from '../../src/config.ts'
import { loadDataset } from '../../src/data/dataset/load-dataset.ts'
import { FULL_DATA_DIR } from '../helper.ts'

const OPTIONS = { filesBaseUrl: 'http://api.test/files' }

/** Loads a copy of the sample dataset after `change` has edited it. */
async function loadChangedSample (change: (dir: string) => Promise<void>) {
  const dir = await mkdtemp(path.join(tmpdir(), 'enem-sample-'))
  try {
    await cp(SAMPLE_DATA_DIR, dir, { recursive: true })
    await change(dir)
    return await loadDataset(dir, OPTIONS)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

async function editJson (file: string, edit: (value: Record<string, unknown>) => void): Promise<void> {
  const value = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>
  edit(value)
  await writeFile(file, JSON.stringify(value, null, 4))
}

test('the sample dataset loads with no errors and exactly its known warnings', async () => {
  const { catalog, report, servableFiles } = await loadDataset(SAMPLE_DATA_DIR, OPTIONS)
  assert.ok(catalog !== null)
  assert.equal(report.errors.length, 0)
  assert.deepEqual(report.warnings.map((issue) => `${issue.kind} ${issue.file}`).sort(), [
    'alternative_count 2011/questions/3/details.json',
    'mixed_language_index 2016/questions/93/details.json',
    'mixed_language_index 2020/questions/5/details.json'
  ])
  assert.deepEqual(catalog.listExams().map((exam) => [exam.key, exam.questions.length]), [['2023', 21], ['2020', 26], ['2020-ppl', 9], ['2016', 32], ['2011', 11]])
  assert.equal(catalog.questionCount, 99)
  assert.ok(servableFiles.has('2020/questions/12/0a1b2c3d-0000-4000-8000-000000000009.svg'))
  assert.ok(![...servableFiles.keys()].some((file) => file.endsWith('.json')))
})

test('a record missing a required field is an error naming the file and field, and nothing is served', async () => {
  const { catalog, report } = await loadChangedSample(async (dir) => {
    await editJson(path.join(dir, '2020/questions/7/details.json'), (record) => { delete record.title })
  })
  assert.equal(catalog, null)
  const [error] = report.errors
  assert.equal(error?.kind, 'invalid_record')
  assert.equal(error?.file, '2020/questions/7/details.json')
  assert.match(`${error?.field} ${error?.message}`, /title/)
})

test('wrong types and values are errors: correctAlternative outside A–E, a string index, a letter F', async () => {
  const { catalog, report } = await loadChangedSample(async (dir) => {
    await editJson(path.join(dir, '2020/questions/7/details.json'), (record) => { record.correctAlternative = 'F' })
    await editJson(path.join(dir, '2020/questions/8/details.json'), (record) => { record.index = '8' })
    await editJson(path.join(dir, '2020/questions/9/details.json'), (record) => {
      (record.alternatives as Array<Record<string, unknown>>)[0]!.letter = 'F'
    })
  })
  assert.equal(catalog, null)
  assert.deepEqual(report.errors.map((issue) => [issue.file, issue.field]), [
    ['2020/questions/7/details.json', '/correctAlternative'],
    ['2020/questions/8/details.json', '/index'],
    ['2020/questions/9/details.json', '/alternatives/0/letter']
  ])
})

test('invalid JSON and a missing exam folder are errors', async () => {
  const { catalog, report } = await loadChangedSample(async (dir) => {
    await writeFile(path.join(dir, '2020/questions/7/details.json'), '{ "title": ')
    await rm(path.join(dir, '2011'), { recursive: true })
  })
  assert.equal(catalog, null)
  assert.deepEqual(report.errors.map((issue) => [issue.kind, issue.file]).sort(), [
    ['missing_exam', '2011/details.json'],
    ['unreadable_file', '2020/questions/7/details.json']
  ])
})

test('parts that disagree are warnings, and the records are served as they are', async () => {
  const { catalog, report } = await loadChangedSample(async (dir) => {
    await editJson(path.join(dir, '2020/questions/7/details.json'), (record) => { record.correctAlternative = 'E' })
    await rm(path.join(dir, '2020/questions/12/0a1b2c3d-0000-4000-8000-000000000008.png'))
    await editJson(path.join(dir, '2020/details.json'), (details) => {
      const questions = details.questions as Array<Record<string, unknown>>
      questions.push({ ...questions[20]! })
      questions[15]!.title = 'Questão 99 - ENEM 2020'
      questions.splice(questions.findIndex((q) => q.index === 20), 1)
    })
    await editJson(path.join(dir, 'exams.json'), (exams) => {
      (exams as unknown as Array<Record<string, unknown>>)[1]!.title = 'ENEM 2020 (PPL)'
    })
  })
  assert.ok(catalog !== null, report.format())
  const kinds = report.warnings.map((issue) => issue.kind)
  for (const kind of ['answer_key_mismatch', 'missing_file', 'duplicate_entry', 'summary_mismatch', 'unlisted_record', 'exam_summary_mismatch', 'title_mismatch'] as const) {
    assert.ok(kinds.includes(kind), `${kind} in ${kinds.join(', ')}`)
  }
  const missing = report.warnings.find((issue) => issue.kind === 'missing_file')
  assert.equal(missing?.file, '2020/questions/12/details.json')
  // Served as is: the answer key is not "fixed".
  const exam = catalog.getExam(2020)!
  const lookup = catalog.findQuestion(exam, 7, null)
  assert.ok(lookup.found)
  assert.equal(lookup.question.correctAlternative, 'E')
})

test('an unreadable dataset folder is an error, not a crash', async () => {
  const { catalog, report } = await loadDataset('/nonexistent/enem-data', OPTIONS)
  assert.equal(catalog, null)
  assert.equal(report.errors[0]?.kind, 'unreadable_file')
})

test('two folders with the same index and language are an error', async () => {
  const { catalog, report } = await loadChangedSample(async (dir) => {
    await mkdir(path.join(dir, '2020/questions/21'))
    const record = JSON.parse(await readFile(path.join(dir, '2020/questions/20/details.json'), 'utf8')) as Record<string, unknown>
    await writeFile(path.join(dir, '2020/questions/21/details.json'), JSON.stringify(record))
  })
  assert.equal(catalog, null)
  assert.ok(report.errors.some((issue) => issue.kind === 'duplicate_record'))
  assert.ok(report.warnings.some((issue) => issue.kind === 'folder_mismatch' && issue.file === '2020/questions/21/details.json'))
})

test('a question whose statement is only in alternativesIntroduction is not empty; one with nothing to read is', async () => {
  const { report } = await loadChangedSample(async (dir) => {
    await editJson(path.join(dir, '2011/questions/4/details.json'), (record) => { record.context = null; record.files = [] })
  })
  const empty = report.warnings.filter((issue) => issue.kind === 'empty_question').map((issue) => issue.file)
  assert.deepEqual(empty, ['2011/questions/4/details.json']) // 4 has no alternativesIntroduction; 2 has one
})

test('an official table that breaks its format is an error naming the file, and nothing is served', async () => {
  const { catalog, report } = await loadChangedSample(async (dir) => {
    await editJson(path.join(dir, 'official/2020.json'), (table) => { (table.positions as Array<Record<string, unknown>>)[0]!.key = 'F' })
  })
  assert.equal(catalog, null)
  assert.equal(report.errors[0]?.kind, 'invalid_official_data')
  assert.match(report.errors[0]!.message, /2020\.json: \/positions\/0\/key/)
})

test('a record whose image is the dataset\'s broken-image placeholder gets a warning of its own, one per record and field', async () => {
  const placeholder = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>'
  const { catalog, report } = await loadChangedSample(async (dir) => {
    await writeFile(path.join(dir, 'broken-image.svg'), placeholder)
    await editJson(path.join(dir, '2020/questions/7/details.json'), (record) => {
      record.context = `${String(record.context)}\n\n![](https://enem.dev/broken-image.svg)`
      record.files = ['https://enem.dev/broken-image.svg']
    })
  })
  assert.ok(catalog !== null, report.format())
  assert.deepEqual(report.warnings.filter((issue) => issue.kind === 'placeholder_image').map((issue) => [issue.file, issue.field]), [
    ['2020/questions/7/details.json', '/files/0'],
    ['2020/questions/7/details.json', '/context']
  ])
})

test('on the full dataset, every record that points at broken-image.svg, and only those, has a placeholder_image warning', { skip: FULL_DATA_DIR === undefined }, async () => {
  const dataDir = FULL_DATA_DIR!
  const { report } = await loadDataset(dataDir, OPTIONS)
  const pointing: string[] = []
  for (const year of await readdir(dataDir)) {
    const questions = path.join(dataDir, year, 'questions')
    if (!/^\d{4}$/.test(year)) continue
    for (const folder of await readdir(questions)) {
      const file = path.join(questions, folder, 'details.json')
      const text = await readFile(file, 'utf8').catch(() => '')
      if (text.includes('/broken-image.svg')) pointing.push(path.relative(dataDir, file))
    }
  }
  assert.ok(pointing.length > 0, 'the full dataset has such records')
  assert.deepEqual([...new Set(report.warnings.filter((issue) => issue.kind === 'placeholder_image').map((issue) => issue.file))].sort(), pointing.sort())
})
