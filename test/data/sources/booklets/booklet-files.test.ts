import { test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { BLUE_BOOKLET, findBookletFiles, groupBookletFiles, listBookletFiles, parseBookletFileName, type BookletFile } from '../../../../src/data/sources/booklets/booklet-files.ts'

/*
 * INEP's booklet and answer-key file names, and the choice of one booklet per day: on names made up
 * here, and on the folder of INEP's PDFs beside the repository (../shared/inep/booklets).
 */

const REPO = fileURLToPath(new URL('../../../..', import.meta.url))
const BOOKLETS = path.resolve(REPO, '../shared/inep/booklets')
const noBooklets = existsSync(BOOKLETS) ? false : `${BOOKLETS} is absent: INEP's booklet files were NOT listed`

test('an INEP name says year, application, day, caderno and whether it is a booklet or its answer key; any other name says nothing', () => {
  assert.deepEqual(parseBookletFileName('2025_PV_impresso_D1_CD1.pdf'), { year: 2025, application: 'regular', day: 1, booklet: 1, kind: 'booklet' })
  assert.deepEqual(parseBookletFileName('2025_GB_impresso_D2_CD7.pdf'), { year: 2025, application: 'regular', day: 2, booklet: 7, kind: 'key' })
  assert.deepEqual(parseBookletFileName('2020_PV_reaplicacao_PPL_D2_CD6.pdf'), { year: 2020, application: 'ppl', day: 2, booklet: 6, kind: 'booklet' })
  assert.deepEqual(parseBookletFileName('2020_GB_reaplicacao_PPL_D2_CD6.pdf'), { year: 2020, application: 'ppl', day: 2, booklet: 6, kind: 'key' })
  for (const name of ['dia1_caderno1_azul.pdf', '2025_PV_impresso_D3_CD1.pdf', '2025_PV_impresso_D1_CD0.pdf', '2025_PV_impresso_D1_CD1.PDF', '2025_XX_impresso_D1_CD1.pdf', '2025_PV_impresso_D1_CD1.pdf.txt', 'SOURCE.md']) {
    assert.equal(parseBookletFileName(name), null, name)
  }
})

/** Files as listBookletFiles gives them, from names alone. */
function files (...names: string[]): BookletFile[] {
  return names.map((name) => ({ ...parseBookletFileName(name)!, name, path: `/folder/${name}` }))
}

test('per day the blue booklet is taken when there, paired with its own answer key; the other colours are named as not taken', () => {
  const [exam] = groupBookletFiles(files('2025_PV_impresso_D1_CD3.pdf', '2025_PV_impresso_D1_CD1.pdf', '2025_GB_impresso_D1_CD3.pdf', '2025_GB_impresso_D1_CD1.pdf',
    '2025_PV_impresso_D2_CD5.pdf', '2025_PV_impresso_D2_CD7.pdf', '2025_GB_impresso_D2_CD5.pdf'))
  assert.deepEqual(exam, {
    year: 2025,
    application: 'regular',
    days: [
      { day: 1, cd: BLUE_BOOKLET[1], booklet: '/folder/2025_PV_impresso_D1_CD1.pdf', answerKey: '/folder/2025_GB_impresso_D1_CD1.pdf', others: ['/folder/2025_PV_impresso_D1_CD3.pdf'] },
      // CD5's key is in the folder, CD7's is not: the blue booklet goes without a key rather than with another colour's.
      { day: 2, cd: BLUE_BOOKLET[2], booklet: '/folder/2025_PV_impresso_D2_CD7.pdf', answerKey: null, others: ['/folder/2025_PV_impresso_D2_CD5.pdf'] }
    ]
  })
})

test('a day with one booklet takes it, whatever its colour; a day with only an answer key is no exam day; exams go oldest first, regular before the second application', () => {
  const exams = groupBookletFiles(files('2023_PV_reaplicacao_PPL_D2_CD6.pdf', '2021_PV_impresso_D2_CD5.pdf', '2022_GB_impresso_D1_CD1.pdf', '2023_PV_impresso_D2_CD7.pdf'))
  assert.deepEqual(exams.map((exam) => [exam.year, exam.application, exam.days.map((day) => [day.day, day.cd, day.answerKey])]), [
    [2021, 'regular', [[2, 5, null]]],
    [2023, 'regular', [[2, 7, null]]],
    [2023, 'ppl', [[2, 6, null]]]
  ])
})

test('several booklets of a day and no blue one are refused, naming them', () => {
  assert.throws(() => groupBookletFiles(files('2023_PV_impresso_D2_CD5.pdf', '2023_PV_impresso_D2_CD6.pdf', '2023_PV_impresso_D2_CD8.pdf')),
    /ENEM 2023 day 2: 3 booklets and no blue one \(CD7\) to choose: 2023_PV_impresso_D2_CD5\.pdf, 2023_PV_impresso_D2_CD6\.pdf, 2023_PV_impresso_D2_CD8\.pdf/)
})

test('files are found at the folder\'s top and one folder down, not deeper; one name found twice is refused', (t) => {
  const folder = mkdtempSync(path.join(tmpdir(), 'booklet-files-'))
  t.after(() => rmSync(folder, { recursive: true, force: true }))
  mkdirSync(path.join(folder, '2025', 'deeper'), { recursive: true })
  writeFileSync(path.join(folder, '2009_PV_impresso_D1_CD1.pdf'), '')
  writeFileSync(path.join(folder, '2025', '2025_PV_impresso_D2_CD7.pdf'), '')
  writeFileSync(path.join(folder, '2025', 'notes.txt'), '')
  writeFileSync(path.join(folder, '2025', 'deeper', '2025_GB_impresso_D2_CD7.pdf'), '')
  assert.deepEqual(listBookletFiles(folder).map((file) => path.relative(folder, file.path)), ['2009_PV_impresso_D1_CD1.pdf', path.join('2025', '2025_PV_impresso_D2_CD7.pdf')])
  assert.deepEqual(findBookletFiles(folder).map((exam) => [exam.year, exam.days[0]!.answerKey]), [[2009, null], [2025, null]])

  writeFileSync(path.join(folder, '2025_PV_impresso_D2_CD7.pdf'), '')
  assert.throws(() => listBookletFiles(folder), /2025_PV_impresso_D2_CD7\.pdf is found twice/)
})

test('the folder of INEP\'s booklets: every PDF is found by its name, and each booklet taken is paired with the answer key of its day and caderno', { skip: noBooklets }, () => {
  const pdfs = readdirSync(BOOKLETS, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.pdf')).map((name) => path.basename(name)).sort()
  assert.deepEqual(listBookletFiles(BOOKLETS).map((file) => file.name), pdfs)
  const exams = findBookletFiles(BOOKLETS)
  const names = new Set(pdfs)
  for (const exam of exams) {
    for (const day of exam.days) {
      const booklets = pdfs.filter((name) => parseBookletFileName(name)!.kind === 'booklet' && name.startsWith(`${exam.year}_`) && parseBookletFileName(name)!.day === day.day && parseBookletFileName(name)!.application === exam.application)
      assert.equal(day.others.length, booklets.length - 1)
      if (booklets.length > 1) assert.equal(day.cd, BLUE_BOOKLET[day.day], `${exam.year} day ${day.day}`)
      const keyName = path.basename(day.booklet).replace('_PV_', '_GB_')
      assert.equal(day.answerKey === null ? null : path.basename(day.answerKey), names.has(keyName) ? keyName : null)
    }
  }
  // Every booklet file is either taken or named as another colour of its day.
  const listed = exams.flatMap((exam) => exam.days.flatMap((day) => [day.booklet, ...day.others])).map((file) => path.basename(file)).sort()
  assert.deepEqual(listed, pdfs.filter((name) => parseBookletFileName(name)!.kind === 'booklet'))
})
