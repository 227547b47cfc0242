import { after, test } from 'node:test'
import assert from 'node:assert/strict'
import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { SAMPLE_DATA_DIR } from '../../src/config.ts'
import { build, type ErrorResponseBody } from '../helper.ts'
import { rawRequest } from '../raw-http.ts'

const { request, listen } = await build({ after })
// The malformed paths go over a real socket, byte for byte: inject would normalise some of them.
const port = await listen()

interface SampleEntry { year: string, dir: string, file: string }

/** Every file under `<year>/questions/<dir>/` of the sample dataset, as the predecessor served them. */
async function sampleQuestionFiles (): Promise<SampleEntry[]> {
  const entries: SampleEntry[] = []
  for (const year of (await readdir(SAMPLE_DATA_DIR)).filter((name) => /^\d{4}$/.test(name))) {
    for (const dir of await readdir(path.join(SAMPLE_DATA_DIR, year, 'questions'))) {
      for (const file of await readdir(path.join(SAMPLE_DATA_DIR, year, 'questions', dir))) entries.push({ year, dir, file })
    }
  }
  return entries
}

async function redirectTarget (url: string): Promise<string> {
  const response = await request(url)
  assert.equal(response.statusCode, 308, `${url} redirects permanently`)
  const location = response.headers.location
  assert.equal(typeof location, 'string', url)
  return location as string
}

test('every image of the dataset at its predecessor address redirects (308) to /files, which serves the same bytes', async () => {
  const images = (await sampleQuestionFiles()).filter(({ file }) => file !== 'details.json')
  assert.ok(images.length >= 5, 'the sample has images')
  for (const { year, dir, file } of images) {
    const oldPath = `/${year}/questions/${dir}/${file}`
    const location = await redirectTarget(oldPath)
    assert.equal(location, `/files${oldPath}`)
    const served = await request(location)
    assert.equal(served.statusCode, 200, location)
    assert.deepEqual(served.rawPayload, await readFile(path.join(SAMPLE_DATA_DIR, year, 'questions', dir, file)), location)
  }
})

test('every question record at its predecessor address redirects to the single-question endpoint for its index and language', async () => {
  const records = (await sampleQuestionFiles()).filter(({ file }) => file === 'details.json')
  assert.ok(records.length >= 10)
  for (const { year, dir } of records) {
    const source = JSON.parse(await readFile(path.join(SAMPLE_DATA_DIR, year, 'questions', dir, 'details.json'), 'utf8')) as { index: number, language: string | null, title: string }
    const location = await redirectTarget(`/${year}/questions/${dir}/details.json`)
    // The folder names the record: `<index>` or `<index>-<language>`.
    const [index, language] = dir.split('-')
    assert.equal(location, `/v1/exams/${year}/questions/${index}${language === undefined ? '' : `?language=${language}`}`)
    const served = await request(location)
    assert.equal(served.statusCode, 200, location)
    const record = served.json<{ index: number, language: string | null, title: string }>()
    assert.equal(record.index, source.index, location)
    assert.equal(record.title, source.title, location)
  }
})

test('/exams.json and /<year>/details.json redirect to /v1/exams and /v1/exams/<year>', async () => {
  assert.equal(await redirectTarget('/exams.json'), '/v1/exams')
  const sourceExams = JSON.parse(await readFile(path.join(SAMPLE_DATA_DIR, 'exams.json'), 'utf8')) as Array<{ year: number }>
  const served = (await request('/v1/exams')).json<Array<{ year: number }>>()
  assert.deepEqual(served.map((exam) => exam.year).sort(), sourceExams.map((exam) => exam.year).sort())
  for (const { year } of sourceExams) {
    const location = await redirectTarget(`/${year}/details.json`)
    assert.equal(location, `/v1/exams/${year}`)
    const exam = await request(location)
    assert.equal(exam.statusCode, 200)
    assert.equal(exam.json<{ year: number }>().year, year)
  }
  const head = await request({ method: 'HEAD', url: '/exams.json' })
  assert.equal(head.statusCode, 308)
  assert.equal(head.headers.location, '/v1/exams')
  const post = await request({ method: 'POST', url: '/exams.json' })
  assert.equal(post.statusCode, 405)
})

test('a well-formed address of a file that does not exist is redirected, and /files answers 404', async () => {
  const location = await redirectTarget('/2020/questions/1/00000000-0000-0000-0000-000000000000.png')
  const missing = await request(location)
  assert.equal(missing.statusCode, 404)
  assert.equal(missing.json<ErrorResponseBody>().error.code, 'not_found')
})

test('malformed predecessor paths are a plain 404, never a redirect and never a way out of the dataset', async () => {
  const paths = [
    '/abcd/details.json', '/20201/details.json', '/2020/details.JSON',
    '/2020/questions/1/a.b.png', '/2020/questions/1/.png', '/2020/questions/1/..', '/2020/questions/x/1.png',
    '/2020/questions/1-INGLES/a.png', '/2020/questions/1234/a.png', '/2020/questions/1/%2e%2e%2fpackage.json',
    '/2020/questions/..%2f..%2f..%2fpackage.json/a.json', '/2020/questions/1/a.png%00.json', '/2020/answers/1/a.png'
  ]
  for (const url of paths) {
    const response = await rawRequest(port, `GET ${url} HTTP/1.1\r\nHost: api.test\r\nConnection: close\r\n\r\n`)
    assert.ok([400, 404].includes(response.status), `${url}: ${response.status}`)
    assert.equal(response.headers.location, undefined, `${url} is not redirected`)
    const body = JSON.parse(response.body.toString('utf8')) as ErrorResponseBody
    assert.ok(['not_found', 'bad_request'].includes(body.error.code), url)
  }
  // Dot segments are resolved by no one on the way: the raw path reaches the router as sent.
  const traversal = await rawRequest(port, 'GET /2020/questions/../../package.json HTTP/1.1\r\nHost: api.test\r\nConnection: close\r\n\r\n')
  assert.ok([400, 404].includes(traversal.status), String(traversal.status))
  assert.equal(traversal.headers.location, undefined)
})
