import { after, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Page } from 'playwright-core'
import { SAMPLE_DATA_DIR } from '../../src/config.ts'
import { readItensProva } from '../../src/data/official/itens-prova.ts'
import type { ExamSummary, Question } from '../../src/data/record-schemas.ts'
import { convertExam } from '../../src/data/sources/enem-dev-ppl.ts'
import { convertMaritaca } from '../../src/data/sources/maritaca-2024.ts'
import { writeConversion } from '../../src/data/sources/write-conversion.ts'
import { FULL_DATA_DIR } from '../helper.ts'
import type { DataCredit } from '../../src/data/dataset/dataset-manifest.ts'
import { SOURCE_PINS } from '../../src/data/sources/source-pins.ts'
import { dataProvenancePageHtml } from '../../src/http/data-provenance.ts'
import { browserSession } from './browser.ts'
import { assertOnlyThisServer, openBrowserPage, PHONE, screenshot, seriousAccessibilityViolations, viewShown } from './question-browser-page.ts'

/*
 * Issue 46: every page fits a phone (390 × 844): no page scrolls sideways; a table too wide for the
 * screen scrolls inside its own box. Over the home page, a search, questions whose content is the
 * widest the data holds (a Markdown table, the longest unbroken word), the Simulado's result and
 * practice. The dataset is the one the tests serve (the sample, or ENEM_DATA_DIR) and, with the
 * project's test setup's ../shared, beside it 2024 (its statements hold Markdown tables) and the
 * second application of 2012 (question 170 laid out 941 px wide before the conversion wrote it as printed).
 */

interface QuestionList { metadata: { total: number, hasMore: boolean }, questions: Question[] }
type Irt = { a: number, b: number, c: number }
type Inep = { area: string, skill: number | null, irt: Irt | null, difficulty: number | null }
interface AreaAnswer { discipline: string, score: number, skills: Array<{ code: string }>, practice: string }

const REPO = fileURLToPath(new URL('../..', import.meta.url))
const SHARED = path.resolve(REPO, '../shared')
const SOURCES = { ppl: path.join(SHARED, 'sources', 'enem-dev-second-applications'), 2024: path.join(SHARED, 'sources', 'maritaca-enem-2024'), inep: path.join(SHARED, 'inep') }
const withSources = Object.values(SOURCES).every((dir) => existsSync(dir))

/**
 * The page's width against the screen's, what sticks out past its right edge, and the text that runs
 * past it (run in the page: the tests have no DOM types). Text is measured by its own line boxes, every
 * text node of the page (header and footer too): a paragraph can fit the screen while a line of its
 * text, one word it cannot break, runs past it. Text inside a box that scrolls or clips on its own
 * (a wide table's) is that box's to show.
 */
async function overflow (page: Page): Promise<{ width: number, screen: number, outside: string[], text: string[] }> {
  return await page.evaluate(`(() => {
    const screen = document.documentElement.clientWidth
    const outside = [...document.querySelectorAll('main *')].filter((element) => element.getBoundingClientRect().right > screen + 0.5)
    const inOwnBox = (element) => {
      for (let at = element; at !== null && at !== document.body; at = at.parentElement) {
        if (['auto', 'scroll', 'hidden', 'clip'].includes(getComputedStyle(at).overflowX)) return true
      }
      return false
    }
    const text = []
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT)
    for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
      if (node.textContent.trim() === '' || inOwnBox(node.parentElement)) continue
      const range = document.createRange()
      range.selectNodeContents(node)
      const right = Math.max(...[...range.getClientRects()].map((rect) => rect.right))
      if (right > screen + 0.5) text.push(Math.round(right) + ' px, ' + node.parentElement.tagName.toLowerCase() + '.' + node.parentElement.className + ': ' + node.textContent.trim().slice(0, 50))
    }
    return {
      width: document.documentElement.scrollWidth,
      screen,
      outside: outside.slice(0, 5).map((element) => element.tagName.toLowerCase() + '.' + element.className + ': ' + (element.textContent || '').slice(0, 50)),
      text: text.slice(0, 5)
    }
  })()`)
}

/**
 * The footer's credits as a dataset built by `npm run dataset` gives them (every source, INEP's booklets at
 * their address): the longest the page shows, whatever dataset this test serves. Its credits paragraph is
 * written with them before a page is measured.
 */
const FULL_BUILD_CREDITS = dataProvenancePageHtml(Object.values(SOURCE_PINS).map((pin): DataCredit => pin.kind === 'files'
  ? { title: pin.title, publisher: pin.publisher, address: pin.address }
  : { title: pin.title, repository: pin.repository, licence: pin.licence }))

/** Loads every image of the page (lazy ones too): an image's size is part of the layout. */
async function loadImages (page: Page): Promise<void> {
  await page.evaluate('Promise.all([...document.images].map((image) => { image.loading = "eager"; return image.decode().catch(() => {}) }))')
}

/** A line of a Markdown table. */
const TABLE_LINE = /^\s*\|.*\|\s*$/

/** The longest run of characters a line cannot break (no white space, hyphen, dash or slash) in a record's statement or its alternatives (image addresses and tables aside). */
function longestWord (question: Question, where: 'statement' | 'alternatives'): number {
  const texts = where === 'statement' ? [question.context, question.alternativesIntroduction] : question.alternatives.map((alternative) => alternative.text)
  const words = texts.flatMap((text) => (text ?? '').split('\n').filter((line) => !TABLE_LINE.test(line)).join(' ').replace(/!\[[^\]]*\]\([^)]*\)/g, ' ').split(/[\s/\-\u2010-\u2014]+/))
  return Math.max(0, ...words.map((word) => [...word].length))
}

/** The widest Markdown table row of a record's statement, in characters; 0 without a table. */
function widestTableRow (question: Question): number {
  return Math.max(0, ...(question.context ?? '').split('\n').filter((line) => TABLE_LINE.test(line)).map((line) => [...line].length))
}

describe('every page fits a phone\'s screen (390 × 844)', () => {
  const folders = [FULL_DATA_DIR ?? SAMPLE_DATA_DIR]
  if (withSources) {
    const work = mkdtempSync(path.join(tmpdir(), 'enem-phone-'))
    after(() => rmSync(work, { recursive: true, force: true }))
    writeConversion(path.join(work, '2024'), convertMaritaca(SOURCES[2024], SOURCES.inep), '2024')
    writeConversion(path.join(work, 'ppl'), [convertExam(SOURCES.ppl, '2012-segunda-aplicacao', readItensProva(SOURCES.inep, 2012))], 'ppl')
    folders.push(path.join(work, '2024'), path.join(work, 'ppl'))
  }
  const session = browserSession({ ENEM_DATA_DIR: folders.join(path.delimiter) })
  const { api } = session

  /** Every record the page can show, each exam's default view. */
  async function everyRecord (): Promise<Question[]> {
    const records: Question[] = []
    for (const exam of await api<ExamSummary[]>('v1/exams')) {
      for (let offset = 0; ; offset += 50) {
        const list = await api<QuestionList>(`v1/exams/${exam.year}/questions?application=${exam.application}&limit=50&offset=${offset}`)
        records.push(...list.questions)
        if (!list.metadata.hasMore) break
      }
    }
    return records
  }

  /**
   * Opens `query` on a phone, does `act` there (when given), and asserts the page is no wider than the
   * screen and accessible; then `inspect` looks further before the page closes.
   */
  async function assertFits (query: string, name: string, act?: (page: Page) => Promise<void>, inspect?: (page: Page) => Promise<void>): Promise<void> {
    const { page, activity, close } = await openBrowserPage(session.browser, `${session.baseUrl}/${query}`, { viewport: PHONE })
    try {
      await act?.(page)
      await loadImages(page)
      assert.equal(await page.evaluate(`(() => { const credits = document.querySelector('.data-provenance'); if (credits === null) return false; credits.innerHTML = ${JSON.stringify(FULL_BUILD_CREDITS)}; return true })()`), true, 'the footer has its credits paragraph')
      const { width, screen, outside, text } = await overflow(page)
      assert.equal(width, screen, `${name} (${query}) is ${width} px wide on a ${screen} px screen: ${[...outside, ...text].join('; ')}`)
      assert.deepEqual(text, [], `${name} (${query}): text runs past the ${screen} px screen`)
      assert.deepEqual(await seriousAccessibilityViolations(page), [], name)
      await screenshot(page, `phone-${name}`)
      await inspect?.(page)
      assertOnlyThisServer(activity, session.baseUrl)
    } finally {
      await close()
    }
  }

  test('the home page, a search and its cards', async () => {
    await assertFits('', 'home')
    // Every question of every exam, first page: cards with every figure of their question.
    await assertFits('?q=', 'search')
  })

  test('questions whose content is the widest the data holds: a table, the longest unbroken words of a statement and of an alternative', async (t) => {
    const records = await everyRecord()
    const address = (question: Question) => `?prova=${question.year}${question.application === 'regular' ? '' : `&aplicacao=${question.application}`}&questao=${question.index}${question.language === null ? '' : `&idioma=${question.language}`}`
    const widest = [...new Set([
      ...[...records].sort((a, b) => widestTableRow(b) - widestTableRow(a)).filter((question) => widestTableRow(question) > 0).slice(0, 3),
      ...[...records].sort((a, b) => longestWord(b, 'statement') - longestWord(a, 'statement')).slice(0, 2),
      ...[...records].sort((a, b) => longestWord(b, 'alternatives') - longestWord(a, 'alternatives')).slice(0, 2),
      // The issue's example, a table held as a figure.
      ...records.filter((question) => question.year === 2012 && question.application === 'ppl' && question.index === 170)
    ])]
    if (withSources) assert.ok(widest.some((question) => widestTableRow(question) > 0), 'a question with a Markdown table')
    else t.diagnostic(`${SOURCES[2024]} is absent: no Markdown table was checked (the sample and the predecessor's dataset hold none)`)
    for (const question of widest) {
      await assertFits(address(question), `question-${question.year}-${question.application}-${question.index}`, undefined, async (page) => {
        // A table wider than the column scrolls inside its own box, which the keyboard reaches.
        for (const table of await page.locator('.statement table').all()) {
          type Box = { getBoundingClientRect: () => { right: number }, scrollWidth: number, clientWidth: number, getAttribute: (name: string) => string | null }
          const box = await table.evaluate((element) => {
            const shown = element as unknown as Box
            return { right: shown.getBoundingClientRect().right, scrolls: shown.scrollWidth > shown.clientWidth, overflow: (globalThis as unknown as { getComputedStyle: (e: unknown) => { overflowX: string } }).getComputedStyle(element).overflowX, tabindex: shown.getAttribute('tabindex') }
          })
          assert.ok(box.right <= PHONE.width, `the table ends at ${box.right} px`)
          if (box.scrolls) assert.deepEqual([box.overflow, box.tabindex], ['auto', '0'])
        }
      })
    }
    t.diagnostic(`checked ${widest.map((question) => `${question.year}${question.application === 'regular' ? '' : '-ppl'}/${question.index} (table row ${widestTableRow(question)}, words ${longestWord(question, 'statement')} and ${longestWord(question, 'alternatives')})`).join(', ')}`)
  })

  test('the Simulado\'s result with its skills table, its practice drawn, and practice at its own address', async () => {
    // The exam and area of the served data whose questions ask the most skills: the longest skills table.
    const skillsOf = new Map<string, { first: Question, skills: Set<number> }>()
    for (const question of await everyRecord()) {
      const skill = (question as Question & { inep?: Inep | null }).inep?.skill
      if (skill == null) continue
      const key = `${question.year} ${question.application} ${question.discipline}`
      if (!skillsOf.has(key)) skillsOf.set(key, { first: question, skills: new Set() })
      skillsOf.get(key)!.skills.add(skill)
    }
    assert.ok(skillsOf.size > 0, 'questions with INEP skills')
    const { first } = [...skillsOf.values()].sort((a, b) => b.skills.size - a.skills.size)[0]!
    const exams = await api<ExamSummary[]>('v1/exams')
    const exam = exams.find((one) => one.year === first.year && one.application === first.application)!
    const language = exam.languages[0]?.value
    const query = `?simulado=${first.year}${first.application === 'regular' ? '' : `&aplicacao=${first.application}`}&area=${first.discipline}${language === undefined ? '' : `&idioma=${language}`}`
    const { questions } = await api<QuestionList>(`v1/exams/${first.year}/questions?application=${first.application}&discipline=${first.discipline}${language === undefined ? '' : `&language=${language}`}&limit=50`)
    const answers = Object.fromEntries(questions.map((question, at) => [String(question.index), at % 2 === 0 ? question.correctAlternative : 'ABCDE'.replace(question.correctAlternative, '')[0]!]))
    const storageKey = `enem-simulado:${first.application === 'regular' ? first.year : `${first.year}-${first.application}`}:${first.discipline}:${language ?? ''}`
    let area: AreaAnswer | undefined
    await assertFits(query, 'simulado-result-and-practice', async (page) => {
      await page.evaluate(([key, value]) => localStorage.setItem(key!, value!), [storageKey, JSON.stringify(answers)])
      await page.reload()
      await viewShown(page)
      const scoring = page.waitForResponse((response) => response.url().endsWith('/v1/scores'))
      await page.getByRole('button', { name: 'Ver minha nota' }).click()
      area = (await (await scoring).json() as { areas: AreaAnswer[] }).areas.find((entry) => entry.discipline === first.discipline)
      await page.locator('.skills-table').waitFor()
      await page.getByRole('button', { name: 'Praticar no seu nível' }).click()
      await page.locator('.level-question').first().waitFor()
    })
    assert.ok(area !== undefined)
    const practice = new URL(area.practice, session.baseUrl).searchParams
    await assertFits(`?praticar=${practice.get('discipline')}&nota=${practice.get('score')}&semente=1`, 'practice-page', async (page) => {
      await page.locator('.level-question').first().waitFor()
    })
    await assertFits(`?praticar=${practice.get('discipline')}&nota=${practice.get('score')}&habilidade=${area.skills[0]!.code}&semente=1`, 'practice-page-skill', async (page) => {
      await page.locator('.level-question').first().waitFor()
    })
    await assertFits('?praticar=', 'practice-setup')
  })
})
