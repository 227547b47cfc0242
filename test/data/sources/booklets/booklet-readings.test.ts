import { test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { OfficialPosition } from '../../../../src/data/official/official-table.ts'
import type { DatasetQuestion } from '../../../../src/data/record-schemas.ts'
import { readingsFromBooklet, TRUST_SHARE } from '../../../../src/data/sources/booklets/booklet-readings.ts'
import type { ConvertedExam, ConvertedRecord } from '../../../../src/data/sources/converted-exam.ts'

/*
 * The print wins where two readings agree (src/data/sources/booklets/booklet-readings.ts), on a dataset
 * folder made up here: which records become the print's, which keep the transcription's and why, when
 * a re-save repairs and when it does not. The real exams are test/cli/dataset.test.ts's.
 */

const LETTERS = ['A', 'B', 'C', 'D', 'E'] as const
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3])
const BOOKLET = '2014_PV_impresso_D2_CD7.pdf'

const statement = (index: number) => `Texto da questão ${index}: um estudante mediu a temperatura da água em ${index} pontos do rio e anotou cada medida num caderno, com a hora e o lugar.`
const asking = 'Qual conclusão os dados permitem?'
const alternative = (index: number, at: number) => `Conclusão ${LETTERS[at]} da questão ${index}.`

/** The transcription's record: typed, each alternative capitalised, key E. */
function transcription (index: number, fields: Partial<DatasetQuestion> = {}): DatasetQuestion {
  return {
    title: `Questão ${index} - ENEM 2014`,
    index,
    discipline: 'matematica',
    language: null,
    year: 2014,
    context: statement(index),
    files: [],
    correctAlternative: 'E',
    alternativesIntroduction: asking,
    alternatives: LETTERS.map((letter, at) => ({ letter, text: alternative(index, at), file: null, isCorrect: letter === 'E' })),
    ...fields
  }
}

/** The booklet's reading of the same question: the same words as printed (lower-case alternatives, a figure), its own idea of the key. */
function print (index: number, fields: Partial<DatasetQuestion> = {}): ConvertedRecord {
  const figure = `https://enem.dev/2014/questions/${index}/figura-1.png`
  return {
    record: {
      ...transcription(index),
      context: `${statement(index)}\n\n![Figura 1](${figure})`,
      files: [figure],
      correctAlternative: 'A',
      alternatives: LETTERS.map((letter, at) => ({ letter, text: alternative(index, at).toLowerCase(), file: null, isCorrect: letter === 'A' })),
      ...fields
    },
    files: new Map([['figura-1.png', PNG]]),
    source: `${BOOKLET} question ${index}`,
    sourceIndex: index
  }
}

const position = (index: number): OfficialPosition => ({ index, language: null, area: 'MT', key: 'E', item: null, skill: null, excludedFromScoring: null, irt: null, booklet: null, sources: { key: ['k'], area: ['k'], item: null } })

interface Made { dir: string, read: (index: number) => DatasetQuestion, files: (index: number) => string[] }

/**
 * A folder of 2014 with day 2's records 91–100 (statements), 101 (none) and day 1's 5, and a booklet
 * reading of day 2 in which `disagreeing` of 91–100 read another alternative C.
 */
function made (t: { after: (fn: () => void) => void }, disagreeing: number, extra: { records?: DatasetQuestion[], readings?: ConvertedRecord[] } = {}): { made: Made, exam: ConvertedExam } {
  const dir = mkdtempSync(path.join(tmpdir(), 'booklet-readings-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  const records = [...[91, 92, 93, 94, 95, 96, 97, 98, 99, 100].map((index) => transcription(index)), transcription(101, { context: null }), transcription(5), ...(extra.records ?? [])]
  for (const record of records) {
    mkdirSync(path.join(dir, '2014', 'questions', String(record.index)), { recursive: true })
    writeFileSync(path.join(dir, '2014', 'questions', String(record.index), 'details.json'), JSON.stringify(record, null, 2))
  }
  const readings = [...[91, 92, 93, 94, 95, 96, 97, 98, 99, 100, 101].map((index) => {
    const reading = print(index)
    if (index - 90 <= disagreeing) reading.record.alternatives[2] = { ...reading.record.alternatives[2]!, text: 'Outra conclusão, lida de outro modo.' }
    return reading
  }), ...(extra.readings ?? [])]
  const exam: ConvertedExam = {
    kind: 'inep-booklets',
    id: { year: 2014, application: 'regular' },
    sourceRecords: readings.length,
    records: readings,
    leftOut: [],
    booklets: [],
    table: { year: 2014, areaOrder: null, booklets: [], positions: [...new Set([...readings.map((reading) => reading.record.index), ...records.filter((record) => record.index > 90).map((record) => record.index)])].map(position), disagreements: [], notes: [] },
    corrections: [],
    warnings: []
  }
  const folder = (index: number) => path.join(dir, '2014', 'questions', String(index))
  return { made: { dir, read: (index) => JSON.parse(readFileSync(path.join(folder(index), 'details.json'), 'utf8')) as DatasetQuestion, files: (index) => readdirSync(folder(index)).sort() }, exam }
}

test('agreeing records become the print\'s (statement, figure, alternatives as printed), keeping their key; a disagreeing one keeps the transcription, a row giving both readings', (t) => {
  const { made: folder, exam } = made(t, 1)
  const result = readingsFromBooklet(folder.dir, exam, (record) => record.language, new Set())
  assert.deepEqual(result.counts, { print: 9, agreeingKept: 0, disagreeing: 1, repaired: 1, notRepaired: 0, notPrinted: 1 })
  const printed = folder.read(92)
  assert.equal(printed.context, `${statement(92)}\n\n![Figura 1](https://enem.dev/2014/questions/92/figura-1.png)`)
  assert.deepEqual(printed.alternatives.map((entry) => [entry.text, entry.isCorrect]), LETTERS.map((letter, at) => [alternative(92, at).toLowerCase(), letter === 'E']))
  assert.equal(printed.correctAlternative, 'E')
  assert.deepEqual(folder.files(92), ['details.json', 'figura-1.png'])
  assert.deepEqual(readFileSync(path.join(folder.dir, '2014', 'questions', '92', 'figura-1.png')), Buffer.from(PNG))
  // 91 read otherwise: the transcription, untouched; its row says where and gives both.
  assert.deepEqual(folder.read(91), transcription(91))
  assert.deepEqual(result.readings.map((row) => [row.index, row.why, row.transcription, row.print]), [[91, 'alternatives-differ', `C) ${alternative(91, 2)}`, 'C) Outra conclusão, lida de outro modo.']])
  // Day 1 is not printed: untouched. 101 had no statement: repaired (INEP's bytes need no trust).
  assert.deepEqual(folder.read(5), transcription(5))
  assert.deepEqual(result.repairs.map((row) => [row.index, row.fields]), [[101, ['context', 'files']]])
  assert.deepEqual(result.days, [{ booklet: BOOKLET, day: 2, resave: false, compared: 10, agreeing: 9, trustedForRepairs: true }])
})

test(`a re-save repairs only when its reading agrees on ${TRUST_SHARE * 100} % of the day's other records`, (t) => {
  const trusted = made(t, 1)
  const nine = readingsFromBooklet(trusted.made.dir, trusted.exam, (record) => record.language, new Set([BOOKLET]))
  assert.deepEqual([nine.days[0]!.agreeing, nine.days[0]!.compared, nine.days[0]!.trustedForRepairs, nine.counts.repaired], [9, 10, true, 1])

  const doubtful = made(t, 2)
  const eight = readingsFromBooklet(doubtful.made.dir, doubtful.exam, (record) => record.language, new Set([BOOKLET]))
  assert.deepEqual([eight.days[0]!.agreeing, eight.days[0]!.trustedForRepairs, eight.counts.repaired, eight.counts.notRepaired], [8, false, 0, 1])
  assert.match(eight.repairs[0]!.detail, /re-save.*8 of the day's 10 other records \(80 %; 90 % needed/)
  assert.deepEqual(doubtful.made.read(101), transcription(101, { context: null }))
  // The agreeing records are the print's all the same: their own agreement is the check.
  assert.equal(eight.counts.print, 8)
})

test('the transcription stays where the print\'s reading shows fewer figures, has its statement in the asking sentence alone, or has no such question; the figures it no longer names leave its folder', (t) => {
  const pictured = transcription(102, { files: ['https://enem.dev/2014/questions/102/a.png', 'https://enem.dev/2014/questions/102/b.png'] })
  const replaced = transcription(104, { files: ['https://enem.dev/2014/questions/104/old.png'] })
  const runTogether = print(105, { context: null, files: [], alternativesIntroduction: `${statement(105)} ${asking}` })
  // A typo of the transcription (an accent dropped) is no disagreement: the print corrects it.
  const mistyped = transcription(106)
  mistyped.alternatives[0] = { ...mistyped.alternatives[0]!, text: alternative(106, 0).replace('questão', 'questao') }
  const { made: folder, exam } = made(t, 0, { records: [pictured, transcription(103), replaced, transcription(105), mistyped], readings: [print(102), print(104), runTogether, print(106)] })
  writeFileSync(path.join(folder.dir, '2014', 'questions', '104', 'old.png'), PNG)
  const result = readingsFromBooklet(folder.dir, exam, (record) => record.language, new Set())
  assert.deepEqual(result.readings.map((row) => [row.index, row.why]), [[102, 'fewer-figures'], [103, 'not-read'], [105, 'print-without-statement']])
  assert.deepEqual([result.counts.agreeingKept, result.counts.disagreeing, result.counts.print], [2, 1, 12])
  assert.equal(folder.read(106).alternatives[0]!.text, alternative(106, 0).toLowerCase())
  assert.deepEqual(folder.read(102), pictured)
  // The words agree, but taking the print would leave 105 without a statement.
  assert.deepEqual(folder.read(105), transcription(105))
  assert.deepEqual(folder.files(104), ['details.json', 'figura-1.png'])
  assert.equal(existsSync(path.join(folder.dir, '2014', 'questions', '104', 'old.png')), false)
})
