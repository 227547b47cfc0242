import assert from 'node:assert/strict'

/*
 * The HTTP half of scripts/container-test.sh: against a running server at `base` whose limit is
 * RATE_LIMIT_MAX=`max` per window, waits for /readyz, reads a question that has an image, fetches
 * that image, and then spends the rest of the quota until the limiter answers 429. Exits non-zero
 * with the failed assertion otherwise.
 *
 *   node --import tsx scripts/container-probe.ts http://127.0.0.1:3000 20 [exams expected]
 */

const [base, maxArg, examsArg] = process.argv.slice(2)
if (base === undefined || maxArg === undefined) throw new Error('usage: container-probe.ts <base URL> <RATE_LIMIT_MAX> [exams expected]')
const max = Number(maxArg)
const READY_WAIT_MS = 90_000

interface Question { title: string, index: number, year: number, files: string[] }
interface QuestionPage { metadata: { total: number, hasMore: boolean }, questions: Question[] }

let counted = 0
async function getJson<T> (path: string): Promise<T> {
  const response = await fetch(`${base}${path}`)
  if (path.startsWith('/v1/exams')) counted++
  assert.equal(response.status, 200, `GET ${path}`)
  return await response.json() as T
}

const waitUntil = Date.now() + READY_WAIT_MS
let ready = false
while (!ready && Date.now() < waitUntil) {
  ready = await fetch(`${base}/readyz`).then((response) => response.ok, () => false)
  if (!ready) await new Promise((resolve) => setTimeout(resolve, 500))
}
assert.ok(ready, `/readyz did not answer 200 within ${READY_WAIT_MS / 1000} s`)
console.log('readyz: 200')

const exams = await getJson<Array<{ year: number }>>('/v1/exams')
assert.ok(exams.length > 0, 'at least one exam')
if (examsArg !== undefined) assert.equal(exams.length, Number(examsArg), 'every exam of the folder is served')
let withImage: Question | undefined
for (const { year } of exams) {
  for (let offset = 0; withImage === undefined && counted < max - 2; offset += 50) {
    const page = await getJson<QuestionPage>(`/v1/exams/${year}/questions?limit=50&offset=${offset}`)
    withImage = page.questions.find((question) => question.files.length > 0)
    if (!page.metadata.hasMore) break
  }
  if (withImage !== undefined) break
}
assert.ok(withImage !== undefined, 'a question with an image')
const question = await getJson<Question>(`/v1/exams/${withImage.year}/questions/${withImage.index}`)
assert.equal(question.title, withImage.title)
console.log(`question: ${question.year} #${question.index}`)

const imageUrl = new URL(question.files[0]!)
const image = await fetch(`${base}${imageUrl.pathname}`)
assert.equal(image.status, 200, `GET ${imageUrl.pathname}`)
assert.match(image.headers.get('content-type') ?? '', /^image\//)
const bytes = (await image.arrayBuffer()).byteLength
assert.ok(bytes > 0)
console.log(`image: ${imageUrl.pathname} (${image.headers.get('content-type')}, ${bytes} bytes)`)

// The quota left is max - counted; the request after it is refused.
const left = max - counted
for (let i = 0; i < left; i++) await getJson('/v1/exams')
const refused = await fetch(`${base}/v1/exams`)
assert.equal(refused.status, 429, `request ${max + 1} of the window`)
const body = await refused.json() as { error: { code: string } }
assert.equal(body.error.code, 'rate_limit_exceeded')
assert.ok(Number(refused.headers.get('retry-after')) >= 1, 'Retry-After in seconds')
console.log(`429 after ${max} counted requests, Retry-After ${refused.headers.get('retry-after')} s`)
