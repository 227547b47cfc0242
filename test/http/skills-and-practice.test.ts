import { after, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import type { Question } from '../../src/data/record-schemas.ts'
import { referenceMatrix } from '../../src/data/skills/matriz.ts'
import { build, FULL_DATA_DIR } from '../helper.ts'

/*
 * GET /v1/skills, the `skill` and `difficulty` filters, GET /v1/questions/practice and what
 * POST /v1/scores says to practise, checked against the served records themselves: counts are
 * counted here over what the API lists, and the Fisher information is computed here from the
 * served `irt`, by its definition (the squared slope of P over P(1 − P)), not by the server's formula.
 * On the sample dataset, or the full one when ENEM_DATA_DIR is set.
 */

interface PageBody { metadata: { total: number, hasMore: boolean }, questions: Question[] }
interface SkillsBody { areas: Array<{ area: string, discipline: string, name: string, competencies: Array<{ number: number, text: string }>, skills: Array<{ code: string, number: number, competency: number, text: string, questions: number }> }> }
interface PracticeBody { seed: number, target: { discipline: string, score: number, theta: number }, questions: Question[] }
interface ExamBody { year: number, application: string }

const server = await build({ after }, FULL_DATA_DIR === undefined ? {} : { ENEM_DATA_DIR: FULL_DATA_DIR })

async function json<T> (url: string): Promise<T> {
  const response = await server.request(url)
  assert.equal(response.statusCode, 200, `${url}: ${response.body.slice(0, 300)}`)
  return response.json<T>()
}

/** Every record a list endpoint gives, page after page. */
async function walk (url: string): Promise<Question[]> {
  const records: Question[] = []
  for (let offset = 0; ; offset += 50) {
    const page = await json<PageBody>(`${url}${url.includes('?') ? '&' : '?'}limit=50&offset=${offset}`)
    records.push(...page.questions)
    if (!page.metadata.hasMore) return records
  }
}

/** Every record of every exam's default view, walked exam by exam (not through /v1/questions). */
async function defaultViews (): Promise<Question[]> {
  const records: Question[] = []
  for (const exam of await json<ExamBody[]>('/v1/exams')) records.push(...await walk(`/v1/exams/${exam.year}/questions?application=${exam.application}`))
  return records
}

/** Every record of every exam (every language variant), from the export. */
async function everyRecord (query = ''): Promise<Question[]> {
  const response = await server.request(`/v1/export/questions.jsonl${query}`)
  assert.equal(response.statusCode, 200, response.body.slice(0, 300))
  return response.body.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as Question)
}

const skillOf = (record: Question) => record.inep === null || record.inep.skill === null ? null : `${record.inep.area}-H${record.inep.skill}`
/** The contract's constants (../shared/API.md, scores), written out. */
const SCALE: Record<string, { k: number, d: number }> = { CH: { k: 112.31, d: 501.489 }, CN: { k: 113.102, d: 501.144 }, LC: { k: 108.086, d: 499.978 }, MT: { k: 129.646, d: 500.02 } }
/** The areas of an exam's blocks of 45 positions, by year (../shared/API.md, official item data). */
const blockOrder = (year: number) => year === 2009 ? ['CN', 'CH', 'LC', 'MT'] : year <= 2016 ? ['CH', 'CN', 'LC', 'MT'] : ['LC', 'CH', 'CN', 'MT']
const AREA_OF: Record<string, string> = { linguagens: 'LC', 'ciencias-humanas': 'CH', 'ciencias-natureza': 'CN', matematica: 'MT' }

describe('GET /v1/skills', () => {
  test('the Matriz\'s areas, competências and skills, each skill with the count of its records in every exam\'s default view', async () => {
    const body = await json<SkillsBody>('/v1/skills')
    const matriz = referenceMatrix()
    assert.deepEqual(body.areas.map((area) => area.area), ['LC', 'CH', 'CN', 'MT'])
    const counted = new Map<string, number>()
    for (const record of await defaultViews()) {
      const code = skillOf(record)
      if (code !== null) counted.set(code, (counted.get(code) ?? 0) + 1)
    }
    let total = 0
    for (const [at, area] of body.areas.entries()) {
      const source = matriz.areas[at]!
      assert.equal(area.discipline, Object.keys(AREA_OF).find((discipline) => AREA_OF[discipline] === area.area))
      assert.equal(area.name, source.name)
      assert.deepEqual(area.competencies, source.competencies)
      assert.deepEqual(area.skills.map(({ number, competency, text }) => ({ number, competency, text })), source.skills)
      for (const skill of area.skills) {
        assert.equal(skill.code, `${area.area}-H${skill.number}`)
        assert.equal(skill.questions, counted.get(skill.code) ?? 0, skill.code)
        total += skill.questions
      }
    }
    // Every skill a record has is one of the Matriz's: nothing counted is missing from the answer.
    assert.equal(total, [...counted.values()].reduce((sum, count) => sum + count, 0))
    assert.ok(total > 0)
  })

  test('is prepared like /v1/exams: an ETag, a 304 for it, public caching', async () => {
    const first = await server.request('/v1/skills')
    assert.match(String(first.headers['cache-control']), /public/)
    const again = await server.request({ url: '/v1/skills', headers: { 'if-none-match': String(first.headers.etag) } })
    assert.equal(again.statusCode, 304)
  })
})

describe('skill and difficulty', () => {
  test('every served record with parameters has its difficulty on its area\'s scale; every skill is one of the Matriz\'s', async () => {
    const codes = new Set(referenceMatrix().areas.flatMap((area) => area.skills.map((skill) => `${area.area}-H${skill.number}`)))
    const records = await everyRecord()
    let withParameters = 0
    for (const record of records) {
      if (record.inep === null) continue
      const { irt, area, difficulty } = record.inep
      if (irt === null) assert.equal(difficulty, null)
      else {
        withParameters++
        assert.equal(difficulty, Math.round((SCALE[area]!.k * irt.b + SCALE[area]!.d) * 10) / 10, `${record.year}/${record.index}`)
      }
      const code = skillOf(record)
      if (code !== null) assert.ok(codes.has(code), code)
    }
    assert.ok(withParameters > 0)
  })

  test('the sample holds records of at least two skills, and difficulties a range separates', { skip: FULL_DATA_DIR !== undefined && 'the sample dataset only' }, async () => {
    const records = await defaultViews()
    assert.ok(new Set(records.map(skillOf).filter((code) => code !== null)).size >= 2)
    const difficulties = records.map((record) => record.inep?.difficulty).filter((value) => typeof value === 'number').sort((a, b) => a - b)
    assert.ok(difficulties[0]! < difficulties.at(-1)!, 'two different difficulties')
  })

  test('skill selects exactly the records of those skills, any case, in the listing; the export the same among every variant', async () => {
    const records = await defaultViews()
    const codes = [...new Set(records.map(skillOf).filter((code) => code !== null))].sort()
    const chosen = codes.slice(0, 2)
    const expected = records.filter((record) => chosen.includes(skillOf(record) ?? '')).map((record) => `${record.year}${record.application}/${record.index}/${record.language}`).sort()
    const listed = await walk(`/v1/questions?skill=${chosen.map((code) => code.toLowerCase()).join(',')}`)
    assert.deepEqual(listed.map((record) => `${record.year}${record.application}/${record.index}/${record.language}`).sort(), expected)
    const exported = await everyRecord(`?skill=${chosen.join(',')}`)
    assert.deepEqual(exported, (await everyRecord()).filter((record) => chosen.includes(skillOf(record) ?? '')))
    // A code of the Matriz no record has selects nothing.
    const unused = referenceMatrix().areas.flatMap((area) => area.skills.map((skill) => `${area.area}-H${skill.number}`)).find((code) => !codes.includes(code))
    if (unused !== undefined) assert.equal((await json<PageBody>(`/v1/questions?skill=${unused}`)).metadata.total, 0)
  })

  test('difficulty MIN-MAX keeps the records whose difficulty lies within it; a middle value splits them', async () => {
    const records = (await defaultViews()).filter((record) => typeof record.inep?.difficulty === 'number')
    const sorted = records.map((record) => record.inep!.difficulty!).sort((a, b) => a - b)
    const middle = sorted[Math.floor(sorted.length / 2)]!
    const below = await walk(`/v1/questions?difficulty=-${middle}`)
    const above = await walk(`/v1/questions?difficulty=${middle}-`)
    assert.equal(below.length, sorted.filter((value) => value <= middle).length)
    assert.equal(above.length, sorted.filter((value) => value >= middle).length)
    assert.ok(below.every((record) => record.inep!.difficulty! <= middle) && above.every((record) => record.inep!.difficulty! >= middle))
    // Both ends within the scale (an item's b can put it past either end of 0–1000).
    const onScale = sorted.filter((value) => value >= 0 && value <= 1000)
    const [low, high] = [onScale[0]!, onScale.at(-1)!]
    const range = await walk(`/v1/questions?difficulty=${low}-${high}`)
    assert.equal(range.length, onScale.length, 'a range over every difficulty on the scale keeps every record that has one there, and none without')
  })

  test('grammar and range: 400 off the grammar, 422 past the scale or min above max', async () => {
    for (const value of ['XX-H1', 'MT-H31', 'MT-H0', 'MT17', 'MT-H1,']) assert.equal((await server.request(`/v1/questions?skill=${value}`)).statusCode, 400, value)
    for (const value of ['-', 'abc', '600-700-800', '6e2-', ' 600-']) assert.equal((await server.request(`/v1/questions?difficulty=${encodeURIComponent(value)}`)).statusCode, 400, value)
    for (const value of ['700-600', '1001-', '-1000.5']) assert.equal((await server.request(`/v1/questions/random?difficulty=${value}`)).statusCode, 422, value)
  })
})

/** P(right | θ) of a 3PL item, D = 1. */
const probability = ({ a, b, c }: { a: number, b: number, c: number }, theta: number) => c + (1 - c) / (1 + Math.exp(-a * (theta - b)))
/** Fisher information by its definition for a right/wrong answer: P'(θ)² / (P(1 − P)), the slope taken numerically. */
function information (irt: { a: number, b: number, c: number }, theta: number): number {
  const step = 1e-5
  const slope = (probability(irt, theta + step) - probability(irt, theta - step)) / (2 * step)
  const p = probability(irt, theta)
  return (slope * slope) / (p * (1 - p))
}

/** What a practice draw may give, and what a practice run's score counts: parameters, not annulled, not left out of the score, its statement shown. */
const eligible = (record: Question) => record.inep !== null && record.inep.irt !== null && !record.inep.annulled && record.inep.excludedFromScoring !== true && record.incomplete === null

describe('GET /v1/questions/practice', () => {
  test('every drawn question is among the max(5·count, 30) most informative items of its view at θ; distinct items; easiest first', async () => {
    let drawn = 0
    for (const discipline of Object.keys(AREA_OF)) {
      const area = AREA_OF[discipline]!
      const view = (await walk(`/v1/questions?discipline=${discipline}`)).filter(eligible)
      for (const score of [380, 520, 650, 780]) {
        for (const count of [1, 10]) {
          const theta = (score - SCALE[area]!.d) / SCALE[area]!.k
          // The information of each distinct item (one entry per item code) in the view, largest first.
          const byItem = new Map<string, number>()
          for (const record of view) byItem.set(String(record.inep!.item ?? `${record.year}/${record.index}/${record.language}`), information(record.inep!.irt!, theta))
          const ranked = [...byItem.values()].sort((a, b) => b - a)
          const pool = Math.max(5 * count, 30)
          const threshold = ranked[Math.min(pool, ranked.length) - 1] ?? Infinity
          const body = await json<PracticeBody>(`/v1/questions/practice?discipline=${discipline}&score=${score}&count=${count}&seed=7`)
          assert.deepEqual(body.target, { discipline, score, theta: Math.round(theta * 10_000) / 10_000 })
          assert.equal(body.questions.length, Math.min(count, byItem.size))
          const items = body.questions.map((record) => record.inep!.item)
          assert.equal(new Set(items).size, items.length, 'never two records of one item')
          for (const record of body.questions) {
            assert.ok(eligible(record) && record.discipline === discipline)
            assert.ok(information(record.inep!.irt!, theta) >= threshold * (1 - 1e-6), `${record.year}/${record.index} at ${score} is not among the ${pool} most informative`)
          }
          const difficulties = body.questions.map((record) => record.inep!.difficulty!)
          assert.deepEqual(difficulties, [...difficulties].sort((a, b) => a - b), 'easiest first')
          drawn += body.questions.length
        }
      }
    }
    assert.ok(drawn > 0)
  })

  test('the same seed gives the same bytes; seeds draw differently where the pool allows; without a seed, no-store and a seed returned', async () => {
    const url = '/v1/questions/practice?discipline=linguagens&score=560&count=3'
    const first = await server.request(`${url}&seed=11`)
    const second = await server.request(`${url}&seed=11`)
    assert.ok(first.rawPayload.equals(second.rawPayload))
    assert.equal(first.headers.etag, second.headers.etag)
    const draws = new Set<string>()
    for (let seed = 0; seed < 20; seed++) draws.add((await json<PracticeBody>(`${url}&seed=${seed}`)).questions.map((record) => `${record.year}/${record.index}`).sort().join())
    assert.ok(draws.size > 1)
    const unseeded = await server.request(url)
    assert.equal(unseeded.headers['cache-control'], 'no-store')
    const { seed } = unseeded.json<PracticeBody>()
    assert.ok((await server.request(`${url}&seed=${seed}`)).rawPayload.equals(unseeded.rawPayload))
  })

  test('the filters narrow the pool: skill, year, language', async () => {
    const records = (await walk('/v1/questions?discipline=linguagens')).filter(eligible)
    const code = skillOf(records[0]!)!
    const body = await json<PracticeBody>(`/v1/questions/practice?discipline=linguagens&score=600&count=50&seed=1&skill=${code}`)
    assert.ok(body.questions.length > 0 && body.questions.every((record) => skillOf(record) === code))
    const year = records[0]!.year
    assert.ok((await json<PracticeBody>(`/v1/questions/practice?discipline=linguagens&score=600&count=50&seed=1&year=${year}`)).questions.every((record) => record.year === year))
  })

  test('bad requests: a missing discipline or score is 400; a score off the scale, a discipline that is no area, a count past 50 are 422', async () => {
    const cases: Array<[string, number]> = [
      ['score=600', 400], ['discipline=matematica', 400], ['discipline=matematica&score=abc', 400], ['discipline=matematica&score=-5', 400],
      ['discipline=matematica&score=1000.01', 422], ['discipline=matematica&score=1001', 422], ['discipline=quimica&score=600', 422],
      ['discipline=matematica&score=600&count=51', 422], ['discipline=matematica&score=600&count=0', 422], ['discipline=matematica&score=600&skill=H1', 400]
    ]
    for (const [query, status] of cases) {
      const response = await server.request(`/v1/questions/practice?${query}`)
      assert.equal(response.statusCode, status, `${query}: ${response.body}`)
    }
    assert.match((await server.request('/v1/questions/practice?score=600')).json<{ error: { message: string } }>().error.message, /discipline is required/)
  })
})

describe('POST /v1/scores says what to practise', () => {
  test('per area, the skills of the counted items with how many were right, and the practice draw at that score', async () => {
    const exams = await json<Array<ExamBody & { languages: Array<{ value: string }> }>>('/v1/exams')
    let checked = 0
    for (const exam of exams.filter((entry) => entry.application === 'regular')) {
      const language = exam.languages[0]?.value
      const view = await walk(`/v1/exams/${exam.year}/questions${language === undefined ? '' : `?language=${language}`}`)
      const scorable = view.filter(eligible)
      if (scorable.length === 0) continue
      // Right on every other scorable record, blank elsewhere.
      const answers = Object.fromEntries(scorable.map((record, at) => [String(record.index), at % 2 === 0 ? record.correctAlternative : 'ABCDE'.replace(record.correctAlternative, '')[0]!]))
      const response = await server.request({ method: 'POST', url: '/v1/scores', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ year: exam.year, language, answers }) })
      assert.equal(response.statusCode, 200, response.body)
      const body = response.json<{ areas: Array<{ area: string, discipline: string, score: number, leftOut: Array<{ index: number }>, skills: Array<{ code: string, scored: number, correct: number }>, practice: string }> }>()
      for (const area of body.areas) {
        const leftOut = new Set(area.leftOut.map((entry) => entry.index))
        // The area's positions by the exam's blocks of 45 (the contract's order of areas per year), those that count.
        const block = blockOrder(exam.year).indexOf(area.area)
        const counted = view.filter((record) => Math.ceil(record.index / 45) - 1 === block && !leftOut.has(record.index) && record.inep !== null)
        const expected = new Map<string, { scored: number, correct: number }>()
        for (const record of counted) {
          const code = skillOf(record)
          if (code === null) continue
          const entry = expected.get(code) ?? { scored: 0, correct: 0 }
          entry.scored++
          if (answers[String(record.index)] === record.correctAlternative) entry.correct++
          expected.set(code, entry)
        }
        const order = (code: string) => ['LC', 'CH', 'CN', 'MT'].indexOf(code.slice(0, 2)) * 100 + Number(code.split('-H')[1])
        assert.deepEqual(area.skills, [...expected].sort(([a], [b]) => order(a) - order(b)).map(([code, entry]) => ({ code, ...entry })), `${exam.year} ${area.area}`)
        const practice = await json<PracticeBody>(area.practice)
        assert.deepEqual({ discipline: practice.target.discipline, score: practice.target.score }, { discipline: area.discipline, score: Math.min(1000, Math.max(0, area.score)) })
        checked++
      }
    }
    assert.ok(checked > 0)
  })
})
