import { after, test } from 'node:test'
import assert from 'node:assert/strict'
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SAMPLE_DATA_DIR } from '../../src/config.ts'
import { build, TEST_PUBLIC_URL } from '../helper.ts'

const { request } = await build({ after })

/** Every file address a record of the sample dataset hands out, via the API itself. */
async function servedAddresses (): Promise<string[]> {
  const addresses: string[] = []
  for (const exam of (await request('/v1/exams')).json<Array<{ year: number, languages: Array<{ value: string }> }>>()) {
    for (const language of exam.languages.length === 0 ? [undefined] : exam.languages.map((option) => option.value)) {
      const query = language === undefined ? '' : `&language=${language}`
      const page = (await request(`/v1/exams/${exam.year}/questions?limit=50${query}`)).json<{ questions: Array<{ files: string[], alternatives: Array<{ file: string | null }> }> }>()
      for (const question of page.questions) {
        addresses.push(...question.files, ...question.alternatives.flatMap((alternative) => alternative.file ?? []))
      }
    }
  }
  return [...new Set(addresses)]
}

const CONTENT_TYPES: Record<string, RegExp> = { png: /^image\/png/, svg: /^image\/svg\+xml/, bmp: /^image\/(x-ms-)?bmp/, jpg: /^image\/jpeg/ }

test('every rewritten file address answers 200 with the file\'s bytes, its content type and immutable caching', async () => {
  const addresses = await servedAddresses()
  assert.ok(addresses.length >= 10)
  const extensions = new Set<string>()
  for (const address of addresses) {
    assert.ok(address.startsWith(`${TEST_PUBLIC_URL}/files/`), address)
    const path = address.slice(TEST_PUBLIC_URL.length)
    const response = await request(path)
    assert.equal(response.statusCode, 200, path)
    const extension = path.split('.').pop()!
    extensions.add(extension)
    assert.match(String(response.headers['content-type']), CONTENT_TYPES[extension]!, path)
    assert.match(String(response.headers['cache-control']), /immutable/)
    assert.match(String(response.headers['cache-control']), /max-age=31536000/)
    assert.ok(response.headers.etag !== undefined)
    assert.equal(response.headers['x-content-type-options'], 'nosniff')
    const onDisk = await readFile(`${SAMPLE_DATA_DIR}/${path.slice('/files/'.length)}`)
    assert.deepEqual(response.rawPayload, onDisk)
  }
  assert.deepEqual([...extensions].sort(), ['bmp', 'jpg', 'png', 'svg'])
})

test('SVG files carry a Content-Security-Policy that forbids scripts', async () => {
  const response = await request('/files/2020/questions/12/0a1b2c3d-0000-4000-8000-000000000009.svg')
  assert.equal(response.statusCode, 200)
  const csp = String(response.headers['content-security-policy'])
  assert.match(csp, /default-src 'none'/)
  assert.doesNotMatch(csp, /script-src/)
})

test('range requests and conditional requests work on files', async () => {
  const path = '/files/2011/questions/10/0a1b2c3d-0000-4000-8000-000000000001.png'
  const full = await request(path)
  const range = await request({ url: path, headers: { range: 'bytes=0-7' } })
  assert.equal(range.statusCode, 206)
  assert.deepEqual(range.rawPayload, full.rawPayload.subarray(0, 8))
  const notModified = await request({ url: path, headers: { 'if-none-match': String(full.headers.etag) } })
  assert.equal(notModified.statusCode, 304)
})

test('an unknown file is 404 with the error body', async () => {
  for (const path of ['/files/2020/questions/12/nope.png', '/files/', '/files/2020', '/files/2020/questions/12/']) {
    const response = await request(path)
    assert.equal(response.statusCode, 404, path)
    assert.equal(response.json<{ error: { code: string } }>().error.code, 'not_found')
  }
})

test('only image files a record names are served: a dotfile (/files/.env was 200 with its contents), a stray file at the top of the folder or beside a question, never, with or without Range', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'enem-files-'))
  t.after(() => rm(dir, { recursive: true, force: true }))
  await cp(SAMPLE_DATA_DIR, dir, { recursive: true })
  const strays = {
    '.env': 'SECRET=1\n',
    'notes.txt': 'not an image\n',
    'stray.png': 'a png no record names',
    '2020/.hidden.png': 'dotfile in an exam folder',
    '2020/questions/12/.env': 'SECRET=2\n',
    '2020/questions/12/unnamed.png': 'an image beside a question that no record names'
  }
  for (const [name, text] of Object.entries(strays)) await writeFile(join(dir, name), text)
  const { request: send } = await build(t, { ENEM_DATA_DIR: dir })
  for (const name of Object.keys(strays)) {
    for (const headers of [{}, { range: 'bytes=0-3' }]) {
      const response = await send({ url: `/files/${name}`, headers })
      assert.equal(response.statusCode, 404, `${name} ${JSON.stringify(headers)}: ${response.statusCode} ${response.body.slice(0, 80)}`)
      assert.equal(response.json<{ error: { code: string } }>().error.code, 'not_found')
    }
  }
  // The files records name are still served from that folder.
  const named = await send('/files/2020/questions/12/0a1b2c3d-0000-4000-8000-000000000009.svg')
  assert.equal(named.statusCode, 200)
})
