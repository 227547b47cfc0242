import { test } from 'node:test'
import assert from 'node:assert/strict'
import { parseItensProva } from '../../../src/data/official/itens-prova.ts'
import { officialYearFromItems } from '../../../src/data/sources/inep-official.ts'
import type { DatasetQuestion } from '../../../src/data/record-schemas.ts'
import type { ConvertedRecord } from '../../../src/data/sources/converted-exam.ts'
import { checkAgainstTable } from '../../../src/data/sources/official-check.ts'
import { itensProvaText } from './itens-prova-fixture.ts'

/*
 * The last check of a conversion: the official table and its rows applied as the server applies
 * them. Fixture: twelve 2012 mathematics records and a booklet holding their items, one key differing.
 */

const LETTERS = ['A', 'B', 'C', 'D', 'E'] as const
const keyOf = (index: number) => LETTERS[index % 5]!
const items = parseItensProva(itensProvaText([{
  code: 156,
  area: 'MT',
  colour: 'CINZA',
  first: 136,
  slots: Array.from({ length: 45 }, (_, at) => [{ item: 6001 + at, key: at === 4 ? keyOf(136 + at + 1) : keyOf(136 + at) }])
}]), 2012, 'fixture')

function converted (index: number): ConvertedRecord {
  const key = keyOf(index)
  const record: DatasetQuestion = {
    title: `Questão ${index} - ENEM PPL 2012`,
    index,
    discipline: 'matematica',
    language: null,
    year: 2012,
    context: `Problema ${index}.`,
    files: [],
    correctAlternative: key,
    alternativesIntroduction: null,
    alternatives: LETTERS.map((letter) => ({ letter, text: letter, file: null, isCorrect: letter === key }))
  }
  return { record, files: new Map(), source: `fixture/${index}`, sourceIndex: index }
}

const records = Array.from({ length: 12 }, (_, at) => converted(136 + at))
const id = { year: 2012, application: 'ppl' } as const

test('every record the table gives an entry keeps its place; a differing key becomes one correction row', () => {
  const table = officialYearFromItems(items, records.map(({ record }) => record))
  const checked = checkAgainstTable('enem-dev-ppl', id, table, records)
  assert.equal(checked.records.length, records.length)
  assert.deepEqual(checked.leftOut, [])
  assert.deepEqual(checked.corrections.map(({ index, field, served }) => [index, field, served]), [[140, 'correctAlternative', keyOf(141)]])
})

test('a record the table has no entry for, or whose key it disputes, is left out rather than served without INEP\'s item or key', () => {
  const table = officialYearFromItems(items, records.map(({ record }) => record))
  const withoutEntry = { ...table, positions: table.positions.filter((position) => position.index !== 137) }
  const disputed = { ...withoutEntry, disagreements: [{ index: 140, language: null, field: 'key', values: [{ source: 'a', value: 'A' }, { source: 'b', value: 'B' }] }] }
  const checked = checkAgainstTable('enem-dev-ppl', id, disputed, records)
  assert.deepEqual(checked.leftOut.map(({ index, reason }) => [index, reason]), [[137, 'no-official-entry'], [140, 'no-official-entry']])
  assert.deepEqual(checked.records.map(({ record }) => record.index), records.map(({ record }) => record.index).filter((index) => index !== 137 && index !== 140))
  assert.deepEqual(checked.corrections, [])
})
