import { test } from 'node:test'
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { SAMPLE_DATA_DIR } from '../../src/config.ts'
import { examKey, type Application } from '../../src/data/exam-key.ts'

const run = promisify(execFile)
const CLI = ['--import', 'tsx', 'src/cli/check-data.ts']

async function checkData (...args: string[]): Promise<{ code: number, stdout: string, stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [...CLI, ...args])
    return { code: 0, stdout, stderr }
  } catch (error) {
    const failed = error as { code: number, stdout: string, stderr: string }
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr }
  }
}

test('check-data reports the warnings of a clean dataset grouped by kind with counts, and exits 0', async () => {
  const { code, stdout } = await checkData(SAMPLE_DATA_DIR)
  assert.equal(code, 0)
  assert.match(stdout, /Exams: 5, question records: 99 \(2023, 2020, 2020-ppl, 2016, 2011\)/)
  assert.match(stdout, /^WARNING mixed_language_index \(2\): /m)
  assert.match(stdout, /^ {2}2020\/questions\/5\/details\.json \/language: index 5 has a null-language record/m)
  assert.match(stdout, /^Summary: 0 errors, 3 warnings/m)
})

test('check-data lists every correction applied and skipped, every annulled and unscored item and the missing positions, with their files', async () => {
  const { code, stdout } = await checkData(SAMPLE_DATA_DIR)
  assert.equal(code, 0)
  const table = JSON.parse(await readFile(path.join(SAMPLE_DATA_DIR, 'official/corrections.json'), 'utf8')) as { rows: Array<{ year: number, application?: Application, index: number, language: string | null, field: string, inDataset: string, served: string }> }
  const folder = (row: { index: number, language: string | null }) => (row.language === null ? String(row.index) : `${row.index}-${row.language}`)
  // Every section of that title: the official report of each application has its own.
  const section = (title: string) => stdout.split(`\n${title}`).slice(1)
    .flatMap((part) => part.split('\n').slice(1).filter((line, i, lines) => lines.slice(0, i + 1).every((l) => l.startsWith('  '))))
  const corrected = section('CORRECTED')
  const skipped = section('SKIPPED')
  for (const row of table.rows) {
    const file = `${examKey(row.year, row.application)}/questions/${folder(row)}/details.json /${row.field}`
    const inCorrected = corrected.some((line) => line.includes(file) && line.includes(`${JSON.stringify(row.inDataset)} -> ${JSON.stringify(row.served)}`))
    const inSkipped = skipped.some((line) => line.includes(file))
    assert.ok(inCorrected !== inSkipped, `${file} is listed once, as corrected or skipped`)
  }
  assert.equal(corrected.length + skipped.length, table.rows.length)
  assert.match(stdout, /^ANNULLED by INEP .*\(1\)\n {2}2020 #9$/m)
  assert.match(stdout, /^UNSCORED: .*\(1\)\n {2}2020 #19$/m)
  assert.match(stdout, /^ {2}2011 positions 7, 13–180$/m)
})

test('check-data --summary prints counts only, per kind and per exam year', async () => {
  const { code, stdout } = await checkData('--summary', SAMPLE_DATA_DIR)
  assert.equal(code, 0)
  assert.match(stdout, /^WARNING mixed_language_index 2$/m)
  assert.doesNotMatch(stdout, /details\.json/)
  assert.match(stdout, /^year +records +with inep +keys corrected +annulled/m)
  assert.match(stdout, /^2020 +26 +6 +2 +1 +1 +0 +0 +1 /m)
  // 2016's booklets come from the sample's invented item file: linguagens found, mathematics not agreeing.
  assert.match(stdout, /^2016 .* LC 9299 \d+\/\d+, MT none \d+\/\d+$/m)
})

test('check-data --help prints the usage and exits 0 without reading a folder named --help', async () => {
  const { code, stdout } = await checkData('--help')
  assert.equal(code, 0)
  assert.match(stdout, /^Usage: npm run check-data -- \[--summary\] \[folder\.\.\.\]/)
  assert.doesNotMatch(stdout, /Dataset:/)
})

test('check-data with an unknown flag says so in one line and exits 2', async () => {
  const { code, stdout, stderr } = await checkData('--sumary', SAMPLE_DATA_DIR)
  assert.equal(code, 2)
  assert.equal(stdout, '')
  assert.equal(stderr, 'check-data: unknown option --sumary (see --help)\n')
})

test('check-data prints every error with its file and field, and exits 1', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'enem-check-'))
  try {
    await cp(SAMPLE_DATA_DIR, dir, { recursive: true })
    const file = path.join(dir, '2023/questions/6/details.json')
    const record = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>
    record.correctAlternative = 'Z'
    delete record.alternatives
    await writeFile(file, JSON.stringify(record))
    const { code, stdout } = await checkData(dir)
    assert.equal(code, 1)
    assert.match(stdout, /^ERROR invalid_record \(2\): /m)
    assert.match(stdout, /2023\/questions\/6\/details\.json \/correctAlternative: must be one of "A", "B", "C", "D", "E"; got "Z"/)
    assert.match(stdout, /2023\/questions\/6\/details\.json \/alternatives: is required; it is missing/)
    assert.match(stdout, /^Summary: 2 errors/m)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
})
