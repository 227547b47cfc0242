import { test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { MATRIZ_FILE, readMatriz, referenceMatrix } from '../../../src/data/skills/matriz.ts'
import { AREAS } from '../../../src/data/record-schemas.ts'

/*
 * The committed Matriz (data/matriz/) against the project's shared copy it was taken from, where
 * that folder is present (it is beside the repository here and in CI; a user's clone lacks it).
 */

const SHARED_MATRIZ = fileURLToPath(new URL('../../../../shared/inep/matriz/matriz-referencia.json', import.meta.url))
const shared = existsSync(SHARED_MATRIZ) ? JSON.parse(readFileSync(SHARED_MATRIZ, 'utf8')) as { areas: Array<{ area: string, name: string, competencies: Array<{ number: number, text: string }>, skills: Array<{ number: number, competency: number, text: string }> }> } : undefined

test('the committed Matriz is the shared one, text for text', { skip: shared === undefined && `no shared Matriz at ${SHARED_MATRIZ}` }, () => {
  const matriz = referenceMatrix()
  assert.equal(matriz.areas.length, shared!.areas.length)
  for (const [at, area] of shared!.areas.entries()) {
    const committed = matriz.areas[at]!
    assert.equal(committed.area, area.area)
    assert.equal(committed.name, area.name)
    assert.deepEqual(committed.competencies, area.competencies, `${area.area} competências`)
    assert.deepEqual(committed.skills, area.skills, `${area.area} skills`)
  }
  assert.ok(readFileSync(MATRIZ_FILE).equals(readFileSync(SHARED_MATRIZ)), 'the committed file is a byte-for-byte copy')
})

test('the Matriz has the four areas in order, H1–H30 each, every skill under one of its area\'s competências', () => {
  const matriz = referenceMatrix()
  assert.deepEqual(matriz.areas.map((area) => area.area), [...AREAS])
  for (const area of matriz.areas) {
    assert.deepEqual(area.skills.map((skill) => skill.number), Array.from({ length: 30 }, (_, at) => at + 1))
    const competencies = new Set(area.competencies.map((competency) => competency.number))
    for (const skill of area.skills) assert.ok(competencies.has(skill.competency), `${area.area}-H${skill.number}`)
  }
})

test('a Matriz file that breaks its shape or numbering is refused, naming the file', (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'matriz-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  const original = JSON.parse(readFileSync(MATRIZ_FILE, 'utf8')) as { areas: Array<{ skills: Array<{ number: number, competency: number }> }> }
  const cases: Array<[string, (copy: typeof original) => void, RegExp]> = [
    ['a skill missing', (copy) => { copy.areas[0]!.skills.pop() }, /H1–H30/],
    ['a skill under a competência its area lacks', (copy) => { copy.areas[1]!.skills[0]!.competency = 99 }, /competência 99/],
    ['areas out of order', (copy) => { copy.areas.reverse() }, /areas must be/]
  ]
  for (const [name, change, message] of cases) {
    const copy = structuredClone(original)
    change(copy)
    const file = path.join(dir, `${name.replaceAll(' ', '-')}.json`)
    writeFileSync(file, JSON.stringify(copy))
    assert.throws(() => readMatriz(file), (error: Error) => message.test(error.message) && error.message.includes(file), name)
  }
})
