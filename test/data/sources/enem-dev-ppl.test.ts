import { describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { loadDataset } from '../../../src/data/dataset/load-dataset.ts'
import type { CorrectionsFile } from '../../../src/data/official/official-table.ts'
import type { DatasetQuestion } from '../../../src/data/record-schemas.ts'
import { convertEnemDevPpl, withLostFiguresPutBack, withoutStrayIndentation } from '../../../src/data/sources/enem-dev-ppl.ts'
import { recordFigures } from '../../../src/data/record-figures.ts'
import { writeConversion } from '../../../src/data/sources/write-conversion.ts'
import { writeItensProva, type FixtureBooklet } from './itens-prova-fixture.ts'

/*
 * The enem-dev-ppl conversion on a fixture made for it (test/data/sources/enem-dev-second-applications/:
 * an invented 2012 second application in our dataset's format, CH 1–2 and MT 136–151, plus an
 * invalid record and a second record at 151) and item files described below: a second-application
 * mathematics booklet that agrees with the records but at one isolated position and at two
 * adjacent ones, and a regular booklet that does not agree.
 */

const FIXTURE = fileURLToPath(new URL('./enem-dev-second-applications', import.meta.url))
const QUESTIONS = path.join(FIXTURE, '2012-segunda-aplicacao', 'questions')
const LETTERS = ['A', 'B', 'C', 'D', 'E']
const sourceRecords = readdirSync(QUESTIONS).map((folder) => ({ folder, value: JSON.parse(readFileSync(path.join(QUESTIONS, folder, 'details.json'), 'utf8')) as DatasetQuestion }))
const keyAt = (index: number) => sourceRecords.find(({ folder }) => folder === String(index))?.value.correctAlternative ?? LETTERS[index % 5]!
const otherKey = (key: string) => LETTERS[(LETTERS.indexOf(key) + 1) % 5]!

/** INEP's key differs at 140 alone (neighbours agree), and at 145 and 146 together. */
const ISOLATED = 140
const RUN = [145, 146]

const BOOKLETS: FixtureBooklet[] = [
  { code: 131, area: 'MT', colour: 'AZUL', first: 136, slots: Array.from({ length: 45 }, (_, at) => [{ item: 7001 + at, key: otherKey(keyAt(136 + at)) }]) },
  { code: 154, area: 'CH', colour: 'BRANCA', first: 1, slots: Array.from({ length: 45 }, (_, at) => [{ item: 8001 + at, key: keyAt(1 + at) }]) },
  {
    code: 156,
    area: 'MT',
    colour: 'CINZA',
    first: 136,
    slots: Array.from({ length: 45 }, (_, at) => {
      const index = 136 + at
      return [{ item: 6001 + at, key: index === ISOLATED || RUN.includes(index) ? otherKey(keyAt(index)) : keyAt(index) }]
    })
  }
]
const itemAt = (index: number) => BOOKLETS[2]!.slots[index - 136]![0]!

function convertFixture (t: { after: (fn: () => void) => void }) {
  const inep = mkdtempSync(path.join(tmpdir(), 'ppl-inep-'))
  t.after(() => rmSync(inep, { recursive: true, force: true }))
  writeItensProva(inep, 2012, BOOKLETS)
  const [exam] = convertEnemDevPpl(FIXTURE, inep)
  return exam!
}

test('each area is matched to the booklet its keys follow among every booklet of the year; records keep their positions and get the exam\'s title', (t) => {
  const exam = convertFixture(t)
  assert.deepEqual(exam.id, { year: 2012, application: 'ppl' })
  assert.deepEqual(exam.booklets.map((booklet) => [booklet.area, booklet.code]), [['CH', null], ['CN', null], ['LC', null], ['MT', 156]])
  // 139 shows a file the fixture does not hold: left out (the next test).
  const kept = sourceRecords.filter(({ folder, value }) => folder === String(value.index) && Array.isArray(value.alternatives) && value.index >= 136 && !RUN.includes(value.index) && value.index !== 139)
  assert.deepEqual(exam.records.map(({ record }) => [record.index, record.title]).sort((a, b) => Number(a[0]) - Number(b[0])),
    kept.map(({ value }) => [value.index, `Questão ${value.index} - ENEM PPL 2012`]).sort((a, b) => Number(a[0]) - Number(b[0])))
})

test('a key that differs between agreeing neighbours is kept and corrected by one row; a run of differing keys is left out, as are records of an area no booklet agrees with, an invalid record and a second record at one position', (t) => {
  const exam = convertFixture(t)
  assert.deepEqual(exam.leftOut.map(({ index, reason }) => [index, reason]).sort((a, b) => Number(a[0]) - Number(b[0])),
    [[1, 'no-booklet'], [2, 'no-booklet'], [139, 'missing-file'], [145, 'order'], [146, 'order'], [151, 'duplicate'], [152, 'invalid-record']])
  const wrongDiscipline = sourceRecords.filter(({ value }) => value.index >= 136 && value.discipline !== 'matematica').map(({ value }) => value.index)
  assert.deepEqual(exam.corrections.map(({ index, field, inDataset, served }) => [index, field, inDataset, served]), [
    ...wrongDiscipline.map((index) => [index, 'discipline', 'ciencias-humanas', 'matematica']),
    [ISOLATED, 'correctAlternative', keyAt(ISOLATED), itemAt(ISOLATED).key]
  ])
})

test('file addresses point into the record\'s own folder of the converted exam, the file found where the address says or in the record\'s folder; a record showing a file the source lacks is left out', (t) => {
  const exam = convertFixture(t)
  const byIndex = new Map(exam.records.map((converted) => [converted.record.index, converted]))
  const moved = byIndex.get(138)!
  assert.deepEqual(moved.record.files, ['https://enem.dev/2012-ppl/questions/138/grafico.png'])
  assert.equal(moved.record.context, 'Observe o gráfico.\n\n![](https://enem.dev/2012-ppl/questions/138/grafico.png)')
  assert.deepEqual([...moved.files], [['grafico.png', path.join(QUESTIONS, '138', 'grafico.png')]])
  assert.equal(byIndex.get(139), undefined)
  const missing = exam.leftOut.find(({ index }) => index === 139)!
  assert.deepEqual([missing.reason, missing.detail], ['missing-file', 'https://enem.dev/2012-segunda-aplicacao/questions/139/perdida.png is not in the source'])
  assert.deepEqual(exam.warnings, [])
})

test('the written folder holds the exam as 2012-ppl with its official table and correction rows (each saying application ppl), and is served with every record\'s INEP item and key', async (t) => {
  const exam = convertFixture(t)
  const out = mkdtempSync(path.join(tmpdir(), 'ppl-out-'))
  t.after(() => rmSync(out, { recursive: true, force: true }))
  writeConversion(out, [exam], 'enem-dev-second-applications')
  const [entry] = JSON.parse(readFileSync(path.join(out, 'exams.json'), 'utf8')) as Array<{ title: string, year: number, application?: string }>
  assert.deepEqual([entry!.title, entry!.year, entry!.application], ['ENEM PPL 2012', 2012, 'ppl'])
  assert.ok(existsSync(path.join(out, '2012-ppl', 'questions', '138', 'grafico.png')))
  const tableText = readFileSync(path.join(out, 'official', '2012-ppl.json'), 'utf8')
  assert.match(tableText, /^\{\n {2}"year": 2012,\n {2}"application": "ppl",/)
  const corrections = JSON.parse(readFileSync(path.join(out, 'official', 'corrections.json'), 'utf8')) as CorrectionsFile
  assert.deepEqual(corrections.rows.map((row) => row.application), exam.corrections.map(() => 'ppl'))

  const loaded = await loadDataset(out, { filesBaseUrl: 'http://api.test/files' })
  assert.deepEqual(loaded.report.errors, [])
  // The record showing a file the source lacks is not written: every address resolves.
  assert.deepEqual(loaded.report.warnings.filter(({ kind }) => kind === 'missing_file'), [])
  assert.equal(loaded.catalog!.getExam(2012), undefined)
  const questions = loaded.catalog!.getExam(2012, 'ppl')!.questions
  assert.equal(questions.length, exam.records.length)
  for (const question of questions) {
    const item = itemAt(question.index)
    assert.deepEqual([question.application, question.inep?.item, question.inep?.key, question.correctAlternative, question.discipline], ['ppl', item.item, item.key, item.key, 'matematica'], `#${question.index}`)
  }
})

/*
 * The text as the booklet prints it (asPrinted in src/data/sources/enem-dev-ppl.ts): one rule per
 * artefact of the source, each on text made for it, then on the source's own files (the project's
 * test setup's ../shared copy), where what each rule must do is read from the source record itself.
 */

test('stray indentation: each line loses the white space at its ends (spaces, no-break spaces), blank lines are one paragraph break', () => {
  const citation = 'ROSS, J. L. S. A sociedade industrial.'
  assert.equal(withoutStrayIndentation(`Texto.\n\n${' '.repeat(50)}${citation}\n${' '.repeat(30)}\n\u00a0\n   Outro parágrafo.  `), `Texto.\n\n${citation}\n\nOutro parágrafo.`)
  assert.equal(withoutStrayIndentation('Verso um\nverso dois'), 'Verso um\nverso dois')
})

test('"null": the paragraph is replaced by the figures no text shows, where it stood, or dropped when there are none', () => {
  assert.equal(withLostFiguresPutBack('Conforme a figura:\n\nnull', ['https://enem.dev/a.png', 'https://enem.dev/b.png']), 'Conforme a figura:\n\n![](https://enem.dev/a.png)\n\n![](https://enem.dev/b.png)')
  assert.equal(withLostFiguresPutBack('Um texto.\n\nnull', []), 'Um texto.')
  assert.equal(withLostFiguresPutBack('Sem nada perdido.', ['https://enem.dev/a.png']), 'Sem nada perdido.')
  // An address a plain Markdown image would end early (a parenthesis of a query) goes in angle brackets.
  assert.equal(withLostFiguresPutBack('x\n\nnull', ['https://enem.dev/f.png?latex=%5Cleft(R%5Cright)']), 'x\n\n![](<https://enem.dev/f.png?latex=%5Cleft(R%5Cright)>)')
})

const SOURCE_COPY = path.resolve(fileURLToPath(new URL('../../..', import.meta.url)), '../shared/sources/enem-dev-second-applications')
const SHARED_INEP = path.resolve(SOURCE_COPY, '../../inep')
const noCopy = existsSync(SOURCE_COPY) && existsSync(SHARED_INEP) ? false : `${SOURCE_COPY} or ${SHARED_INEP} is absent: the rules were NOT run on the source's own files`

describe('the rules on the source\'s own files', { skip: noCopy }, () => {
  /** Each converted record beside its source record (read from the source's folder, by the folder the conversion names). */
  const pairs = () => convertEnemDevPpl(SOURCE_COPY, SHARED_INEP).flatMap((exam) => exam.records.map(({ record, source }) => ({
    record,
    source: JSON.parse(readFileSync(path.join(SOURCE_COPY, source, 'details.json'), 'utf8')) as DatasetQuestion
  })))
  const texts = (record: DatasetQuestion) => [record.context, record.alternativesIntroduction, ...record.alternatives.map((alternative) => alternative.text)]
  const lostFigure = (text: string | null) => (text ?? '').split('\n').some((line) => line.trim() === 'null')
  /** A text's words, every white space and image left out: what neither rule may change. */
  const words = (text: string | null) => (text ?? '').replace(/!\[[^\]]*\]\([^)]*\)/g, '').split('\n').filter((line) => line.trim() !== 'null').join(' ').split(/\s+/).filter((word) => word !== '')

  test('indented lines: none is left, and every record keeps its words in their order', (t) => {
    let indented = 0
    for (const { record, source } of pairs()) {
      if (texts(source).some((text) => /^[ \t\u00a0]/m.test(text ?? ''))) indented++
      texts(record).forEach((text, at) => {
        assert.doesNotMatch(text ?? '', /^[ \t\u00a0]|[ \t\u00a0]$/m, `${source.year}/${source.index}`)
        assert.deepEqual(words(text), words(texts(source)[at]!), `${source.year}/${source.index}`)
      })
    }
    assert.ok(indented > 0, 'the source has indented lines')
    t.diagnostic(`${indented} converted records had indented lines in the source`)
  })

  test('"null" paragraphs: each gives way to the record\'s figures that no text showed, which then stand in the statement', (t) => {
    let putBack = 0
    let dropped = 0
    for (const { record, source } of pairs()) {
      assert.equal(texts(record).some(lostFigure), false, `${source.year}/${source.index}`)
      if (!lostFigure(source.context)) continue
      // What the source's record shows nowhere, by the one function that says what a record's figures are.
      const lost = recordFigures(source).filter((figure) => figure.place === 'files').map((figure) => path.basename(figure.address))
      const nowInStatement = recordFigures(record).filter((figure) => figure.place === 'context').map((figure) => path.basename(figure.address))
      assert.deepEqual(nowInStatement, lost, `${source.year}/${source.index}`)
      assert.deepEqual(recordFigures(record).filter((figure) => figure.place === 'files'), [], `${source.year}/${source.index}`)
      if (lost.length > 0) putBack++
      else dropped++
    }
    assert.ok(putBack > 0 && dropped > 0, `${putBack} put back, ${dropped} dropped`)
    t.diagnostic(`${putBack} "null" paragraphs replaced by the lost figures, ${dropped} dropped (no figure to put back)`)
  })
})
