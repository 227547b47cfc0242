import { after, test } from 'node:test'
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { parse } from 'csv-parse/sync'
import { CorrectionLedger } from '../../src/data/official/corrections.ts'
import { officialTable, type CorrectionsFile, type OfficialYear } from '../../src/data/official/official-table.ts'
import type { Question, DatasetQuestion } from '../../src/data/record-schemas.ts'
import { build } from '../helper.ts'

/*
 * `npm run import-source` on the real sources (../shared/sources, as CI has them): both kinds
 * converted into a temporary folder, each exam's count of written records compared with what the
 * source and INEP's ITENS_PROVA files say (derived here from the CSV, by the rules of the
 * contract's "More exams": the booklet whose keys the source follows, a differing key kept only
 * between agreeing neighbours, a position where booklets of the source's order hold different
 * items left out), and every written record's served key compared with the CSV's key of its item.
 */

const REPO = fileURLToPath(new URL('../..', import.meta.url))
const SOURCES = path.resolve(REPO, '../shared/sources')
const INEP = path.resolve(REPO, '../shared/inep')
const DATASET = path.resolve(REPO, '../shared/enem-data')
const MARITACA = path.join(SOURCES, 'maritaca-enem-2024')
const ENEM_DEV = path.join(SOURCES, 'enem-dev-second-applications')
const noSources = existsSync(MARITACA) && existsSync(ENEM_DEV) && existsSync(path.join(INEP, 'itens-prova'))
  ? false
  : `${SOURCES} or ${INEP}/itens-prova is absent: the sources were NOT converted`
const noDataset = existsSync(DATASET) ? false : `${DATASET} is absent: the converted folders were NOT served beside the dataset`
const run = promisify(execFile)
const LETTERS = ['A', 'B', 'C', 'D', 'E']

interface CsvRow { position: number, area: string, item: number, key: string, booklet: number, colour: string, language: string | null, adapted: boolean }
function readCsv (year: number): CsvRow[] {
  const records = parse(readFileSync(path.join(INEP, 'itens-prova', `ITENS_PROVA_${year}.csv`), 'utf8'), { delimiter: ';', columns: true, skip_empty_lines: true }) as Array<Record<string, string>>
  return records.map((row) => ({
    position: Number(row.CO_POSICAO),
    area: row.SG_AREA!,
    item: Number(row.CO_ITEM),
    key: row.TX_GABARITO!,
    booklet: Number(row.CO_PROVA),
    colour: row.TX_COR!.toLowerCase(),
    language: row.TP_LINGUA === '' || row.TP_LINGUA === undefined ? null : Number(row.TP_LINGUA) === 0 ? 'ingles' : 'espanhol',
    adapted: row.IN_ITEM_ADAPTADO === '1'
  }))
}

/** Per booklet of an area, its items in order: the language positions (English and Spanish paired by rank) first, one item per other position. */
function bookletsOf (rows: readonly CsvRow[], area: string): Map<number, CsvRow[][]> {
  const booklets = new Map<number, CsvRow[][]>()
  for (const code of new Set(rows.filter((row) => row.area === area).map((row) => row.booklet))) {
    const own = rows.filter((row) => row.booklet === code).sort((a, b) => a.position - b.position)
    const common = own.filter((row) => row.language === null)
    if (new Set(common.map((row) => row.position)).size !== common.length) continue
    const english = own.filter((row) => row.language === 'ingles')
    const spanish = own.filter((row) => row.language === 'espanhol')
    const language = Array.from({ length: Math.max(english.length, spanish.length) }, (_, at) => [english[at], spanish[at]].filter((row) => row !== undefined))
    booklets.set(code, [...language, ...common.map((row) => [row])])
  }
  return booklets
}

interface SourceEntry { slot: number, language: string | null, key: string }
const AREA_ORDER = (year: number) => (year <= 2016 ? ['CH', 'CN', 'LC', 'MT'] : ['LC', 'CH', 'CN', 'MT'])

/** The booklets of `area` that agree best with `entries` (at least 80 % of ten or more compared positions), and the best agreement. */
function agreeingBooklets (booklets: Map<number, CsvRow[][]>, entries: readonly SourceEntry[]): number[] {
  const agreement = [...booklets].map(([code, slots]) => {
    let agree = 0
    let compared = 0
    for (const slot of new Set(entries.map((entry) => entry.slot))) {
      const items = slots[slot - 1]
      if (items === undefined) continue
      compared++
      if (entries.filter((entry) => entry.slot === slot).some((entry) => keysFor(items, entry.language).includes(entry.key))) agree++
    }
    return { code, agree, compared }
  })
  const best = Math.max(...agreement.map((entry) => entry.agree))
  return agreement.filter((entry) => entry.agree === best && entry.compared >= 10 && entry.agree >= 0.8 * entry.compared).map((entry) => entry.code)
}

function keysFor (items: readonly CsvRow[], language: string | null): string[] {
  const own = items.filter((item) => item.language === language)
  return (own.length > 0 ? own : items).map((item) => item.key)
}

/** How many of `entries` the contract's rules write, given the booklets of their area. */
function expectedWritten (booklets: Map<number, CsvRow[][]>, entries: readonly SourceEntry[], sameItemRequired: boolean): number {
  const codes = agreeingBooklets(booklets, entries)
  if (codes.length === 0) return 0
  const slots = booklets.get(codes[0]!)!
  const disagrees = (slot: number) => entries.some((entry) => entry.slot === slot && !keysFor(slots[slot - 1] ?? [], entry.language).includes(entry.key))
  return entries.filter((entry) => {
    if (slots[entry.slot - 1] === undefined) return false
    if (disagrees(entry.slot) && (disagrees(entry.slot - 1) || disagrees(entry.slot + 1))) return false
    if (!sameItemRequired) return true
    const items = new Set(codes.map((code) => booklets.get(code)![entry.slot - 1]!.filter((item) => item.language === entry.language).map((item) => item.item).join()))
    return items.size === 1 && LETTERS.includes(entry.key)
  }).length
}

interface Conversion { out: string, stdout: string }
const parent = mkdtempSync(path.join(tmpdir(), 'import-source-'))
after(() => rmSync(parent, { recursive: true, force: true }))
/** Both kinds converted once for the whole file, at the same time. */
const conversions = noSources
  ? null
  : { ppl: convert('enem-dev-ppl', ENEM_DEV), maritaca: convert('maritaca-2024', MARITACA) }
// A conversion that fails is reported by the test that awaits it.
conversions?.ppl.catch(() => {})
conversions?.maritaca.catch(() => {})

async function convert (kind: string, source: string): Promise<Conversion> {
  const out = path.join(parent, kind)
  const { stdout } = await run(process.execPath, ['--import', 'tsx', path.join(REPO, 'src/cli/import-source.ts'), kind, source, out, '--inep', INEP], { cwd: REPO, maxBuffer: 16 * 1024 * 1024 })
  return { out, stdout }
}

/** The records written for one exam folder, each as the server serves it through the folder's `official/` (corrections applied, `inep` filled). */
function servedRecords (out: string, folder: string) {
  const table = JSON.parse(readFileSync(path.join(out, 'official', `${folder}.json`), 'utf8')) as OfficialYear & { application?: string }
  const { rows } = JSON.parse(readFileSync(path.join(out, 'official', 'corrections.json'), 'utf8')) as CorrectionsFile
  const ledger = new CorrectionLedger(officialTable('', [table], rows))
  const questionsDir = path.join(out, folder, 'questions')
  return {
    table,
    records: readdirSync(questionsDir).map((name) => {
      const record = JSON.parse(readFileSync(path.join(questionsDir, name, 'details.json'), 'utf8')) as DatasetQuestion
      return { name, record, served: ledger.correct(record, name) }
    })
  }
}

/** Every served key is the CSV's key of the record's item (CO_ITEM), in its table's booklet. */
function assertKeysFromCsv (csv: readonly CsvRow[], served: ReturnType<typeof servedRecords>, label: string): void {
  for (const { name, served: { inep, correctAlternative } } of served.records) {
    assert.ok(inep !== null, `${label} ${name}: no inep`)
    const row = csv.find((candidate) => candidate.item === inep.item && candidate.booklet === inep.booklet?.code)
    assert.ok(row !== undefined, `${label} ${name}: item ${inep.item} is not in booklet ${inep.booklet?.code}`)
    assert.equal(inep.key, row.key, `${label} ${name}`)
    if (row.key !== 'X') assert.equal(correctAlternative, row.key, `${label} ${name}`)
  }
}

/** The addresses a source record shows whose file is neither where the address says nor in the record's own folder. */
function missingFiles (folder: string, questionFolder: string): string[] {
  const text = readFileSync(path.join(ENEM_DEV, folder, 'questions', questionFolder, 'details.json'), 'utf8')
  return [...new Set(text.match(/https:\/\/enem\.dev\/[^\s)"'<>\]\\]+/g) ?? [])].filter((address) => {
    const relative = address.slice('https://enem.dev/'.length)
    return !existsSync(path.join(ENEM_DEV, relative)) && !existsSync(path.join(ENEM_DEV, folder, 'questions', questionFolder, path.basename(relative)))
  })
}

test('enem-dev-ppl: each second application writes the records the CSV\'s booklets place, each served with the CSV\'s key of its item', { skip: noSources }, async () => {
  const { out, stdout } = await conversions!.ppl
  const folders = readdirSync(ENEM_DEV).filter((name) => /^\d{4}-segunda-aplicacao$/.test(name)).sort()
  const exams = JSON.parse(readFileSync(path.join(out, 'exams.json'), 'utf8')) as Array<{ year: number, title: string, application?: string }>
  assert.deepEqual(exams.map((exam) => [exam.year, exam.application, exam.title]).sort(),
    folders.map((name) => Number(name.slice(0, 4))).map((year) => [year, 'ppl', `ENEM PPL ${year}`]).sort())
  for (const folder of folders) {
    const year = Number(folder.slice(0, 4))
    const csv = readCsv(year)
    const questionsDir = path.join(ENEM_DEV, folder, 'questions')
    const sourceRecords = readdirSync(questionsDir).map((name) => JSON.parse(readFileSync(path.join(questionsDir, name, 'details.json'), 'utf8')) as DatasetQuestion)
    // A record whose text shows a file the source does not hold is left out (every one of them a
    // record the booklets place, in these sources), so that every served address answers.
    const showingMissingFiles = readdirSync(questionsDir).filter((name) => missingFiles(folder, name).length > 0).length
    const expected = AREA_ORDER(year).reduce((sum, area, block) => sum + expectedWritten(bookletsOf(csv, area), sourceRecords
      .filter((record) => record.index > block * 45 && record.index <= (block + 1) * 45)
      .map((record) => ({ slot: record.index - block * 45, language: record.language, key: record.correctAlternative })), false), 0) - showingMissingFiles
    const served = servedRecords(out, `${year}-ppl`)
    assert.equal(served.table.application, 'ppl')
    assert.equal(served.records.length, expected, `${year}-ppl`)
    assert.match(stdout, new RegExp(`^${year}-ppl: ${sourceRecords.length} in source, ${expected} written, ${sourceRecords.length - expected} left out`, 'm'))
    assertKeysFromCsv(csv, served, `${year}-ppl`)
  }
})

test('maritaca-2024: 2024 is written in the blue booklets\' numbering, English only at 1–5, each record at its item\'s blue position with the CSV\'s key', { skip: noSources }, async () => {
  const { out, stdout } = await conversions!.maritaca
  const csv = readCsv(2024)
  const lines = readFileSync(path.join(MARITACA, '2024.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { id: string, label: string })
  // The source's numbering: the year's areas in blocks of 45, English alone at 1–5 (its SOURCE.md).
  const expected = AREA_ORDER(2024).reduce((sum, area, block) => {
    // The contract's regular application of 2024: the group of booklets 1383–1430.
    const regular = new Map([...bookletsOf(csv, area)].filter(([code]) => code >= 1383 && code <= 1430))
    return sum + expectedWritten(regular, lines.map((line) => ({ position: Number(line.id.slice('questao_'.length)), label: line.label }))
      .filter(({ position }) => position > block * 45 && position <= (block + 1) * 45)
      .map(({ position, label }) => ({ slot: position - block * 45, language: area === 'LC' && position - block * 45 <= 5 ? 'ingles' : null, key: LETTERS.includes(label) ? label : 'X' })), true)
  }, 0)
  const served = servedRecords(out, '2024')
  assert.equal(served.records.length, expected)
  assert.match(stdout, new RegExp(`^2024: ${lines.length} in source, ${expected} written, ${lines.length - expected} left out`, 'm'))
  assert.deepEqual(served.table.booklets.map((booklet) => booklet.code), [1395, 1383, 1419, 1407])
  assertKeysFromCsv(csv, served, '2024')
  for (const { name, record } of served.records) {
    const row = csv.find((candidate) => candidate.booklet === served.table.booklets.find((booklet) => booklet.area === candidate.area)?.code && candidate.item === served.records.find((entry) => entry.name === name)!.served.inep!.item)!
    assert.deepEqual([record.index, record.language], [row.position, row.language], name)
    assert.ok(record.language === null || (record.language === 'ingles' && record.index <= 5), name)
  }
  const [exam] = JSON.parse(readFileSync(path.join(out, 'exams.json'), 'utf8')) as Array<{ title: string, application?: string, languages: Array<{ value: string }> }>
  assert.deepEqual([exam!.title, exam!.application, exam!.languages.map((language) => language.value)], ['ENEM 2024', undefined, ['ingles']])
})

test('the dataset and both converted folders served together (ENEM_DATA_DIR=a:b:c): the exam list holds 2024 and every second application, and a question of each is served with the CSV\'s key of its item', { skip: noSources || noDataset }, async (t) => {
  const [ppl, maritaca] = await Promise.all([conversions!.ppl, conversions!.maritaca])
  const { request } = await build(t, { ENEM_DATA_DIR: [DATASET, maritaca.out, ppl.out].join(path.delimiter) })
  const listed = (await request('/v1/exams')).json<Array<{ year: number, application: string }>>().map(({ year, application }) => `${year} ${application}`)
  const converted = [maritaca.out, ppl.out].flatMap((out) => (JSON.parse(readFileSync(path.join(out, 'exams.json'), 'utf8')) as Array<{ year: number, application?: string }>))
    .map(({ year, application }) => ({ year, application: application ?? 'regular' }))
  const dataset = (JSON.parse(readFileSync(path.join(DATASET, 'exams.json'), 'utf8')) as Array<{ year: number }>).map(({ year }) => `${year} regular`)
  assert.deepEqual([...listed].sort(), [...dataset, ...converted.map(({ year, application }) => `${year} ${application}`)].sort())
  assert.ok(listed.includes('2024 regular'))
  for (let year = 2011; year <= 2017; year++) assert.ok(listed.includes(`${year} ppl`), `${year} ppl`)

  for (const { year, application } of converted) {
    const exam = (await request(`/v1/exams/${year}?application=${application}`)).json<{ questions: Array<{ index: number, language: string | null }> }>()
    const entry = exam.questions[Math.floor(exam.questions.length / 2)]!
    const url = `/v1/exams/${year}/questions/${entry.index}?application=${application}${entry.language === null ? '' : `&language=${entry.language}`}`
    const response = await request(url)
    assert.equal(response.statusCode, 200, url)
    const question = response.json<Question>()
    assert.equal(question.application, application, url)
    const row = readCsv(year).find((candidate) => candidate.item === question.inep?.item && candidate.booklet === question.inep.booklet?.code)
    assert.ok(row !== undefined, `${url}: item ${question.inep?.item} of booklet ${question.inep?.booklet?.code} is not in the CSV`)
    assert.equal(question.inep!.key, row.key, url)
    if (row.key !== 'X') assert.equal(question.correctAlternative, row.key, url)
  }
})

test('import-source refuses an unknown kind and a wrong number of arguments with the usage (exit 2)', async () => {
  for (const args of [['nonsense', 'a', 'b'], ['maritaca-2024', 'a']]) {
    await assert.rejects(run(process.execPath, ['--import', 'tsx', path.join(REPO, 'src/cli/import-source.ts'), ...args], { cwd: REPO }), (error: { code: number, stderr: string }) => {
      assert.equal(error.code, 2)
      assert.match(error.stderr, /Usage: npm run import-source/)
      return true
    })
  }
})
