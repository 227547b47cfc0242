import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import type { Browser } from 'playwright-core'
import { launchChromium, RESULTS_DIR, startListeningApp } from './browser.ts'

/*
 * The reference page's code samples: besides curl, JavaScript's fetch and Python's requests are
 * offered, and picking one turns each operation's sample into that language, with this server's
 * address in it.
 */

let browser: Browser
let app: FastifyInstance
let baseUrl: string
before(async () => {
  ({ app, baseUrl } = await startListeningApp())
  browser = await launchChromium()
})
after(async () => {
  await browser?.close()
  await app?.close()
})

test('the reference page offers code samples in curl, JavaScript fetch, Node.js fetch and Python requests', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
  await page.goto(`${baseUrl}/docs`)
  await page.getByRole('link', { name: 'Get one question' }).click()
  const samples = () => page.locator('code').allInnerTexts().then((texts) => texts.join('\n'))
  // Evaluated in the page (a string: this project's types have no DOM).
  const sampleAppears = (pattern: RegExp) => page.waitForFunction(`[...document.querySelectorAll('code')].some((code) => ${pattern}.test(code.textContent))`)

  // curl is the default sample.
  await sampleAppears(/curl /)
  assert.match(await samples(), /curl .*\/v1\/exams\/\{?2020/)

  const choose = async (group: string, client: string) => {
    await page.locator('.client-libraries__select').first().click()
    const options = page.getByRole('option')
    assert.deepEqual(await options.allInnerTexts(), ['Fetch', 'Fetch', 'Requests', 'Curl'], 'JavaScript fetch, Node.js fetch, Python requests, curl, and nothing else')
    const groups = await page.locator('[role=listbox]').first().innerText()
    for (const name of ['JavaScript', 'Node.js', 'Python', 'Shell']) assert.ok(groups.includes(name), `${name} in ${groups}`)
    // The options are listed under their language's heading, in the order of `groups`.
    const index = ({ 'JavaScript/Fetch': 0, 'Node.js/Fetch': 1, 'Python/Requests': 2, 'Shell/Curl': 3 } as Record<string, number>)[`${group}/${client}`]!
    await options.nth(index).click()
  }

  await choose('Python', 'Requests')
  await sampleAppears(/requests\.get\(/)
  assert.match(await samples(), new RegExp(`requests\\.get\\(.*${baseUrl.replaceAll('.', '\\.')}/v1/exams`, 's'))
  await page.screenshot({ path: path.join(RESULTS_DIR, 'docs-code-sample-python.png') })

  await choose('JavaScript', 'Fetch')
  await sampleAppears(/fetch\(/)
  assert.match(await samples(), new RegExp(`fetch\\(['"\`]${baseUrl.replaceAll('.', '\\.')}/v1/exams`))
  await page.close()
})
