import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { FastifyInstance } from 'fastify'
import { buildTestApp, frontDoor, FULL_DATA_DIR, TEST_PUBLIC_URL, type SendRequest } from './helper.ts'

/*
 * The full dataset, end to end. Expectations are computed here from the source files, independently
 * of src/data, and compared with what the API serves. Runs when ENEM_DATA_DIR is set (CI sets it).
 * What the service corrects comes from the official table data/official (test/cli/import-official.test.ts
 * proves it is what the import makes of ../shared/inep) and, where present, INEP's item data itself.
 */

interface SourceRecord {
  index: number
  language: string | null
  discipline: string | null
  correctAlternative: string
  files: string[]
  alternatives: Array<{ letter: string, file: string | null, isCorrect: boolean }>
  inep?: { key: string, annulled: boolean, area: string, item: number | null } | null
  [key: string]: unknown
}
interface DatasetExam { year: number, languages: Array<{ value: string }>, disciplines: Array<{ value: string }> }

interface OfficialEntry { index: number, language: string | null, area: string, key: string, item: number | null }
interface OfficialYearFile { year: number, areaOrder: { areas: string[] } | null, positions: OfficialEntry[], disagreements: Array<{ index: number, field: string }> }

const REPO = fileURLToPath(new URL('..', import.meta.url))
const INEP_ITEMS_DIR = path.resolve(REPO, '../shared/inep/items')
const SLUG_OF_AREA: Record<string, string> = { LC: 'linguagens', CH: 'ciencias-humanas', CN: 'ciencias-natureza', MT: 'matematica' }

async function readOfficial () {
  const years = new Map<number, OfficialYearFile>()
  for (const name of await readdir(path.join(REPO, 'data/official'))) {
    if (!/^\d+\.json$/.test(name)) continue
    const year = JSON.parse(await readFile(path.join(REPO, 'data/official', name), 'utf8')) as OfficialYearFile
    years.set(year.year, year)
  }
  return years
}

/**
 * The official key and area of a record: its language's entry (or the one common to all
 * languages); without a language at a per-language position, no key, and the area all entries
 * share; elsewhere the area of its block of 45 in the year's order.
 */
function officialOf (years: Map<number, OfficialYearFile>, year: number, index: number, language: string | null): { entry?: OfficialEntry, area?: string } {
  const table = years.get(year)
  const entries = table?.positions.filter((entry) => entry.index === index) ?? []
  const entry = language === null
    ? entries.find((candidate) => candidate.language === null)
    : entries.find((candidate) => candidate.language === language) ?? entries.find((candidate) => candidate.language === null)
  const areaDisputed = table?.disagreements.some((disagreement) => disagreement.index === index && disagreement.field === 'area') ?? false
  if (areaDisputed) return { entry }
  if (entry !== undefined) return { entry, area: entry.area }
  if (entries.length > 0 && entries.every((candidate) => candidate.area === entries[0]!.area)) return { area: entries[0]!.area }
  const area = index <= 180 ? table?.areaOrder?.areas[Math.floor((index - 1) / 45)] : undefined
  return area === undefined ? {} : { area }
}

/** The record as the service should serve it: the official letter and area, every other field as its file holds it. */
function corrected (record: SourceRecord, official: { entry?: OfficialEntry, area?: string }): SourceRecord {
  const key = official.entry?.key
  const letter = key !== undefined && key !== 'X' ? key : record.correctAlternative
  return {
    ...record,
    discipline: official.area === undefined ? record.discipline : SLUG_OF_AREA[official.area]!,
    correctAlternative: letter,
    alternatives: record.alternatives.map((alternative) => ({ ...alternative, isCorrect: key !== undefined && key !== 'X' ? alternative.letter === key : alternative.isCorrect }))
  }
}

/**
 * A served record as its file holds it: without `inep`, `application` (the dataset's exams are all
 * regular: checked here) and `incomplete`, which must say what the file shows: no statement when it
 * has no context and no figure (the contract's "no `context`, no figure").
 */
const withoutInep = ({ inep, application, incomplete, ...rest }: SourceRecord & { application?: string, incomplete?: unknown }): SourceRecord => {
  assert.equal(application, 'regular')
  const shown = rest as SourceRecord
  const { context, files } = shown as { context?: unknown, files?: unknown[] }
  const noStatement = (typeof context !== 'string' || context.trim() === '') && (files ?? []).length === 0
  assert.deepEqual(incomplete, noStatement ? { reason: 'no-statement' } : null, `${shown.year}/${shown.index} incomplete`)
  return shown
}

const rewrite = (record: SourceRecord): SourceRecord =>
  JSON.parse(JSON.stringify(record).replaceAll('https://enem.dev/', `${TEST_PUBLIC_URL}/files/`)) as SourceRecord

interface LanguageRow { year: number, index: number, language: string | null, field: string, inDataset: string | null, served: string }
const LANGUAGE_LABELS: Record<string, string> = { ingles: 'Inglês', espanhol: 'Espanhol' }

async function readSource (dataDir: string) {
  const exams = JSON.parse(await readFile(path.join(dataDir, 'exams.json'), 'utf8')) as Array<DatasetExam & { languages: Array<{ label: string, value: string }> }>
  const official = await readOfficial()
  // The language labels of data/official/corrections.json: a record's identity is its served language.
  const { rows } = JSON.parse(await readFile(path.join(REPO, 'data/official/corrections.json'), 'utf8')) as { rows: LanguageRow[] }
  const languageRows = rows.filter((row) => row.field === 'language')
  const relabel = (year: number, record: SourceRecord): SourceRecord => {
    const row = languageRows.find((candidate) => candidate.year === year && candidate.index === record.index && candidate.language === record.language && record.language === candidate.inDataset)
    return row === undefined ? record : { ...record, language: row.served }
  }
  for (const row of languageRows) {
    const exam = exams.find((candidate) => candidate.year === row.year)
    if (exam !== undefined && !exam.languages.some((option) => option.value === row.served)) exam.languages.push({ label: LANGUAGE_LABELS[row.served]!, value: row.served })
  }
  /** The records as their files hold them (addresses rewritten). */
  const filesByYear = new Map<number, SourceRecord[]>()
  /** The same records with the official key and area: what the service should serve. */
  const recordsByYear = new Map<number, SourceRecord[]>()
  for (const exam of exams) {
    const questionsDir = path.join(dataDir, String(exam.year), 'questions')
    const files: SourceRecord[] = []
    for (const folder of await readdir(questionsDir)) {
      files.push(relabel(exam.year, rewrite(JSON.parse(await readFile(path.join(questionsDir, folder, 'details.json'), 'utf8')) as SourceRecord)))
    }
    filesByYear.set(exam.year, files)
    recordsByYear.set(exam.year, files.map((record) => corrected(record, officialOf(official, exam.year, record.index, record.language))))
  }
  return { exams, official, filesByYear, recordsByYear }
}

/** The contract's language view, computed from the source: null-language plus the language, by index, null first. */
function expectedView (exam: DatasetExam, records: SourceRecord[], language: string | null): SourceRecord[] {
  const rank = (record: SourceRecord) => (record.language === null ? 0 : 1)
  return records.filter((record) => record.language === null || record.language === language)
    .sort((a, b) => a.index - b.index || rank(a) - rank(b))
}

const languagesOf = (exam: DatasetExam): Array<string | null> => (exam.languages.length === 0 ? [null] : exam.languages.map((option) => option.value))
const languageQuery = (language: string | null) => (language === null ? '' : `language=${language}`)

describe('full dataset', { skip: FULL_DATA_DIR === undefined ? 'ENEM_DATA_DIR is not set: the full-dataset suite did NOT run' : false }, () => {
  let app: FastifyInstance
  /** Through the server's request listener, as a client is answered. */
  let request: SendRequest
  let source: Awaited<ReturnType<typeof readSource>>

  before(async () => {
    app = await buildTestApp({ ENEM_DATA_DIR: FULL_DATA_DIR! })
    request = frontDoor(app)
    source = await readSource(FULL_DATA_DIR!)
  })
  after(async () => { await app?.close() })

  async function walk (year: number, language: string | null, limit: number) {
    const served: SourceRecord[] = []
    const totals = new Set<number>()
    let offset = 0
    let pages = 0
    for (;;) {
      const response = await request(`/v1/exams/${year}/questions?limit=${limit}&offset=${offset}&${languageQuery(language)}`)
      assert.equal(response.statusCode, 200)
      const page = response.json<{ metadata: { limit: number, offset: number, total: number, hasMore: boolean }, questions: SourceRecord[] }>()
      assert.equal(page.metadata.limit, limit)
      assert.equal(page.metadata.offset, offset)
      totals.add(page.metadata.total)
      served.push(...page.questions.map(withoutInep))
      offset += page.questions.length
      pages++
      assert.equal(page.metadata.hasMore, offset < page.metadata.total)
      if (!page.metadata.hasMore) break
      assert.equal(page.questions.length, limit, 'only the last page may be short')
    }
    assert.equal(totals.size, 1, 'total is the same on every page')
    return { served, total: [...totals][0]!, pages }
  }

  test('serves all 15 exams, newest first, equal to exams.json', async () => {
    const served = (await request('/v1/exams')).json<DatasetExam[]>()
    assert.equal(served.length, 15)
    // exams.json names no application: every exam of the dataset is a regular one.
    assert.deepEqual(served, [...source.exams].sort((a, b) => b.year - a.year).map((exam) => ({ ...exam, application: 'regular' })))
  })

  test('2022 walked 10 at a time: the 180 questions of the espanhol view, once each, in index order', async () => {
    const { served, total, pages } = await walk(2022, null, 10)
    assert.equal(total, 180)
    assert.equal(pages, 18)
    assert.deepEqual(served.map((q) => q.index), Array.from({ length: 180 }, (_, i) => i + 1))
    assert.ok(served.every((q) => q.language === null || q.language === 'espanhol'))
  })

  test('2020 walked 10 at a time: 177 questions (no 144, 168, 179; index 5 as the null record INEP\'s item data labels espanhol)', async () => {
    const { served, total } = await walk(2020, null, 10)
    assert.equal(total, 177)
    assert.equal(served.length, 177)
    const indexes = served.map((q) => q.index)
    for (const missing of [144, 168, 179]) assert.ok(!indexes.includes(missing))
    assert.deepEqual(served.filter((q) => q.index === 5).map((q) => q.language), ['espanhol'])
    assert.equal(new Set(indexes).size, 177)
  })

  test('every language view, walked with limit 50 and limit 7, equals the view computed from the files', async () => {
    let views = 0
    for (const exam of source.exams) {
      for (const language of languagesOf(exam)) {
        const expected = expectedView(exam, source.recordsByYear.get(exam.year)!, language)
        for (const limit of [50, 7]) {
          const { served, total } = await walk(exam.year, language, limit)
          assert.equal(total, expected.length, `${exam.year} ${language} total`)
          assert.deepEqual(served, expected, `${exam.year} ${language} limit ${limit}`)
        }
        views++
      }
    }
    assert.equal(views, 29) // 14 exams in two languages (2011's English from the language labels), 2009 in none
  })

  test('every record of every view is reachable by its single-question URL, unless the contract lets a variant shadow it', async () => {
    let reached = 0
    const shadowed: string[] = []
    for (const exam of source.exams) {
      for (const language of languagesOf(exam)) {
        const view = expectedView(exam, source.recordsByYear.get(exam.year)!, language)
        for (const record of view) {
          const response = await request(`/v1/exams/${exam.year}/questions/${record.index}?${languageQuery(language)}`)
          assert.equal(response.statusCode, 200)
          const served = withoutInep(response.json<SourceRecord>())
          const variant = view.find((other) => other.index === record.index && other.language !== null)
          if (record.language === null && variant !== undefined) {
            // A mislabelled null record beside a variant: the variant in the chosen language wins.
            assert.deepEqual(served, variant)
            shadowed.push(`${exam.year}/${record.index}`)
          } else {
            assert.deepEqual(served, record)
            reached++
          }
        }
      }
    }
    assert.ok(reached > 5000)
    // The nine null-language records at language positions are served in their language: none is shadowed.
    assert.deepEqual(shadowed, [])
  })

  test('every exam detail lists exactly the records, by index then language order', async () => {
    for (const exam of source.exams) {
      const detail = (await request(`/v1/exams/${exam.year}`)).json<{ questions: Array<{ index: number, language: string | null }> }>()
      const records = source.recordsByYear.get(exam.year)!
      assert.equal(detail.questions.length, records.length, String(exam.year))
      const order = languagesOf(exam)
      const rank = (language: string | null) => (language === null ? -1 : order.indexOf(language))
      for (let i = 1; i < detail.questions.length; i++) {
        const [a, b] = [detail.questions[i - 1]!, detail.questions[i]!]
        assert.ok(a.index < b.index || (a.index === b.index && rank(a.language) < rank(b.language)), `${exam.year} at ${i}`)
      }
    }
  })

  test('every rewritten file address answers 200 with bytes', async () => {
    const addresses = new Set<string>()
    for (const records of source.recordsByYear.values()) {
      for (const record of records) {
        for (const address of record.files) addresses.add(address)
        for (const alternative of record.alternatives) if (alternative.file !== null) addresses.add(alternative.file)
        for (const match of JSON.stringify(record).matchAll(/http:\/\/api\.test\/files\/[^\s)"\\]+/g)) addresses.add(match[0])
      }
    }
    assert.ok(addresses.size > 1500, `${addresses.size} addresses`)
    for (const address of addresses) {
      assert.ok(address.startsWith(`${TEST_PUBLIC_URL}/files/`), address)
      const response = await request(address.slice(TEST_PUBLIC_URL.length))
      assert.equal(response.statusCode, 200, address)
      assert.ok(response.rawPayload.length > 0)
    }
  })

  /** Every record the service serves, by year|index|language, as the lists give them (inep included). */
  async function servedRecords (): Promise<Map<string, SourceRecord>> {
    const served = new Map<string, SourceRecord>()
    for (const exam of source.exams) {
      for (const language of languagesOf(exam)) {
        for (let offset = 0; ; offset += 50) {
          const page = (await request(`/v1/exams/${exam.year}/questions?limit=50&offset=${offset}&${languageQuery(language)}`))
            .json<{ metadata: { hasMore: boolean }, questions: SourceRecord[] }>()
          for (const question of page.questions) served.set(`${exam.year}|${question.index}|${question.language}`, question)
          if (!page.metadata.hasMore) break
        }
      }
    }
    return served
  }

  test('every record whose INEP item data has a letter serves that letter, with the isCorrect flag on it alone', { skip: !existsSync(INEP_ITEMS_DIR) && `${INEP_ITEMS_DIR} is absent` }, async () => {
    const served = await servedRecords()
    let checked = 0
    for (const name of await readdir(INEP_ITEMS_DIR)) {
      if (!name.endsWith('.json')) continue
      const items = JSON.parse(await readFile(path.join(INEP_ITEMS_DIR, name), 'utf8')) as { year: number, items: Array<{ number: number, language?: string, gabarito: string, item: number }> }
      for (const item of items.items) {
        const record = served.get(`${items.year}|${item.number}|${item.language ?? null}`)
        if (record === undefined) continue // the dataset lacks this position (see npm run check-data)
        assert.equal(record.inep?.key, item.gabarito, `${items.year} ${item.number}`)
        assert.equal(record.inep?.item, item.item)
        if (item.gabarito === 'X') continue
        assert.equal(record.correctAlternative, item.gabarito, `${items.year} ${item.number} ${item.language ?? ''}`)
        assert.deepEqual(record.alternatives.filter((alternative) => alternative.isCorrect).map((alternative) => alternative.letter), [item.gabarito])
        checked++
      }
    }
    assert.ok(checked > 800, `${checked} records checked`)
  })

  test('every record whose official key (data/official) is a letter serves it; every annulled one keeps its letter and says so', async () => {
    const served = await servedRecords()
    let letters = 0
    let annulled = 0
    for (const [year, files] of source.filesByYear) {
      for (const file of files) {
        const { entry } = officialOf(source.official, year, file.index, file.language)
        const record = served.get(`${year}|${file.index}|${file.language}`)!
        if (entry === undefined) {
          assert.equal(record.inep, null, `${year} ${file.index} ${file.language}`)
          continue
        }
        assert.equal(record.inep?.key, entry.key)
        assert.equal(record.inep?.annulled, entry.key === 'X')
        if (entry.key === 'X') {
          assert.equal(record.correctAlternative, file.correctAlternative)
          annulled++
        } else {
          assert.equal(record.correctAlternative, entry.key)
          assert.deepEqual(record.alternatives.filter((alternative) => alternative.isCorrect).map((alternative) => alternative.letter), [entry.key])
          letters++
        }
      }
    }
    assert.ok(letters > 1000, `${letters} keys checked`)
    assert.ok(annulled > 0)
  })

  test('every record, exam detail entry and discipline view carries the official area of the position', async () => {
    const served = await servedRecords()
    for (const [year, files] of source.filesByYear) {
      const exam = source.exams.find((candidate) => candidate.year === year)!
      const detail = (await request(`/v1/exams/${year}`)).json<{ questions: Array<{ index: number, language: string | null, discipline: string | null }> }>()
      for (const file of files) {
        const { area } = officialOf(source.official, year, file.index, file.language)
        assert.ok(area !== undefined || file.index > 180, `${year} ${file.index}: no official area`)
        const discipline = area === undefined ? file.discipline : SLUG_OF_AREA[area]
        assert.equal(served.get(`${year}|${file.index}|${file.language}`)!.discipline, discipline, `${year} ${file.index} ${file.language}`)
        assert.equal(detail.questions.find((entry) => entry.index === file.index && entry.language === file.language)?.discipline, discipline)
      }
      for (const language of languagesOf(exam)) {
        for (const { value: discipline } of exam.disciplines) {
          const view = expectedView(exam, source.recordsByYear.get(year)!, language).filter((record) => record.discipline === discipline)
          const listed: Array<[number, string | null]> = []
          for (let offset = 0; ; offset += 50) {
            const page = (await request(`/v1/exams/${year}/questions?limit=50&offset=${offset}&discipline=${discipline}&${languageQuery(language)}`))
              .json<{ metadata: { total: number, hasMore: boolean }, questions: SourceRecord[] }>()
            assert.equal(page.metadata.total, view.length, `${year} ${language} ${discipline}`)
            listed.push(...page.questions.map((question): [number, string | null] => [question.index, question.language]))
            if (!page.metadata.hasMore) break
          }
          assert.deepEqual(listed, view.map((record): [number, string | null] => [record.index, record.language]))
        }
      }
    }
  })

  test('the contract\'s example errors hold on the real data', async () => {
    const cases: Array<[string, number, string]> = [
      ['/v1/exams/2020/questions?limit=0', 422, 'unprocessable_entity'],
      ['/v1/exams/2020/questions?limit=abc', 400, 'bad_request'],
      ['/v1/exams/1999', 404, 'not_found'],
      ['/v1/exams/2020/questions?language=frances', 422, 'unprocessable_entity'],
      ['/v1/exams/2009/questions?language=ingles', 422, 'unprocessable_entity'],
      ['/v1/exams/2020/questions/144', 404, 'not_found']
    ]
    for (const [url, status, code] of cases) {
      const response = await request(url)
      assert.equal(response.statusCode, status, url)
      assert.equal(response.json<{ error: { code: string } }>().error.code, code)
    }
  })
})
