import { test } from 'node:test'
import assert from 'node:assert/strict'
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { SAMPLE_DATA_DIR } from '../../src/config.ts'
import { launchChromium, startListeningApp, watchPage } from './browser.ts'

/*
 * An SVG of the dataset opened directly (a link in a record) is a document of its own, under the
 * Content-Security-Policy of src/http/routes/files.ts: no script may run in it, but the images it
 * embeds as `data:` addresses must show.
 */

const SVG_FILE = '2020/questions/12/0a1b2c3d-0000-4000-8000-000000000009.svg'
/** A 1x1 red PNG. */
const RED_PIXEL = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=='
const SVG = '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="40" height="40">' +
  '<rect width="40" height="40" fill="#3a7"/>' +
  `<image width="40" height="40" href="data:image/png;base64,${RED_PIXEL}"/>` +
  '<script>document.title = "script ran"</script></svg>'

test('an SVG opened directly shows its embedded data: image and runs no script', { timeout: 60_000 }, async (t) => {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'enem-svg-'))
  t.after(() => rm(dataDir, { recursive: true, force: true }))
  await cp(SAMPLE_DATA_DIR, dataDir, { recursive: true })
  await writeFile(path.join(dataDir, SVG_FILE), SVG)

  const { app, baseUrl } = await startListeningApp({ ENEM_DATA_DIR: dataDir })
  t.after(() => app.close())
  const browser = await launchChromium()
  t.after(() => browser.close())
  const page = await browser.newPage()
  const activity = watchPage(page)

  const response = await page.goto(`${baseUrl}/files/${SVG_FILE}`)
  assert.equal(response?.status(), 200)
  // The image's pixels are red where it shows, the rectangle's green where it does not.
  const screenshot = await page.screenshot({ clip: { x: 20, y: 20, width: 1, height: 1 } })
  const rendered = await browser.newPage()
  t.after(() => rendered.close())
  // Read the screenshot's one pixel back in a page of our own (a data: page: no CSP of the app's).
  // (A string: this code runs in the browser, where the DOM the test's own types lack exists.)
  const [red, green] = await rendered.evaluate(`(async () => {
    const image = new Image()
    image.src = 'data:image/png;base64,${screenshot.toString('base64')}'
    await image.decode()
    const canvas = document.createElement('canvas')
    canvas.width = 1
    canvas.height = 1
    const context = canvas.getContext('2d')
    context.drawImage(image, 0, 0)
    const pixel = context.getImageData(0, 0, 1, 1).data
    return [pixel[0], pixel[1]]
  })()`) as [number, number]
  assert.ok(red > 200 && green < 60, `the embedded image shows (pixel rgb ${red},${green},…), not the rectangle behind it`)
  assert.deepEqual(activity.errors.filter((error) => error.includes('Content Security Policy') && error.includes('data:image')), [])
  assert.notEqual(await page.title(), 'script ran', 'no script runs in the SVG')
})
