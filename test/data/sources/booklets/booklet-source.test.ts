import { test } from 'node:test'
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { findBookletFiles, parseBookletFileName } from '../../../../src/data/sources/booklets/booklet-files.ts'
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

test('every pinned file is named as INEP names it, served from INEP\'s address under that name, each booklet with its answer key where one is pinned', () => {
  const named = pin.files.map((file) => ({ file, name: parseBookletFileName(path.basename(file.local)) }))
  for (const { file, name } of named) {
    assert.ok(name !== null, file.local)
    assert.equal(file.local, `${name.year}/${path.basename(file.local)}`)
    assert.equal(file.origin, `${INEP_BOOKLETS_ADDRESS}${path.basename(file.local)}`)
  }
  // Each answer key with its booklet (a booklet may have none: 2009, 2010, 2014 and 2021 here).
  const key = (entry: typeof named[number]) => `${entry.name!.year} ${entry.name!.day} ${entry.name!.booklet}`
  const booklets = new Set(named.filter((entry) => entry.name!.kind === 'booklet').map(key))
  for (const entry of named.filter((candidate) => candidate.name!.kind === 'key')) assert.ok(booklets.has(key(entry)), `${entry.file.local}: no booklet of its day and caderno is pinned`)
})

test('every booklet ../shared/inep/booklets holds of a regular exam is pinned (the blue one of a day that has it), with the answer key of its day and caderno when there; the files SOURCE.md calls re-saves say so', { skip: noCopy }, () => {
  const expected = findBookletFiles(COPY).filter((exam) => exam.application === 'regular')
    .flatMap((exam) => exam.days.flatMap((day) => [day.booklet, ...(day.answerKey === null ? [] : [day.answerKey])]))
    .map((file) => path.relative(COPY, file)).sort()
  assert.ok(expected.length >= 20, `${expected.length} files`)
  assert.deepEqual(pin.files.map((file) => file.local).sort(), expected)
  // SOURCE.md's rows: `| <year>/<name> … | … re-save …`.
  const rows = readFileSync(path.join(COPY, 'SOURCE.md'), 'utf8').split('\n').filter((line) => /^\| \d{4}\//u.test(line))
  const resaves = rows.filter((line) => /\bre-save\b/u.test(line)).map((line) => line.slice(2).split(/[ |]/u)[0]!).sort()
  assert.ok(resaves.length > 0)
  assert.deepEqual(pin.files.filter((file) => file.resave !== undefined).map((file) => file.local).sort(), resaves)
})

test('the pinned files make one exam per year, oldest first, each with the days its booklets print', () => {
  const exams = pinnedBookletExams(pin)
  assert.deepEqual(exams.map((exam) => exam.id.year), [...new Set(pin.files.map((file) => Number(file.local.slice(0, 4))))].sort())
  for (const exam of exams) {
    assert.equal(exam.id.application, 'regular')
    assert.ok(exam.files.every((file) => file.local.startsWith(`${exam.id.year}/`)))
  }
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
