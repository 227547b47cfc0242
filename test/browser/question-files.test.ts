import { after, before, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Locator } from 'playwright-core'
import { readItensProva } from '../../src/data/official/itens-prova.ts'
import { INEP_DATA_DIR } from '../../src/data/sources/build-dataset.ts'
import { convertExam } from '../../src/data/sources/enem-dev-ppl.ts'
import { writeConversion } from '../../src/data/sources/write-conversion.ts'
import type { Question } from '../../src/data/record-schemas.ts'
import { figuresOnlyInFiles } from '../../src/data/record-figures.ts'
import { browserSession } from './browser.ts'
import { assertOnlyThisServer, openBrowserPage, screenshot } from './question-browser-page.ts'

/*
 * A record whose figure is in `files` alone (its text shows none), in Chromium: ENEM PPL 2011,
 * question 33, asks about a map that only its `files` holds; practice, too, shows such a figure. The exam is converted here from the
 * local copy of the second applications (../shared, as CI has it), as `npm run dataset` converts it.
 */

const REPO = fileURLToPath(new URL('../..', import.meta.url))
const PPL_COPY = path.resolve(REPO, '../shared/sources/enem-dev-second-applications')
const skip = existsSync(PPL_COPY) ? false : `${PPL_COPY} is absent: the second application's figures were NOT checked in a browser`

describe('a figure a record holds only in files reaches the reader', { skip }, () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'enem-files-'))
  after(() => rmSync(dataDir, { recursive: true, force: true }))
  before(() => {
    rmSync(dataDir, { recursive: true, force: true })
    writeConversion(dataDir, [convertExam(PPL_COPY, '2011-segunda-aplicacao', readItensProva(INEP_DATA_DIR, 2011))], 'enem-dev-second-applications')
  })
  const session = browserSession({ ENEM_DATA_DIR: dataDir })

  /** The image shows: loaded (its file answered with an image) and at least 300 px wide, or its own width if smaller. */
  async function assertShown (image: Locator, file: string): Promise<void> {
    await image.waitFor()
    await image.scrollIntoViewIfNeeded()
    assert.equal(await image.getAttribute('src'), file)
    // (The DOM's types are the browser's: the test's own lack them.)
    type Shown = { decode: () => Promise<void>, naturalWidth: number, getBoundingClientRect: () => { width: number } }
    await assert.doesNotReject(image.evaluate((element) => (element as unknown as Shown).decode()), 'the image decodes')
    const [natural, shown] = await image.evaluate((element) => [(element as unknown as Shown).naturalWidth, (element as unknown as Shown).getBoundingClientRect().width])
    assert.ok(natural > 0, 'the file is an image')
    assert.ok(shown >= Math.min(natural, 300), `shown ${shown} px wide, the file is ${natural} px`)
  }

  test('the question page, a search card and the Simulado show question 33\'s map', { timeout: 120_000 }, async (t) => {
    const question = await session.api<Question>('v1/exams/2011/questions/33?application=ppl')
    // The premise: the map is in files, and no text of the record shows it.
    assert.equal(question.files.length, 1)
    const [map] = question.files as [string]
    const texts = [question.context, question.alternativesIntroduction, ...question.alternatives.map((alternative) => alternative.text)].join(' ')
    assert.equal(texts.includes(map), false)

    const { page, activity, close } = await openBrowserPage(session.browser, `${session.baseUrl}/?prova=2011&aplicacao=ppl&questao=33`)
    t.after(close)
    await assertShown(page.locator('.question-files img'), map)
    await screenshot(page, 'question-files-2011-ppl-33')

    const words = question.alternativesIntroduction!.split(' ').slice(0, 6).join(' ')
    await page.goto(`${session.baseUrl}/?q=${encodeURIComponent(words)}&ano=2011&aplicacao=ppl`)
    const card = page.locator('.card', { has: page.getByRole('link', { name: /^Questão 33 / }) })
    await assertShown(card.locator('.card-files img'), map)

    await page.goto(`${session.baseUrl}/?simulado=2011&aplicacao=ppl&area=${question.discipline}`)
    await page.locator('#simulado-questao').waitFor()
    await page.locator('.practice-numbers').getByRole('button', { name: 'Questão 33', exact: true }).click()
    await page.locator('#simulado-questao', { hasText: 'Questão 33' }).waitFor()
    await assertShown(page.locator('.question-files img'), map)
    assertOnlyThisServer(activity, session.baseUrl)
  })

  test('practice shows a record\'s figure held only in files, as every other view does', { timeout: 120_000 }, async (t) => {
    // A record of the exam with such a figure that a practice draw can hold: INEP's parameters, a skill, counted.
    type Drawable = Question & { inep?: { area: string, skill: number | null, difficulty: number | null, annulled: boolean, excludedFromScoring: boolean } | null }
    const { questions } = await session.api<{ questions: Drawable[] }>('v1/exams/2011/questions?application=ppl&limit=50&offset=0')
    const more = await session.api<{ questions: Drawable[] }>('v1/exams/2011/questions?application=ppl&limit=50&offset=50')
    const record = [...questions, ...more.questions].find((question) => figuresOnlyInFiles(question).length > 0 && question.inep?.skill != null && question.inep.difficulty !== null && !question.inep.annulled && !question.inep.excludedFromScoring)
    assert.ok(record !== undefined, 'a drawable record with a figure only in files')
    const inep = record.inep!
    const query = `discipline=${record.discipline}&score=${inep.difficulty}&skill=${inep.area}-H${inep.skill}&count=10&seed=1`
    const draw = await session.api<{ questions: Question[] }>(`v1/questions/practice?${query}`)
    const at = draw.questions.findIndex((question) => question.index === record.index && question.application === 'ppl')
    assert.ok(at >= 0, `the draw of ${query} holds question ${record.index}`)
    const { page, activity, close } = await openBrowserPage(session.browser, `${session.baseUrl}/?praticar=${record.discipline}&nota=${inep.difficulty}&habilidade=${inep.area}-H${inep.skill}&semente=1`)
    t.after(close)
    const shown = page.locator(`.level-question[data-position="${at}"] .question-files img`)
    const [figure] = figuresOnlyInFiles(record)
    await assertShown(shown.first(), figure!)
    assert.equal(await shown.count(), figuresOnlyInFiles(record).length)
    t.diagnostic(`question ${record.index} of ENEM PPL 2011, drawn at position ${at + 1}`)
    assertOnlyThisServer(activity, session.baseUrl)
  })
})
