import { describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseItensProva, readItensProva, type YearItems } from '../../../../src/data/official/itens-prova.ts'
import type { Area } from '../../../../src/data/record-schemas.ts'
import { bookletColour } from '../../../../src/data/sources/booklets/booklet-colours.ts'
import { findBookletFiles, listBookletFiles } from '../../../../src/data/sources/booklets/booklet-files.ts'
import { bookletKeys, resolveBookletKeys, type BookletKeys, type BookletKeysInput } from '../../../../src/data/sources/booklets/booklet-keys.ts'
import { convertEnemDevPpl } from '../../../../src/data/sources/enem-dev-ppl.ts'
import { parseGabarito, readGabarito, type Gabarito } from '../../../../src/data/sources/inep-official.ts'
import { INEP_DATA_DIR } from '../../../../src/data/sources/build-dataset.ts'
import { itensProvaText, type FixtureBooklet } from '../itens-prova-fixture.ts'

/*
 * The keys of a printed booklet: first on item data and answer keys made up here (the rules one by
 * one), then on INEP's files beside the repository (../shared/inep: booklets, answer keys, ITENS_PROVA),
 * where every expectation is derived from those files, not typed in.
 */

const REPO = fileURLToPath(new URL('../../../..', import.meta.url))
const INEP = path.resolve(REPO, '../shared/inep')
const BOOKLETS = path.join(INEP, 'booklets')
const GABARITOS = path.join(INEP, 'gabaritos')
const PPL_SOURCE = path.resolve(REPO, '../shared/sources/enem-dev-second-applications')
const noBooklets = existsSync(BOOKLETS) && existsSync(path.join(INEP, 'itens-prova')) ? false : `${BOOKLETS} or ${INEP}/itens-prova is absent: INEP's booklets' keys were NOT resolved`
const noGabaritos = existsSync(GABARITOS) && existsSync(path.join(INEP, 'itens-prova')) ? false : `${GABARITOS} or ${INEP}/itens-prova is absent: the rules were NOT held against INEP's answer keys`
const noPplSource = existsSync(PPL_SOURCE) && existsSync(path.join(INEP, 'itens-prova')) ? false : `${PPL_SOURCE} is absent: the second-application rule was NOT held against the dataset's second applications`

// ---------------------------------------------------------------------------------------------
// Made-up item data and answer keys

const HEADINGS: Record<Area, string> = { LC: 'LINGUAGENS, CÓDIGOS', CH: 'CIÊNCIAS HUMANAS', CN: 'CIÊNCIAS DA NATUREZA', MT: 'MATEMÁTICA E SUAS' }

/** An answer key laid out as `pdftotext -layout` gives INEP's: a heading naming day, caderno and colour, two columns under their areas' headings, two key columns (INGLÊS, ESPANHOL) on language rows. */
function answerKeyText (heading: string, [left, right]: [Area, Area], rows: ReadonlyArray<readonly [number, readonly string[]]>): string {
  const pad = (text: string, width: number) => text.padEnd(width)
  // The left column holds the day's first 45 numbers.
  const firstRight = Math.min(...rows.map(([index]) => index)) + 45
  const leftSide = rows.filter(([index]) => index < firstRight)
  const rightSide = rows.filter(([index]) => index >= firstRight)
  const lines = [heading, '', `   ${pad(HEADINGS[left], 34)}${HEADINGS[right]}`, 'QUESTÃO                               QUESTÃO     GABARITO']
  if (leftSide.some(([, keys]) => keys.length === 2)) lines.push('             INGLÊS       ESPANHOL')
  for (let at = 0; at < Math.max(leftSide.length, rightSide.length); at++) {
    const l = leftSide[at]
    const r = rightSide[at]
    const leftText = l === undefined ? '' : l[1].length === 2 ? `   ${pad(String(l[0]), 10)}${pad(l[1][0]!, 14)}${l[1][1]}` : `   ${pad(String(l[0]), 17)}${l[1][0]}`
    lines.push(r === undefined ? leftText : `${pad(leftText, 40)}${pad(String(r[0]), 14)}${r[1][0]}`)
  }
  return lines.join('\n') + '\n'
}

const slotsOf = (items: ReadonlyArray<number>, keys: string) => items.map((item, at) => [{ item, key: keys[at]! }])
const languageSlots = (english: readonly number[], spanish: readonly number[], keys: string) =>
  english.map((item, at) => [{ item, key: keys[2 * at]!, language: 'ingles' as const }, { item: spanish[at]!, key: keys[2 * at + 1]!, language: 'espanhol' as const }])

/**
 * A 2025 day 1 in miniature: linguagens (two language positions, then 3–5) and humanas (46–48).
 * Edition A (regular, codes 10–13) in blue and white; edition B (another application, 20–21) in blue, other items.
 */
const DAY_ONE: FixtureBooklet[] = [
  { code: 10, area: 'LC', colour: 'AZUL', first: 1, slots: [...languageSlots([101, 102], [201, 202], 'ABCD'), ...slotsOf([301, 302, 303], 'EAX')] },
  { code: 11, area: 'CH', colour: 'AZUL', first: 46, slots: slotsOf([401, 402, 403], 'BCD') },
  { code: 12, area: 'LC', colour: 'BRANCA', first: 1, slots: [...languageSlots([102, 101], [202, 201], 'CDAB'), ...slotsOf([303, 301, 302], 'XEA')] },
  { code: 13, area: 'CH', colour: 'BRANCA', first: 46, slots: slotsOf([403, 401, 402], 'DBC') },
  { code: 20, area: 'LC', colour: 'AZUL', first: 1, slots: [...languageSlots([111, 112], [211, 212], 'EEDD'), ...slotsOf([311, 312, 313], 'CCB')] },
  { code: 21, area: 'CH', colour: 'AZUL', first: 46, slots: slotsOf([411, 412, 413], 'AAE') }
]
const dayOneItems = (booklets: readonly FixtureBooklet[] = DAY_ONE, year = 2025): YearItems => parseItensProva(itensProvaText(booklets), year, `itens-prova/ITENS_PROVA_${year}.csv`)

/** The answer key of a fixture booklet pair, as printed: one row per number, the two languages' keys on a language row; X printed as Anulado. */
function keyOfBooklets (heading: string, booklets: readonly FixtureBooklet[], change: (index: number, language: string | null, key: string) => string = (_i, _l, key) => key): Gabarito {
  const rows = new Map<number, string[]>()
  for (const booklet of booklets) {
    booklet.slots.forEach((items, at) => {
      const index = booklet.first + at
      rows.set(index, items.map((item) => {
        const key = change(index, item.language ?? null, item.key)
        return key === 'X' ? 'Anulado' : key
      }))
    })
  }
  return parseGabarito(answerKeyText(heading, [booklets[0]!.area, booklets[1]!.area], [...rows].sort(([a], [b]) => a - b)), 'fixture-key.pdf')
}

const resolve = (input: Partial<BookletKeysInput> & Pick<BookletKeysInput, 'items' | 'answerKey'>): BookletKeys =>
  resolveBookletKeys({ year: 2025, application: 'regular', day: 1, cd: 1, ...input })

const BLUE_HEADING = '1º DIA - CADERNO 1\nAzul\nGabarito 2025'

describe('keys of a booklet, on made-up item data and answer keys', () => {
  test('the answer key selects the booklet whose keys it prints, though another application\'s blue booklet has a lower code', () => {
    const keys = resolve({ items: dayOneItems(), answerKey: keyOfBooklets(BLUE_HEADING, [DAY_ONE[4]!, DAY_ONE[5]!]) })
    assert.deepEqual(keys.areas.map((area) => [area.area, area.coProva, area.colour]), [['LC', 20, 'azul'], ['CH', 21, 'azul']])
    assert.equal(keys.answerKeyCount, 10)
    assert.deepEqual(keys.leftOut, [])
  })

  test('positions come in booklet order, numbered as printed: English 1–2, Spanish 1–2, then 3–5 and the next area; areas, languages and items from ITENS_PROVA', () => {
    const keys = resolve({ items: dayOneItems(), answerKey: null })
    assert.deepEqual(keys.positions.map((position) => [position.index, position.language, position.area, position.key, position.item?.item, position.coProva]), [
      [1, 'ingles', 'LC', 'A', 101, 10], [2, 'ingles', 'LC', 'C', 102, 10], [1, 'espanhol', 'LC', 'B', 201, 10], [2, 'espanhol', 'LC', 'D', 202, 10],
      [3, null, 'LC', 'E', 301, 10], [4, null, 'LC', 'A', 302, 10], [5, null, 'LC', null, 303, 10],
      [46, null, 'CH', 'B', 401, 11], [47, null, 'CH', 'C', 402, 11], [48, null, 'CH', 'D', 403, 11]
    ])
    assert.deepEqual(keys.leftOut.map(({ index, reason }) => [index, reason]), [[5, 'annulled']])
    assert.match(keys.leftOut[0]!.detail, /no letter anywhere: ITENS_PROVA_2025 gives X and no answer key was given/)
  })

  test('without the booklet\'s answer key, the regular application\'s booklet of the caderno\'s colour: the lowest code\'s edition, in blue and in white', () => {
    assert.deepEqual(resolve({ items: dayOneItems(), answerKey: null }).areas.map((area) => area.coProva), [10, 11])
    assert.deepEqual(resolve({ items: dayOneItems(), answerKey: null, cd: 3 }).areas.map((area) => [area.coProva, area.colour]), [[12, 'branca'], [13, 'branca']])
  })

  test('another colour\'s answer key of the day tells the regular application when its codes are not the lowest', () => {
    // Edition B (20–21) in white too, and a white key printing B's keys: B is the regular application.
    const whiteB: FixtureBooklet[] = [
      { code: 22, area: 'LC', colour: 'BRANCA', first: 1, slots: [...languageSlots([112, 111], [212, 211], 'EEDD'), ...slotsOf([313, 312, 311], 'BCC')] },
      { code: 23, area: 'CH', colour: 'BRANCA', first: 46, slots: slotsOf([413, 412, 411], 'EAA') }
    ]
    const items = dayOneItems([...DAY_ONE, ...whiteB])
    const dayKey = keyOfBooklets('1º DIA - CADERNO 3\nBranco\nGabarito 2025', whiteB)
    const keys = resolve({ items, answerKey: null, dayKey })
    assert.deepEqual(keys.areas.map((area) => area.coProva), [20, 21])
    assert.match(keys.areas[0]!.how, /whose keys fixture-key\.pdf prints/)
  })

  test('a letter the answer key prints otherwise refuses the booklet, naming the position and both letters', () => {
    const tampered = keyOfBooklets(BLUE_HEADING, [DAY_ONE[0]!, DAY_ONE[1]!], (index, _language, key) => (index === 47 ? 'E' : key))
    assert.throws(() => resolve({ items: dayOneItems(), answerKey: tampered }), /fixture-key\.pdf disagrees with ITENS_PROVA_2025 at 1 position: position 47: the answer key prints E, ITENS_PROVA_2025 \(CO_PROVA 11\) gives C/)
    const spanish = keyOfBooklets(BLUE_HEADING, [DAY_ONE[0]!, DAY_ONE[1]!], (index, language, key) => (index === 2 && language === 'espanhol' ? 'A' : key))
    assert.throws(() => resolve({ items: dayOneItems(), answerKey: spanish }), /position 2 \(espanhol\): the answer key prints A, ITENS_PROVA_2025 \(CO_PROVA 10\) gives D/)
  })

  test('Anulado in the answer key is X in ITENS_PROVA: agreement, and the position is left out; Anulado against a letter is a disagreement', () => {
    const keys = resolve({ items: dayOneItems(), answerKey: keyOfBooklets(BLUE_HEADING, [DAY_ONE[0]!, DAY_ONE[1]!]) })
    assert.deepEqual(keys.areas.map((area) => area.coProva), [10, 11])
    assert.deepEqual(keys.leftOut.map(({ index, detail }) => [index, detail]), [[5, 'no letter anywhere: ITENS_PROVA_2025 gives X, fixture-key.pdf prints Anulado']])
    const annulled = keyOfBooklets(BLUE_HEADING, [DAY_ONE[0]!, DAY_ONE[1]!], (index, _language, key) => (index === 46 ? 'X' : key))
    assert.throws(() => resolve({ items: dayOneItems(), answerKey: annulled }), /position 46: the answer key prints X \(annulled\), ITENS_PROVA_2025 \(CO_PROVA 11\) gives B/)
  })

  test('an answer key printing a number under another area\'s heading than ITENS_PROVA gives refuses the booklet', () => {
    const rows = (booklet: FixtureBooklet) => booklet.slots.map((items, at) => [booklet.first + at, items.map((item) => (item.key === 'X' ? 'Anulado' : item.key))] as const)
    const swapped = parseGabarito(answerKeyText(BLUE_HEADING, ['CH', 'LC'], [...rows(DAY_ONE[0]!), ...rows(DAY_ONE[1]!)]), 'swapped.pdf')
    assert.throws(() => resolve({ items: dayOneItems(), answerKey: swapped }), /swapped\.pdf disagrees with ITENS_PROVA_2025 at 10 positions: position 1 \(ingles\): printed under CH, ITENS_PROVA_2025 gives LC/)
  })

  test('an answer key of another caderno, day or colour is refused', () => {
    assert.throws(() => resolve({ items: dayOneItems(), answerKey: keyOfBooklets('1º DIA - CADERNO 3\nBranco', [DAY_ONE[0]!, DAY_ONE[1]!]) }), /fixture-key\.pdf: it is the answer key of CD3, not of ENEM 2025 day 1 CD1/)
    assert.throws(() => resolve({ items: dayOneItems(), answerKey: keyOfBooklets('2º DIA - CADERNO 1\nAzul', [DAY_ONE[0]!, DAY_ONE[1]!]) }), /the answer key of day 2/)
    assert.throws(() => resolve({ items: dayOneItems(), answerKey: keyOfBooklets('1º DIA - CADERNO 1\nRosa', [DAY_ONE[0]!, DAY_ONE[1]!]) }), /the answer key of a rosa booklet \(CD1 is azul\)/)
  })

  test('without ITENS_PROVA: keys, areas (the column under each heading) and languages (the INGLÊS and ESPANHOL columns) from the answer key alone', () => {
    const keys = resolve({ items: null, answerKey: keyOfBooklets(BLUE_HEADING, [DAY_ONE[0]!, DAY_ONE[1]!]) })
    const withItems = resolve({ items: dayOneItems(), answerKey: null })
    assert.deepEqual(keys.positions.map(({ index, language, area, key }) => ({ index, language, area, key })), withItems.positions.map(({ index, language, area, key }) => ({ index, language, area, key })))
    assert.ok(keys.positions.every((position) => position.item === null && position.coProva === null))
    assert.deepEqual(keys.areas.map((area) => [area.area, area.coProva]), [['LC', null], ['CH', null]])
    assert.deepEqual(keys.leftOut.map(({ index, reason }) => [index, reason]), [[5, 'annulled']])
  })

  test('neither ITENS_PROVA nor an answer key is refused in one line', () => {
    assert.throws(() => resolve({ items: null, answerKey: null }), /^Error: ENEM 2025 day 1 CD1: neither ITENS_PROVA nor an answer key: its keys cannot be known$/)
    assert.throws(() => bookletKeys({ year: 2025, application: 'regular', day: 1, cd: 1, inepDir: null, answerKeyPdf: null }), /^Error: ENEM 2025 day 1 CD1: no ITENS_PROVA_2025\.csv and no answer-key PDF: its keys cannot be known$/)
  })

  test('the areas of a day and their order come from ITENS_PROVA\'s positions, not from fixed ranges', () => {
    const twoAreas = (year: number, first: Area, second: Area) => dayOneItems([
      { code: 1, area: first, colour: 'AZUL', first: 1, slots: slotsOf([1, 2], 'AB') },
      { code: 2, area: second, colour: 'AZUL', first: 46, slots: slotsOf([3, 4], 'CD') }
    ], year)
    for (const [year, first, second] of [[2009, 'CN', 'CH'], [2012, 'CH', 'CN'], [2025, 'LC', 'CH']] as const) {
      const keys = resolve({ year, items: twoAreas(year, first, second), answerKey: null })
      assert.deepEqual(keys.positions.map((position) => [position.index, position.area]), [[1, first], [2, first], [46, second], [47, second]], String(year))
    }
    // 2012's language positions are on day 2, at 91–95.
    const dayTwo = dayOneItems([
      { code: 3, area: 'LC', colour: 'AZUL', first: 91, slots: [...languageSlots([5], [6], 'AB'), ...slotsOf([7], 'C')] },
      { code: 4, area: 'MT', colour: 'AZUL', first: 136, slots: slotsOf([8], 'D') }
    ], 2012)
    const keys = resolve({ year: 2012, day: 2, cd: 7, items: dayTwo, answerKey: null })
    assert.deepEqual(keys.positions.map((position) => [position.index, position.language, position.area]), [[91, 'ingles', 'LC'], [91, 'espanhol', 'LC'], [92, null, 'LC'], [136, null, 'MT']])
  })

  describe('the second application without its answer key', () => {
    const grey = (code: number, area: Area, items: readonly number[], first: number, extra: Partial<FixtureBooklet> = {}): FixtureBooklet =>
      ({ code, area, colour: 'CINZA', first, slots: slotsOf(items, 'ABCDE'), ...extra })
    // Regular 30/31; the second application under two runs, 40/41 and 60/61 (one order); a third edition 80/81; adapted versions of the second application (62, 63).
    const booklets = [
      grey(30, 'CN', [1, 2, 3], 91), grey(31, 'MT', [4, 5, 6], 136),
      grey(40, 'CN', [11, 12, 13], 91), grey(41, 'MT', [14, 15, 16], 136), grey(60, 'CN', [11, 12, 13], 91), grey(61, 'MT', [14, 15, 16], 136),
      grey(62, 'CN', [11, 12, 99], 91, { adapted: true, colour: 'LARANJA' }), grey(63, 'MT', [14, 15, 98], 136, { adapted: true, colour: 'LARANJA' }),
      grey(80, 'CN', [21, 22, 23], 91), grey(81, 'MT', [24, 25, 26], 136)
    ]
    const ppl = (list: FixtureBooklet[]) => resolve({ year: 2020, application: 'ppl', day: 2, cd: 6, items: dayOneItems(list, 2020), answerKey: null })

    test('the edition besides the regular one that INEP also prints in adapted versions; of its two runs of codes, the later one\'s booklet', () => {
      const keys = ppl(booklets)
      assert.deepEqual(keys.areas.map((area) => [area.area, area.coProva, area.sameOrder]), [['CN', 60, [40]], ['MT', 61, [41]]])
    })

    test('the only edition besides the regular one, whatever its adapted versions', () => {
      assert.deepEqual(ppl(booklets.filter((booklet) => booklet.code < 60)).areas.map((area) => area.coProva), [40, 41])
    })

    test('several editions and nothing to tell them apart is refused, naming them', () => {
      assert.throws(() => ppl(booklets.filter((booklet) => booklet.code !== 62 && booklet.code !== 63)),
        /ITENS_PROVA_2020: which cinza booklet of CN is the second application's cannot be told from the item data \(editions besides the regular one: 40 cinza, 60 cinza; 80 cinza\); give its answer-key PDF/)
    })
  })
})

// ---------------------------------------------------------------------------------------------
// INEP's files

const yearItems = new Map<number, YearItems>()
function itemsOf (year: number): YearItems {
  let items = yearItems.get(year)
  if (items === undefined) {
    items = readItensProva(INEP, year)
    yearItems.set(year, items)
  }
  return items
}

function keyFile (file: string): Gabarito {
  return readGabarito(path.dirname(file), path.basename(file))
}

const sameKeys = (keys: BookletKeys) => keys.positions.map(({ index, language, area, key }) => ({ index, language, area, key }))

describe('INEP\'s booklets and answer keys', { skip: noBooklets }, () => {
  const answerKeys = listBookletFiles(BOOKLETS).filter((file) => file.kind === 'key')

  test('every booklet taken from the folder resolves, checked against its answer key where the folder has one', () => {
    for (const exam of findBookletFiles(BOOKLETS)) {
      for (const day of exam.days) {
        const keys = bookletKeys({ year: exam.year, application: exam.application, day: day.day, cd: day.cd, inepDir: INEP, answerKeyPdf: day.answerKey })
        const languages = keys.positions.filter((position) => position.language !== null).length
        assert.equal(keys.positions.length, 90 + languages / 2, `${exam.year} day ${day.day}`)
        assert.ok(keys.areas.every((area) => area.coProva !== null), `${exam.year} day ${day.day}`)
      }
    }
  })

  test('every answer key here (2022–2025) agrees with ITENS_PROVA at every position it prints, 90 or 95 of them', () => {
    assert.ok(answerKeys.length >= 11, `${answerKeys.length} answer keys`)
    for (const file of answerKeys) {
      const keys = bookletKeys({ year: file.year, application: file.application, day: file.day, cd: file.booklet, inepDir: INEP, answerKeyPdf: file.path })
      const languages = keys.positions.filter((position) => position.language !== null).length
      assert.equal(keys.answerKeyCount, keys.positions.length, file.name)
      assert.equal(keys.answerKeyCount, languages === 0 ? 90 : 95, file.name)
    }
  })

  test('2025 blue: each area\'s CO_PROVA is the blue booklet whose every key the answer key prints', () => {
    for (const day of [1, 2] as const) {
      const pdf = path.join(BOOKLETS, '2025', `2025_GB_impresso_D${day}_CD${day === 1 ? 1 : 7}.pdf`)
      const answerKey = keyFile(pdf)
      const keys = bookletKeys({ year: 2025, application: 'regular', day, cd: day === 1 ? 1 : 7, inepDir: INEP, answerKeyPdf: pdf })
      // Straight from the rows: the blue codes of each area all of whose rows carry the key printed at their position and language.
      const rows = itemsOf(2025).rows.filter((row) => row.colour === 'azul')
      for (const area of keys.areas) {
        const codes = [...new Set(rows.filter((row) => row.area === area.area).map((row) => row.booklet))]
        const printing = codes.filter((code) => rows.filter((row) => row.booklet === code).every((row) => {
          const printed = answerKey.keys.get(row.position)
          const key = printed === undefined ? undefined : printed.length === 1 ? printed[0] : printed[answerKey.languages.indexOf(row.language ?? '')]
          return key === row.key
        }))
        assert.deepEqual([area.coProva, ...area.sameOrder].sort((a, b) => a! - b!), printing.sort((a, b) => a - b), area.area)
      }
    }
  })

  test('an answer key with one letter changed refuses the booklet, naming the position and both letters', () => {
    const pdf = path.join(BOOKLETS, '2025', '2025_GB_impresso_D2_CD7.pdf')
    const text = execFileSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8' })
    const row = /^(\s*)(\d{2,3})(\s+)([A-E])(\s)/m.exec(text)!
    const [index, letter] = [row[2]!, row[4]!]
    const changed = 'ABCDE'[('ABCDE'.indexOf(letter) + 1) % 5]!
    const tampered = text.slice(0, row.index) + `${row[1]}${index}${row[3]}${changed}${row[5]}` + text.slice(row.index + row[0].length)
    assert.throws(() => resolveBookletKeys({ year: 2025, application: 'regular', day: 2, cd: 7, items: itemsOf(2025), answerKey: parseGabarito(tampered, 'tampered.pdf') }),
      new RegExp(`tampered\\.pdf disagrees with ITENS_PROVA_2025 at 1 position: position ${index}: the answer key prints ${changed}, ITENS_PROVA_2025 \\(CO_PROVA \\d+\\) gives ${letter}`))
  })

  test('2025 blue day 2: what the key prints Anulado is left out, annulled; what INEP left out of scoring but keyed keeps its key, with a note', () => {
    const pdf = path.join(BOOKLETS, '2025', '2025_GB_impresso_D2_CD7.pdf')
    const annulled = [...keyFile(pdf).keys].filter(([, row]) => row.includes('X')).map(([index]) => index).sort((a, b) => a - b)
    assert.ok(annulled.length > 0)
    const keys = bookletKeys({ year: 2025, application: 'regular', day: 2, cd: 7, inepDir: INEP, answerKeyPdf: pdf })
    assert.deepEqual(keys.leftOut.map((entry) => entry.index), annulled)
    for (const entry of keys.leftOut) {
      assert.equal(entry.reason, 'annulled')
      assert.match(entry.detail, /^no letter anywhere: ITENS_PROVA_2025 gives X, 2025_GB_impresso_D2_CD7\.pdf prints Anulado$/)
      assert.equal(keys.positions.find((position) => position.index === entry.index)!.key, null)
    }
    const abandoned = keys.positions.filter((position) => position.item!.abandoned && position.item!.key !== 'X')
    assert.ok(abandoned.length > 0, 'INEP left keyed items of 2025 day 2 out of scoring')
    for (const position of abandoned) {
      assert.equal(position.key, position.item!.key)
      assert.ok(keys.notes.some((note) => note.startsWith(`${position.index}: INEP left item ${position.item!.item} out of scoring`)), String(position.index))
    }
  })

  test('without ITENS_PROVA, the answer key alone gives the same positions, areas, languages and keys', () => {
    for (const file of answerKeys.filter((entry) => entry.year === 2025)) {
      const alone = bookletKeys({ year: file.year, application: file.application, day: file.day, cd: file.booklet, inepDir: null, answerKeyPdf: file.path })
      const withItems = bookletKeys({ year: file.year, application: file.application, day: file.day, cd: file.booklet, inepDir: INEP, answerKeyPdf: file.path })
      assert.deepEqual(sameKeys(alone), sameKeys(withItems), file.name)
      assert.deepEqual(alone.leftOut.map((entry) => entry.index), withItems.leftOut.map((entry) => entry.index), file.name)
    }
  })

  test('2023 day 2 in four colours: blue against its key, yellow against INEP\'s yellow key, grey and pink in the blue one\'s application', { skip: noGabaritos }, () => {
    const blue = bookletKeys({ year: 2023, application: 'regular', day: 2, cd: 7, inepDir: INEP, answerKeyPdf: path.join(BOOKLETS, '2023', '2023_GB_impresso_D2_CD7.pdf') })
    const yellow = bookletKeys({ year: 2023, application: 'regular', day: 2, cd: 5, inepDir: INEP, answerKeyPdf: path.join(GABARITOS, '2023_dia2.pdf') })
    assert.equal(yellow.answerKeyCount, 90)
    const itemSet = (keys: BookletKeys, area: Area) => keys.positions.filter((position) => position.area === area).map((position) => position.item!.item).sort()
    for (const cd of [6, 8]) {
      const other = bookletKeys({ year: 2023, application: 'regular', day: 2, cd, inepDir: INEP })
      for (const area of ['CN', 'MT'] as const) assert.deepEqual(itemSet(other, area), itemSet(blue, area), `CD${cd} ${area}`)
    }
    for (const area of ['CN', 'MT'] as const) assert.deepEqual(itemSet(yellow, area), itemSet(blue, area), `CD5 ${area}`)
  })

  test('2009 day 1 prints natureza at 1–45 and humanas at 46–90, as ITENS_PROVA places them, with no language positions', () => {
    const keys = bookletKeys({ year: 2009, application: 'regular', day: 1, cd: 1, inepDir: INEP })
    const byArea = (area: Area) => keys.positions.filter((position) => position.area === area).map((position) => position.index)
    assert.deepEqual(byArea('CN'), Array.from({ length: 45 }, (_, at) => 1 + at))
    assert.deepEqual(byArea('CH'), Array.from({ length: 45 }, (_, at) => 46 + at))
    assert.ok(keys.positions.every((position) => position.language === null && position.item!.position === position.index))
  })

  test('the second-application grey booklets here (no answer key) get the second application\'s codes: as their public copies name them, or a code ITENS_PROVA lists for the same items in the same order', () => {
    const source = readFileSync(path.join(BOOKLETS, 'SOURCE.md'), 'utf8')
    const named = [...source.matchAll(/ppl\/(\d{4})_PV_reaplicacao_PPL_D2_CD6\.pdf.*?assets\/provas\/(\d+)\.pdf/g)].map((match) => [Number(match[1]), Number(match[2])] as const)
    assert.ok(named.length >= 2, `${named.length} second-application booklets named in SOURCE.md`)
    for (const [year, mathematics] of named) {
      const keys = bookletKeys({ year, application: 'ppl', day: 2, cd: 6, inepDir: INEP })
      const regular = bookletKeys({ year, application: 'regular', day: 2, cd: 6, inepDir: INEP })
      // 2021 lists its grey MT booklet twice (982 and 1038: the same items at the same positions); either names it.
      const mt = keys.areas.find((area) => area.area === 'MT')!
      assert.ok(mt.coProva === mathematics || mt.sameOrder.includes(mathematics), `${year} MT: ${mt.coProva} (same order: ${mt.sameOrder}), named ${mathematics}`)
      for (const area of keys.areas) {
        assert.equal(area.colour, 'cinza')
        // Another application's items than the regular grey booklet's, listed under two runs of codes: the later run's named.
        const items = new Set(keys.positions.filter((position) => position.area === area.area).map((position) => position.item!.item))
        assert.ok(regular.positions.filter((position) => position.area === area.area).every((position) => !items.has(position.item!.item)), `${year} ${area.area}`)
        assert.ok(area.sameOrder.length > 0 && area.sameOrder.every((code) => code < area.coProva!), `${year} ${area.area}: ${area.sameOrder}`)
      }
    }
  })

  test('2025\'s second application cannot be told from its item data (a COP30 application besides): refused without its answer key', () => {
    assert.throws(() => bookletKeys({ year: 2025, application: 'ppl', day: 2, cd: 7, inepDir: INEP }), /ITENS_PROVA_2025: which azul booklet of CN is the second application's cannot be told from the item data/)
  })
})

describe('the rules that choose a booklet without its answer key, against every answer key and second application here', () => {
  test('regular: the lowest code\'s edition is the one INEP\'s answer key of each day 2015–2025 prints, but in 2024, which the repository\'s own 2024 keys then tell', { skip: noGabaritos }, () => {
    const differing: number[] = []
    for (const name of readdirSync(GABARITOS).filter((entry) => /^\d{4}_dia[12]\.pdf$/.test(entry)).sort()) {
      const year = Number(name.slice(0, 4))
      const answerKey = keyFile(path.join(GABARITOS, name))
      if (answerKey.secondApplication) continue
      const { day, booklet: cd } = answerKey.printed! as { day: 1 | 2, booklet: number }
      const printed = resolveBookletKeys({ year, application: 'regular', day, cd, items: itemsOf(year), answerKey })
      const lowest = resolveBookletKeys({ year, application: 'regular', day, cd, items: itemsOf(year), answerKey: null })
      const agrees = (ruled: BookletKeys) => ruled.areas.every((area, at) => [printed.areas[at]!.coProva, ...printed.areas[at]!.sameOrder].includes(area.coProva))
      if (!agrees(lowest)) differing.push(year)
      const repositoryKey = path.join(INEP_DATA_DIR, 'gabaritos', name)
      if (existsSync(`${repositoryKey}.txt`)) {
        const told = resolveBookletKeys({ year, application: 'regular', day, cd, items: itemsOf(year), answerKey: null, dayKey: keyFile(repositoryKey) })
        assert.ok(agrees(told), `${name}: the repository's key tells ${told.areas.map((area) => area.coProva)}`)
      }
    }
    assert.deepEqual([...new Set(differing)], [2024])
  })

  test('regular: the blue booklets of every exam 2009–2023 are those the project\'s official tables found its records to follow', { skip: noGabaritos }, () => {
    for (let year = 2009; year <= 2023; year++) {
      const table = JSON.parse(readFileSync(path.join(REPO, 'data', 'official', `${year}.json`), 'utf8')) as { booklets: Array<{ area: Area, code: number | null, sameOrder: number[] }> }
      const codes = ([1, 2] as const).flatMap((day) => {
        const dayKeyFile = path.join(GABARITOS, `${year}_dia${day}.pdf`)
        const dayKey = existsSync(dayKeyFile) ? keyFile(dayKeyFile) : null
        return resolveBookletKeys({ year, application: 'regular', day, cd: day === 1 ? 1 : 7, items: itemsOf(year), answerKey: null, dayKey }).areas
      })
      for (const area of codes) {
        const official = table.booklets.find((entry) => entry.area === area.area)!
        assert.ok([official.code, ...official.sameOrder].includes(area.coProva), `${year} ${area.area}: ${area.coProva}, the table ${official.code}`)
      }
    }
  })

  test('second application: the booklets the dataset\'s second applications 2011–2017 follow, and 2016\'s second-application answer key', { skip: noPplSource || noGabaritos }, () => {
    for (const exam of convertEnemDevPpl(PPL_SOURCE, INEP)) {
      for (const booklet of exam.booklets) {
        if (booklet.code === null) continue
        const area = booklet.area
        const day = exam.id.year <= 2016 ? (area === 'CH' || area === 'CN' ? 1 : 2) : (area === 'LC' || area === 'CH' ? 1 : 2)
        const cd = [1, 2, 3, 4, 5, 6, 7, 8].find((n) => (n <= 4) === (day === 1) && bookletColour(exam.id.year, 'ppl', day, n) === booklet.colour)!
        const ruled = resolveBookletKeys({ year: exam.id.year, application: 'ppl', day, cd, items: itemsOf(exam.id.year), answerKey: null }).areas.find((entry) => entry.area === area)!
        assert.ok([booklet.code, ...booklet.sameOrder].includes(ruled.coProva!), `${exam.id.year} ${area}: the rule ${ruled.coProva}, the dataset ${booklet.code}`)
      }
    }
    const secondKey = keyFile(path.join(GABARITOS, '2016_dia2.pdf'))
    assert.ok(secondKey.secondApplication)
    const printed = resolveBookletKeys({ year: 2016, application: 'ppl', day: 2, cd: 5, items: itemsOf(2016), answerKey: secondKey })
    const ruled = resolveBookletKeys({ year: 2016, application: 'ppl', day: 2, cd: 5, items: itemsOf(2016), answerKey: null })
    ruled.areas.forEach((area, at) => assert.ok([printed.areas[at]!.coProva, ...printed.areas[at]!.sameOrder].includes(area.coProva), `2016 ${area.area}`))
  })
})
