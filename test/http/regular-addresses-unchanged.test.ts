import { after, test } from 'node:test'
import assert from 'node:assert/strict'
import { API_BASE, ENDPOINTS } from '../../src/http/endpoints.ts'
import { build } from '../helper.ts'
import { splitSample } from '../split-sample.ts'

/*
 * A second application added to a dataset changes no answer about the regular exams: every
 * address of the endpoint table built from its parameters' examples (no `application` given)
 * answers on the sample exactly as on the sample without its second application, byte for byte;
 * where the contract lists every application together (the lists across exams and the export),
 * the same holds once `application=regular` is asked; the exam list holds the regular exams as
 * it did, plus the second application's entry, and the skills' counts (every exam's) only grow.
 */

const split = await splitSample()
after(() => split.remove())
const withPpl = await build({ after })
const regularOnly = await build({ after }, { ENEM_DATA_DIR: split.regular })

/** Parameters whose default takes in every application. */
const LISTS_EVERY_APPLICATION = new Set(['findQuestions', 'randomQuestions', 'exportQuestions'])

function examplesOf (schema: unknown): string[] {
  return ((schema as { examples?: string[] }).examples ?? [])
}

test('every example address answers as on the dataset without the second application', async () => {
  let compared = 0
  for (const endpoint of ENDPOINTS.filter((candidate) => candidate.method === 'GET')) {
    const pathValues = Object.fromEntries(Object.entries(endpoint.params.properties).map(([name, schema]) => [name, examplesOf(schema)[0]!]))
    const path = endpoint.path.replace(/:([A-Za-z]+)/g, (_match, name: string) => pathValues[name]!)
    const queries: Array<Record<string, string>> = [{}]
    for (const [name, schema] of Object.entries(endpoint.querystring.properties)) {
      if (name === 'application') continue
      for (const example of examplesOf(schema)) queries.push({ [name]: example })
    }
    for (const query of queries) {
      // A draw without a seed is new each time: give it one.
      const fixed = endpoint.operationId === 'randomQuestions' && query.seed === undefined ? { ...query, seed: '42' } : query
      const search = new URLSearchParams(fixed).toString()
      const url = `${API_BASE}${path}${search === '' ? '' : `?${search}`}`
      const asked = LISTS_EVERY_APPLICATION.has(endpoint.operationId) ? `${url}${search === '' ? '?' : '&'}application=regular` : url
      const before = await regularOnly.request(url)
      const after = await withPpl.request(asked)
      assert.equal(after.statusCode, before.statusCode, asked)
      if (endpoint.operationId === 'listExams') {
        // The list gains the second application's entry, and holds the others as they were.
        const regular = after.json<Array<{ application: string }>>().filter((exam) => exam.application === 'regular')
        assert.equal(JSON.stringify(regular), before.body, asked)
      } else if (endpoint.operationId === 'listSkills') {
        // The counts take in every exam, the second application's too: the same skills, each counted at least as often.
        interface Skills { areas: Array<{ skills: Array<{ code: string, questions: number }> }> }
        const counts = (body: Skills) => body.areas.flatMap((area) => area.skills.map((skill) => [skill.code, skill.questions] as const))
        const was = counts(before.json<Skills>())
        const now = counts(after.json<Skills>())
        assert.deepEqual(now.map(([code]) => code), was.map(([code]) => code), asked)
        now.forEach(([code, questions], at) => assert.ok(questions >= was[at]![1], `${asked}: ${code}`))
      } else if (endpoint.operationId === 'exportQuestions' && asked !== url) {
        // The same lines; a selection narrowed by application is another download (its own name and tag).
        assert.ok(after.body === before.body, asked)
      } else {
        assert.ok(after.body === before.body && after.headers.etag === before.headers.etag, asked)
      }
      compared++
    }
  }
  assert.ok(compared > 20, `${compared} addresses compared`)
})
