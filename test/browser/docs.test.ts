import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import type { Browser, Page } from 'playwright-core'
import { docPathFor, ERROR_CODES } from '../../src/http/errors.ts'
import { errorHeading } from '../../src/http/plugins/openapi.ts'
import { ENDPOINTS } from '../../src/http/endpoints.ts'
import { foreignRequests, launchChromium, RESULTS_DIR, startListeningApp, watchPage, type PageActivity } from './browser.ts'

/*
 * The reference page in a real browser: it renders the document, its error anchors are where
 * error bodies' docUrl point, "try it" reaches this server, and it asks nothing of any other
 * origin (fonts, CDNs, telemetry) and logs no error.
 */

const VIEWPORT = { width: 1280, height: 900 }

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

/** A fresh page (no cache), recording what it requests and logs. */
async function openPage (url: string): Promise<{ page: Page, activity: PageActivity }> {
  const page = await browser.newPage({ viewport: VIEWPORT })
  const activity = watchPage(page)
  await page.goto(url)
  return { page, activity }
}

function assertSelfContained (activity: PageActivity): void {
  assert.deepEqual(foreignRequests(activity, [new URL(baseUrl).origin]), [], 'requests to another origin')
  assert.deepEqual(activity.errors, [], 'console errors')
  assert.ok(activity.requests.some((url) => url.endsWith('/v1/openapi.json')), 'the page loaded the document')
}

test('an error body\'s docUrl opens the page on that code\'s entry; every code has one', async () => {
  const error = await fetch(`${baseUrl}/v1/exams/1999`)
  assert.equal(error.status, 404)
  const { docUrl } = ((await error.json()) as { error: { docUrl: string } }).error
  assert.equal(docUrl, `${baseUrl}/docs#errors-not-found`)

  const { page, activity } = await openPage(docUrl)
  const heading = page.getByRole('heading', { name: errorHeading('not_found') })
  await heading.waitFor()
  // The page lands on the entry: Scalar routes by the fragment once the document is rendered.
  await page.waitForFunction(`(() => {
    const top = document.querySelector('h2[id="enem-api/errors-not-found"]')?.getBoundingClientRect().top
    return top !== undefined && top >= 0 && top < ${VIEWPORT.height / 2}
  })()`, undefined, { timeout: 10_000 })
  assert.ok(page.url().endsWith('#errors-not-found'), page.url())
  await page.screenshot({ path: path.join(RESULTS_DIR, 'docs-error-anchor.png') })

  for (const [status, code] of Object.entries(ERROR_CODES)) {
    const fragment = docPathFor(code).split('#')[1]!
    // The fragment is the entry's address in the page's own navigation, and names its heading.
    const link = page.locator(`a[href="#${fragment}"]`)
    assert.equal(await link.count(), 1, `navigation link #${fragment}`)
    assert.equal((await link.textContent())?.trim(), errorHeading(code))
    const entry = page.locator(`h2[id="enem-api/${fragment}"]`)
    assert.equal(await entry.count(), 1, `heading of ${code}`)
    assert.equal((await entry.textContent())?.trim(), errorHeading(code))
    // Its entry names the code exactly as error bodies spell it.
    assert.equal(await page.locator('p', { hasText: `${code} · HTTP ${status}.` }).count(), 1, code)
  }
  assertSelfContained(activity)
  await page.close()
})

test('the page shows the introduction in both languages and every endpoint', async () => {
  const { page, activity } = await openPage(`${baseUrl}/docs`)
  await page.getByRole('heading', { name: 'ENEM API', level: 1 }).waitFor()
  for (const name of ['Português', 'English', 'Errors']) await page.getByRole('heading', { name, exact: true }).waitFor()
  const text = await page.locator('body').innerText()
  for (const words of ['Hospedagem própria', 'Self-hosting', 'This server does not rate limit requests']) assert.ok(text.includes(words), words)

  const document = (await (await fetch(`${baseUrl}/v1/openapi.json`)).json()) as { paths: Record<string, Record<string, { summary: string, tags: string[] }>> }
  const operations = Object.entries(document.paths).flatMap(([template, methods]) => Object.entries(methods)
    // A path item's `servers` (the MCP endpoint's) is not an operation.
    .filter(([method]) => method !== 'servers')
    .map(([method, operation]) => ({ template, method, operation })))
  // Every endpoint of the table, and the MCP endpoint.
  assert.equal(operations.length, ENDPOINTS.length + 1)
  for (const { template, method, operation } of operations) {
    const link = page.locator(`a[href="#tag/${operation.tags[0]!.toLowerCase()}/${method.toUpperCase()}${template}"]`)
    assert.equal(await link.count(), 1, `navigation entry of ${method} ${template}`)
    assert.match(String(await link.textContent()), new RegExp(`^${operation.summary}`))
  }
  await page.screenshot({ path: path.join(RESULTS_DIR, 'docs-reference.png') })
  assertSelfContained(activity)
  await page.close()
})

test('"try it" sends a request from the page to this server and shows the real answer', async () => {
  const { page, activity } = await openPage(`${baseUrl}/docs`)
  await page.getByRole('link', { name: 'Get one question' }).click()
  await page.locator('button', { hasText: 'Test Request' }).filter({ hasText: '/exams/{year}/questions/{index}' }).click()
  // The client is prefilled from the document's parameter examples: year 2020, index 1 and a query parameter.
  const answered = page.waitForResponse((response) => response.url().startsWith(`${baseUrl}/v1/exams/2020/questions/1`))
  await page.getByRole('button', { name: /^Send/ }).first().click()
  const response = await answered
  assert.equal(response.status(), 200)
  // Each query parameter the client sent is one of the operation's, with its example's value (the
  // client fills the first query parameters the document gives, in its order).
  const document = (await (await fetch(`${baseUrl}/v1/openapi.json`)).json()) as { paths: Record<string, Record<string, { parameters: Array<{ name: string, in: string, schema: { examples?: string[] }, examples?: Record<string, { value: string }> }> }>> }
  const parameters = document.paths['/exams/{year}/questions/{index}']!.get!.parameters.filter((parameter) => parameter.in === 'query')
  const sent = new URL(response.request().url())
  assert.equal(sent.pathname, '/v1/exams/2020/questions/1')
  assert.ok(sent.searchParams.size > 0, 'the client sent a query parameter from the examples')
  for (const [name, value] of sent.searchParams) {
    const parameter = parameters.find((candidate) => candidate.name === name)
    assert.ok(parameter !== undefined, `${name} is a query parameter of the operation`)
    const examples = [...(parameter.schema.examples ?? []), ...Object.values(parameter.examples ?? {}).map((example) => example.value)]
    assert.ok(examples.includes(value), `${name}=${value} is one of its examples ${JSON.stringify(examples)}`)
  }
  assert.equal(((await response.json()) as { title: string }).title, 'Questão 1 - ENEM 2020')

  const dialog = page.getByRole('dialog')
  await dialog.getByText('200 OK').waitFor()
  await dialog.getByText('"Questão 1 - ENEM 2020"').first().waitFor()
  await page.screenshot({ path: path.join(RESULTS_DIR, 'docs-try-it.png'), animations: 'disabled' })
  assertSelfContained(activity)
  await page.close()
})
