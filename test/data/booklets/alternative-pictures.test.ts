import { test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync } from 'node:fs'
import { area, type Box, intersect } from '../../../src/data/booklets/boxes.ts'
import type { BookletQuestion } from '../../../src/data/booklets/read-booklet.ts'
import { BOOKLETS, bookletReading } from './booklet-reading.ts'

/*
 * Alternatives that are pictures, where one figure holds several (question-parts.ts cutAtMarkers): 2010
 * scans the five pictures of a question as one image beside its letters, drawn as discs — five
 * structures one under another (day 1, 80), two columns of drawings with the letters of the second
 * column standing in the image (day 2, 138), five charts stacked (day 2, 142), and pictures in two
 * images of three and two (day 1, 84). Each alternative gets a picture of its own, apart from the
 * others', holding no letter and no question's label. 2023 stacks five vector charts a few points
 * apart (day 2 blue, 178): there each chart keeps its axis's label "t (s)".
 */

const skip = existsSync(BOOKLETS) ? false : 'needs ../shared/inep/booklets (INEP\'s PDFs), which only the project\'s machines have'

function question (file: string, number: number): BookletQuestion {
  const found = bookletReading(file).questions.find(({ region }) => region.number === number)
  assert.ok(found !== undefined, `${file}: question ${number} not found`)
  return found
}

/** The box of an alternative's letter (the first glyph of its line). */
function letterBox (question: BookletQuestion, at: number): Box {
  return question.parts.alternatives[at]!.lines[0]!.glyphs[0]!.box
}

const CASES: Array<[string, number]> = [
  ['2010/2010_PV_impresso_D1_CD1.pdf', 80],
  ['2010/2010_PV_impresso_D1_CD1.pdf', 84],
  ['2010/2010_PV_impresso_D2_CD7.pdf', 138],
  ['2010/2010_PV_impresso_D2_CD7.pdf', 142]
]

for (const [file, number] of CASES) {
  test(`${file} ${number}: one scanned picture of five alternatives is cut into a picture for each`, { skip }, () => {
    const read = question(file, number)
    const { alternatives } = read.parts
    assert.deepEqual(alternatives.map((alternative) => alternative.letter), ['A', 'B', 'C', 'D', 'E'])
    const pictures = alternatives.map((alternative) => {
      assert.ok(alternative.figure !== null, `${alternative.letter} has no picture`)
      return alternative.figure
    })
    pictures.forEach((picture, at) => {
      // Apart from every other alternative's picture (a point's overlap at most, where two meet).
      pictures.forEach((other, next) => {
        if (next > at && other.page === picture.page) assert.ok(area(intersect(picture.figure.box, other.figure.box)) < picture.figure.box.x1 - picture.figure.box.x0, `${alternatives[at]!.letter} and ${alternatives[next]!.letter} overlap`)
      })
      // No letter drawn in it, its own or another's.
      alternatives.forEach((_, letter) => {
        assert.ok(area(intersect(picture.figure.box, letterBox(read, letter))) < 1, `${alternatives[at]!.letter}'s picture holds letter ${alternatives[letter]!.letter}`)
      })
      // Beside its own letter: its rows reach the letter's.
      const own = letterBox(read, at)
      assert.ok(picture.figure.box.y0 < own.y1 && picture.figure.box.y1 > own.y0, `${alternatives[at]!.letter}'s picture is not beside its letter`)
      // No question's label printed over it (day 2's 138 runs its image on under "Questão 139").
      const labels = bookletReading(file).questions.map(({ region }) => region.label).filter((label) => label.page === picture.page)
      assert.deepEqual(labels.filter((label) => area(intersect(label.line.box, picture.figure.box)) > 0).map((label) => label.line.text), [])
    })
  })
}

test('2023/2023_PV_impresso_D2_CD7.pdf 178: five charts stacked close are cut between them, each with its axis\'s label', { skip }, () => {
  const { alternatives } = question('2023/2023_PV_impresso_D2_CD7.pdf', 178).parts
  assert.deepEqual(alternatives.map((alternative) => alternative.figure?.figure.lines.filter((line) => line.text === 't (s)').length), [1, 1, 1, 1, 1])
})

test('ppl/2020 136: a drawing\'s points named beside an alternative\'s letter are its picture\'s, not its text', { skip }, () => {
  // The second application's grey day 2 names the ant's path A … E in each alternative's drawing; D sets its "A" on the letter's row.
  const read = question('ppl/2020_PV_reaplicacao_PPL_D2_CD6.pdf', 136)
  for (const alternative of read.parts.alternatives) {
    assert.ok(alternative.figure !== null, `${alternative.letter} has its drawing`)
    assert.equal(alternative.text, '', `${alternative.letter} reads no text: the drawing's point names are in its picture`)
  }
})
