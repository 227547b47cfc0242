import { test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { isSheetProblem, SheetScorer } from '../../../src/data/scores/sheet-scores.ts'

/*
 * Real answer sheets with INEP's official scores (../shared/inep/tri-cases, whose SOURCE.md says
 * where they come from): every sheet of a booklet INEP's item file describes gets its official
 * score to the tenth, except on the booklets that SOURCE.md lists, by name, as not reproducible
 * from the published parameters. Their errors, and every year's count, are printed.
 */

const REPO = fileURLToPath(new URL('../../..', import.meta.url))
const CASES_FILE = path.resolve(REPO, '../shared/inep/tri-cases/cases.json')
const noCases = existsSync(CASES_FILE) ? false : `${CASES_FILE} is absent: the scores were NOT compared with INEP's`

interface Sheet {
  year: number
  area: string
  language: string | null
  booklet: number
  bookletColour: string | null
  answers: string
  officialScore: number
}

/** SOURCE.md's "Booklets without items": absent from ITENS_PROVA, or listing items in no order. */
const WITHOUT_ITEMS: Record<number, number[]> = {
  2009: [81, 82, 83, 84],
  2013: [187, 188, 189, 190],
  2020: [691, 692, 693, 694]
}

/** SOURCE.md's "Official scores the published parameters do not reproduce", booklet by booklet. */
const NOT_REPRODUCIBLE: Record<number, number[]> = {
  2009: [72],
  2011: [121, 122, 123],
  2013: [179, 180, 181, 182],
  2015: [252],
  2017: [391, 392, 393, 394, 395, 396, 397, 398, 403, 404, 405, 406, 408, 410, 412],
  2018: [448, 449, 450, 463, 467],
  2019: [515, 516, 517, 518, 522, 526],
  2021: [896, 897],
  2025: [1549, 1551, 1552]
}

/**
 * Found by this test, not listed in SOURCE.md: 2017's CN booklet 407 (LARANJA, adapted) holds 37
 * of the 45 items of the regular CN booklets 391–394, the test whose published parameters
 * SOURCE.md finds do not reproduce. Kept apart from SOURCE.md's list, and checked to be off, so
 * that this exception cannot hide a booklet that matches.
 */
const FOUND_NOT_REPRODUCIBLE: Record<number, number[]> = {
  2017: [407]
}

const listed = (table: Record<number, number[]>, sheet: Sheet) => table[sheet.year]?.includes(sheet.booklet) === true

test('every tri-cases sheet gets INEP\'s official score to the tenth, but on the booklets SOURCE.md lists as not reproducible', { skip: noCases }, (t) => {
  const sheets = JSON.parse(readFileSync(CASES_FILE, 'utf8')) as Sheet[]
  const scorer = new SheetScorer()
  const byYear = new Map<number, { sheets: number, match: number, skipped: number, withoutItems: number }>()
  const errors = new Map<string, number[]>()
  const failures: string[] = []
  for (const sheet of sheets) {
    const counts = byYear.get(sheet.year) ?? { sheets: 0, match: 0, skipped: 0, withoutItems: 0 }
    byYear.set(sheet.year, counts)
    counts.sheets++
    const result = scorer.score({ year: sheet.year, booklet: sheet.booklet, answers: sheet.answers, language: sheet.language ?? undefined })
    if (listed(WITHOUT_ITEMS, sheet)) {
      assert.ok(isSheetProblem(result) && result.field === 'booklet', `${sheet.year} booklet ${sheet.booklet} has no order, yet was scored`)
      counts.withoutItems++
      continue
    }
    if (isSheetProblem(result)) {
      failures.push(`${sheet.year} booklet ${sheet.booklet}: ${result.message}`)
      continue
    }
    assert.equal(result.booklet.area, sheet.area)
    const score = result.area?.score ?? 0
    const error = Math.round((score - sheet.officialScore) * 10) / 10
    if (Math.abs(error) <= 0.1) counts.match++
    if (listed(NOT_REPRODUCIBLE, sheet) || listed(FOUND_NOT_REPRODUCIBLE, sheet)) {
      counts.skipped++
      const name = `${sheet.year} ${sheet.area} ${sheet.booklet}`
      errors.set(name, [...errors.get(name) ?? [], error])
      continue
    }
    if (Math.abs(error) > 0.1) failures.push(`${sheet.year} ${sheet.area} booklet ${sheet.booklet}: ${score}, INEP ${sheet.officialScore}`)
  }
  for (const [year, counts] of [...byYear].sort(([a], [b]) => a - b)) {
    t.diagnostic(`${year}: ${counts.sheets} sheets, ${counts.match} match to the tenth; ${counts.withoutItems} of booklets without items, ${counts.skipped} of booklets not reproducible`)
  }
  for (const [name, list] of [...errors].sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true }))) t.diagnostic(`not reproducible ${name}: off by ${list.join(', ')}`)
  assert.deepEqual(failures, [])
  for (const [year, codes] of Object.entries(FOUND_NOT_REPRODUCIBLE)) {
    for (const code of codes) {
      const name = [...errors.keys()].find((key) => key.startsWith(`${year} `) && key.endsWith(` ${code}`))
      assert.ok(name !== undefined && errors.get(name)!.every((error) => Math.abs(error) > 0.1), `${year} booklet ${code} is listed as not reproducible, yet matches`)
    }
  }
})
