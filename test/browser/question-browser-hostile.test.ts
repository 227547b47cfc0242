import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import type { Browser, Page } from 'playwright-core'
import type { Question } from '../../src/data/record-schemas.ts'
import { SAMPLE_DATA_DIR } from '../../src/config.ts'
import { launchChromium, startListeningApp } from './browser.ts'
import { assertOnlyThisServer, openBrowserPage } from './question-browser-page.ts'

/*
 * Statements are data written elsewhere: HTML, scripts and `javascript:` links in them must show
 * as text on the question page, never run. The renderer alone must guarantee it (the page is
 * opened with its Content-Security-Policy bypassed), and the CSP is checked on top of it.
 */

/** What a hostile record tries: each, if it ran, would set window.__hostile. */
const HOSTILE_CONTEXT = [
  'Texto com <script>window.__hostile = "script"</script> e <img src=x onerror="window.__hostile = \'onerror\'"> no meio.',
  '',
  '[link javascript](javascript:window.__hostile=\'link\') [maiúsculas](JaVaScRiPt:window.__hostile=\'case\') [entidade](&#106;avascript:window.__hostile=\'entity\') <a href="javascript:window.__hostile=\'a\'">âncora</a>',
  '',
  '[vbscript](vbscript:msgbox) [data](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==) ![imagem javascript](javascript:window.__hostile=\'image\') <iframe src="javascript:window.__hostile=\'iframe\'"></iframe>',
  '',
  '<style>body { display: none }</style> <svg onload="window.__hostile=\'svg\'"></svg> <form action="javascript:alert(1)"><button>enviar</button></form>',
  '',
  'Um link legítimo: [INEP](https://www.gov.br/inep/).'
].join('\n')
const HOSTILE_ALTERNATIVE = '<b onmouseover="window.__hostile=\'alternative\'">negrito</b> [x](javascript:window.__hostile=\'alt-link\')'

let browser: Browser
let app: FastifyInstance
let baseUrl: string
let dataDir: string
/** The sample record made hostile. */
const target = { year: 2020, folder: '6' }

before(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'enem-hostile-'))
  await cp(SAMPLE_DATA_DIR, dataDir, { recursive: true })
  const file = path.join(dataDir, String(target.year), 'questions', target.folder, 'details.json')
  const record = JSON.parse(await readFile(file, 'utf8')) as Question
  record.context = HOSTILE_CONTEXT
  record.alternativesIntroduction = '<script>window.__hostile = "introduction"</script>Assinale:'
  record.alternatives[0]!.text = HOSTILE_ALTERNATIVE
  await writeFile(file, JSON.stringify(record, null, 4))
  ;({ app, baseUrl } = await startListeningApp({ ENEM_DATA_DIR: dataDir }))
  browser = await launchChromium()
})
after(async () => {
  await browser?.close()
  await app?.close()
  if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true })
})

/** What in the question's area could run or leave the page, as the DOM has it. */
async function liveMarkup (page: Page): Promise<{ elements: string[], handlers: string[], addresses: string[], hostile: unknown }> {
  return await page.evaluate(`(() => {
    const article = document.querySelector('article.question')
    const all = [...article.querySelectorAll('*')]
    return {
      elements: all.filter((element) => ['SCRIPT', 'IFRAME', 'STYLE', 'SVG', 'FORM', 'OBJECT', 'EMBED'].includes(element.tagName.toUpperCase())).map((element) => element.outerHTML),
      handlers: all.flatMap((element) => [...element.attributes].filter((attribute) => attribute.name.startsWith('on')).map((attribute) => element.tagName + ' ' + attribute.name)),
      addresses: all.flatMap((element) => ['href', 'src', 'action'].map((name) => element.getAttribute(name)).filter((value) => value !== null)),
      hostile: window.__hostile
    }
  })()`)
}

async function openHostileQuestion (bypassCSP: boolean) {
  const opened = await openBrowserPage(browser, `${baseUrl}/?prova=${target.year}&questao=${target.folder}`, { bypassCSP })
  const { page } = opened
  assert.equal(await page.locator('h1').innerText(), `Questão ${target.folder} - ENEM ${target.year}`)
  // Hover and click everything a script could hang on, then see whether anything ran.
  await page.locator('.alternative label').first().hover()
  await page.getByRole('button', { name: 'Mostrar resposta' }).click()
  return opened
}

test('a record with HTML, scripts and javascript: links renders them as text, with no CSP to help', async () => {
  const { page, activity, close } = await openHostileQuestion(true)
  const markup = await liveMarkup(page)
  assert.equal(markup.hostile, undefined, 'no script from the data ran')
  assert.deepEqual(markup.elements, [], 'no live element taken from the data')
  assert.deepEqual(markup.handlers, [], 'no event handler attribute')
  // What remains are real addresses: the one legitimate link (made safe to follow) and the page's own.
  for (const address of markup.addresses) assert.match(address, /^(https?:\/\/|\?|v1\/)/, address)
  const links = page.locator('.statement a')
  assert.deepEqual(await links.evaluateAll((elements) => elements.map((element) => [element.getAttribute('href'), element.getAttribute('rel')])),
    [['https://www.gov.br/inep/', 'nofollow noopener noreferrer']])

  // The hostile text is there to read, as text.
  const statement = await page.locator('.statement').innerText()
  for (const text of ['<script>window.__hostile = "script"</script>', '<img src=x onerror=', '[link javascript](javascript:', '<iframe src="javascript:', '<style>body { display: none }</style>']) {
    assert.ok(statement.includes(text), `shown as text: ${text}`)
  }
  assert.ok((await page.locator('.introduction').innerText()).includes('<script>'))
  assert.ok((await page.locator('.alternative').first().innerText()).includes('<b onmouseover='))
  assert.equal(await page.evaluate('window.__hostile'), undefined, 'nothing ran after hover and clicks')
  assertOnlyThisServer(activity, baseUrl)
  await close()
})

test('the same record under the page\'s Content-Security-Policy: nothing refused, because nothing live was rendered', async () => {
  const { page, activity, close } = await openHostileQuestion(false)
  assert.deepEqual(await liveMarkup(page), { elements: [], handlers: [], addresses: (await liveMarkup(page)).addresses, hostile: undefined })
  // A refusal by the CSP would be logged as a console error: there is none.
  assertOnlyThisServer(activity, baseUrl)
  await close()
})

test('the search cards show the hostile statement as plain text too', async () => {
  const { page, activity, close } = await openBrowserPage(browser, `${baseUrl}/?q=&ano=${target.year}`, { bypassCSP: true })
  const card = page.locator('.card', { hasText: `Questão ${target.folder} ·` })
  const excerpt = await card.locator('.excerpt').innerText()
  assert.ok(excerpt.startsWith('Texto com <script>window.__hostile = "script"</script> e <img src=x onerror='), excerpt)
  assert.equal(await card.locator('script, img, a[href^="javascript"], [onerror]').count(), 0)
  assert.equal(await page.evaluate('window.__hostile'), undefined)
  assertOnlyThisServer(activity, baseUrl)
  await close()
})
