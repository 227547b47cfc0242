import assert from 'node:assert/strict'
import { existsSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { createServer } from 'node:net'
import { after, before } from 'node:test'
import { fileURLToPath } from 'node:url'
import type { FastifyInstance } from 'fastify'
import { chromium, type Browser, type Page } from 'playwright-core'
import { buildTestApp } from '../helper.ts'

/*
 * What the browser tests share: Debian's Chromium driven by playwright-core (browser downloads
 * are not possible where CI runs; .ci/run installs the `chromium` package), the real app
 * listening on a loopback port, and a record of what a page requested and logged.
 */

/** Override with CHROMIUM_PATH where Chromium lives elsewhere. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

/** Screenshots land here (gitignored), for a person to look at after a run. */
export const RESULTS_DIR = fileURLToPath(new URL('../../test-results/', import.meta.url))

/**
 * Launches headless Chromium, or fails with a message saying how to get it: a browser test that
 * cannot run must not pass quietly.
 */
export async function launchChromium (): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`BROWSER TESTS CANNOT RUN: no Chromium at ${CHROMIUM_PATH}. Install it (apt-get install -y chromium) or set CHROMIUM_PATH.`)
  }
  await mkdir(RESULTS_DIR, { recursive: true })
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    // No sandbox: CI runs as root in a container. The rest keeps Chromium from calling home.
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run']
  })
}

/** A port nobody listens on right now (the kernel picks it), so PUBLIC_URL can name it before the app starts. */
export function freePort (): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen({ host: '127.0.0.1', port: 0 }, () => {
      const address = probe.address()
      probe.close(() => typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port')))
    })
  })
}

export interface ListeningApp {
  app: FastifyInstance
  /** `http://127.0.0.1:<port>`, which is also the app's PUBLIC_URL, so its file addresses resolve. */
  baseUrl: string
}

/** The real app listening on 127.0.0.1 with PUBLIC_URL equal to its own address. */
export async function startListeningApp (env: Record<string, string> = {}): Promise<ListeningApp> {
  const port = await freePort()
  const baseUrl = `http://127.0.0.1:${port}`
  const app = await buildTestApp({ PUBLIC_URL: baseUrl, ...env })
  await app.listen({ host: '127.0.0.1', port })
  return { app, baseUrl }
}

export interface PageActivity {
  /** Every URL the page requested, in order. */
  requests: string[]
  /** Console errors and uncaught exceptions of the page. */
  errors: string[]
}

/** Records what a page requests and which errors it logs, from now on. */
export function watchPage (page: Page): PageActivity {
  const activity: PageActivity = { requests: [], errors: [] }
  page.on('request', (request) => activity.requests.push(request.url()))
  page.on('console', (message) => {
    if (message.type() === 'error') activity.errors.push(`console: ${message.text()}`)
  })
  page.on('pageerror', (error) => activity.errors.push(`uncaught: ${error.message}`))
  return activity
}

/** The requests that went to an origin not in `allowed` (data: and blob: URLs are not requests to anyone). */
export function foreignRequests (activity: PageActivity, allowed: string[]): string[] {
  return activity.requests.filter((url) => !url.startsWith('data:') && !url.startsWith('blob:') && !allowed.includes(new URL(url).origin))
}

/** What a suite's `before` started: the listening app and Chromium (read them inside tests). */
export interface BrowserSession {
  readonly baseUrl: string
  readonly browser: Browser
  /** A GET (or `init`) of this server's `path` (no leading slash), required to be 200, read as JSON. */
  api: <T>(path: string, init?: RequestInit) => Promise<T>
}

/**
 * Starts the real app and Chromium before the suite's tests and closes both after them: the
 * set-up every page suite shares. Call it at the top of a `describe`.
 */
export function browserSession (env: Record<string, string> = {}): BrowserSession {
  let started: { listening: ListeningApp, browser: Browser } | undefined
  const state = () => {
    if (started === undefined) throw new Error('the browser session is read before its suite started it')
    return started
  }
  before(async () => {
    const listening = await startListeningApp(env)
    started = { listening, browser: await launchChromium() }
  })
  after(async () => {
    await started?.browser.close()
    await started?.listening.app.close()
  })
  return {
    get baseUrl () { return state().listening.baseUrl },
    get browser () { return state().browser },
    api: async <T>(path: string, init?: RequestInit): Promise<T> => {
      const response = await fetch(`${state().listening.baseUrl}/${path}`, init)
      assert.equal(response.status, 200, `${path}: ${await response.clone().text()}`)
      return await response.json() as T
    }
  }
}
