import { describe, test } from 'node:test'
import assert from 'node:assert/strict'
import type { ExamSummary, Question } from '../../src/data/record-schemas.ts'
import { FULL_DATA_DIR } from '../helper.ts'
import { browserSession } from './browser.ts'
import { assertOnlyThisServer, openBrowserPage, screenshot, seriousAccessibilityViolations, viewShown } from './question-browser-page.ts'

/*
 * A record without its statement (no `context`, no figure in `files`: ../shared/API.md, sixth
 * round) on the question browser: its page says so in Portuguese where the statement would stand,
 * a whole record's page does not, and the Simulado of its exam and area leaves it out, saying how
 * many it left out. The records are found by that definition in what the API serves (the sample
 * holds one, 2011/2; the full dataset when ENEM_DATA_DIR is set), never by typed-in indices.
 */

interface QuestionList { metadata: { hasMore: boolean }, questions: Question[] }

const showsNoStatement = (record: Question) => (record.context === null || record.context.trim() === '') && record.files.length === 0
const NOTE = /^Questão incompleta no acervo: falta o enunciado/

describe('a question without its statement, on the question browser', () => {
  const session = browserSession(FULL_DATA_DIR === undefined ? {} : { ENEM_DATA_DIR: FULL_DATA_DIR })
  const { api } = session

  /** Each exam's default view, its records with the exam's summary, until `enough` incomplete ones are found. */
  async function incompleteRecords (enough: number): Promise<Array<{ exam: ExamSummary, record: Question, view: Question[] }>> {
    const found: Array<{ exam: ExamSummary, record: Question, view: Question[] }> = []
    for (const exam of await api<ExamSummary[]>('v1/exams')) {
      const view: Question[] = []
      for (let offset = 0; ; offset += 50) {
        const list = await api<QuestionList>(`v1/exams/${exam.year}/questions?application=${exam.application}&limit=50&offset=${offset}`)
        view.push(...list.questions)
        if (!list.metadata.hasMore) break
      }
      for (const record of view.filter(showsNoStatement)) found.push({ exam, record, view })
      if (found.length >= enough) return found
    }
    return found
  }

  const questionAddress = (exam: ExamSummary, record: Question) =>
    `${session.baseUrl}/?prova=${exam.year}${exam.application === 'regular' ? '' : `&aplicacao=${exam.application}`}&questao=${record.index}${record.language === null ? '' : `&idioma=${record.language}`}`

  test('its page says in Portuguese that the statement is missing, before the asking sentence; a whole question\'s page does not', async () => {
    const found = await incompleteRecords(3)
    assert.ok(found.length > 0, 'the dataset holds a record without its statement')
    for (const { exam, record } of found.slice(0, 3)) {
      const { page, activity, close } = await openBrowserPage(session.browser, questionAddress(exam, record))
      try {
        await viewShown(page)
        const note = page.getByRole('note')
        assert.equal(await note.count(), 1, `${exam.year}/${record.index}`)
        assert.match(await note.innerText(), NOTE)
        // Where the statement would stand: before the asking sentence and the alternatives.
        const order = await page.evaluate('(() => { const note = document.querySelector(".incomplete-note"); const next = document.querySelector(".introduction, fieldset.alternatives"); return next !== null && (note.compareDocumentPosition(next) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0 })()')
        assert.equal(order, true)
        assert.deepEqual(await seriousAccessibilityViolations(page), [])
        await screenshot(page, `incomplete-question-${exam.year}-${record.index}`)
        assertOnlyThisServer(activity, session.baseUrl)
      } finally {
        await close()
      }
    }
    // The first whole record of the first exam: no such note.
    const { exam, view } = found[0]!
    const whole = view.find((record) => !showsNoStatement(record))!
    const { page, close } = await openBrowserPage(session.browser, questionAddress(exam, whole))
    try {
      await viewShown(page)
      assert.equal(await page.locator('.incomplete-note').count(), 0)
    } finally {
      await close()
    }
  })

  test('the exam\'s page marks it among the question numbers and says how many are incomplete', async () => {
    const [first] = await incompleteRecords(1)
    assert.ok(first !== undefined, 'the dataset holds a record without its statement')
    const { exam, view } = first
    // The exam page's default view is the one walked: the language record wins over the common one at an index.
    const byIndex = new Map<number, Question>()
    for (const record of view) if (!byIndex.has(record.index) || record.language !== null) byIndex.set(record.index, record)
    const incomplete = [...byIndex.values()].filter(showsNoStatement).map((record) => record.index)
    const { page, activity, close } = await openBrowserPage(session.browser, `${session.baseUrl}/?prova=${exam.year}${exam.application === 'regular' ? '' : `&aplicacao=${exam.application}`}`)
    try {
      await viewShown(page)
      const marked = (await page.locator('.numbers a.incomplete').allInnerTexts()).map(Number).sort((a, b) => a - b)
      assert.deepEqual(marked, incomplete.sort((a, b) => a - b))
      assert.equal(await page.getByRole('link', { name: `Questão ${incomplete[0]!}, incompleta`, exact: true }).count(), 1)
      assert.match(await page.locator('.incomplete-count').innerText(), incomplete.length === 1 ? /^Uma questão desta prova está incompleta/ : new RegExp(`^${incomplete.length} questões desta prova estão incompletas`))
      assert.deepEqual(await seriousAccessibilityViolations(page), [])
      assertOnlyThisServer(activity, session.baseUrl)
    } finally {
      await close()
    }
  })

  test('the Simulado of its exam and area leaves it out, and says how many it left out', async () => {
    const [first] = await incompleteRecords(1)
    assert.ok(first !== undefined, 'the dataset holds a record without its statement')
    const { exam, record, view } = first
    const area = view.filter((one) => one.discipline === record.discipline)
    const left = area.filter(showsNoStatement).length
    const language = record.language ?? exam.languages[0]?.value
    const { page, activity, close } = await openBrowserPage(session.browser,
      `${session.baseUrl}/?simulado=${exam.year}${exam.application === 'regular' ? '' : `&aplicacao=${exam.application}`}&area=${record.discipline}${language === undefined ? '' : `&idioma=${language}`}`)
    try {
      await viewShown(page)
      const asked = (await page.locator('.practice-numbers button').allInnerTexts()).map(Number)
      assert.equal(asked.includes(record.index), false, `question ${record.index} is not asked`)
      assert.deepEqual(asked, area.filter((one) => !showsNoStatement(one)).map((one) => one.index))
      const count = await page.locator('.incomplete-count').innerText()
      assert.match(count, left === 1 ? /^Uma questão desta área está incompleta/ : new RegExp(`^${left} questões desta área estão incompletas`))
      assertOnlyThisServer(activity, session.baseUrl)
    } finally {
      await close()
    }
  })
})
