import { test } from 'node:test'
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseBookletFileName } from '../../../../src/data/sources/booklets/booklet-files.ts'
import { ANSWER_KEY_TEXTS, pinnedBookletExams } from '../../../../src/data/sources/booklets/booklet-source.ts'
import { INEP_DATA_DIR } from '../../../../src/data/sources/build-dataset.ts'
import { fileHashes } from '../../../../src/data/sources/git-hashes.ts'
import { INEP_BOOKLETS_ADDRESS, SOURCE_PINS } from '../../../../src/data/sources/source-pins.ts'

/*
 * The `booklets` source of `npm run dataset` (src/data/sources/source-pins.ts, booklet-source.ts):
 * its pins against the copies ../shared/inep/booklets holds (the pins come from its SOURCE.md), its
 * exams, and the answer keys' texts the repository commits so that the build needs no poppler.
 */

const REPO = fileURLToPath(new URL('../../../..', import.meta.url))
const COPY = path.resolve(REPO, '../shared/inep/booklets')
const noCopy = existsSync(COPY) ? false : `${COPY} is absent: the pins were NOT checked against the booklets`
let pdftotext = true
try {
  execFileSync('pdftotext', ['-v'], { stdio: 'ignore' })
} catch {
  pdftotext = false
}
const pin = SOURCE_PINS.booklets

test('every pinned booklet file is named as INEP names it, served from INEP\'s address under that name, and the blue booklet of its day with its answer key', () => {
  const named = pin.files.map((file) => ({ file, name: parseBookletFileName(path.basename(file.local)) }))
  for (const { file, name } of named) {
    assert.ok(name !== null, file.local)
    assert.equal(file.local, `${name.year}/${path.basename(file.local)}`)
    assert.equal(file.origin, `${INEP_BOOKLETS_ADDRESS}${path.basename(file.local)}`)
    assert.equal(name.booklet, name.day === 1 ? 1 : 7, `${file.local}: the blue booklet of day ${name.day}`)
  }
  // Each booklet with its answer key, each key with its booklet.
  const key = (entry: typeof named[number]) => `${entry.name!.year} ${entry.name!.day} ${entry.name!.booklet}`
  assert.deepEqual(named.filter((entry) => entry.name!.kind === 'booklet').map(key).sort(), named.filter((entry) => entry.name!.kind === 'key').map(key).sort())
})

test('the pinned files make ENEM 2025 (both days) and 2023 (day 2), oldest first', () => {
  assert.deepEqual(pinnedBookletExams(pin).map((exam) => [exam.id.year, exam.id.application, exam.files.map((file) => path.basename(file.local)).sort()]), [
    [2023, 'regular', ['2023_GB_impresso_D2_CD7.pdf', '2023_PV_impresso_D2_CD7.pdf']],
    [2025, 'regular', ['2025_GB_impresso_D1_CD1.pdf', '2025_GB_impresso_D2_CD7.pdf', '2025_PV_impresso_D1_CD1.pdf', '2025_PV_impresso_D2_CD7.pdf']]
  ])
})

test('each pinned file hashes, in ../shared\'s copy, to its git blob and SHA-256', { skip: noCopy }, () => {
  for (const file of pin.files) assert.deepEqual(fileHashes(path.join(COPY, file.local)), { blob: file.blob, sha256: file.sha256 }, file.local)
})

test('the answer keys\' texts the repository commits are what pdftotext -layout gives of the pinned files, one for each', { skip: noCopy || (pdftotext ? false : 'pdftotext is not installed: the committed texts were NOT compared with it') }, () => {
  const keys = pin.files.filter((file) => parseBookletFileName(path.basename(file.local))?.kind === 'key')
  assert.deepEqual(readdirSync(path.join(INEP_DATA_DIR, ANSWER_KEY_TEXTS)).sort(), keys.map((file) => `${path.basename(file.local)}.txt`).sort())
  for (const file of keys) {
    const text = execFileSync('pdftotext', ['-layout', path.join(COPY, file.local), '-'], { encoding: 'utf8' })
    assert.equal(readFileSync(path.join(INEP_DATA_DIR, ANSWER_KEY_TEXTS, `${path.basename(file.local)}.txt`), 'utf8'), text, file.local)
  }
})
