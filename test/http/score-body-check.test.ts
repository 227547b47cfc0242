import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Compile } from 'typebox/compile'
import { bodyProblem, PracticeRunSchema, ScoreRequestSchema } from '../../src/http/schemas/scores.ts'

/*
 * bodyProblem (src/http/schemas/scores.ts) accepts a plain practice run without TypeBox's compiled
 * check of its answers; its verdict must stay the schema's own. Each body here is judged both ways:
 * accepted by bodyProblem exactly when ScoreRequestSchema accepts it.
 */

const SCHEMA = Compile(ScoreRequestSchema)
const RUN = Compile(PracticeRunSchema)
const full = Object.fromEntries(Array.from({ length: 180 }, (_, at) => [String(at + 1), 'ABCDE'[at % 5]!]))

const BODIES: unknown[] = [
  { year: 2023, answers: {} },
  { year: 2023, answers: full },
  { year: 2023, language: 'ingles', application: 'regular', answers: full },
  { year: 1, answers: { 1: 'A' } },
  { year: 0, answers: { 1: 'A' } },
  { year: -3, answers: { 1: 'A' } },
  { year: 2023.5, answers: { 1: 'A' } },
  { year: '2023', answers: { 1: 'A' } },
  { year: Number.MAX_SAFE_INTEGER + 2, answers: { 1: 'A' } },
  { year: 2023, application: '', answers: { 1: 'A' } },
  { year: 2023, application: 'x'.repeat(40), answers: { 1: 'A' } },
  { year: 2023, application: 'x'.repeat(41), answers: { 1: 'A' } },
  { year: 2023, language: '😀'.repeat(20), answers: { 1: 'A' } },
  { year: 2023, language: '😀'.repeat(21), answers: { 1: 'A' } },
  { year: 2023, language: null, answers: { 1: 'A' } },
  { year: 2023, language: 7, answers: { 1: 'A' } },
  { year: 2023, answers: { 1: 'a' } },
  { year: 2023, answers: { 1: 'F' } },
  { year: 2023, answers: { 1: 'AB' } },
  { year: 2023, answers: { 1: 1 } },
  { year: 2023, answers: { 1: null } },
  { year: 2023, answers: { 1: ['A'] } },
  { year: 2023, answers: { ...full, 180: 'Z' } },
  { year: 2023, answers: { 0: 'E', 999999: 'A' } }
]

test('bodyProblem accepts a practice run exactly when the schema does', () => {
  let accepted = 0
  for (const body of BODIES) {
    const verdict = bodyProblem(body)
    assert.equal(verdict === undefined, SCHEMA.Check(body), `${JSON.stringify(body).slice(0, 120)}: ${verdict}`)
    assert.equal(verdict === undefined, RUN.Check(body), JSON.stringify(body).slice(0, 120))
    if (verdict === undefined) accepted++
  }
  // Both verdicts are met: neither all accepted nor all refused.
  assert.ok(accepted >= 5 && accepted < BODIES.length - 10, `accepted ${accepted}`)
})
