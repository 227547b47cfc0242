import { describe, test } from 'node:test'
import assert from 'node:assert/strict'
import type { Page } from 'playwright-core'
import type { ExamDetailsFile, ExamSummary, Question } from '../../src/data/record-schemas.ts'
import { examLabel } from '../../src/web/exam-options.ts'
import { FULL_DATA_DIR } from '../helper.ts'
import { browserSession } from './browser.ts'
import { assertOnlyThisServer, goTo, openBrowserPage, PHONE, screenshot, seriousAccessibilityViolations, viewShown } from './question-browser-page.ts'

/*
 * The question browser (GET /) in Chromium, on the sample dataset and, when ENEM_DATA_DIR is set,
 * on the full one. What the page should show is asked of the API by the test itself, so every
 * expectation comes from the data; every test also checks that the page talked to this server
 * only and logged no error (a refusal by the page's Content-Security-Policy is logged as one).
 */

type QuestionRecord = Question & { inep?: { annulled: boolean } | null }
interface QuestionList { metadata: { total: number, offset: number }, questions: QuestionRecord[] }

/** The language tag a statement in a foreign language carries, so a screen reader reads it in that language. */
const statementLang = (question: QuestionRecord) => ({ ingles: 'en', espanhol: 'es' } as Record<string, string>)[question.language ?? ''] ?? null

/** The page's results per page (src/web/search-view.ts). */
const PAGE_SIZE = 12

function questionBrowserSuite (label: string, env: Record<string, string>): void {
  const session = browserSession(env)
  const { api } = session
  const address = (query: string) => `${session.baseUrl}/${query}`
  const cardTitles = (page: Page) => page.locator('.card h3').allInnerTexts()
  /** The card titles of a list: the exam named as the page names it (a second application says PPL). */
  const expectedTitles = async (list: QuestionList) => {
    const exams = await api<ExamSummary[]>('v1/exams')
    return list.questions.map((question) => {
      const exam = exams.find((one) => one.year === question.year && one.application === question.application)!
      return `Questão ${question.index} · ${examLabel(exam)}`
    })
  }
  const shot = (page: Page, name: string) => screenshot(page, `question-browser-${label}-${name}`)

  /** A long word of a statement's text (image addresses are not searched). */
  const statementWord = (question: QuestionRecord) => /\p{L}{7,}/u.exec((question.context ?? '').replace(/!\[[^\]]*\]\([^)]*\)/g, ''))?.[0]

  /** A question of the newest exams that has images and words in its statement, and a question before it. */
  async function questionWithImages (): Promise<QuestionRecord> {
    for (const exam of await api<ExamSummary[]>('v1/exams')) {
      for (let offset = 0; ; offset += 50) {
        const list = await api<QuestionList & { metadata: { hasMore: boolean } }>(`v1/exams/${exam.year}/questions?limit=50&offset=${offset}`)
        const found = list.questions.find((question) => question.index > 1 && question.files.length > 0 && question.context?.includes('![') === true && statementWord(question) !== undefined)
        if (found !== undefined) return found
        if (!list.metadata.hasMore) break
      }
    }
    throw new Error('no question with images in the statement')
  }

  test('home page: the exams and the search form, from this server only, under 100 KB, accessible', async (t) => {
    const exams = await api<ExamSummary[]>('v1/exams')
    const { page, activity, responses, close } = await openBrowserPage(session.browser, address(''))
    assert.equal(await page.getAttribute('html', 'lang'), 'pt-BR')
    assert.equal(await page.locator('h1').innerText(), 'Questões do ENEM')
    assert.deepEqual(await page.locator('.exam-list a').allInnerTexts(), exams.map((exam) => examLabel(exam)))
    for (const exam of exams.filter((one) => one.application === 'ppl')) assert.match(examLabel(exam), /PPL/)
    for (const name of ['Buscar no enunciado e nas alternativas', 'Ano', 'Área', 'Língua estrangeira', 'Sem imagens', 'Sem anuladas']) {
      assert.equal(await page.getByLabel(name, { exact: true }).count(), 1, `a control labelled ${name}`)
    }
    // First load: the page, its script, stylesheet and icon, and the exams it lists (images aside).
    const loaded = await Promise.all(responses.filter((response) => !response.url.includes('/files/')).map(async (response) => ({ ...response, bytes: await response.bytes })))
    const total = loaded.reduce((sum, response) => sum + response.bytes, 0)
    t.diagnostic(`first load: ${total} bytes compressed over the wire in ${loaded.length} responses: ${loaded.map((response) => `${new URL(response.url).pathname} ${response.bytes}`).join(', ')}`)
    assert.ok(loaded.some((response) => response.url.endsWith('/v1/exams')), 'the exams were loaded')
    assert.ok(total < 100_000, `first load is ${total} bytes`)
    assert.deepEqual(await seriousAccessibilityViolations(page), [])
    // Keyboard: the first Tab reaches the skip link, and focus is visible (an outline, not the browser's default).
    await page.keyboard.press('Tab')
    assert.equal(await page.evaluate('document.activeElement.textContent'), 'Pular para o conteúdo')
    assert.equal(await page.evaluate('getComputedStyle(document.activeElement).outlineStyle + " " + getComputedStyle(document.activeElement).outlineWidth'), 'solid 3px')
    await page.keyboard.press('Enter')
    await page.keyboard.press('Tab')
    assert.equal(await page.evaluate('document.activeElement.id'), 'busca', 'after the skip link, Tab goes to the search box')
    await shot(page, 'home-desktop')
    assertOnlyThisServer(activity, session.baseUrl)
    await close()

    const phone = await openBrowserPage(session.browser, address(''), { viewport: PHONE })
    await shot(phone.page, 'home-phone')
    assertOnlyThisServer(phone.activity, session.baseUrl)
    await phone.close()
  })

  test('search: a word of a record finds what /v1/questions finds; year and "sem imagens" narrow it; pages follow', async (t) => {
    const record = await questionWithImages()
    const word = statementWord(record)
    assert.ok(word !== undefined, 'a word to search for')
    const { page, activity, close } = await openBrowserPage(session.browser, address(''))

    await page.getByLabel('Buscar no enunciado e nas alternativas').fill(word)
    await goTo(page, () => page.getByLabel('Buscar no enunciado e nas alternativas').press('Enter'), (url) => url.searchParams.get('q') === word)
    const found = await api<QuestionList>(`v1/questions?q=${encodeURIComponent(word)}&limit=${PAGE_SIZE}`)
    assert.deepEqual(await cardTitles(page), await expectedTitles(found))
    const inItsYear = await api<QuestionList>(`v1/questions?q=${encodeURIComponent(word)}&year=${record.year}&limit=50`)
    assert.ok(inItsYear.questions.some((question) => question.index === record.index), `the record "${word}" came from is found`)
    assert.match(await page.locator('#resultados').innerText(), new RegExp(`^${found.metadata.total.toLocaleString('pt-BR')} quest`))
    assert.deepEqual(await seriousAccessibilityViolations(page), [])
    await shot(page, 'results-desktop')

    await page.getByLabel('Ano', { exact: true }).selectOption(String(record.year))
    await page.getByRole('checkbox', { name: 'Sem imagens' }).check()
    await goTo(page, () => page.getByRole('button', { name: 'Buscar', exact: true }).click(), (url) => url.searchParams.get('sem-imagens') === '1')
    assert.equal(new URL(page.url()).searchParams.get('ano'), String(record.year))
    const narrowed = await api<QuestionList>(`v1/questions?q=${encodeURIComponent(word)}&year=${record.year}&hasImages=false&limit=${PAGE_SIZE}`)
    assert.ok(narrowed.metadata.total < inItsYear.metadata.total, 'the record with images is left out')
    assert.deepEqual(await cardTitles(page), await expectedTitles(narrowed))
    assert.equal(await page.locator('.card img').count(), 0, 'no thumbnails without images')

    // Every question of one exam, two pages of it.
    await page.getByLabel('Buscar no enunciado e nas alternativas').fill('')
    await page.getByRole('checkbox', { name: 'Sem imagens' }).uncheck()
    await goTo(page, () => page.getByRole('button', { name: 'Buscar', exact: true }).click(), (url) => url.searchParams.get('q') === '' && !url.searchParams.has('sem-imagens'))
    const firstPage = await api<QuestionList>(`v1/questions?year=${record.year}&limit=${PAGE_SIZE}`)
    assert.ok(firstPage.metadata.total > PAGE_SIZE, `more than one page in ${record.year}`)
    assert.deepEqual(await cardTitles(page), await expectedTitles(firstPage))
    await goTo(page, () => page.getByRole('link', { name: 'Próxima →' }).click(), (url) => url.searchParams.get('pagina') === '2')
    const secondPage = await api<QuestionList>(`v1/questions?year=${record.year}&limit=${PAGE_SIZE}&offset=${PAGE_SIZE}`)
    assert.deepEqual(await cardTitles(page), await expectedTitles(secondPage))
    assert.equal(await page.locator('.pager [aria-current="page"]').innerText(), `Página 2 de ${Math.ceil(firstPage.metadata.total / PAGE_SIZE)}`)
    t.diagnostic(`searched "${word}": ${found.metadata.total} results, ${narrowed.metadata.total} in ${record.year} without images`)

    const phone = await openBrowserPage(session.browser, page.url(), { viewport: PHONE })
    await shot(phone.page, 'results-phone')
    assertOnlyThisServer(phone.activity, session.baseUrl)
    await phone.close()
    assertOnlyThisServer(activity, session.baseUrl)
    await close()
  })

  test('application: "Aplicação" narrows the results to the second application, whose questions open as its own', async (t) => {
    const exams = await api<ExamSummary[]>('v1/exams')
    const ppl = exams.find((exam) => exam.application === 'ppl')
    if (ppl === undefined) {
      t.skip('the dataset has no second application')
      return
    }
    const { page, activity, close } = await openBrowserPage(session.browser, address(''))
    await page.getByLabel('Aplicação', { exact: true }).selectOption('ppl')
    await goTo(page, () => page.getByRole('button', { name: 'Buscar', exact: true }).click(), (url) => url.searchParams.get('aplicacao') === 'ppl')
    const found = await api<QuestionList>(`v1/questions?application=ppl&limit=${PAGE_SIZE}`)
    assert.ok(found.questions.length > 0 && found.questions.every((question) => question.application === 'ppl'))
    assert.deepEqual(await cardTitles(page), await expectedTitles(found))
    assert.match(await page.locator('#resultados').innerText(), new RegExp(`^${found.metadata.total.toLocaleString('pt-BR')} quest`))
    assert.deepEqual(await seriousAccessibilityViolations(page), [])

    // A result opens the question of its own exam: its title, the exam in the breadcrumb, its JSON.
    const first = found.questions[0]!
    await goTo(page, () => page.locator('.card h3 a').first().click(), (url) => url.searchParams.get('questao') === String(first.index))
    assert.equal(new URL(page.url()).searchParams.get('aplicacao'), 'ppl')
    assert.equal(await page.locator('h1').innerText(), first.title)
    assert.equal(await page.locator('.breadcrumb a').nth(1).innerText(), examLabel(ppl))
    const json = await page.getByRole('link', { name: 'Ver o registro em JSON' }).getAttribute('href')
    const record = await api<QuestionRecord>(json!)
    assert.deepEqual(record, first)
    // And the exam page of the second application lists its questions.
    await goTo(page, () => page.locator('.breadcrumb a').nth(1).click(), (url) => url.searchParams.get('prova') === String(ppl.year) && !url.searchParams.has('questao'))
    assert.equal(await page.locator('h1').innerText(), examLabel(ppl))
    const detail = await api<ExamDetailsFile>(`v1/exams/${ppl.year}?application=ppl`)
    assert.equal(await page.locator('.numbers a').count(), new Set(detail.questions.filter((entry) => entry.language === null || entry.language === detail.languages[0]?.value).map((entry) => entry.index)).size)
    assertOnlyThisServer(activity, session.baseUrl)
    await close()
  })

  test('a question: statement with its images, alternatives, the answer, the next question, back, and its JSON', async () => {
    const record = await questionWithImages()
    const view = `?prova=${record.year}&questao=${record.index}${record.language === null ? '' : `&idioma=${record.language}`}`
    const { page, activity, close } = await openBrowserPage(session.browser, address(view))
    assert.equal(await page.locator('h1').innerText(), record.title)
    assert.equal(await page.title(), `${record.title} · Questões do ENEM`)
    assert.equal(await page.locator('.statement').getAttribute('lang'), statementLang(record))

    const images = page.locator('.statement img')
    const sources = [...(record.context ?? '').matchAll(/!\[[^\]]*\]\(([^)\s]+)\)/g)].map((match) => match[1])
    assert.deepEqual(await images.evaluateAll((elements) => elements.map((element) => element.getAttribute('src'))), sources)
    for (const image of await images.all()) {
      assert.notEqual(await image.getAttribute('alt'), '')
      assert.equal(await image.getAttribute('loading'), 'lazy')
      await image.scrollIntoViewIfNeeded()
      await page.waitForFunction((element) => (element as unknown as { complete: boolean }).complete, await image.elementHandle())
      assert.ok(await image.evaluate((element) => (element as unknown as { naturalWidth: number }).naturalWidth) > 0, 'the image loaded')
    }

    const choices = page.locator('.alternative')
    assert.deepEqual(await choices.evaluateAll((elements) => elements.map((element) => element.getAttribute('data-letter'))), record.alternatives.map((alternative) => alternative.letter))
    const key = record.correctAlternative
    const wrong = record.alternatives.find((alternative) => alternative.letter !== key)!.letter
    // Keyboard: focus the first choice, arrow keys move between them, Space picks one.
    await page.locator('.alternative input').first().focus()
    await page.keyboard.press('Space')
    for (let letter = 'A'; letter !== wrong; letter = String.fromCharCode(letter.charCodeAt(0) + 1)) await page.keyboard.press('ArrowDown')
    assert.equal(await page.locator('.alternative input:checked').getAttribute('value'), wrong)
    await page.getByRole('button', { name: 'Mostrar resposta' }).click()
    assert.equal(await page.locator('.alternative.correct').getAttribute('data-letter'), key)
    assert.equal(await page.locator('.alternative.correct .verdict').innerText(), record.inep?.annulled === true ? 'Gabarito original' : 'Resposta correta')
    assert.equal(await page.locator('.alternative.wrong').getAttribute('data-letter'), wrong)
    assert.match(await page.locator('#resposta').innerText(), new RegExp(`${key}\\. Você marcou ${wrong}`))
    assert.equal(await page.getByRole('button', { name: 'Esconder resposta' }).getAttribute('aria-expanded'), 'true')
    assert.deepEqual(await seriousAccessibilityViolations(page), [])
    await shot(page, 'question-desktop')

    // The record behind the JSON link is the one on screen.
    const json = await page.getByRole('link', { name: 'Ver o registro em JSON' }).getAttribute('href')
    assert.deepEqual(await api<QuestionRecord>(json!), record)

    // Next question of the same exam, then back.
    const exam = await api<ExamDetailsFile>(`v1/exams/${record.year}`)
    const language = record.language ?? exam.languages[0]?.value ?? null
    const indexes = [...new Set(exam.questions.filter((entry) => entry.language === null || entry.language === language).map((entry) => entry.index))].sort((a, b) => a - b)
    const next = indexes[indexes.indexOf(record.index) + 1]
    const previous = indexes[indexes.indexOf(record.index) - 1]
    assert.equal(await page.locator('a[rel="prev"]').innerText(), `← Questão ${previous}`)
    if (next !== undefined) {
      await goTo(page, () => page.locator('a[rel="next"]').click(), (url) => url.searchParams.get('questao') === String(next))
      assert.equal(await page.locator('h1').innerText(), (await api<QuestionRecord>(`v1/exams/${record.year}/questions/${next}${language === null ? '' : `?language=${language}`}`)).title)
      assert.ok(await page.evaluate('document.activeElement === document.querySelector("h1")'), 'focus moves to the new heading')
      await page.goBack()
      await page.waitForURL((url) => url.searchParams.get('questao') === String(record.index))
      await viewShown(page)
      assert.equal(await page.locator('h1').innerText(), record.title)
    }

    const phone = await openBrowserPage(session.browser, address(view), { viewport: PHONE })
    await phone.page.getByRole('button', { name: 'Mostrar resposta' }).click()
    await shot(phone.page, 'question-phone')
    assertOnlyThisServer(phone.activity, session.baseUrl)
    await phone.close()
    assertOnlyThisServer(activity, session.baseUrl)
    await close()
  })

  test('"Questão aleatória" draws from /v1/questions/random with the filters chosen', async () => {
    const exams = await api<ExamSummary[]>('v1/exams')
    const exam = exams[exams.length - 1]!
    const discipline = exam.disciplines[0]!.value
    const { page, activity, close } = await openBrowserPage(session.browser, address(''))
    await page.getByLabel('Ano', { exact: true }).selectOption(String(exam.year))
    await page.getByLabel('Área', { exact: true }).selectOption(discipline)
    await goTo(page, () => page.getByRole('button', { name: 'Questão aleatória' }).click(), (url) => url.searchParams.has('questao'))
    const url = new URL(page.url())
    assert.equal(url.searchParams.get('prova'), String(exam.year))
    const drawn = activity.requests.filter((request) => request.includes('/v1/questions/random'))
    assert.equal(drawn.length, 1)
    assert.deepEqual(Object.fromEntries(new URL(drawn[0]!).searchParams), { year: String(exam.year), discipline })
    const shown = await api<QuestionRecord>(`v1/exams/${exam.year}/questions/${url.searchParams.get('questao')}`)
    assert.equal(shown.discipline, discipline)
    assert.equal(await page.locator('h1').innerText(), shown.title)
    assertOnlyThisServer(activity, session.baseUrl)
    await close()
  })

  test('deep links: a results page and an exam page reload as they were, and back returns to them', async () => {
    const exams = await api<ExamSummary[]>('v1/exams')
    const exam = exams.find((candidate) => candidate.languages.length > 1) ?? exams[0]!
    const results = `?q=&ano=${exam.year}&sem-anuladas=1&pagina=2`
    const { page, activity, close } = await openBrowserPage(session.browser, address(results))
    const expected = await api<QuestionList>(`v1/questions?year=${exam.year}&annulled=false&limit=${PAGE_SIZE}&offset=${PAGE_SIZE}`)
    const check = async () => {
      assert.equal(await page.getByLabel('Ano', { exact: true }).inputValue(), String(exam.year))
      assert.equal(await page.getByRole('checkbox', { name: 'Sem anuladas' }).isChecked(), true)
      assert.deepEqual(await cardTitles(page), await expectedTitles(expected))
    }
    await check()
    await page.reload()
    await viewShown(page)
    await check()
    // Open the last result, then come back to it: the list is where the reader left it.
    const last = page.locator('.card h3 a').last()
    await last.scrollIntoViewIfNeeded()
    const scrolled = await page.evaluate('window.scrollY') as number
    assert.ok(scrolled > 0, 'the list is longer than the window')
    await goTo(page, () => last.click(), (url) => url.searchParams.has('questao'))
    assert.equal(await page.locator('h1').innerText(), expected.questions[expected.questions.length - 1]!.title)
    assert.equal(await page.evaluate('window.scrollY'), 0, 'a new view starts at its top')
    await page.goBack()
    await page.waitForURL((url) => url.search === results)
    await viewShown(page)
    await check()
    assert.ok(Math.abs(await page.evaluate('window.scrollY') as number - scrolled) <= 2, `scroll position ${scrolled} restored`)

    // The exam page in its second language: every index of that language view, by area.
    const language = exam.languages[exam.languages.length - 1]?.value
    const examAddress = `?prova=${exam.year}${language === undefined ? '' : `&idioma=${language}`}`
    await goTo(page, () => page.goto(address(examAddress)).then(() => {}), (url) => url.search === examAddress)
    const detail = await api<ExamDetailsFile>(`v1/exams/${exam.year}`)
    const inView = detail.questions.filter((entry) => entry.language === null || entry.language === language)
    const shown = await page.locator('.numbers a').allInnerTexts()
    assert.deepEqual(new Set(shown.map(Number)), new Set(inView.map((entry) => entry.index)))
    assert.equal(shown.length, new Set(inView.map((entry) => entry.index)).size)
    await page.reload()
    await viewShown(page)
    assert.deepEqual(await page.locator('.numbers a').allInnerTexts(), shown)
    await goTo(page, () => page.locator('.numbers a').first().click(), (url) => url.searchParams.get('questao') === String(Math.min(...shown.map(Number))))
    await page.goBack()
    await page.waitForURL((url) => url.search === examAddress)
    await viewShown(page)
    assert.equal(await page.locator('h1').innerText(), exam.title)
    await shot(page, 'exam-desktop')
    assertOnlyThisServer(activity, session.baseUrl)
    await close()
  })

  test('INEP\'s data after "Mostrar resposta": an annulled question says so, skill and difficulty are shown', async () => {
    const annulled = (await api<QuestionList>('v1/questions?annulled=true&limit=1')).questions[0]
    assert.ok(annulled?.inep?.annulled === true, 'the dataset has an annulled question')
    const first = await openBrowserPage(session.browser, address(`?prova=${annulled.year}&questao=${annulled.index}${annulled.language === null ? '' : `&idioma=${annulled.language}`}`))
    assert.equal(await first.page.locator('#resposta').isHidden(), true, 'the answer is not given before it is asked for')
    assert.equal(await first.page.locator('.alternative.correct').count(), 0)
    await first.page.getByRole('button', { name: 'Mostrar resposta' }).click()
    assert.equal(await first.page.locator('.alternative.correct').getAttribute('data-letter'), annulled.correctAlternative)
    assert.equal(await first.page.locator('.alternative.correct .verdict').innerText(), 'Gabarito original')
    assert.match(await first.page.locator('#resposta').innerText(), /O INEP anulou esta questão/)
    await shot(first.page, 'annulled-desktop')
    assertOnlyThisServer(first.activity, session.baseUrl)
    await first.close()

    let rated: QuestionRecord | undefined
    for (let offset = 0; rated === undefined; offset += 50) {
      const list = await api<QuestionList & { metadata: { hasMore: boolean } }>(`v1/questions?limit=50&offset=${offset}`)
      rated = list.questions.find((question) => question.inep?.skill != null && question.inep.irt != null)
      if (!list.metadata.hasMore) break
    }
    assert.ok(rated?.inep?.skill != null && rated.inep.irt != null, 'the dataset has a question with a skill and IRT parameters')
    const second = await openBrowserPage(session.browser, address(`?prova=${rated.year}&questao=${rated.index}${rated.language === null ? '' : `&idioma=${rated.language}`}`))
    assert.equal(await second.page.locator('.statement').getAttribute('lang'), statementLang(rated))
    await second.page.getByRole('button', { name: 'Mostrar resposta' }).click()
    const facts = await second.page.locator('#resposta dl').innerText()
    // The skill by its code and INEP's text (from /v1/skills), the difficulty in words on the score scale, the parameters.
    const code = `${rated.inep.area}-H${rated.inep.skill}`
    const skills = await api<{ areas: Array<{ skills: Array<{ code: string, text: string }> }> }>('v1/skills')
    const text = skills.areas.flatMap((area) => area.skills).find((skill) => skill.code === code)!.text
    assert.ok(facts.includes(`${code} da matriz`) && facts.includes(text), facts)
    assert.ok(facts.includes(`nível ${Math.round(rated.inep.difficulty!).toLocaleString('pt-BR')} na escala do ENEM`), facts)
    assert.ok(facts.includes(rated.inep.irt.b.toLocaleString('pt-BR', { minimumFractionDigits: 2, maximumFractionDigits: 2 })), facts)
    await shot(second.page, 'inep-facts-desktop')
    assertOnlyThisServer(second.activity, session.baseUrl)
    await second.close()
  })

  test('HTML and scripts found in the data show as text on the question page, and none runs', async (t) => {
    const tag = /<\/?[a-z][a-z0-9]*(?=[\s>/])[^>]*>/i
    const texts = (question: QuestionRecord) => [question.context, question.alternativesIntroduction, ...question.alternatives.map((alternative) => alternative.text)]
    const withMarkup: Array<{ question: QuestionRecord, markup: string }> = []
    for (let offset = 0; ; offset += 50) {
      const list = await api<QuestionList & { metadata: { hasMore: boolean } }>(`v1/questions?limit=50&offset=${offset}`)
      for (const question of list.questions) {
        const markup = texts(question).map((text) => tag.exec(text ?? '')?.[0]).find((found) => found !== undefined)
        if (markup !== undefined) withMarkup.push({ question, markup })
      }
      if (!list.metadata.hasMore) break
    }
    assert.ok(withMarkup.length > 0, 'the dataset has a record with markup in it')
    for (const { question, markup } of withMarkup.slice(0, 3)) {
      t.diagnostic(`${question.title}${question.language === null ? '' : ` (${question.language})`}: ${markup}`)
      // With the CSP bypassed: the renderer alone must keep the markup inert.
      const { page, activity, close } = await openBrowserPage(session.browser, address(`?prova=${question.year}&questao=${question.index}${question.language === null ? '' : `&idioma=${question.language}`}`), { bypassCSP: true })
      const dialogs: string[] = []
      page.on('dialog', (dialog) => {
        dialogs.push(dialog.message())
        dialog.dismiss().catch(() => {})
      })
      assert.ok((await page.locator('article.question').innerText()).includes(markup), `shown as text: ${markup}`)
      await page.locator('.alternative label').first().hover()
      await page.getByRole('button', { name: 'Mostrar resposta' }).click()
      assert.equal(await page.locator('article.question').locator('script, iframe, object, embed, style, form, [onerror], [onload], [onmouseover], [onclick], a[href^="javascript" i]').count(), 0)
      assert.deepEqual(dialogs, [], 'no script from the data ran')
      if (question === withMarkup[0]!.question) await shot(page, 'markup-as-text-desktop')
      assertOnlyThisServer(activity, session.baseUrl)
      await close()
    }
  })

  test('alternatives that are images are shown with alt text', async () => {
    let found: QuestionRecord | undefined
    for (let offset = 0; found === undefined; offset += 50) {
      const list = await api<QuestionList & { metadata: { hasMore: boolean } }>(`v1/questions?limit=50&offset=${offset}`)
      found = list.questions.find((question) => question.alternatives.every((alternative) => alternative.file !== null))
      if (!list.metadata.hasMore) break
    }
    assert.ok(found !== undefined, 'the dataset has a question whose alternatives are images')
    const { page, activity, close } = await openBrowserPage(session.browser, address(`?prova=${found.year}&questao=${found.index}${found.language === null ? '' : `&idioma=${found.language}`}`))
    for (const alternative of found.alternatives) {
      const image = page.locator(`.alternative[data-letter="${alternative.letter}"] img`)
      assert.equal(await image.getAttribute('src'), alternative.file)
      assert.match(await image.getAttribute('alt') ?? '', new RegExp(`alternativa ${alternative.letter}`))
    }
    assertOnlyThisServer(activity, session.baseUrl)
    await close()
  })

  test('an address naming no question says so in Portuguese (the API\'s 404 is English), and the way home', async () => {
    const exams = await api<ExamSummary[]>('v1/exams')
    const { page, activity, close } = await openBrowserPage(session.browser, address(`?prova=${exams[0]!.year}&questao=999`))
    const refusal = await fetch(`${session.baseUrl}/v1/exams/${exams[0]!.year}/questions/999`)
    assert.equal(refusal.status, 404)
    const { error } = await refusal.json() as { error: { message: string } }
    assert.equal(await page.locator('h1').innerText(), 'Não encontrado')
    const alert = await page.getByRole('alert').innerText()
    assert.equal(alert, `O acervo não tem a questão 999 da prova ${examLabel(exams[0]!)}.`)
    assert.equal(alert.includes(error.message), false, 'the API\'s English message is not mixed in')
    assert.equal(await page.getByRole('link', { name: 'Voltar ao início' }).getAttribute('href'), './')
    // The browser logs the 404 it was given; nothing else.
    assert.deepEqual(activity.errors.filter((message) => !message.includes('404')), [])
    activity.errors.length = 0
    assertOnlyThisServer(activity, session.baseUrl)
    await close()
  })

  test('a search the API refuses says why, next to the form to correct it', async () => {
    const refusal = await fetch(`${session.baseUrl}/v1/questions?q=${encodeURIComponent('+++')}&limit=${PAGE_SIZE}`)
    assert.equal(refusal.status, 422)
    const { error } = await refusal.json() as { error: { message: string } }
    const { page, activity, close } = await openBrowserPage(session.browser, address(`?q=${encodeURIComponent('+++')}`))
    assert.equal(await page.getByLabel('Buscar no enunciado e nas alternativas').inputValue(), '+++')
    assert.ok((await page.getByRole('alert').innerText()).includes(error.message))
    assert.deepEqual(activity.errors.filter((message) => !message.includes('422')), [])
    activity.errors.length = 0
    assertOnlyThisServer(activity, session.baseUrl)
    await close()
  })

  test('the page is served with its CSP, ETag and compression, and asks again only by ETag', async () => {
    const page = await fetch(address(''), { headers: { 'accept-encoding': 'br' } })
    assert.equal(page.status, 200)
    assert.equal(page.headers.get('content-type'), 'text/html; charset=utf-8')
    assert.equal(page.headers.get('content-encoding'), 'br')
    assert.match(page.headers.get('content-security-policy') ?? '', /script-src 'self';/)
    const etag = page.headers.get('etag')!
    assert.equal((await fetch(address(''), { headers: { 'if-none-match': etag } })).status, 304)
    const html = await page.text()
    for (const asset of html.matchAll(/(?:src|href)="(assets\/[^"]+)"/g)) {
      const response = await fetch(address(asset[1]!), { headers: { 'accept-encoding': 'gzip' } })
      assert.equal(response.status, 200, asset[1])
      assert.equal(response.headers.get('cache-control'), 'public, max-age=31536000, immutable')
      assert.ok(response.headers.get('etag'))
    }
    assert.equal((await fetch(address('assets/nothing.js'))).status, 404)
  })
}

describe('question browser, sample dataset', () => questionBrowserSuite('sample', {}))
describe('question browser, full dataset', { skip: FULL_DATA_DIR === undefined && 'ENEM_DATA_DIR is not set' }, () => {
  questionBrowserSuite('full', { ENEM_DATA_DIR: FULL_DATA_DIR ?? '' })
})
