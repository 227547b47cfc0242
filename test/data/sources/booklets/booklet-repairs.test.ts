import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { OfficialPosition } from '../../../../src/data/official/official-table.ts'
import type { DatasetQuestion } from '../../../../src/data/record-schemas.ts'
import { lastSentenceApart, letterShare, repairFromBooklet, repairRecord, repairRules, type RepairTarget } from '../../../../src/data/sources/booklets/booklet-repairs.ts'
import type { ConvertedExam, ConvertedRecord } from '../../../../src/data/sources/converted-exam.ts'
import { RATIO } from '../../../../src/data/sources/reading-comparison.ts'

/*
 * Repairs of another source's records from a booklet's reading of the same exam
 * (src/data/sources/booklet-repairs.ts), on records made up here: which records the rules take,
 * what the booklet gives them, when it gives nothing and why, and a dataset folder repaired in place.
 * The real ones (2023 day 2's booklet against the predecessor's records) are test/cli/dataset.test.ts's.
 */

const STATEMENT = 'Numa urna há cartões com os nomes de todos os estudantes inscritos, um cartão para cada estudante de primeiro ano e dois para cada um de segundo ano. Foram inscritos 200 estudantes de primeiro ano e 150 de segundo ano.'
const ASKING = 'Qual a probabilidade de o vencedor ser um estudante de segundo ano?'
const TEXTS = ['Um meio dos cartões da urna.', 'Um terço dos cartões da urna.', 'Três quintos dos cartões da urna.', 'Dois nonos dos cartões da urna.', 'Três oitavos dos cartões da urna.']
const LETTERS = ['A', 'B', 'C', 'D', 'E'] as const
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3])

function question (fields: Partial<DatasetQuestion> = {}): DatasetQuestion {
  return {
    title: 'Questão 141 - ENEM 2023',
    index: 141,
    discipline: 'matematica',
    language: null,
    year: 2023,
    context: null,
    files: [],
    correctAlternative: 'E',
    alternativesIntroduction: ASKING,
    alternatives: TEXTS.map((text, at) => ({ letter: LETTERS[at]!, text, file: null, isCorrect: at === 4 })),
    ...fields
  }
}

/** The booklet's reading of question 141: the statement with a figure, the asking sentence, the alternatives in lower case as printed. */
function bookletReading (fields: Partial<DatasetQuestion> = {}, files = new Map<string, Uint8Array>([['figura-1.png', PNG]])): ConvertedRecord {
  const figure = 'https://enem.dev/2023/questions/141/figura-1.png'
  return {
    record: question({
      context: `${STATEMENT}\n\n![Figura 1](${figure})`,
      files: [figure],
      alternatives: TEXTS.map((text, at) => ({ letter: LETTERS[at]!, text: text.toLowerCase(), file: null, isCorrect: at === 4 })),
      ...fields
    }),
    files,
    source: '2023_PV_impresso_D2_CD7.pdf question 141',
    sourceIndex: 141
  }
}

const target = (taken: readonly string[] = []): RepairTarget => ({ folderAddress: 'https://enem.dev/2023/questions/141/', taken: (name) => taken.includes(name) })

test('the rules take a record with no context and no figure, one showing the placeholder, one with an empty alternative; and leave a whole one alone', () => {
  assert.deepEqual(repairRules(question()), ['no-statement'])
  assert.deepEqual(repairRules(question({ context: '  ', alternativesIntroduction: `${STATEMENT} ${ASKING}` })), ['no-statement'])
  assert.deepEqual(repairRules(question({ context: `${STATEMENT} ![](https://enem.dev/broken-image.svg)` })), ['placeholder-image'])
  const empty = question({ context: STATEMENT })
  empty.alternatives[2] = { ...empty.alternatives[2]!, text: null }
  assert.deepEqual(repairRules(empty), ['empty-alternative'])
  assert.deepEqual(repairRules(question({ context: STATEMENT })), [])
  // A figure alone is something to read: not taken.
  assert.deepEqual(repairRules(question({ files: ['https://enem.dev/2023/questions/141/a.png'] })), [])
})

test('a missing statement is completed from the booklet, its figure written into the record\'s folder; the record keeps its alternatives and key', () => {
  const record = question()
  const result = repairRecord(record, ['no-statement'], bookletReading(), target())
  assert.ok(result.repaired, result.detail)
  assert.equal(result.record.context, `${STATEMENT}\n\n![Figura 1](https://enem.dev/2023/questions/141/figura-1.png)`)
  assert.deepEqual(result.record.files, ['https://enem.dev/2023/questions/141/figura-1.png'])
  assert.deepEqual(result.record.alternatives, record.alternatives, 'the alternatives differ from the booklet\'s only in capitals: the record\'s stay')
  assert.equal(result.record.correctAlternative, record.correctAlternative)
  assert.deepEqual([...result.files], [['figura-1.png', PNG]])
  assert.deepEqual(result.fields, ['context', 'files'])
  assert.match(result.detail, /missing statement completed \(\d+ words, 1 figure\)/)
})

test('a statement held whole in alternativesIntroduction is set apart: the statement in context, the asking sentence as printed', () => {
  const record = question({ alternativesIntroduction: `${STATEMENT}\n${ASKING.replace('Qual a', 'Qual é a')}` })
  const result = repairRecord(record, ['no-statement'], bookletReading({ files: [], context: STATEMENT }), target())
  assert.ok(result.repaired, result.detail)
  assert.equal(result.record.context, STATEMENT)
  assert.equal(result.record.alternativesIntroduction, ASKING)
  assert.deepEqual(result.fields, ['context', 'alternativesIntroduction'])
  assert.match(result.detail, /held in alternativesIntroduction \(\d+ words\) moved to context/)
})

test('an alternative that differs from the booklet\'s by a typo is taken as printed, with the record\'s capital; the row names it; in a short one a letter is not a typo', () => {
  const record = question()
  record.alternatives[3] = { ...record.alternatives[3]!, text: 'Dois nonnos dos cartões da urna.' }
  const result = repairRecord(record, ['no-statement'], bookletReading(), target())
  assert.ok(result.repaired, result.detail)
  assert.equal(result.record.alternatives[3]!.text, 'Dois nonos dos cartões da urna.')
  assert.deepEqual(result.record.alternatives.filter((_, at) => at !== 3), record.alternatives.filter((_, at) => at !== 3))
  assert.deepEqual(result.fields, ['context', 'files', 'alternatives/D/text'])
  assert.match(result.detail, /alternative D as the booklet prints it/)

  const numbers = question()
  const reading = bookletReading()
  numbers.alternatives[2] = { ...numbers.alternatives[2]!, text: '12' }
  reading.record.alternatives[2] = { ...reading.record.alternatives[2]!, text: '13' }
  const short = repairRecord(numbers, ['no-statement'], reading, target())
  assert.equal(short.repaired, false)
  assert.match(short.detail, /alternative C is "12" in the record and "13" in the booklet/)
})

test('another question, or one read otherwise, is not repaired, and the reason names what differs', () => {
  const other = question()
  other.alternatives[1] = { ...other.alternatives[1]!, text: 'Dois terços do total.' }
  const differing = repairRecord(other, ['no-statement'], bookletReading(), target())
  assert.equal(differing.repaired, false)
  assert.match(differing.detail, /alternative B is "dois terços do total" in the record and "um terço dos cartões da urna" in the booklet/)

  const elsewhere = repairRecord(question({ alternativesIntroduction: 'Quantos cartões foram depositados na urna pelos estudantes de terceiro ano inscritos?' }), ['no-statement'], bookletReading(), target())
  assert.equal(elsewhere.repaired, false)
  assert.match(elsewhere.detail, new RegExp(`of the record's statement is found in order in the booklet's \\(${Math.round(RATIO * 100)} % needed\\)`))

  const nothing = repairRecord(question(), ['no-statement'], bookletReading({ context: null, files: [] }), target())
  assert.equal(nothing.repaired, false)
  assert.match(nothing.detail, /prints nothing before its asking sentence/)
})

test('the placeholder is replaced by the booklet\'s statement and figure; a name the folder already holds is not overwritten', () => {
  const record = question({ context: `${STATEMENT}\n\n![](https://enem.dev/broken-image.svg)` })
  const result = repairRecord(record, ['placeholder-image'], bookletReading(), target(['figura-1.png']))
  assert.ok(result.repaired, result.detail)
  assert.equal(result.record.context, `${STATEMENT}\n\n![Figura 1](https://enem.dev/2023/questions/141/booklet-figura-1.png)`)
  assert.deepEqual(result.record.files, ['https://enem.dev/2023/questions/141/booklet-figura-1.png'])
  assert.deepEqual([...result.files.keys()], ['booklet-figura-1.png'])
  assert.equal(result.record.alternativesIntroduction, ASKING)
  // Without a figure in the booklet's reading, the placeholder stays.
  const none = repairRecord(record, ['placeholder-image'], bookletReading({ context: STATEMENT, files: [] }), target())
  assert.equal(none.repaired, false)
})

test('empty alternatives are filled with the booklet\'s (its figures written), the record\'s statement kept', () => {
  const record = question({ context: STATEMENT })
  record.alternatives[0] = { ...record.alternatives[0]!, text: null }
  const figure = 'https://enem.dev/2023/questions/141/figura-2.png'
  const reading = bookletReading({}, new Map([['figura-1.png', PNG], ['figura-2.png', PNG]]))
  reading.record.alternatives[0] = { ...reading.record.alternatives[0]!, text: null, file: figure }
  const result = repairRecord(record, ['empty-alternative'], reading, target())
  assert.ok(result.repaired, result.detail)
  assert.equal(result.record.context, STATEMENT)
  assert.deepEqual(result.record.files, [])
  assert.deepEqual(result.record.alternatives[0], { letter: 'A', text: null, file: figure, isCorrect: false })
  assert.deepEqual([...result.files.keys()], ['figura-2.png'])
  assert.deepEqual(result.fields, ['alternatives/A/file'])
})

test('a dataset folder is repaired in place: records written back with their figures, a row for each record taken, positions the booklet does not print left alone', (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'booklet-repairs-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  const write = (folder: string, record: DatasetQuestion) => {
    mkdirSync(path.join(dir, '2023', 'questions', folder), { recursive: true })
    writeFileSync(path.join(dir, '2023', 'questions', folder, 'details.json'), JSON.stringify(record, null, 4))
  }
  write('141', question())
  const otherQuestion = question({ index: 142, title: 'Questão 142 - ENEM 2023' })
  otherQuestion.alternatives[0] = { ...otherQuestion.alternatives[0]!, text: 'Nenhum.' }
  write('142', otherQuestion)
  write('143', question({ index: 143, title: 'Questão 143 - ENEM 2023' }))
  write('144', question({ index: 144, title: 'Questão 144 - ENEM 2023', context: STATEMENT }))
  write('1-ingles', question({ index: 1, language: 'ingles', title: 'Questão 1 - ENEM 2023' }))
  const unchanged = ['142', '143', '144', '1-ingles'].map((folder) => readFileSync(path.join(dir, '2023', 'questions', folder, 'details.json')))

  const at = (index: number): ConvertedRecord => {
    const reading = bookletReading()
    return { ...reading, record: { ...reading.record, index }, source: `2023_PV_impresso_D2_CD7.pdf question ${index}`, sourceIndex: index }
  }
  const position = (index: number): OfficialPosition => ({ index, language: null, area: 'MT', key: 'E', item: null, skill: null, excludedFromScoring: null, irt: null, booklet: null, sources: { key: ['k'], area: ['k'], item: null } })
  const exam: ConvertedExam = {
    kind: 'inep-booklets',
    id: { year: 2023, application: 'regular' },
    sourceRecords: 3,
    records: [at(141), at(142)],
    leftOut: [{ kind: 'inep-booklets', exam: { year: 2023, application: 'regular' }, index: 143, language: null, source: '2023_PV_impresso_D2_CD7.pdf question 143', reason: 'annulled', detail: 'Anulado in the answer key' }],
    booklets: [],
    table: { year: 2023, areaOrder: null, booklets: [], positions: [position(141), position(142), position(143), position(144)], disagreements: [], notes: [] },
    corrections: [],
    warnings: []
  }
  const rows = repairFromBooklet(dir, exam, (record) => record.language)
  assert.deepEqual(rows.map((row) => [row.index, row.rules, row.fields, row.source]), [
    [141, ['no-statement'], ['context', 'files'], '2023_PV_impresso_D2_CD7.pdf question 141'],
    [142, ['no-statement'], [], '2023_PV_impresso_D2_CD7.pdf question 142'],
    [143, ['no-statement'], [], '2023_PV_impresso_D2_CD7.pdf question 143']
  ])
  assert.match(rows[1]!.detail, /alternative A is "nenhum" in the record/)
  assert.match(rows[2]!.detail, /left it out \(annulled: Anulado in the answer key\)/)
  const repaired = JSON.parse(readFileSync(path.join(dir, '2023', 'questions', '141', 'details.json'), 'utf8')) as DatasetQuestion
  assert.equal(repaired.context, `${STATEMENT}\n\n![Figura 1](https://enem.dev/2023/questions/141/figura-1.png)`)
  assert.deepEqual(readdirSync(path.join(dir, '2023', 'questions', '141')).sort(), ['details.json', 'figura-1.png'])
  assert.deepEqual(readFileSync(path.join(dir, '2023', 'questions', '141', 'figura-1.png')), Buffer.from(PNG))
  // Not repaired, not taken, or at a position the booklet does not print (day 1): as they were.
  assert.deepEqual(['142', '143', '144', '1-ingles'].map((folder) => readFileSync(path.join(dir, '2023', 'questions', folder, 'details.json'))), unchanged)
})

test('a booklet reading that holds its statement and question in one paragraph gives the statement apart: the question is its last sentence', () => {
  assert.deepEqual(lastSentenceApart(`${STATEMENT} ${ASKING}`), { before: STATEMENT, last: ASKING })
  assert.equal(lastSentenceApart(ASKING), null)
  // Too few words before the last sentence to be a statement.
  assert.equal(lastSentenceApart(`Veja. ${ASKING}`), null)
  const result = repairRecord(question(), ['no-statement'], bookletReading({ context: null, files: [], alternativesIntroduction: `${STATEMENT} ${ASKING}` }, new Map()), target())
  assert.ok(result.repaired, result.detail)
  assert.equal(result.record.context, STATEMENT)
  assert.equal(result.record.alternativesIntroduction, ASKING)
})

test('a typo\'s letters are counted without spaces: spacing is form', () => {
  assert.equal(letterShare('CH3 -(CH)2 -CH(OH)', 'CH3-(CH)2-CH(OH)'), 1)
  // A multiplication dot typed as a full stop is form too.
  assert.equal(letterShare('x. y. z', 'x ⋅ y ⋅ z'), 1)
  assert.ok(letterShare('x. y. z', 'x + y + z') < 0.95)
})
