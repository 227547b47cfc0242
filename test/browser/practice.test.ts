import { describe, test } from 'node:test'
import assert from 'node:assert/strict'
import type { Question } from '../../src/data/record-schemas.ts'
import { FULL_DATA_DIR } from '../helper.ts'
import { browserSession } from './browser.ts'
import { assertOnlyThisServer, goTo, openBrowserPage, PHONE, screenshot, seriousAccessibilityViolations, viewShown } from './question-browser-page.ts'

/*
 * The question browser's "Simulado" in Chromium: choosing an exam, an area and a language, answering
 * in order with the progress shown, the answers kept over a reload, and the score the page shows
 * being the one POST /v1/scores gives for the same answers. What to expect is asked of the API.
 */

interface QuestionList { metadata: { total: number }, questions: Array<Question> }
interface ScoreAnswer { areas: Array<{ discipline: string, score: number, correct: number, scored: number, leftOut: Array<{ index: number, reason: string }> }> }

function practiceSuite (label: string, env: Record<string, string>, run: { year: number, discipline: string, language: string }): void {
  const session = browserSession(env)
  const { api } = session
  const address = (query: string) => `${session.baseUrl}/${query}`

  test('choose an exam, an area and a language; answer in order; the answers survive a reload; the score is the API\'s', async () => {
    const { year, discipline, language } = run
    const { questions } = await api<QuestionList>(`v1/exams/${year}/questions?discipline=${discipline}&language=${language}&limit=50`)
    const { page, activity, close } = await openBrowserPage(session.browser, address(''))
    await goTo(page, () => page.getByRole('link', { name: 'Fazer um simulado' }).click(), (url) => url.searchParams.has('simulado'))
    assert.equal(await page.locator('h1').innerText(), 'Simulado')
    assert.deepEqual(await seriousAccessibilityViolations(page), [])
    await page.getByLabel('Prova').selectOption(String(year))
    await page.getByLabel('Área').selectOption(discipline)
    await page.getByLabel('Língua estrangeira (em Linguagens)').selectOption(language)
    await goTo(page, () => page.getByRole('button', { name: 'Começar' }).click(), (url) => url.searchParams.get('area') === discipline)
    assert.match(await page.locator('h1').innerText(), new RegExp(`ENEM ${year}`))
    assert.equal(await page.locator('.progress-text').innerText(), `Questão 1 de ${questions.length} · 0 respondidas`)
    if (questions.length < 45) assert.match(await page.locator('.note').innerText(), new RegExp(`o acervo tem ${questions.length}`))

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

describe('simulado, sample dataset', () => practiceSuite('sample', {}, { year: 2020, discipline: 'linguagens', language: 'ingles' }))
describe('simulado, full dataset', { skip: FULL_DATA_DIR === undefined && 'ENEM_DATA_DIR is not set' }, () => {
  practiceSuite('full', { ENEM_DATA_DIR: FULL_DATA_DIR ?? '' }, { year: 2023, discipline: 'matematica', language: 'espanhol' })
})
