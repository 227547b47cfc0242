import { after, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { API_BASE, ENDPOINTS } from '../src/http/endpoints.ts'
import type { InjectOptions } from 'fastify'
import { build, FULL_DATA_DIR } from './helper.ts'

/*
 * What the README and the documents of docs/ tell a reader to type, run against what they get: the
 * built-in sample (what `npm start` serves), and the full dataset too when the run has one. Every
 * curl of their shell blocks must answer as they say: a shown output must be the answer, and a
 * search, a filter, a draw or an export must find something (an empty answer would tell the reader
 * nothing). Their links to each other must lead somewhere.
 */
const REPO = fileURLToPath(new URL('..', import.meta.url))
const DOCUMENTS = ['README.md', ...readdirSync(path.join(REPO, 'docs')).filter((name) => name.endsWith('.md')).sort().map((name) => `docs/${name}`)]
const TEXTS = new Map(DOCUMENTS.map((document) => [document, readFileSync(path.join(REPO, document), 'utf8')]))
const README_ORIGIN = 'http://localhost:3000'

interface Example {
  /** The document that shows it (README.md, docs/api.md, ...). */
  document: string
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

function documentExamples (document: string, text: string): Example[] {
  const examples: Example[] = []
  for (const block of text.matchAll(/^```sh\n([\s\S]*?)^```$/gm)) {
    // A command continued with a backslash is one line.
    const lines = block[1]!.replace(/\\\n\s*/g, '').split('\n')
    lines.forEach((line, i) => {
      const url = /curl [^']*'(http:\/\/localhost:3000[^']*)'|curl (?:-\S+ )*(http:\/\/localhost:3000\S*)/.exec(line)
      if (url === null) return
      const example: Example = { document, line, path: (url[1] ?? url[2]!).slice(README_ORIGIN.length) }
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

const EXAMPLES = [...TEXTS].flatMap(([document, text]) => documentExamples(document, text))

test('the README and every document of docs/ are read, and the README and the API reference show curl examples', () => {
  for (const document of ['README.md', 'docs/api.md', 'docs/data.md', 'docs/operations.md', 'docs/development.md']) {
    assert.ok(TEXTS.has(document), `${document} is read`)
  }
  for (const document of ['README.md', 'docs/api.md']) {
    assert.ok(EXAMPLES.some((example) => example.document === document), `${document} has curl examples`)
  }
})

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchorOf (heading: string): string {
  return heading.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-')
}

test('every relative link of the README and docs/ leads to a file of the repository, and its #anchor to a heading there', () => {
  let links = 0
  for (const [document, text] of TEXTS) {
    for (const match of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = match[1]!
      if (/^[a-z]+:/.test(target)) continue
      links++
      const [file, anchor] = target.split('#') as [string, string | undefined]
      const resolved = file === '' ? path.join(REPO, document) : path.resolve(path.dirname(path.join(REPO, document)), file)
      assert.ok(existsSync(resolved), `${document} links to ${target}, which does not exist`)
      if (anchor === undefined) continue
      const headings = [...readFileSync(resolved, 'utf8').matchAll(/^#{1,6} (.+)$/gm)].map((heading) => anchorOf(heading[1]!))
      assert.ok(headings.includes(anchor), `${document} links to ${target}: no such heading (${headings.join(', ')})`)
    }
  }
  assert.ok(links > 0, 'the documents link to each other')
})

/** The request an example's curl sends: a GET, or a POST of its JSON body. */
function requestOf (example: Example): InjectOptions {
  return example.body === undefined
    ? { method: 'GET', url: example.path }
    : { method: 'POST', url: example.path, headers: { 'content-type': 'application/json' }, payload: example.body }
}

test('the README and docs/ have curl examples of every endpoint of the table', () => {
  for (const endpoint of ENDPOINTS) {
    const pattern = new RegExp(`^${API_BASE}${endpoint.path.replace(/:\w+/g, '[^/?]+').replaceAll('.', '\\.')}(\\?|$)`)
    assert.ok(EXAMPLES.some((example) => pattern.test(example.path)), `an example of ${endpoint.path}`)
  }
})

const DATASETS: Array<[name: string, dataDir: string | undefined]> = [['the built-in sample', undefined]]
if (FULL_DATA_DIR !== undefined) DATASETS.push(['the full dataset', FULL_DATA_DIR])

for (const [name, dataDir] of DATASETS) {
  describe(`every curl example of the README and docs/ answers as it says, on ${name}`, async () => {
    const server = await build({ after }, { PUBLIC_URL: README_ORIGIN, ...(dataDir === undefined ? {} : { ENEM_DATA_DIR: dataDir }) })
    for (const example of EXAMPLES) {
      test(`${example.document}: ${example.line}`, async () => {
        const answer = await server.request(requestOf(example))
        if (example.shown !== undefined) {
          // The outputs shown are the sample's (what `npm start` serves); on the full dataset the shape must hold.
          const shown = JSON.parse(example.shown) as Record<string, unknown>
          const body = answer.json<Record<string, unknown>>()
          const got = example.jqField === undefined ? body : body[example.jqField] as Record<string, unknown>
          if (dataDir === undefined) assert.deepEqual(got, shown)
          // A nullable field the sample shows set (`incomplete` of a record the full dataset holds whole) may be null there, but is answered.
          else if (got === null && example.jqField !== undefined) assert.ok(example.jqField in body, `${example.jqField} is answered`)
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

test('the rate-limit row of docs/operations.md names every endpoint of the table, all of which are limited', async (t) => {
  const limited = await build(t, { PUBLIC_URL: README_ORIGIN, RATE_LIMIT_MAX: '100' })
  for (const example of EXAMPLES) {
    const answer = await limited.request(requestOf(example))
    assert.equal(answer.headers['ratelimit-limit'], '100', `${example.path} is counted`)
  }
  const row = TEXTS.get('docs/operations.md')!.split('\n').find((line) => line.startsWith('| `RATE_LIMIT_MAX` | `600` | Requests per window per client address'))
  assert.ok(row !== undefined, 'the "Running in production" table has the row')
  for (const endpoint of ENDPOINTS) {
    const named = `${API_BASE}${endpoint.path.split('/:')[0]}`
    assert.ok(row.includes(`\`${named}`), `the row names ${named}: ${row}`)
  }
})
