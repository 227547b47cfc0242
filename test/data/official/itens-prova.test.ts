import { test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { itensProvaYears, parseItensProva, readItensProva } from '../../../src/data/official/itens-prova.ts'
import { areaOfIndex, examIndexOf, languagePositions } from '../../../src/data/official/exam-layout.ts'

const REPO = fileURLToPath(new URL('../../..', import.meta.url))
const SOURCES_DIR = path.resolve(REPO, '../shared/inep')
const noSources = existsSync(path.join(SOURCES_DIR, 'itens-prova')) ? false : `${SOURCES_DIR}/itens-prova is absent: INEP's item files were NOT read`

const HEADER = 'CO_POSICAO;SG_AREA;CO_ITEM;TX_GABARITO;CO_HABILIDADE;IN_ITEM_ABAN;TX_MOTIVO_ABAN;NU_PARAM_A;NU_PARAM_B;NU_PARAM_C;TX_COR;CO_PROVA;TP_LINGUA;IN_ITEM_ADAPTADO'

/** A linguagens booklet of `common` common items after five items per language, at the positions given. */
function linguagensBooklet (englishAt: number[], spanishAt: number[], commonFrom: number, common: number): string {
  const line = (position: number, item: number, language: string) => `${position};LC;${item}.0;A;1.0;0;;1.5;0.5;0.2;AZUL;7;${language};0`
  return [
    HEADER,
    ...englishAt.map((position, rank) => line(position, 100 + rank, '0.0')),
    ...spanishAt.map((position, rank) => line(position, 200 + rank, '1.0')),
    ...Array.from({ length: common }, (_, offset) => line(commonFrom + offset, 300 + offset, ''))
  ].join('\n')
}

test('the English and the Spanish item of a language position share a slot, whether the file writes them at one position or at 1–5 and 6–10 (2017)', () => {
  const together = parseItensProva(linguagensBooklet([91, 92, 93, 94, 95], [91, 92, 93, 94, 95], 96, 40), 2012, 'fixture').booklets.get(7)!
  const apart = parseItensProva(linguagensBooklet([1, 2, 3, 4, 5], [6, 7, 8, 9, 10], 11, 40), 2017, 'fixture').booklets.get(7)!
  for (const booklet of [together, apart]) {
    assert.equal(booklet.slots.length, 45)
    assert.equal(booklet.unordered, null)
    assert.deepEqual(booklet.languages, ['ingles', 'espanhol'])
    assert.deepEqual(booklet.slots.slice(0, 5).map((slot) => slot.items.map((row) => row.item)), [[100, 200], [101, 201], [102, 202], [103, 203], [104, 204]])
    assert.deepEqual(booklet.slots.slice(5).map((slot) => slot.items.map((row) => row.item)), Array.from({ length: 40 }, (_, offset) => [300 + offset]))
  }
})

test('float item codes, 0.0/1.0 languages, empty cells and colours are read as INEP means them', () => {
  const text = [HEADER, '101;LC;;X;;1;Pedagógico;;;;AMARELO;57;;', '1;CH;60181.0;B;6.0;0;;2.2;1.0;0.3;LARANJA - BRAILE;85;;1'].join('\n')
  const [annulled, item] = parseItensProva(text, 2009, 'fixture').rows
  assert.deepEqual(annulled, {
    position: 101, area: 'LC', item: null, key: 'X', skill: null, abandoned: true, abandonReason: 'Pedagógico', irt: null, colour: 'amarelo', booklet: 57, language: null, adapted: null
  })
  assert.deepEqual(item, {
    position: 1, area: 'CH', item: 60181, key: 'B', skill: 6, abandoned: false, abandonReason: null, irt: { a: 2.2, b: 1.0, c: 0.3 }, colour: 'laranja - braile', booklet: 85, language: null, adapted: true
  })
})

test('a row that is not INEP\'s (an unknown area, a key that is no letter, a language that is neither 0 nor 1) fails naming its line', () => {
  for (const [row, message] of [
    ['1;XX;1;A;;0;;;;;AZUL;1;;', /line 3: SG_AREA "XX" is not an area/],
    ['1;CH;1;F;;0;;;;;AZUL;1;;', /line 3: TX_GABARITO "F"/],
    ['1;LC;1;A;;0;;;;;AZUL;1;2.0;', /line 3: TP_LINGUA 2 is neither 0 nor 1/]
  ] as const) {
    assert.throws(() => parseItensProva([HEADER, '1;CH;1;A;;0;;;;;AZUL;1;;', row].join('\n'), 2020, 'x.csv'), message)
  }
})

test('a booklet listing two items at one position is marked unordered, not given an order', () => {
  const text = [HEADER, '1;CH;1;A;;0;;;;;BRANCO;187;;1', '1;CH;2;C;;0;;;;;BRANCO;187;;1', '2;CH;3;B;;0;;;;;BRANCO;187;;1'].join('\n')
  assert.match(parseItensProva(text, 2013, 'fixture').booklets.get(187)!.unordered ?? '', /more than one item at 1 positions/)
})

test('our numbering: four blocks of 45 in the year\'s area order, languages at the start of linguagens from 2010 on', () => {
  assert.equal(examIndexOf(2009, 'LC', 1), 91)
  assert.equal(examIndexOf(2016, 'CN', 45), 90)
  assert.equal(examIndexOf(2017, 'MT', 1), 136)
  assert.equal(areaOfIndex(2012, 91), 'LC')
  assert.equal(areaOfIndex(2012, 181), null)
  assert.deepEqual(languagePositions(2009), [])
  assert.deepEqual(languagePositions(2011), [91, 92, 93, 94, 95])
  assert.deepEqual(languagePositions(2020), [1, 2, 3, 4, 5])
})

test('INEP\'s files: every year 2009–2025 reads, every row lands in one slot of its booklet, and every ordered booklet has 45 slots', { skip: noSources }, () => {
  const years = itensProvaYears(SOURCES_DIR)
  assert.deepEqual(years, Array.from({ length: 17 }, (_, offset) => 2009 + offset))
  for (const year of years) {
    const items = readItensProva(SOURCES_DIR, year)
    let placed = 0
    for (const booklet of items.booklets.values()) {
      placed += booklet.slots.reduce((sum, slot) => sum + slot.items.length, 0)
      if (booklet.unordered !== null) continue
      assert.equal(booklet.slots.length, 45, `${year} booklet ${booklet.code}`)
      const withLanguages = booklet.slots.filter((slot) => slot.items.length === 2).length
      assert.equal(withLanguages, booklet.languages.length === 2 ? 5 : 0, `${year} booklet ${booklet.code}`)
      if (booklet.languages.length === 1) assert.ok(booklet.slots.slice(0, 5).every((slot) => slot.items[0]!.language === booklet.languages[0]), `${year} booklet ${booklet.code}`)
      if (booklet.area !== 'LC' || year === 2009) assert.deepEqual(booklet.languages, [], `${year} booklet ${booklet.code}`)
    }
    assert.equal(placed, items.rows.length, `${year}: every row in a slot`)
  }
})

test('INEP\'s files: the traps SOURCE.md lists are where it says (2013 adapted booklets unordered; 2017 languages at 1–10; 2009 float codes)', { skip: noSources }, () => {
  const y2013 = readItensProva(SOURCES_DIR, 2013)
  for (const code of [187, 188, 189, 190]) assert.notEqual(y2013.booklets.get(code)?.unordered ?? null, null, `2013 booklet ${code}`)
  const y2017 = readItensProva(SOURCES_DIR, 2017)
  const lc = [...y2017.booklets.values()].find((booklet) => booklet.area === 'LC' && booklet.unordered === null)!
  assert.deepEqual(lc.slots[0]!.items.map((row) => [row.position, row.language]), [[1, 'ingles'], [6, 'espanhol']])
  assert.equal(lc.slots[5]!.items[0]!.position, 11)
  const y2009 = readItensProva(SOURCES_DIR, 2009)
  assert.ok(y2009.rows.every((row) => row.item === null ? row.key === 'X' : Number.isInteger(row.item)))
})
