import { describe, test } from 'node:test'
import assert from 'node:assert/strict'
import type { Page } from 'playwright-core'
import type { Question } from '../../src/data/record-schemas.ts'
import { examLabel } from '../../src/web/exam-options.ts'
import { FULL_DATA_DIR } from '../helper.ts'
import { browserSession } from './browser.ts'
import { assertOnlyThisServer, goTo, openBrowserPage, PHONE, screenshot, seriousAccessibilityViolations, viewShown } from './question-browser-page.ts'

/*
 * The question browser's "Simulado" in Chromium: choosing an exam, an area and a language, answering
 * in order with the progress shown, the answers kept over a reload, and the score the page shows
 * being the one POST /v1/scores gives for the same answers. What to expect is asked of the API.
 */

interface QuestionList { metadata: { total: number }, questions: Array<Question> }
interface AreaAnswer { area: string, discipline: string, score: number, theta: number, standardError: number, correct: number, scored: number, leftOut: Array<{ index: number, reason: string }>, skills: Array<{ code: string, scored: number, correct: number }>, practice: string }
interface ScoreAnswer { areas: AreaAnswer[] }
interface SkillsAnswer { areas: Array<{ skills: Array<{ code: string, text: string }> }> }
type Irt = { a: number, b: number, c: number }

/** k and d of each area's scale, as the contract states them (../shared/API.md, scores). */
const SCALE: Record<string, { k: number, d: number }> = { CH: { k: 112.31, d: 501.489 }, CN: { k: 113.102, d: 501.144 }, LC: { k: 108.086, d: 499.978 }, MT: { k: 129.646, d: 500.02 } }

/** The contract's method, written out here: EAP under a standard normal prior over 40 points on [−4, 4], 3PL with D = 1; the score and its margin (k·SD). */
function estimate (area: string, answers: Array<{ irt: Irt, right: boolean }>): { score: number, margin: number } {
  const points = Array.from({ length: 40 }, (_, at) => -4 + 8 * at / 39)
  const weights = points.map((theta) => answers.reduce((product, { irt, right }) => {
    const p = irt.c + (1 - irt.c) / (1 + Math.exp(-irt.a * (theta - irt.b)))
    return product * (right ? p : 1 - p)
  }, Math.exp(-theta * theta / 2)))
  const mass = weights.reduce((sum, weight) => sum + weight, 0)
  const theta = weights.reduce((sum, weight, at) => sum + weight * points[at]!, 0) / mass
  const variance = weights.reduce((sum, weight, at) => sum + weight * (points[at]! - theta) ** 2, 0) / mass
  return { score: Math.round((SCALE[area]!.k * theta + SCALE[area]!.d) * 10) / 10, margin: SCALE[area]!.k * Math.sqrt(variance) }
}

const ptBR = (value: number, digits: number) => value.toLocaleString('pt-BR', { minimumFractionDigits: digits, maximumFractionDigits: digits })

/** The chance of a right answer under the contract's 3PL (D = 1) at θ. */
const chance = ({ a, b, c }: Irt, theta: number) => c + (1 - c) / (1 + Math.exp(-a * (theta - b)))

/**
 * The skills table as the contract's arithmetic orders it: each skill's right answers against those a
 * candidate of the score is expected to give (the sum of the chances at θ of its counted items), the
 * furthest below first, then the most asked; weak where fewer were right than that sum, rounded.
 */
function expectedSkillRows (area: AreaAnswer, counted: Question[], texts: ReadonlyMap<string, string>): string[][] {
  const expected = (code: string) => counted.filter((question) => `${question.inep!.area}-H${question.inep!.skill}` === code).reduce((sum, question) => sum + chance(question.inep!.irt!, area.theta), 0)
  return area.skills.map((skill) => ({ ...skill, expected: expected(skill.code) }))
    .sort((a, b) => (a.correct - a.expected) - (b.correct - b.expected) || b.scored - a.scored)
    .map((skill) => [`Praticar ${skill.code}`, texts.get(skill.code) ?? '', `${skill.correct} de ${skill.scored}${skill.correct < Math.round(skill.expected) ? ` · abaixo do previsto (≈ ${skill.expected.toLocaleString('pt-BR', { maximumFractionDigits: 1 })})` : ''}`])
}

/** The rows of the page's skills table: the link's name, the skill's text, the right answers with the mark. */
const skillRows = (page: Page) => page.locator('.skills-table tbody tr').evaluateAll((trs) => trs.map((tr) => ['.skill-code', '.skill-text', '.skill-outcome'].map((selector) => tr.querySelector(selector)?.textContent)))

function practiceSuite (label: string, env: Record<string, string>, run: { year: number, discipline: string, language: string }): void {
  const session = browserSession(env)
  const { api } = session
  const address = (query: string) => `${session.baseUrl}/${query}`

  test('choose an exam, an area and a language; answer in order; the answers survive a reload; the score is the API\'s', async () => {
    const { year, discipline, language } = run
    const { questions: listed } = await api<QuestionList>(`v1/exams/${year}/questions?discipline=${discipline}&language=${language}&limit=50`)
    // A record without its statement (no context, no figure in files) is not asked (test/browser/incomplete-question.test.ts).
    const questions = listed.filter((question) => (question.context ?? '').trim() !== '' || question.files.length > 0)
    const { page, activity, close } = await openBrowserPage(session.browser, address(''))
    await goTo(page, () => page.getByRole('link', { name: 'Fazer um simulado' }).click(), (url) => url.searchParams.has('simulado'))
    assert.equal(await page.locator('h1').innerText(), 'Simulado')
    assert.deepEqual(await seriousAccessibilityViolations(page), [])
    await page.getByLabel('Prova').selectOption(String(year))
    await page.getByLabel('Área', { exact: true }).selectOption(discipline)
    await page.getByLabel('Língua estrangeira (em Linguagens)').selectOption(language)
    await goTo(page, () => page.getByRole('button', { name: 'Começar' }).click(), (url) => url.searchParams.get('area') === discipline)
    assert.match(await page.locator('h1').innerText(), new RegExp(`ENEM ${year}`))
    assert.equal(await page.locator('.progress-text').innerText(), `Questão 1 de ${questions.length} · 0 respondidas`)
    if (listed.length < 45) assert.match(await page.locator('.note', { hasText: 'o acervo tem' }).innerText(), new RegExp(`o acervo tem ${listed.length}`))

    // The first question right, the next two wrong, moving on with "Próxima".
    const chosen = new Map<number, string>()
    for (const [at, question] of questions.slice(0, 3).entries()) {
      assert.equal(await page.locator('#simulado-questao').innerText(), `Questão ${question.index}`)
      const letter = at === 0 ? question.correctAlternative : 'ABCDE'.replace(question.correctAlternative, '')[0]!
      await page.locator(`label[for="simulado-${letter}"]`).click()
      chosen.set(question.index, letter)
      await page.getByRole('button', { name: 'Próxima →' }).click()
    }
    assert.equal(await page.locator('.progress-text').innerText(), `Questão 4 de ${questions.length} · 3 respondidas`)
    assert.equal(await page.locator('progress').getAttribute('value'), '3')

    // A reload finds the answers and opens at the first question not answered.
    await page.reload()
    await viewShown(page)
    assert.equal(await page.locator('.progress-text').innerText(), `Questão 4 de ${questions.length} · 3 respondidas`)
    await page.locator('.practice-numbers button').first().click()
    assert.equal(await page.locator(`#simulado-${chosen.get(questions[0]!.index)!}`).isChecked(), true)

    await page.getByRole('button', { name: 'Ver minha nota' }).click()
    await page.locator('#nota-titulo').waitFor()
    const expected = await api<ScoreAnswer>('v1/scores', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ year, language, answers: Object.fromEntries(chosen) }) })
    const area = expected.areas.find((entry) => entry.discipline === discipline)!
    assert.equal(await page.locator('#nota-titulo').innerText(), `Sua nota: ${area.score.toLocaleString('pt-BR', { minimumFractionDigits: 1, maximumFractionDigits: 1 })}`)
    assert.match(await page.locator('.score-facts').innerText(), new RegExp(`^${area.correct} acertos? em ${area.scored} quest`))
    assert.match(await page.locator('.method').innerText(), new RegExp(`calculada como o INEP a calcula, para a prova ENEM ${year}`))
    // Each row: the answer given, the key, and whether it was right, annulled or out of the score.
    const rows = await page.locator('.practice-answers tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.children].map((cell) => cell.textContent)))
    assert.equal(rows.length, questions.length)
    for (const [at, question] of questions.entries()) {
      const [index, given, key, outcome] = rows[at]!
      assert.equal(index, String(question.index))
      assert.equal(given, chosen.get(question.index) ?? '—')
      const annulled = (question as Question & { inep?: { annulled: boolean } | null }).inep?.annulled === true
      assert.equal(key, annulled ? `${question.correctAlternative} (anulada)` : question.correctAlternative)
      const leftOut = area.leftOut.find((entry) => entry.index === question.index)
      if (annulled) assert.equal(outcome, 'anulada pelo INEP')
      else if (leftOut !== undefined) assert.notEqual(outcome, 'certa')
      else assert.equal(outcome, chosen.get(question.index) === question.correctAlternative ? 'certa' : chosen.has(question.index) ? 'errada' : 'em branco (errada)')
    }
    assert.deepEqual(await seriousAccessibilityViolations(page), [])
    await screenshot(page, `practice-${label}-result`)
    assertOnlyThisServer(activity, session.baseUrl)

    await page.getByRole('button', { name: 'Apagar respostas' }).click()
    assert.equal(await page.locator('.progress-text').innerText(), `Questão 1 de ${questions.length} · 0 respondidas`)
    await close()

    const phone = await openBrowserPage(session.browser, address(`?simulado=${year}&area=${discipline}&idioma=${language}`), { viewport: PHONE })
    assert.deepEqual(await seriousAccessibilityViolations(phone.page), [])
    await screenshot(phone.page, `practice-${label}-phone`)
    assertOnlyThisServer(phone.activity, session.baseUrl)
    await phone.close()
  })
}

/**
 * After a Simulado (its answers put in the page's storage, every other one right): the score
 * explained, the skills table, and "Praticar no seu nível" answered, its new estimate the one
 * this test computes from every answer by the contract's method.
 */
function levelSuite (label: string, env: Record<string, string>, run: { year: number, discipline: string, language: string }): void {
  const session = browserSession(env)
  const { api } = session
  for (const [width, viewport] of [['desktop', undefined], ['phone', PHONE]] as const) {
    test(`after a Simulado: the score explained, the skills table, and practice at that level with a new estimate (${width})`, async () => {
      const { year, discipline, language } = run
      const { questions } = await api<QuestionList>(`v1/exams/${year}/questions?discipline=${discipline}&language=${language}&limit=50`)
      const answers = Object.fromEntries(questions.map((question, at) => [String(question.index), at % 2 === 0 ? question.correctAlternative : 'ABCDE'.replace(question.correctAlternative, '')[0]!]))
      const address = `${session.baseUrl}/?simulado=${year}&area=${discipline}&idioma=${language}`
      const { page, activity, close } = await openBrowserPage(session.browser, address, viewport === undefined ? {} : { viewport })
      await page.evaluate(([key, value]) => localStorage.setItem(key!, value!), [`enem-simulado:${year}:${discipline}:${language}`, JSON.stringify(answers)])
      await page.reload()
      await viewShown(page)
      await page.getByRole('button', { name: 'Ver minha nota' }).click()
      await page.locator('.score-explanation').waitFor()
      const expected = await api<ScoreAnswer>('v1/scores', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ year, language, answers }) })
      const area = expected.areas.find((entry) => entry.discipline === discipline)!

      // The score explained: the scale, the margin on the score scale, where it sits among the questions that counted.
      assert.match(await page.locator('.score-meaning').innerText(), /500 era a média dos concluintes de escolas públicas em 2009/)
      const margin = SCALE[area.area]!.k * area.standardError
      assert.match(await page.locator('.score-margin').innerText(), new RegExp(`cerca de ${Math.round(margin)} pontos.*entre ${ptBR(Math.round(area.score - margin), 0)} e ${ptBR(Math.round(area.score + margin), 0)}`))
      const leftOut = new Set(area.leftOut.map((entry) => entry.index))
      const counted = questions.filter((question) => !leftOut.has(question.index) && question.inep?.irt != null)
      const levels = counted.map((question) => question.inep!.difficulty!)
      const below = levels.filter((level) => level <= area.score).length
      assert.match(await page.locator('.score-position').innerText(), new RegExp(`^Das ${levels.length} questões que contaram, ${below} t[eê]m nível até ${ptBR(Math.round(area.score), 0)}`))

      // The skills table: the answer's skills, INEP's text of each, weakest first, the weak ones marked.
      const texts = new Map((await api<SkillsAnswer>('v1/skills')).areas.flatMap((entry) => entry.skills.map((skill) => [skill.code, skill.text] as const)))
      const rows = await skillRows(page)
      assert.deepEqual(rows, expectedSkillRows(area, counted, texts))
      assert.ok(rows.length > 0)
      assert.equal(await page.locator('.skills-table tr.weak').count(), rows.filter((row) => row[2]!.includes('abaixo do previsto')).length)
      // Each skill a link to practise it at the score the answer's practice address names.
      const practiceScore = new URL(area.practice, session.baseUrl).searchParams.get('score')
      for (const skill of area.skills) {
        assert.equal(await page.getByRole('link', { name: `Praticar ${skill.code}`, exact: true }).getAttribute('href'), `?praticar=${discipline}&nota=${practiceScore}&habilidade=${skill.code}`)
      }

      // Practice at that level: the draw the score's address gives, ten questions with their skill and level.
      const drawn = page.waitForResponse((response) => response.url().includes('/v1/questions/practice'))
      await page.getByRole('button', { name: 'Praticar no seu nível' }).click()
      const draw = await (await drawn).json() as { target: { score: number }, questions: Question[] }
      assert.equal(draw.target.score, area.score)
      await page.locator('.level-question').first().waitFor()
      assert.equal(await page.locator('.level-question').count(), draw.questions.length)
      assert.ok(draw.questions.length > 0)
      for (const [at, question] of draw.questions.entries()) {
        const facts = await page.locator('.level-question').nth(at).locator('.level-facts').innerText()
        const code = `${question.inep!.area}-H${question.inep!.skill}`
        if (question.inep!.skill !== null) assert.ok(facts.includes(`Habilidade ${code}: ${texts.get(code)}`), facts)
        assert.ok(facts.includes(`nível ${ptBR(Math.round(question.inep!.difficulty!), 0)} na escala do ENEM`), facts)
      }
      // Right on the first, wrong on the rest, the last left blank.
      const given: Array<{ irt: Irt, right: boolean }> = []
      for (const [at, question] of draw.questions.entries()) {
        if (at === draw.questions.length - 1 && at > 0) break
        const letter = at === 0 ? question.correctAlternative : 'ABCDE'.replace(question.correctAlternative, '')[0]!
        await page.locator(`label[for="pratica-${at}-${letter}"]`).click()
        given.push({ irt: question.inep!.irt!, right: at === 0 })
      }
      await page.getByRole('button', { name: 'Ver nova estimativa' }).click()
      const simulado = counted.map((question) => ({ irt: question.inep!.irt!, right: answers[String(question.index)] === question.correctAlternative }))
      const fresh = estimate(area.area, [...simulado, ...given])
      assert.equal(await page.locator('#estimativa-titulo').innerText(), `Nova estimativa: ${ptBR(fresh.score, 1)}`)
      assert.match(await page.locator('.estimate-facts').innerText(), new RegExp(`Com ${simulado.length} questões do simulado e ${given.length} respondidas? na prática, margem de cerca de ${Math.round(fresh.margin)} pontos`))
      // The same method on the Simulado's answers alone gives the API's score: the page's arithmetic is INEP's.
      assert.equal(estimate(area.area, simulado).score, area.score)
      assert.deepEqual(await seriousAccessibilityViolations(page), [])
      await screenshot(page, `level-practice-${label}-${width}`)

      // The weakest skill's link: practice of that skill at the score, at its own address.
      const weakest = rows[0]![0]!.replace('Praticar ', '')
      await goTo(page, () => page.getByRole('link', { name: `Praticar ${weakest}`, exact: true }).click(), (url) => url.searchParams.get('habilidade') === weakest && url.searchParams.has('semente'))
      assert.equal(new URL(page.url()).searchParams.get('nota'), practiceScore)
      assert.equal(await page.locator('.practised-skill').innerText(), `Habilidade ${weakest}: ${texts.get(weakest)}`)
      for (const facts of await page.locator('.level-facts').allInnerTexts()) assert.ok(facts.startsWith(`Habilidade ${weakest}: `), facts)
      assertOnlyThisServer(activity, session.baseUrl)
      await close()
    })
  }

  test('practice at its own address: from the home page, an area, a score and a skill; the API\'s draw of the seed in the address, again on a reload; a new estimate', async () => {
    const { discipline } = run
    const catalog = await api<{ areas: Array<{ area: string, discipline: string, skills: Array<{ code: string, text: string, questions: number }> }> }>('v1/skills')
    const area = catalog.areas.find((entry) => entry.discipline === discipline)!
    // The skill of the area with the most questions, at a score with decimals.
    const skill = [...area.skills].sort((a, b) => b.questions - a.questions)[0]!
    const score = '612.5'
    const { page, activity, close } = await openBrowserPage(session.browser, `${session.baseUrl}/`)
    await goTo(page, () => page.getByRole('link', { name: 'Praticar no seu nível' }).click(), (url) => url.searchParams.has('praticar'))
    assert.equal(await page.locator('h1').innerText(), 'Praticar no seu nível')
    assert.deepEqual(await seriousAccessibilityViolations(page), [])
    await page.getByLabel('Área', { exact: true }).selectOption(discipline)
    await page.getByLabel('Sua nota na área (0 a 1000)').fill(score)
    await page.getByLabel('Habilidade', { exact: true }).selectOption(skill.code)
    await goTo(page, () => page.getByRole('button', { name: 'Praticar', exact: true }).click(), (url) => url.searchParams.has('semente'))
    const address = new URL(page.url()).searchParams
    assert.deepEqual([address.get('praticar'), address.get('nota'), address.get('habilidade')], [discipline, score, skill.code])
    const draw = await api<{ questions: Question[] }>(`v1/questions/practice?discipline=${discipline}&score=${score}&skill=${skill.code}&count=10&seed=${address.get('semente')}`)
    assert.ok(draw.questions.length > 0)
    const headings = draw.questions.map((question, at) => `Questão ${at + 1} de ${draw.questions.length}: ${examLabel({ title: `ENEM ${question.year}`, application: question.application })}, questão ${question.index}`)
    assert.deepEqual(await page.locator('.level-question h2').allInnerTexts(), headings)
    await page.reload()
    await viewShown(page)
    assert.deepEqual(await page.locator('.level-question h2').allInnerTexts(), headings, 'a reload shows the same draw')
    // The first answered right, the rest left blank: the estimate from that one answer, by the contract's method.
    const first = draw.questions[0]!
    await page.locator(`label[for="pratica-0-${first.correctAlternative}"]`).click()
    await page.getByRole('button', { name: 'Ver nova estimativa' }).click()
    const fresh = estimate(area.area, [{ irt: first.inep!.irt!, right: true }])
    assert.equal(await page.locator('#estimativa-titulo').innerText(), `Nova estimativa: ${ptBR(fresh.score, 1)}`)
    assert.match(await page.locator('.estimate-facts').innerText(), new RegExp(`^Com 1 questão respondida nesta prática, margem de cerca de ${Math.round(fresh.margin)} pontos`))
    assert.deepEqual(await seriousAccessibilityViolations(page), [])
    await screenshot(page, `practice-page-${label}`)
    assertOnlyThisServer(activity, session.baseUrl)
    await close()
  })
}

describe('simulado, sample dataset', () => practiceSuite('sample', {}, { year: 2020, discipline: 'linguagens', language: 'ingles' }))
describe('practice at your level, sample dataset', () => levelSuite('sample', {}, { year: 2016, discipline: 'linguagens', language: 'espanhol' }))
describe('simulado, full dataset', { skip: FULL_DATA_DIR === undefined && 'ENEM_DATA_DIR is not set' }, () => {
  practiceSuite('full', { ENEM_DATA_DIR: FULL_DATA_DIR ?? '' }, { year: 2023, discipline: 'matematica', language: 'espanhol' })
})
describe('practice at your level, full dataset', { skip: FULL_DATA_DIR === undefined && 'ENEM_DATA_DIR is not set' }, () => {
  levelSuite('full', { ENEM_DATA_DIR: FULL_DATA_DIR ?? '' }, { year: 2022, discipline: 'ciencias-natureza', language: 'ingles' })
})
