import { test } from 'node:test'
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { SAMPLE_DATA_DIR } from '../../src/config.ts'

const run = promisify(execFile)
const CLI = ['--import', 'tsx', 'src/cli/check-data.ts']

async function checkData (dir: string): Promise<{ code: number, stdout: string }> {
  try {
    const { stdout } = await run(process.execPath, [...CLI, dir])
    return { code: 0, stdout }
  } catch (error) {
    const failed = error as { code: number, stdout: string }
    return { code: failed.code, stdout: failed.stdout }
  }
}

test('check-data reports the warnings of a clean dataset grouped by kind with counts, and exits 0', async () => {
  const { code, stdout } = await checkData(SAMPLE_DATA_DIR)
  assert.equal(code, 0)
  assert.match(stdout, /Exams: 3, question records: 57/)
  assert.match(stdout, /^WARNING mixed_language_index \(1\): /m)
  assert.match(stdout, /^ {2}2020\/questions\/5\/details\.json \/language: index 5 has a null-language record/m)
  assert.match(stdout, /^Summary: 0 errors, 3 warnings/m)
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
