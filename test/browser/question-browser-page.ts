import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import type { Browser, BrowserContextOptions, Page } from 'playwright-core'
import { foreignRequests, RESULTS_DIR, watchPage, type PageActivity } from './browser.ts'

/*
 * What the question browser's tests share: a page opened on the app, waiting for a view to be
 * on screen, an accessibility check with axe-core, and the checks every test ends with.
 */

export const DESKTOP = { width: 1366, height: 900 }
export const PHONE = { width: 390, height: 844 }

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

export interface BrowserPage {
  page: Page
  activity: PageActivity
  /** Every response the page received: address, status, encoded body size. */
  responses: Array<{ url: string, status: number, bytes: Promise<number> }>
  close: () => Promise<void>
}

/** A fresh context (empty cache) and page on `address`, recording what it requests and logs, once its first view is shown. */
export async function openBrowserPage (browser: Browser, address: string, options: BrowserContextOptions = {}): Promise<BrowserPage> {
  const context = await browser.newContext({ viewport: DESKTOP, ...options })
  const page = await context.newPage()
  const activity = watchPage(page)
  const responses: BrowserPage['responses'] = []
  page.on('response', (response) => {
    const bytes = response.finished().then(async () => (await response.request().sizes()).responseBodySize)
    // Most of these are never awaited; one still loading when the page closes rejects, which must
    // not surface as an unhandled rejection after the test (a test that awaits it still sees it).
    bytes.catch(() => {})
    responses.push({ url: response.url(), status: response.status(), bytes })
  })
  await page.goto(address)
  await viewShown(page)
  return { page, activity, responses, close: () => context.close() }
}

/** Waits until the page shows a view (main is no longer busy). */
export async function viewShown (page: Page): Promise<void> {
  await page.locator('main:not([aria-busy])').waitFor()
}

/** Follows a link or presses a button that leads to another view, and waits for that view. */
export async function goTo (page: Page, action: () => Promise<void>, address: (url: URL) => boolean): Promise<void> {
  await action()
  await page.waitForURL(address)
  await viewShown(page)
}

/** axe-core's serious and critical violations on the page as it is now. */
export async function seriousAccessibilityViolations (page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol, which the page's CSP does not govern (a script tag would be refused).
  await page.evaluate(AXE_SOURCE)
  const results = await page.evaluate('axe.run(document, { resultTypes: ["violations"] })') as {
    violations: Array<{ id: string, impact: string | null, help: string, nodes: Array<{ target: unknown[] }> }>
  }
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.impact} ${violation.id} (${violation.help}): ${violation.nodes.map((node) => JSON.stringify(node.target)).join(', ')}`)
}

/** Every request went to this server and the page logged no error (a CSP refusal is one). */
export function assertOnlyThisServer (activity: PageActivity, baseUrl: string): void {
  assert.ok(activity.requests.length > 0, 'the page made requests')
  assert.deepEqual(foreignRequests(activity, [new URL(baseUrl).origin]), [], 'requests to another origin')
  assert.deepEqual(activity.errors, [], 'console errors')
}

export async function screenshot (page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(RESULTS_DIR, `${name}.png`), fullPage: true })
}
