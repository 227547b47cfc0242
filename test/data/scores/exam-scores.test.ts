import { test } from 'node:test'
import assert from 'node:assert/strict'
import { loadConfig } from '../../../src/config.ts'
import { AREA_BLOCK, areaOrder, examIndexOf } from '../../../src/data/official/exam-layout.ts'
import { isPracticeProblem, PracticeScorer, type PracticeScore } from '../../../src/data/scores/exam-scores.ts'
import { readBookletTables } from '../../../src/data/scores/booklet-table.ts'
import { isSheetProblem, SheetScorer } from '../../../src/data/scores/sheet-scores.ts'
import { FULL_DATA_DIR, loadTestDataset } from '../../helper.ts'

/*
 * Scores of a practice run in our numbering, read from the served records. On the full dataset,
 * an exam's areas score as the blue booklet they follow does with the same letters (the sheet
 * form reads INEP's file, this form the records): two ways to one number.
 */

const noFullDataset = FULL_DATA_DIR === undefined ? 'ENEM_DATA_DIR is not set: the scores were NOT compared on the full dataset' : false

async function scorerOf (dataDir: string | undefined) {
  const config = loadConfig({ LOG_LEVEL: 'silent', ...(dataDir === undefined ? {} : { ENEM_DATA_DIR: dataDir }) })
  const dataset = await loadTestDataset(config)
  return { scorer: new PracticeScorer(dataset.catalog!), catalog: dataset.catalog! }
}

function scored (result: ReturnType<PracticeScorer['score']>): PracticeScore {
  assert.ok(!isPracticeProblem(result), isPracticeProblem(result) ? result.message : '')
  return result
}

test('each area of a practice run scores as the booklet whose items the records carry does, with the same letters', { skip: noFullDataset }, async (t) => {
  const { scorer, catalog } = await scorerOf(FULL_DATA_DIR)
  const tables = readBookletTables()
  const sheets = new SheetScorer(tables)
  let compared = 0
  for (const exam of catalog.listExams()) {
    const year = exam.summary.year
    for (const language of exam.languageSlugs) {
      const view = catalog.languageView(exam, language, null)
      if (!view.some((record) => record.inep?.irt != null)) continue
      const itemAt = new Map(view.map((record) => [record.index, record.inep?.item ?? null]))
      for (const area of areaOrder(year)) {
        const items = Array.from({ length: AREA_BLOCK }, (_, at) => itemAt.get(examIndexOf(year, area, at + 1)) ?? null)
        // The booklet whose item at every position the records name is the one the records follow.
        const booklet = [...tables.get(year)!.values()].find((entry) => entry.area === area && entry.slots.length === AREA_BLOCK &&
          entry.slots.every((slot, at) => items[at] === null || ('common' in slot ? slot.common.item : slot[language as 'ingles']?.item) === items[at]))
        if (booklet === undefined || items.some((item) => item === null)) continue
        for (const seed of [1, 2, 3]) {
          const letters = Array.from({ length: AREA_BLOCK }, (_, at) => 'ABCDE'[(at * seed * 7 + seed) % 5]!)
          const answers = Object.fromEntries(letters.map((letter, at) => [String(examIndexOf(year, area, at + 1)), letter]))
          const practice = scored(scorer.score({ year, application: exam.summary.application, language, answers })).areas
          const sheet = sheets.score({ year, booklet: booklet.code, answers: letters.join(''), language })
          assert.ok(!isSheetProblem(sheet))
          assert.equal(practice.length, 1)
          assert.deepEqual({ ...practice[0], leftOut: practice[0]!.leftOut.map((entry) => entry.reason) },
            { ...sheet.area, leftOut: sheet.area!.leftOut.map((entry) => entry.reason) }, `${exam.key} ${language} ${area} booklet ${booklet.code}`)
          compared++
        }
      }
    }
  }
  // Areas with a position the dataset lacks are left out: there the two forms differ by design (`missing`).
  t.diagnostic(`${compared / 3} areas compared, 3 answer sets each`)
  assert.ok(compared >= 3 * 20, `only ${compared / 3} areas compared`)
})

test('an area none of whose questions is answered is absent, and a blank question of an answered area counts wrong', async () => {
  const { scorer } = await scorerOf(FULL_DATA_DIR)
  const year = FULL_DATA_DIR === undefined ? 2020 : 2023
  const empty = scored(scorer.score({ year, answers: {} }))
  assert.deepEqual(empty.areas, [])
  // The sample's 2020 exam has item parameters at a few linguagens positions only (8 among them).
  const [area, index] = FULL_DATA_DIR === undefined ? ['LC', 8] as const : ['MT', examIndexOf(year, 'MT', 1)] as const
  const one = scored(scorer.score({ year, language: 'ingles', answers: { [index]: 'A' } }))
  assert.deepEqual(one.areas.map((entry) => entry.area), [area])
  assert.ok(one.areas[0]!.correct <= 1)
  assert.ok(one.areas[0]!.scored > 1, 'the blanks count')
})

test('the other language\'s questions never count: the score of a view reads only its own records', async () => {
  const { scorer, catalog } = await scorerOf(FULL_DATA_DIR)
  const year = FULL_DATA_DIR === undefined ? 2020 : 2023
  const exam = catalog.getExam(year)!
  const first = examIndexOf(year, 'LC', 1)
  for (const language of exam.languageSlugs) {
    const own = catalog.findQuestion(exam, first, language)
    assert.ok(own.found && own.question.language === language)
    // Right by this language's key, or by the other's: only this language's key makes it right.
    const right = scored(scorer.score({ year, language, answers: { [first]: own.question.correctAlternative } })).areas[0]!
    assert.equal(right.correct, own.question.inep?.irt == null ? 0 : 1)
    for (const other of exam.languageSlugs.filter((entry) => entry !== language)) {
      const theirs = catalog.findQuestion(exam, first, other)
      if (!theirs.found || theirs.question.correctAlternative === own.question.correctAlternative) continue
      const wrong: PracticeScore['areas'][number] = scored(scorer.score({ year, language, answers: { [first]: theirs.question.correctAlternative } })).areas[0]!
      assert.equal(wrong.correct, 0)
    }
  }
})

test('values that do not exist are refused, naming the field', async () => {
  const { scorer } = await scorerOf(FULL_DATA_DIR)
  const year = FULL_DATA_DIR === undefined ? 2020 : 2023
  const field = (request: Parameters<PracticeScorer['score']>[0]) => {
    const result = scorer.score(request)
    assert.ok(isPracticeProblem(result))
    return result.field
  }
  assert.equal(field({ year: 1999, answers: {} }), 'year')
  // An application the year has no exam of (derived from the catalog), and one that is none.
  const { catalog } = await scorerOf(FULL_DATA_DIR)
  const withoutPpl = catalog.listExams().find((exam) => catalog.getExam(exam.summary.year, 'ppl') === undefined)!.summary.year
  assert.equal(field({ year: withoutPpl, application: 'ppl', answers: {} }), 'application')
  assert.equal(field({ year, application: 'second', answers: {} }), 'application')
  assert.equal(field({ year, answers: { 181: 'A' } }), 'answers')
  assert.equal(field({ year, answers: { 0: 'A' } }), 'answers')
  assert.equal(field({ year, language: 'frances', answers: {} }), 'language')
  assert.equal(field({ year, answers: { [examIndexOf(year, 'LC', 10)]: 'A' } }), 'language')
})
