import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { SAMPLE_DATA_DIR } from '../../src/config.ts'
import { loadDataset } from '../../src/data/dataset/load-dataset.ts'
import type { Question } from '../../src/data/record-schemas.ts'
import { build, FULL_DATA_DIR, TEST_PUBLIC_URL, type TestServer } from '../helper.ts'

/*
 * A record without its statement (../shared/API.md, sixth round, "No question without its
 * statement"): no `context` (null or blank) and no figure in `files`. The incomplete set is
 * derived here from the served records by that definition, not from the server's marks nor typed-in
 * indices; then every record and every exam entry must carry the mark, and no draw (random, practice)
 * may ever give one, whatever the seed, score or filters. On the full dataset when ENEM_DATA_DIR is
 * set; otherwise on a copy of the sample in which every other record of the exams with INEP's
 * parameters loses its statement (the sample has one such record of its own, 2011/2, without
 * parameters: practice could never draw it, so it alone would test nothing).
 */

interface ExamBody { year: number, application: string, questions?: Array<{ index: number, language: string | null, incomplete: unknown }> }
interface DrawBody { seed: number, questions: Question[] }
interface PageBody { metadata: { total: number, hasMore: boolean }, questions: Question[] }

/** The contract's definition, written out: nothing shown before the asking sentence. */
const showsNoStatement = (record: Question) => (record.context === null || record.context.trim() === '') && record.files.length === 0
const id = (record: { year: number, application: string, index: number, language: string | null }) => `${record.year}-${record.application}/${record.index}/${record.language ?? '-'}`
const AREAS: Record<string, string> = { linguagens: 'LC', 'ciencias-humanas': 'CH', 'ciencias-natureza': 'CN', matematica: 'MT' }

/** A copy of the sample where every other record file of the exams with an official table (2016, 2020, 2020-ppl) shows no statement. */
async function sampleWithIncompleteRecords (dir: string): Promise<void> {
  await cp(SAMPLE_DATA_DIR, dir, { recursive: true })
  const official = new Set((await readdir(path.join(dir, 'official'))).map((name) => name.replace(/\.json$/, '')))
  for (const exam of (await readdir(dir)).filter((name) => official.has(name)).sort()) {
    const folders = (await readdir(path.join(dir, exam, 'questions'))).sort()
    for (const [at, folder] of folders.entries()) {
      if (at % 2 === 1) continue
      const file = path.join(dir, exam, 'questions', folder, 'details.json')
      const record = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>
      record.context = at % 4 === 0 ? null : ' \n'
      record.files = []
      await writeFile(file, JSON.stringify(record, null, 4))
    }
  }
}

let server: TestServer
let records: Question[] = []
let scratch: string | undefined

before(async () => {
  if (FULL_DATA_DIR !== undefined) {
    server = await build({ after }, { ENEM_DATA_DIR: FULL_DATA_DIR })
  } else {
    scratch = await mkdtemp(path.join(tmpdir(), 'enem-incomplete-'))
    await sampleWithIncompleteRecords(scratch)
    const dataset = await loadDataset(scratch, { filesBaseUrl: `${TEST_PUBLIC_URL}/files` })
    assert.notEqual(dataset.catalog, null, dataset.report.summaryLine())
    server = await build({ after }, {}, { dataset })
  }
  const exported = await server.request('/v1/export/questions.jsonl')
  assert.equal(exported.statusCode, 200)
  records = exported.body.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as Question)
})

after(async () => {
  if (scratch !== undefined) await rm(scratch, { recursive: true, force: true })
})

async function json<T> (url: string): Promise<T> {
  const response = await server.request(url)
  assert.equal(response.statusCode, 200, `${url}: ${response.body.slice(0, 300)}`)
  return response.json<T>()
}

const incompleteIds = () => new Set(records.filter(showsNoStatement).map(id))

describe('a record without its statement', () => {
  test('is marked `incomplete: { reason: "no-statement" }`, and every other record `incomplete: null`', () => {
    const incomplete = incompleteIds()
    assert.ok(incomplete.size > 0, 'the dataset holds records without their statement')
    assert.ok(incomplete.size < records.length)
    for (const record of records) {
      assert.deepEqual(record.incomplete, incomplete.has(id(record)) ? { reason: 'no-statement' } : null, id(record))
    }
  })

  test('the exam detail marks each of its entries as its record is marked', async () => {
    const marks = new Map(records.map((record) => [id(record), record.incomplete]))
    let marked = 0
    for (const exam of await json<ExamBody[]>('/v1/exams')) {
      const detail = await json<ExamBody>(`/v1/exams/${exam.year}?application=${exam.application}`)
      for (const entry of detail.questions!) {
        const key = id({ ...entry, year: exam.year, application: exam.application })
        assert.ok(marks.has(key), key)
        assert.deepEqual(entry.incomplete, marks.get(key), key)
        if (entry.incomplete !== null) marked++
      }
    }
    assert.equal(marked, incompleteIds().size)
  })

  test('is still listed and found: /v1/questions and the exam views serve it', async () => {
    const incomplete = records.find(showsNoStatement)!
    const page = await json<PageBody>(`/v1/exams/${incomplete.year}/questions?application=${incomplete.application}&limit=50&offset=${Math.max(0, incomplete.index - 40)}${incomplete.language === null ? '' : `&language=${incomplete.language}`}`)
    assert.ok(page.questions.some((record) => id(record) === id(incomplete)))
  })

  test('is never drawn by /v1/questions/random: many seeds, every filter of year, discipline and language', async () => {
    const incomplete = incompleteIds()
    const drawable = records.filter((record) => !incomplete.has(id(record)))
    const exams = await json<ExamBody[]>('/v1/exams')
    const languages = [...new Set(records.map((record) => record.language).filter((language) => language !== null))]
    const queries = [
      '',
      ...[...new Set(exams.map((exam) => exam.year))].map((year) => `year=${year}`),
      ...Object.keys(AREAS).map((discipline) => `discipline=${discipline}`),
      ...languages.map((language) => `language=${language}`)
    ]
    const seen = new Set<string>()
    for (const query of queries) {
      for (let seed = 0; seed < 25; seed++) {
        const body = await json<DrawBody>(`/v1/questions/random?count=50&seed=${seed}${query === '' ? '' : `&${query}`}`)
        for (const record of body.questions) {
          assert.ok(!incomplete.has(id(record)), `random ${query} seed ${seed} drew ${id(record)}, which shows no statement`)
          seen.add(id(record))
        }
      }
    }
    // The draws did draw: a list emptied by the exclusion would pass the check above.
    assert.ok(seen.size > Math.min(50, drawable.length / 2), `${seen.size} distinct records drawn`)
  })

  test('is never drawn by a search\'s random draw, though the search lists it', async () => {
    // A word of an incomplete record's asking sentence, longest first: a search that finds it.
    const incomplete = records.filter(showsNoStatement).find((record) => (record.alternativesIntroduction ?? '').length > 0)!
    const word = (incomplete.alternativesIntroduction!.match(/\p{L}{6,}/gu) ?? []).sort((a, b) => b.length - a.length)[0]!
    const language = incomplete.language === null ? '' : `&language=${incomplete.language}`
    const found = await json<PageBody>(`/v1/questions?q=${encodeURIComponent(word)}&year=${incomplete.year}&limit=50${language}`)
    assert.ok(found.questions.some((record) => id(record) === id(incomplete)), `q=${word} lists ${id(incomplete)}`)
    for (let seed = 0; seed < 40; seed++) {
      const body = await json<DrawBody>(`/v1/questions/random?q=${encodeURIComponent(word)}&year=${incomplete.year}&count=50&seed=${seed}${language}`)
      assert.ok(body.questions.every((record) => !showsNoStatement(record)), `seed ${seed}`)
    }
  })

  test('is never drawn by /v1/questions/practice, though some would be among the most informative', async () => {
    const incomplete = incompleteIds()
    let drawn = 0
    for (const discipline of Object.keys(AREAS)) {
      for (const score of [300, 450, 550, 650, 750, 900]) {
        for (let seed = 0; seed < 12; seed++) {
          const body = await json<DrawBody>(`/v1/questions/practice?discipline=${discipline}&score=${score}&count=10&seed=${seed}`)
          for (const record of body.questions) assert.ok(!incomplete.has(id(record)), `practice ${discipline} ${score} seed ${seed} drew ${id(record)}`)
          drawn += body.questions.length
        }
      }
    }
    assert.ok(drawn > 0)
    // Honest only if the exclusion is what keeps them out: incomplete records a practice draw could otherwise pick.
    const scorable = records.filter((record) => showsNoStatement(record) && record.inep?.irt != null && !record.inep.annulled && record.inep.excludedFromScoring !== true)
    assert.ok(scorable.length > 0, 'some incomplete records have INEP\'s parameters')
  })

  test('is never drawn by MCP\'s random_questions and practice_questions, which draw through the same finder', async () => {
    const incomplete = incompleteIds()
    /** A tools/call's structured result (a JSON answer, or the one event of a stream). */
    const call = async (name: string, args: Record<string, unknown>): Promise<{ questions: Question[] }> => {
      const response = await server.request({
        method: 'POST',
        url: '/mcp',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
        payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } })
      })
      assert.equal(response.statusCode, 200, response.body.slice(0, 300))
      const text = response.body.startsWith('{') ? response.body : /^data: (.*)$/m.exec(response.body)![1]!
      const answer = JSON.parse(text) as { result: { isError?: boolean, structuredContent: { questions: Question[] } } }
      assert.notEqual(answer.result.isError, true, text.slice(0, 300))
      return answer.result.structuredContent
    }
    let drawn = 0
    for (let seed = 0; seed < 20; seed++) {
      for (const record of (await call('random_questions', { count: 50, seed })).questions) {
        assert.ok(!incomplete.has(id(record)), `random_questions seed ${seed} drew ${id(record)}`)
        drawn++
      }
      for (const discipline of Object.keys(AREAS)) {
        for (const record of (await call('practice_questions', { discipline, score: 400 + 20 * seed, count: 10, seed })).questions) {
          assert.ok(!incomplete.has(id(record)), `practice_questions ${discipline} seed ${seed} drew ${id(record)}`)
          drawn++
        }
      }
    }
    assert.ok(drawn > 0)
  })

  test('a practice run\'s score counts it as INEP\'s sheet would (a Simulado does not ask it: a blank, wrong), so a run scores as the booklet with the same letters', async () => {
    const scored = (record: Question) => record.inep?.irt != null && !record.inep.annulled && record.inep.excludedFromScoring !== true
    // An incomplete record that counts but for that, and a whole one of its exam and area that counts.
    const pairs = records.filter((record) => showsNoStatement(record) && scored(record)).flatMap((incomplete) => {
      const complete = records.find((record) => !showsNoStatement(record) && scored(record) && record.language === null && record.year === incomplete.year &&
        record.application === incomplete.application && record.discipline === incomplete.discipline)
      return complete === undefined ? [] : [{ incomplete, complete }]
    })
    assert.ok(pairs.length > 0)
    const { incomplete, complete } = pairs[0]!
    // Linguagens asks for a language: the record's own, or the exam's first.
    const exam = (await json<Array<ExamBody & { languages: Array<{ value: string }> }>>('/v1/exams')).find((one) => one.year === incomplete.year && one.application === incomplete.application)!
    const language = incomplete.language ?? exam.languages[0]?.value
    const response = await server.request({
      method: 'POST',
      url: '/v1/scores',
      payload: { year: incomplete.year, application: incomplete.application, ...(language === undefined ? {} : { language }), answers: { [incomplete.index]: incomplete.correctAlternative, [complete.index]: complete.correctAlternative } }
    })
    assert.equal(response.statusCode, 200, response.body)
    const area = response.json<{ areas: Array<{ area: string, correct: number, leftOut: Array<{ index: number, reason: string }> }> }>().areas.find((entry) => entry.area === AREAS[incomplete.discipline!])!
    assert.equal(area.leftOut.find((entry) => entry.index === incomplete.index), undefined)
    assert.equal(area.leftOut.find((entry) => entry.index === complete.index), undefined)
    // Both answered with their keys: both count as right.
    assert.equal(area.correct, 2)
  })
})
