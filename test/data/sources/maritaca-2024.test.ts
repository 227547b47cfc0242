import { test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { loadDataset } from '../../../src/data/dataset/load-dataset.ts'
import { convertMaritaca } from '../../../src/data/sources/maritaca-2024.ts'
import { writeConversion } from '../../../src/data/sources/write-conversion.ts'
import { writeItemsFile, writeItensProva, type FixtureBooklet, type FixtureItem } from './itens-prova-fixture.ts'

/*
 * The maritaca-2024 conversion on a fixture made for it (test/data/sources/maritaca-enem-2024/:
 * 24 questions of an invented 2024 in the source's format, LC 1–12 and MT 136–147 in the source's
 * numbering, with 1×1 figures) and item files described below: the source's order is the green
 * booklets', an adapted booklet of that order replaces one MT item, and the blue booklets hold the
 * same items in another order, which the records must end up in.
 */

const FIXTURE = fileURLToPath(new URL('./maritaca-enem-2024', import.meta.url))
const LETTERS = ['A', 'B', 'C', 'D', 'E']
interface SourceLine { id: string, question: string, label: string, alternatives: string[], figures: string[], description: string[] }
const lines = readFileSync(path.join(FIXTURE, '2024.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as SourceLine)
const byPosition = new Map(lines.map((line) => [Number(line.id.slice('questao_'.length)), line]))
const keyAt = (position: number) => {
  const label = byPosition.get(position)?.label
  return label === undefined ? LETTERS[position % 5]! : LETTERS.includes(label) ? label : 'X'
}
const otherKey = (key: string) => LETTERS[(LETTERS.indexOf(key) + 1) % 5]!

/** MT position 10 of the source (145) carries a key INEP does not: a key to correct. */
const CORRECTED_MT_SLOT = 10
/** MT position 4 of the source (139): the adapted booklet holds another item there. */
const ADAPTED_MT_SLOT = 4

const lcGreen: FixtureItem[][] = Array.from({ length: 45 }, (_, at) => at < 5
  ? [{ item: 1001 + at, key: keyAt(at + 1), language: 'ingles' }, { item: 2001 + at, key: otherKey(keyAt(at + 1)), language: 'espanhol' }]
  : [{ item: 1001 + at, key: keyAt(at + 1) }])
const mtGreen: FixtureItem[][] = Array.from({ length: 45 }, (_, at) => {
  const key = keyAt(136 + at)
  return [{ item: 3001 + at, key: at + 1 === CORRECTED_MT_SLOT ? otherKey(key) : key }]
})
/** Which green slot each blue slot holds: LC reverses the language positions and the others; MT is rotated by three. */
const lcBlueHolds = (slot: number) => (slot <= 5 ? 6 - slot : 51 - slot)
const mtBlueHolds = (slot: number) => ((slot + 2) % 45) + 1
const blueSlotOf = (holds: (slot: number) => number, green: number) => Array.from({ length: 45 }, (_, at) => at + 1).find((slot) => holds(slot) === green)!

const BOOKLETS: FixtureBooklet[] = [
  { code: 1395, area: 'LC', colour: 'AZUL', first: 1, slots: Array.from({ length: 45 }, (_, at) => lcGreen[lcBlueHolds(at + 1) - 1]!) },
  { code: 1397, area: 'LC', colour: 'VERDE', first: 1, slots: lcGreen },
  { code: 1353, area: 'MT', colour: 'AZUL', first: 136, slots: Array.from({ length: 45 }, (_, at) => [{ item: 5001 + at, key: 'A' }]) },
  { code: 1407, area: 'MT', colour: 'AZUL', first: 136, slots: Array.from({ length: 45 }, (_, at) => mtGreen[mtBlueHolds(at + 1) - 1]!) },
  { code: 1409, area: 'MT', colour: 'VERDE', first: 136, slots: mtGreen },
  { code: 1413, area: 'MT', colour: 'LARANJA', first: 136, adapted: true, slots: mtGreen.map((items, at) => (at + 1 === ADAPTED_MT_SLOT ? [{ item: 3999, key: items[0]!.key }] : items)) }
]

/** Where a source question must end up: its index and language in the blue booklets' numbering. */
function expectedPlace (position: number): { index: number, language: string | null } {
  if (position <= 45) return { index: blueSlotOf(lcBlueHolds, position), language: position <= 5 ? 'ingles' : null }
  return { index: 135 + blueSlotOf(mtBlueHolds, position - 135), language: null }
}

function convertFixture (t: { after: (fn: () => void) => void }) {
  const inep = mkdtempSync(path.join(tmpdir(), 'maritaca-inep-'))
  t.after(() => rmSync(inep, { recursive: true, force: true }))
  writeItensProva(inep, 2024, BOOKLETS)
  // The second source numbered as the source is (the green booklets), as INEP's items/enem-2024.json is.
  writeItemsFile(inep, 2024, [{ booklet: BOOKLETS[1]!, number: (slot) => slot }, { booklet: BOOKLETS[4]!, number: (slot) => 135 + slot }])
  const [exam] = convertMaritaca(FIXTURE, inep)
  return exam!
}

test('each question is renumbered through its item to the blue booklet holding the same items, its area giving the discipline and its booklet\'s keys the language', (t) => {
  const exam = convertFixture(t)
  assert.deepEqual(exam.booklets.map((booklet) => [booklet.area, booklet.code, booklet.renumberedTo]), [['LC', 1397, 1395], ['CH', null, null], ['CN', null, null], ['MT', 1409, 1407]])
  const written = exam.records.map(({ sourceIndex, record }) => [sourceIndex, record.index, record.language, record.discipline, record.title])
  const expected = [...byPosition.keys()].filter((position) => position !== 135 + ADAPTED_MT_SLOT && keyAt(position) !== 'X').map((position) => {
    const { index, language } = expectedPlace(position)
    return [position, index, language, position <= 45 ? 'linguagens' : 'matematica', `Questão ${index} - ENEM 2024`]
  })
  assert.deepEqual(written.sort((a, b) => Number(a[0]) - Number(b[0])), expected)
})

test('a question at a foreign-language position takes the language whose item has its key, not the one its text seems to be in (an English question quoting Spanish)', (t) => {
  const exam = convertFixture(t)
  const quoting = lines.find((line) => line.question.includes('El español'))!
  const position = Number(quoting.id.slice('questao_'.length))
  assert.deepEqual(exam.records.filter(({ sourceIndex }) => sourceIndex === position).map(({ record }) => [record.index, record.language]), [[expectedPlace(position).index, 'ingles']])
})

test('a question where an adapted booklet of the source\'s order holds another item, and one the source gives no key, are left out with the reason', (t) => {
  const exam = convertFixture(t)
  assert.deepEqual(exam.leftOut.map(({ index, reason }) => [index, reason]), [[135 + ADAPTED_MT_SLOT, 'adapted-item'], [...byPosition].find(([, line]) => !LETTERS.includes(line.label))!.map((value, at) => (at === 0 ? value : 'no-key'))])
  assert.match(exam.leftOut[0]!.detail, /item 3999 in 1413 \(adapted\)/)
})

test('[[placeholder]] marks become the figures\' Markdown images in order, described by their alternative text; a figure alone is its alternative\'s file; lines become paragraphs', (t) => {
  const exam = convertFixture(t)
  const bySource = new Map(exam.records.map((converted) => [converted.sourceIndex, converted]))
  const first = bySource.get(1)!
  const firstAddress = `https://enem.dev/2024/questions/${expectedPlace(1).index}-ingles/questao_01_fig1.png`
  assert.equal(first.record.context, [
    '## Holy War', 'Oh, so we can hate each other and fear each other', 'We can build these walls between each other',
    `![Descrição da imagem: um (cartaz) com a letra da canção.](${firstAddress})`, 'Nessa letra de canção, o marcador “instead of” introduz a ideia de'
  ].join('\n\n'))
  assert.deepEqual(first.record.files, [firstAddress])
  assert.deepEqual([...first.files.keys()], ['questao_01_fig1.png'])

  const figures = bySource.get(138)!
  const folder = `https://enem.dev/2024/questions/${expectedPlace(138).index}`
  assert.match(figures.record.context!, new RegExp(`!\\[Descrição da figura 1\\.\\]\\(${folder}/questao_138_fig1\\.png\\)`))
  assert.deepEqual(figures.record.alternatives.map(({ text, file }) => [text, file]), LETTERS.map((_, at) => [null, `${folder}/questao_138_fig${at + 2}.png`]))
  assert.deepEqual(figures.record.alternatives.map(({ isCorrect }) => isCorrect), LETTERS.map((letter) => letter === byPosition.get(138)!.label))
})

test('the official table follows the blue booklets, the second source is compared in their numbering (no false disputes), and a key INEP states otherwise is one correction row', (t) => {
  const exam = convertFixture(t)
  assert.deepEqual(exam.table.booklets.map((booklet) => [booklet.area, booklet.code]), [['LC', 1395], ['CH', null], ['CN', null], ['MT', 1407]])
  assert.deepEqual(exam.table.disagreements, [])
  assert.ok(exam.table.positions.some((position) => position.sources.key.includes('items/enem-2024.json')))
  const corrected = expectedPlace(135 + CORRECTED_MT_SLOT)
  assert.deepEqual(exam.corrections.map(({ index, field, inDataset, served }) => [index, field, inDataset, served]),
    [[corrected.index, 'correctAlternative', keyAt(135 + CORRECTED_MT_SLOT), otherKey(keyAt(135 + CORRECTED_MT_SLOT))]])
})

test('the written folder loads without a warning and serves every record with its INEP item and key', async (t) => {
  const exam = convertFixture(t)
  const out = mkdtempSync(path.join(tmpdir(), 'maritaca-out-'))
  t.after(() => rmSync(out, { recursive: true, force: true }))
  writeConversion(out, [exam], 'maritaca-enem-2024')
  assert.deepEqual(JSON.parse(readFileSync(path.join(out, 'exams.json'), 'utf8')).map((entry: { title: string, languages: unknown }) => [entry.title, entry.languages, 'application' in entry]),
    [['ENEM 2024', [{ label: 'Inglês', value: 'ingles' }], false]])
  assert.ok(existsSync(path.join(out, '2024', 'questions', `${expectedPlace(1).index}-ingles`, 'questao_01_fig1.png')))
  assert.throws(() => writeConversion(out, [exam], 'again'), /not empty/)

  const loaded = await loadDataset(out, { filesBaseUrl: 'http://api.test/files' })
  assert.deepEqual([loaded.report.errors, loaded.report.warnings], [[], []])
  const itemsBySlot = new Map<string, FixtureItem>(BOOKLETS.filter((booklet) => booklet.code === 1395 || booklet.code === 1407)
    .flatMap((booklet) => booklet.slots.flatMap((items, at) => items.map((item) => [`${booklet.area === 'LC' ? at + 1 : 136 + at}|${item.language ?? ''}`, item] as const))))
  const questions = loaded.catalog!.getExam(2024)!.questions
  assert.equal(questions.length, exam.records.length)
  for (const question of questions) {
    const item = itemsBySlot.get(`${question.index}|${question.language ?? ''}`)!
    assert.deepEqual([question.inep?.item, question.inep?.key, question.correctAlternative], [item.item, item.key, item.key], `#${question.index}`)
  }
})
