import { test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync } from 'node:fs'
import { furnitureOfText } from '../../../src/data/booklets/furniture.ts'
import { BOOKLETS, bookletReading } from './booklet-reading.ts'

/*
 * The booklet reader on INEP's own PDFs (../shared/inep/booklets, which users do not have: skipped
 * without it), one of each layout SOURCE.md describes: 2025 (`Questão 01`, a running band, the
 * imposition line, day 1's 1–5 printed twice), 2023 (`QUESTÃO 91`, boxed letters, no band) and 2009
 * (`Questão` beside a boxed number, no rule between columns, CN then CH on day 1). Each booklet's
 * labels must be the run its cover announces, in order, and every question must have its five
 * letters, with nothing of the page's furniture in any text.
 */

const skip = existsSync(BOOKLETS) ? false : 'needs ../shared/inep/booklets (INEP\'s PDFs), which only the project\'s machines have'

const reading = bookletReading

/** The labels a booklet's cover announces: day 2 91–180; day 1 1–90, with 1–5 printed twice (English, then Spanish) from 2010 on. */
function announced (year: number, day: 1 | 2): string[] {
  const run = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, at) => String(from + at))
  if (day === 2) return run(91, 180)
  if (year === 2009) return run(1, 90)
  return [...run(1, 5).map((number) => `${number} ingles`), ...run(1, 5).map((number) => `${number} espanhol`), ...run(6, 90)]
}

const CASES: Array<[string, number, 1 | 2]> = [
  ['2025/2025_PV_impresso_D1_CD1.pdf', 2025, 1],
  ['2025/2025_PV_impresso_D2_CD7.pdf', 2025, 2],
  ['2023/2023_PV_impresso_D2_CD7.pdf', 2023, 2],
  ['2009/2009_PV_impresso_D1_CD1.pdf', 2009, 1]
]

for (const [file, year, day] of CASES) {
  test(`${file}: every question its cover announces is found, in the printed order`, { skip }, () => {
    const labels = reading(file).questions.map(({ region }) => `${region.number}${region.language === null ? '' : ` ${region.language}`}`)
    assert.deepEqual(labels, announced(year, day))
  })

  // The contract's floor for alternatives read as printed is 90 % of a booklet's questions.
  test(`${file}: at least 90 % of questions have five alternatives, each with text or a figure`, { skip }, () => {
    const { questions } = reading(file)
    const lacking = questions.filter(({ parts }) =>
      parts.alternatives.length !== 5 || parts.alternatives.some((alternative) => alternative.text === '' && alternative.figure === null))
    assert.ok(lacking.length <= questions.length * 0.1, `lacking: ${lacking.map(({ region }) => region.number).join(', ')}`)
  })

  test(`${file}: no text of a question is page furniture`, { skip }, () => {
    const texts = reading(file).questions.flatMap(({ parts }) => [
      ...parts.statement.flatMap((block) => (block.kind === 'text' ? block.lines.map((line) => line.text) : [])),
      parts.asking,
      ...parts.alternatives.map((alternative) => alternative.text)
    ])
    assert.deepEqual(texts.filter((text) => furnitureOfText(text) !== null && furnitureOfText(text) !== 'heading'), [])
  })
}
