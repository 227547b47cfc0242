import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { createServer, type Server } from 'node:http'
import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import type { Browser } from 'playwright-core'
import { foreignRequests, freePort, launchChromium, RESULTS_DIR, startListeningApp, watchPage } from './browser.ts'

/*
 * A web page on another origin using the API the way a third-party site would: fetch a question,
 * render it with its images straight from the file addresses the API hands out. Proves CORS
 * (including a preflighted conditional request and the exposed headers) and PUBLIC_URL-based file
 * addresses from a real browser.
 */

/** The third-party page: everything it shows comes from the API named in `?api=`. */
const CLIENT_PAGE = `<!doctype html>
<html lang="pt-BR">
<head><meta charset="utf-8"><title>Uma questão do ENEM</title><link rel="icon" href="data:,"></head>
<body>
<main><h1 id="title">…</h1><p id="introduction"></p><div id="figures"></div><ol id="alternatives" type="A"></ol></main>
<script>
(async () => {
  const api = new URL(location.href).searchParams.get('api')
  const response = await fetch(api + '/v1/exams/2020/questions/12')
  const question = await response.json()
  document.getElementById('title').textContent = question.title
  document.getElementById('introduction').textContent = question.alternativesIntroduction
  for (const alternative of question.alternatives) {
    const item = document.createElement('li')
    item.textContent = alternative.text
    document.getElementById('alternatives').append(item)
  }
  const images = question.files.map((address) => {
    const image = document.createElement('img')
    image.src = address
    image.alt = 'Figura de ' + question.title
    image.style.width = '160px'
    image.style.imageRendering = 'pixelated'
    image.style.border = '1px solid #ccc'
    document.getElementById('figures').append(image)
    return image.decode()
  })
  await Promise.all(images)
  // If-None-Match is not a CORS-safelisted header: this one goes through a preflight.
  const revalidated = await fetch(api + '/v1/exams/2020/questions/12', { headers: { 'If-None-Match': response.headers.get('ETag') } })
  window.apiResult = {
    status: response.status,
    etag: response.headers.get('ETag'),
    rateLimitRemaining: response.headers.get('RateLimit-Remaining'),
    revalidatedStatus: revalidated.status,
    files: question.files
  }
  document.body.dataset.state = 'done'
})().catch((error) => { document.body.dataset.state = 'failed: ' + error.message })
</script>
</body>
</html>
`

let browser: Browser
let app: FastifyInstance
let apiUrl: string
let pageServer: Server
let pageOrigin: string
before(async () => {
  // Rate limiting on, so the page can show that the RateLimit headers are readable cross-origin.
  ({ app, baseUrl: apiUrl } = await startListeningApp({ RATE_LIMIT_MAX: '100' }))
  const port = await freePort()
  pageOrigin = `http://127.0.0.1:${port}`
  pageServer = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(CLIENT_PAGE)
  })
  await new Promise<void>((resolve) => pageServer.listen(port, '127.0.0.1', resolve))
  browser = await launchChromium()
})
after(async () => {
  await browser?.close()
  await new Promise((resolve) => pageServer?.close(resolve))
  await app?.close()
})

test('a page on another origin fetches a question and shows its images from the file addresses', async () => {
  assert.notEqual(new URL(apiUrl).origin, pageOrigin)
  const page = await browser.newPage({ viewport: { width: 900, height: 900 } })
  const activity = watchPage(page)
  await page.goto(`${pageOrigin}/?api=${encodeURIComponent(apiUrl)}`)
  await page.waitForFunction('document.body.dataset.state !== undefined', undefined, { timeout: 10_000 })
  assert.equal(await page.evaluate('document.body.dataset.state'), 'done')

  const result = await page.evaluate('window.apiResult') as { status: number, etag: string | null, rateLimitRemaining: string | null, revalidatedStatus: number, files: string[] }
  assert.equal(result.status, 200)
  assert.match(String(result.etag), /^"[A-Za-z0-9_-]+"$/, 'ETag is exposed to scripts of other origins')
  assert.match(String(result.rateLimitRemaining), /^\d+$/, 'RateLimit-Remaining is exposed')
  assert.equal(result.revalidatedStatus, 304, 'the preflighted conditional request is answered')
  assert.equal(await page.locator('#title').textContent(), 'Questão 12 - ENEM 2020')
  assert.equal(await page.locator('#alternatives li').count(), 5)

  // Every file address is under PUBLIC_URL (= this server) and loaded as a real image.
  assert.deepEqual(result.files.map((address) => address.startsWith(`${apiUrl}/files/2020/questions/12/`)), [true, true])
  const images = await page.evaluate(`Array.from(document.querySelectorAll('#figures img'))
    .map((image) => ({ src: image.src, complete: image.complete, naturalWidth: image.naturalWidth }))`) as Array<{ src: string, complete: boolean, naturalWidth: number }>
  assert.deepEqual(images.map((image) => image.src), result.files)
  for (const image of images) {
    assert.ok(image.complete && image.naturalWidth > 0, `${image.src} loaded: ${JSON.stringify(image)}`)
  }

  const apiOrigin = new URL(apiUrl).origin
  assert.deepEqual(foreignRequests(activity, [pageOrigin, apiOrigin]), [])
  assert.ok(activity.requests.filter((url) => url.startsWith(`${apiUrl}/files/`)).length === 2, 'both images came from the API server')
  assert.deepEqual(activity.errors, [])
  await page.screenshot({ path: path.join(RESULTS_DIR, 'cors-page.png') })
  await page.close()
})
