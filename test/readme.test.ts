import { after, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { API_BASE, ENDPOINTS } from '../src/http/endpoints.ts'
import type { InjectOptions } from 'fastify'
import { build, FULL_DATA_DIR } from './helper.ts'

/*
 * What the README tells a newcomer to type, run against what they get: the built-in sample (what
 * `npm start` serves), and the full dataset too when the run has one. Every curl of its shell
 * blocks must answer as it says: a shown output must be the answer, and a search, a filter, a
 * draw or an export must find something (an empty answer would tell the reader nothing).
 */
const README = readFileSync(new URL('../README.md', import.meta.url), 'utf8')
const README_ORIGIN = 'http://localhost:3000'

interface Example {
  line: string
  path: string
  /** The output the README shows under it, if any (a `$ curl` line followed by its answer). */
  shown?: string
  /** `| jq .field`: the output shown is that field of the answer. */
  jqField?: string
  /** `# saves <name>`: the file name curl -OJ gives the download. */
  savesAs?: string
  /** `-d '<json>'`: the JSON body of a POST. */
  body?: string
}

function readmeExamples (): Example[] {
  const examples: Example[] = []
  for (const block of README.matchAll(/^```sh\n([\s\S]*?)^```$/gm)) {
    // A command continued with a backslash is one line.
    const lines = block[1]!.replace(/\\\n\s*/g, '').split('\n')
    lines.forEach((line, i) => {
      const url = /curl [^']*'(http:\/\/localhost:3000[^']*)'|curl (?:-\S+ )*(http:\/\/localhost:3000\S*)/.exec(line)
      if (url === null) return
      const example: Example = { line, path: (url[1] ?? url[2]!).slice(README_ORIGIN.length) }
      const data = / -d '([^']*)'/.exec(line)
      if (data !== null) example.body = data[1]
      const next = lines[i + 1]
      if (line.startsWith('$ ') && next !== undefined && next !== '' && !next.startsWith('$ ')) example.shown = next
      const jq = /\| jq \.(\w+)\s*$/.exec(line)
      if (jq !== null) example.jqField = jq[1]
      const saves = /# saves (\S+)/.exec(line)
      if (saves !== null) example.savesAs = saves[1]
      examples.push(example)
    })
  }
  return examples
}

const EXAMPLES = readmeExamples()

/** The request an example's curl sends: a GET, or a POST of its JSON body. */
function requestOf (example: Example): InjectOptions {
  return example.body === undefined
    ? { method: 'GET', url: example.path }
    : { method: 'POST', url: example.path, headers: { 'content-type': 'application/json' }, payload: example.body }
}

test('the README has curl examples of every endpoint of the table', () => {
  for (const endpoint of ENDPOINTS) {
    const pattern = new RegExp(`^${API_BASE}${endpoint.path.replace(/:\w+/g, '[^/?]+').replaceAll('.', '\\.')}(\\?|$)`)
    assert.ok(EXAMPLES.some((example) => pattern.test(example.path)), `an example of ${endpoint.path}`)
  }
})

const DATASETS: Array<[name: string, dataDir: string | undefined]> = [['the built-in sample', undefined]]
if (FULL_DATA_DIR !== undefined) DATASETS.push(['the full dataset', FULL_DATA_DIR])

for (const [name, dataDir] of DATASETS) {
  describe(`every README curl example answers as the README says, on ${name}`, async () => {
    const server = await build({ after }, { PUBLIC_URL: README_ORIGIN, ...(dataDir === undefined ? {} : { ENEM_DATA_DIR: dataDir }) })
    for (const example of EXAMPLES) {
      test(example.line, async () => {
        const answer = await server.request(requestOf(example))
        if (example.shown !== undefined) {
          // The outputs shown are the sample's (what `npm start` serves); on the full dataset the shape must hold.
          const shown = JSON.parse(example.shown) as Record<string, unknown>
          const body = answer.json<Record<string, unknown>>()
          const got = example.jqField === undefined ? body : body[example.jqField] as Record<string, unknown>
          if (dataDir === undefined) assert.deepEqual(got, shown)
          else assert.deepEqual(Object.keys(got).sort(), Object.keys(shown).sort())
          return
        }
        assert.equal(answer.statusCode, 200, answer.body)
        if (example.savesAs !== undefined) {
          assert.match(String(answer.headers['content-disposition']), new RegExp(`filename="${example.savesAs}"`))
          assert.ok(answer.body.split('\n').filter((line) => line !== '').length > 0, 'the export holds questions')
          return
        }
        const body = answer.json<unknown>()
        if (Array.isArray(body)) assert.ok(body.length > 0)
        else if (typeof body === 'object' && body !== null && 'questions' in body) {
          assert.ok((body.questions as unknown[]).length > 0, 'it finds questions')
        }
      })
    }
  })
}

test('the README\'s rate-limit row names every endpoint of the table, all of which are limited', async (t) => {
  const limited = await build(t, { PUBLIC_URL: README_ORIGIN, RATE_LIMIT_MAX: '100' })
  for (const example of EXAMPLES) {
    const answer = await limited.request(requestOf(example))
    assert.equal(answer.headers['ratelimit-limit'], '100', `${example.path} is counted`)
  }
  const row = README.split('\n').find((line) => line.startsWith('| `RATE_LIMIT_MAX` | `600` | Requests per window per client address'))
  assert.ok(row !== undefined, 'the "Running in production" table has the row')
  for (const endpoint of ENDPOINTS) {
    const named = `${API_BASE}${endpoint.path.split('/:')[0]}`
    assert.ok(row.includes(`\`${named}`), `the row names ${named}: ${row}`)
  }
})
