import { test } from 'node:test'
import assert from 'node:assert/strict'
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { SAMPLE_DATA_DIR } from '../../src/config.ts'
import { loadDataset, type LoadedDataset } from '../../src/data/dataset/load-dataset.ts'
import { examKey, type Application } from '../../src/data/exam-key.ts'
import { officialDirFor, officialFactsFor, OFFICIAL_DATA_DIR, readOfficialTable, type OfficialTable } from '../../src/data/official/official-table.ts'
import { officialYearFromItems } from '../../src/data/sources/inep-official.ts'
import { readItensProva } from '../../src/data/official/itens-prova.ts'
import { readDataset } from '../../src/data/dataset/read-dataset.ts'
import { DatasetReport } from '../../src/data/dataset/dataset-report.ts'
import { DISCIPLINE_OF_AREA, type Question } from '../../src/data/record-schemas.ts'

/*
 * The official table of the sample (data/sample/official, written with the sample) against the
 * sample's records: expectations come from those two sets of files, read here.
 */

const OPTIONS = { filesBaseUrl: 'http://api.test/files' }
const table = readOfficialTable(path.join(SAMPLE_DATA_DIR, 'official'))
/** The table of the sample's second application (2020-ppl): a table is read per application. */
const pplTable = readOfficialTable(path.join(SAMPLE_DATA_DIR, 'official'), 'ppl')
const tableOf = (application: Application) => (application === 'ppl' ? pplTable : table)
const loaded = await loadDataset(SAMPLE_DATA_DIR, OPTIONS)
const catalog = loaded.catalog!

interface SourceRecord { correctAlternative: string, discipline: string | null, language: string | null, alternatives: Array<{ letter: string, isCorrect: boolean }> }
const sourceFile = (year: number, index: number, language: string | null, application: Application = 'regular') =>
  path.join(SAMPLE_DATA_DIR, examKey(year, application), 'questions', language === null ? String(index) : `${index}-${language}`, 'details.json')
const source = async (year: number, index: number, language: string | null, application: Application = 'regular') =>
  JSON.parse(await readFile(sourceFile(year, index, language, application), 'utf8')) as SourceRecord

function served (year: number, index: number, language: string | null, from: LoadedDataset = loaded, application: Application = 'regular'): Question {
  const exam = from.catalog!.getExam(year, application)!
  const question = exam.questions.find((candidate) => candidate.index === index && candidate.language === language)
  assert.ok(question !== undefined, `${year} ${index} ${language}`)
  return question
}

async function loadChangedSample (change: (dir: string) => Promise<void>): Promise<LoadedDataset> {
  const dir = await mkdtemp(path.join(tmpdir(), 'enem-official-'))
  try {
    await cp(SAMPLE_DATA_DIR, dir, { recursive: true })
    await change(dir)
    return await loadDataset(dir, OPTIONS)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

test('the sample is served with its own official table, never the real exams\' one', () => {
  assert.equal(officialDirFor(SAMPLE_DATA_DIR), path.join(SAMPLE_DATA_DIR, 'official'))
  assert.equal(loaded.official?.tableDir, path.join(SAMPLE_DATA_DIR, 'official'))
  assert.equal(officialDirFor('/nonexistent/enem-data'), OFFICIAL_DATA_DIR)
})

test('the sample\'s table exercises every rule: a corrected key, an annulled item, a corrected discipline, a variant\'s own key, a skipped row', () => {
  const positions = [...table.years.values()].flatMap((year) => year.positions)
  assert.ok(positions.some((position) => position.key === 'X'))
  assert.ok(positions.some((position) => position.language === 'ingles') && positions.some((position) => position.language === 'espanhol'))
  assert.ok(table.corrections.some((row) => row.field === 'discipline'))
  assert.equal(loaded.official!.applied.filter(({ row }) => row.field === 'correctAlternative').length >= 2, true)
  assert.equal(loaded.official!.skipped.length, 1)
})

test('the sample\'s 2016 comes from its invented INEP item file alone: a booklet found, one not agreeing, a language labelled, a key corrected', () => {
  const year = table.years.get(2016)!
  const sourcesDir = path.join(SAMPLE_DATA_DIR, 'official', 'inep')
  const sourceRecords = readDataset(SAMPLE_DATA_DIR, new DatasetReport())!.exams.find((exam) => exam.summary.year === 2016)!.records.map(({ record }) => record)
  // The committed table is what the import makes of the committed item file and the records as their files hold them.
  assert.deepEqual(officialYearFromItems(readItensProva(sourcesDir, 2016), sourceRecords), year)
  const lc = year.booklets.find((booklet) => booklet.area === 'LC')!
  assert.ok(lc.code !== null && lc.sameOrder.length > 0 && lc.colour === 'azul')
  const mt = year.booklets.find((booklet) => booklet.area === 'MT')!
  assert.equal(mt.code, null)
  assert.ok(mt.compared > 0 && mt.agree < 0.8 * mt.compared)
  const labelled = loaded.official!.applied.filter(({ row }) => row.year === 2016 && row.field === 'language')
  assert.equal(labelled.length, 1)
  const question = served(2016, labelled[0]!.row.index, labelled[0]!.row.served)
  assert.equal(question.inep?.key, year.positions.find((position) => position.index === question.index && position.language === question.language)?.key)
  assert.ok(loaded.official!.applied.some(({ row }) => row.year === 2016 && row.field === 'correctAlternative'))
  assert.ok(loaded.official!.withoutInep().some((entry) => entry.year === 2016 && entry.reason === 'no booklet of its area agrees with the records'))
})

/** k and d of each area's score scale, as the contract states them. */
const CONTRACT_SCALE = { CH: { k: 112.31, d: 501.489 }, CN: { k: 113.102, d: 501.144 }, LC: { k: 108.086, d: 499.978 }, MT: { k: 129.646, d: 500.02 } }

test('every record with an official entry serves inep from it; every other record has inep null', () => {
  let withInep = 0
  for (const exam of catalog.listExams()) {
    for (const question of exam.questions) {
      const position = tableOf(question.application).years.get(question.year)?.positions.find((entry) => entry.index === question.index && entry.language === question.language)
      if (position === undefined) {
        assert.equal(question.inep, null, `${question.year} ${question.index} ${question.language}`)
        continue
      }
      withInep++
      assert.deepEqual({ ...question.inep, sources: undefined }, {
        item: position.item,
        area: position.area,
        skill: position.skill,
        key: position.key,
        annulled: position.key === 'X',
        excludedFromScoring: position.excludedFromScoring,
        irt: position.irt,
        // round(k·b + d, 1) with the contract's constants (../shared/API.md, scores), written out here.
        difficulty: position.irt === null ? null : Math.round((CONTRACT_SCALE[position.area].k * position.irt.b + CONTRACT_SCALE[position.area].d) * 10) / 10,
        booklet: position.booklet,
        sources: undefined
      })
    }
  }
  // Every entry a record stands for is served: the table's other entries are items the sample has no record for.
  const served = new Set(catalog.listExams().flatMap((exam) => exam.questions.map((question) => `${question.application}|${question.year}|${question.index}|${question.language}`)))
  assert.equal(withInep, [table, pplTable].flatMap((one) => [...one.years.values()].map((year) => ({ application: one.application, year })))
    .reduce((sum, { application, year }) => sum + year.positions.filter((position) => served.has(`${application}|${year.year}|${position.index}|${position.language}`)).length, 0))
})

test('each applied row serves the official value, with the isCorrect flags moving with correctAlternative', async () => {
  for (const row of [...table.corrections, ...pplTable.corrections]) {
    const application = row.application ?? 'regular'
    const record = await source(row.year, row.index, row.language, application)
    // A language row changes which record this is: it is served under its new language.
    const question = served(row.year, row.index, row.field === 'language' ? row.served : row.language, loaded, application)
    if (record[row.field] !== row.inDataset) continue // the skipped row, below
    assert.equal(question[row.field], row.served)
    if (row.field === 'correctAlternative') {
      assert.deepEqual(question.alternatives.filter((alternative) => alternative.isCorrect).map((alternative) => alternative.letter), [row.served])
    }
  }
})

test('language variants of one position each get their own language\'s key', () => {
  const espanhol = served(2020, 1, 'espanhol')
  const ingles = served(2020, 1, 'ingles')
  assert.notEqual(espanhol.inep!.key, ingles.inep!.key)
  assert.equal(espanhol.correctAlternative, espanhol.inep!.key)
  assert.equal(ingles.correctAlternative, ingles.inep!.key)
  assert.notEqual(espanhol.inep!.item, ingles.inep!.item)
})

test('an annulled item keeps the dataset\'s letter and says inep.annulled', async () => {
  const annulled = [table, pplTable].flatMap((one) => [...one.years.values()].flatMap((year) => year.positions.filter((position) => position.key === 'X')
    .map((position) => ({ year: year.year, application: one.application, position }))))
  assert.ok(annulled.length > 0)
  for (const { year, application, position } of annulled) {
    const question = served(year, position.index, position.language, loaded, application)
    assert.equal(question.inep?.annulled, true)
    assert.equal(question.correctAlternative, (await source(year, position.index, position.language, application)).correctAlternative)
  }
})

test('a row whose "value in the dataset" the dataset no longer holds is skipped and reported, and the dataset\'s value served', async () => {
  const [skipped] = loaded.official!.skipped
  assert.ok(skipped !== undefined)
  const record = await source(skipped.row.year, skipped.row.index, skipped.row.language)
  assert.notEqual(record[skipped.row.field], skipped.row.inDataset)
  assert.equal(skipped.datasetHolds, record[skipped.row.field])
  assert.equal(served(skipped.row.year, skipped.row.index, skipped.row.language)[skipped.row.field], record[skipped.row.field])
})

test('a corrected discipline is served in the record, the exam detail entries and the discipline views', () => {
  const row = table.corrections.find((candidate) => candidate.field === 'discipline')!
  const exam = catalog.getExam(row.year)!
  assert.equal(served(row.year, row.index, row.language).discipline, row.served)
  assert.equal(exam.questionSummaries.find((entry) => entry.index === row.index && entry.language === row.language)?.discipline, row.served)
  const inView = (discipline: string) => catalog.languageView(exam, exam.defaultLanguage, discipline).some((question) => question.index === row.index)
  assert.ok(inView(row.served))
  assert.ok(!inView(row.inDataset!))
})

test('a dataset fixed upstream is left alone: the row is skipped; a new disagreement with no row is reported, not applied', async () => {
  const row = table.corrections.find((candidate) => candidate.field === 'correctAlternative' && candidate.language === null)!
  const changed = await loadChangedSample(async (dir) => {
    const file = sourceFile(row.year, row.index, row.language).replace(SAMPLE_DATA_DIR, dir)
    const record = JSON.parse(await readFile(file, 'utf8')) as SourceRecord
    const other = ['A', 'B', 'C', 'D', 'E'].find((letter) => letter !== row.inDataset && letter !== row.served)!
    record.correctAlternative = other
    for (const alternative of record.alternatives) alternative.isCorrect = alternative.letter === other
    await writeFile(file, JSON.stringify(record))
  })
  const question = served(row.year, row.index, row.language, changed)
  assert.notEqual(question.correctAlternative, row.served)
  assert.ok(changed.official!.skipped.some((skipped) => skipped.row === row || (skipped.row.index === row.index && skipped.row.year === row.year)))
  assert.ok(changed.official!.uncorrected.some((value) => value.index === row.index && value.year === row.year && value.official === row.served))
})

test('officialDir null applies no table: every record is served as its file holds it, with inep null', async () => {
  const plain = await loadDataset(SAMPLE_DATA_DIR, { ...OPTIONS, officialDir: null })
  assert.equal(plain.official, null)
  for (const exam of plain.catalog!.listExams()) {
    for (const question of exam.questions) {
      assert.equal(question.inep, null)
      const record = await source(question.year, question.index, question.language, question.application)
      assert.equal(question.correctAlternative, record.correctAlternative)
      assert.equal(question.discipline, record.discipline)
    }
  }
})

test('the area of a position without an entry comes from the year\'s order of blocks of 45; a record without language at a per-language position gets no entry', () => {
  const real: OfficialTable = readOfficialTable(OFFICIAL_DATA_DIR)
  const year = real.years.get(2010)!
  for (const index of [1, 45, 46, 90, 91, 135, 136, 180]) {
    assert.equal(officialFactsFor(real, 2010, index, null).area?.area, year.areaOrder!.areas[Math.floor((index - 1) / 45)])
  }
  assert.equal(officialFactsFor(real, 2010, 181, null).area, null)
  const perLanguage = real.years.get(2020)!.positions.find((position) => position.language !== null)!
  const facts = officialFactsFor(real, 2020, perLanguage.index, null)
  assert.equal(facts.position, null)
  assert.equal(facts.ambiguousLanguage, true)
  assert.equal(facts.area?.area, perLanguage.area)
  assert.equal(DISCIPLINE_OF_AREA[facts.area!.area], 'linguagens')
})
