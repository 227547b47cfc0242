import { test } from 'node:test'
import assert from 'node:assert/strict'
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { MINIMUM_AGREEMENT, MINIMUM_COMPARED, matchBooklets, type RecordKey } from '../../../src/data/official/booklet-match.ts'
import { examIndexOf, languagePositions } from '../../../src/data/official/exam-layout.ts'
import { parseItensProva, readItensProva } from '../../../src/data/official/itens-prova.ts'
import { languageLabelFor, textLanguage } from '../../../src/data/official/language-labels.ts'
import { buildOfficialYears } from '../../../src/data/sources/inep-official.ts'
import { officialTable, readOfficialTable, OFFICIAL_DATA_DIR } from '../../../src/data/official/official-table.ts'
import { proposeCorrections } from '../../../src/data/official/corrections.ts'
import { DatasetReport } from '../../../src/data/dataset/dataset-report.ts'
import { readDataset } from '../../../src/data/dataset/read-dataset.ts'

const REPO = fileURLToPath(new URL('../../..', import.meta.url))
const SOURCES_DIR = path.resolve(REPO, '../shared/inep')
const DATASET_DIR = path.resolve(REPO, '../shared/enem-data')
const noSources = existsSync(path.join(SOURCES_DIR, 'itens-prova')) && existsSync(DATASET_DIR)
  ? false
  : `${SOURCES_DIR}/itens-prova or ${DATASET_DIR} is absent: booklets were NOT matched against the real data`

const HEADER = 'CO_POSICAO;SG_AREA;CO_ITEM;TX_GABARITO;CO_HABILIDADE;IN_ITEM_ABAN;TX_MOTIVO_ABAN;NU_PARAM_A;NU_PARAM_B;NU_PARAM_C;TX_COR;CO_PROVA;TP_LINGUA;IN_ITEM_ADAPTADO'
const LETTERS = ['A', 'B', 'C', 'D', 'E']

/** A 2012 mathematics booklet (positions 136–180) of `colour` whose keys are `keys`. */
function mathBooklet (code: number, colour: string, keys: string[], adapted = 0): string[] {
  return keys.map((key, offset) => `${136 + offset};MT;${code * 100 + offset};${key};1;0;;1.5;0.5;0.2;${colour};${code};;${adapted}`)
}

const keysOf = (shift: number) => Array.from({ length: 45 }, (_, offset) => LETTERS[(offset * 3 + shift) % 5]!)
const recordsWith = (keys: string[]): RecordKey[] => keys.map((key, offset) => ({ index: examIndexOf(2012, 'MT', offset + 1), language: null, key }))

test('of booklets sharing one order, the blue one that is not adapted and has the lowest code is taken; the others are named', () => {
  const keys = keysOf(0)
  const text = [HEADER, ...mathBooklet(151, 'AMARELO', keys), ...mathBooklet(160, 'AZUL', keys, 1), ...mathBooklet(158, 'AZUL', keys), ...mathBooklet(155, 'AZUL', keys), ...mathBooklet(170, 'AZUL', keysOf(2))].join('\n')
  const match = matchBooklets(parseItensProva(text, 2012, 'fixture'), recordsWith(keys)).find((entry) => entry.area === 'MT')!
  assert.equal(match.booklet?.code, 155)
  assert.deepEqual(match.sameOrder, [151, 158, 160])
  assert.equal(match.agreement?.agree, 45)
})

test(`a booklet agreeing on fewer than ${MINIMUM_AGREEMENT * 100} % of the compared positions, or compared on fewer than ${MINIMUM_COMPARED}, is not taken; an incomplete area that agrees is`, () => {
  const keys = keysOf(0)
  const records = recordsWith(keys.map((key, offset) => (offset < 10 ? LETTERS[(LETTERS.indexOf(key) + 1) % 5]! : key)))
  const text = [HEADER, ...mathBooklet(155, 'AZUL', keys)].join('\n')
  const match = matchBooklets(parseItensProva(text, 2012, 'fixture'), records).find((entry) => entry.area === 'MT')!
  assert.equal(match.booklet, null)
  assert.deepEqual([match.agreement?.code, match.agreement?.agree, match.agreement?.compared], [155, 35, 45])
  const bookletOnly = parseItensProva(text, 2012, 'fixture')
  const few = matchBooklets(bookletOnly, recordsWith(keys).slice(0, MINIMUM_COMPARED - 1)).find((entry) => entry.area === 'MT')!
  assert.equal(few.booklet, null)
  const incomplete = matchBooklets(bookletOnly, recordsWith(keys).slice(0, 30)).find((entry) => entry.area === 'MT')!
  assert.equal(incomplete.booklet?.code, 155)
})

test('the text check tells English from Spanish, and says nothing of a text in neither', () => {
  const question = (context: string) => ({ context, alternativesIntroduction: null, alternatives: [] })
  assert.equal(textLanguage(question('The study shows that the students who read with their parents are more likely to finish school, and this is what they found.')), 'ingles')
  assert.equal(textLanguage(question('En la ciudad hay muchos parques y los niños juegan con sus amigos, pero también están las calles del centro.')), 'espanhol')
  assert.equal(textLanguage(question('O texto apresenta uma crítica ao uso da tecnologia na escola, e a charge ironiza essa situação.')), null)
})

test('the item data has every year\'s booklets, and for every exam of the dataset the booklets found agree on at least 95 % of its keys', { skip: noSources }, () => {
  const dataset = readDataset(DATASET_DIR, new DatasetReport())!
  for (const exam of dataset.exams) {
    const year = exam.summary.year
    const records = exam.records.map(({ record }) => ({ index: record.index, language: record.language, key: record.correctAlternative }))
    const matches = matchBooklets(readItensProva(SOURCES_DIR, year), records)
    assert.equal(matches.length, 4)
    let agree = 0
    let compared = 0
    for (const match of matches) {
      assert.ok(match.booklet !== null, `${year} ${match.area}: no booklet agrees`)
      agree += match.agreement!.agree
      compared += match.agreement!.compared
      // The contract's naming rule among booklets of one order: blue first.
      if (match.sameOrder.length > 0) assert.equal(match.booklet.colour, 'azul', `${year} ${match.area}`)
    }
    assert.ok(agree >= 0.95 * compared, `${year}: ${agree} of ${compared}`)
  }
})

test('every null-language record at a foreign-language position gets the language the rule gives; where its text plainly is in one, that one', { skip: noSources }, () => {
  const dataset = readDataset(DATASET_DIR, new DatasetReport())!
  const table = readOfficialTable(OFFICIAL_DATA_DIR)
  let labelled = 0
  for (const exam of dataset.exams) {
    const year = exam.summary.year
    for (const { record } of exam.records) {
      if (record.language !== null || !languagePositions(year).includes(record.index)) continue
      const siblings = exam.records.filter(({ record: other }) => other.index === record.index && other !== record).map(({ record: other }) => other.language)
      const label = languageLabelFor(record, siblings, table.entriesByPosition.get(`${year}|${record.index}`) ?? [])
      assert.ok(label !== null, `${year}/${record.index}: no language`)
      assert.ok(!siblings.includes(label.language), `${year}/${record.index}: ${label.language} is its sibling's`)
      const written = textLanguage(record)
      if (written !== null) assert.equal(label.language, written, `${year}/${record.index}: the text is ${written}`)
      const row = table.corrections.find((candidate) => candidate.year === year && candidate.index === record.index && candidate.field === 'language')
      assert.equal(row?.served, label.language, `${year}/${record.index}: corrections.json`)
      labelled++
    }
  }
  assert.equal(labelled, table.corrections.filter((row) => row.field === 'language').length)
  assert.ok(labelled > 0)
})

test('a corrupted copy of an ITENS_PROVA row changes the table and the second sources report it', { skip: noSources }, async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'enem-inep-'))
  try {
    await cp(SOURCES_DIR, dir, { recursive: true })
    const dataset = readDataset(DATASET_DIR, new DatasetReport())!
    const records = dataset.exams.filter((exam) => exam.summary.year === 2020).flatMap((exam) => exam.records.map(({ record }) => record))
    const before = buildOfficialYears(SOURCES_DIR, records).find((year) => year.year === 2020)!
    // The blue CH booklet's item at our position 50 (day 1, which the answer-key PDF covers); 2020's has no twin of the same order.
    const target = before.positions.find((position) => position.index === 50)!
    const file = path.join(dir, target.sources.item!)
    const lines = (await readFile(file, 'utf8')).split('\n')
    const at = lines.findIndex((line) => line.split(';')[2] === String(target.item) && line.split(';')[11] === String(target.booklet!.code))
    assert.ok(at > 0)
    const cells = lines[at]!.split(';')
    const corrupted = LETTERS.find((letter) => letter !== target.key)!
    cells[3] = corrupted
    lines[at] = cells.join(';')
    await writeFile(file, lines.join('\n'))
    const after = buildOfficialYears(dir, records).find((year) => year.year === 2020)!
    assert.equal(after.positions.find((position) => position.index === 50)!.key, corrupted)
    const reported = after.disagreements.filter((disagreement) => disagreement.index === 50 && disagreement.field === 'key')
    assert.ok(reported.some((disagreement) => disagreement.values.some(({ source }) => source.includes('gabaritos/2020_dia1.pdf'))))
    assert.equal(before.disagreements.filter((disagreement) => disagreement.index === 50).length, 0)
    // A disputed key corrects nothing: the record at 50 keeps its letter.
    const rows = proposeCorrections(officialTable('', [after], []), records)
    assert.ok(!rows.some((row) => row.index === 50 && row.field === 'correctAlternative'))
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
})
