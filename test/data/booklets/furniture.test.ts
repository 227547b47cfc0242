import { test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, readFileSync } from 'node:fs'
import { coveredShare, height, width } from '../../../src/data/booklets/boxes.ts'
import { recurringTexts } from '../../../src/data/booklets/furniture.ts'
import { openPdf, type PageMarks } from '../../../src/data/booklets/page-marks.ts'
import { labelOf } from '../../../src/data/booklets/question-regions.ts'
import { pageGraphics, recurringDrawings, RECURS_ON } from '../../../src/data/booklets/recurring-drawings.ts'
import { textLines } from '../../../src/data/booklets/text-lines.ts'
import { BOOKLETS } from './booklet-reading.ts'

/*
 * Furniture by repetition (recurring-drawings.ts, furniture.ts's recurringTexts) on the page marks of
 * two layouts that print a drawing beside every question label and at each question's end: 2014 (a
 * double rule ending in an orange bar and hatching) and 2015 (a chain of diamonds and a double rule),
 * and on 2025, whose labels stand alone. What is checked follows from the pages themselves: the
 * drawing beside each label is found as furniture on every page, no image printed once in the booklet
 * is, and the running footer is found by repetition whatever its words.
 */

const skip = existsSync(BOOKLETS) ? false : 'needs ../shared/inep/booklets (INEP\'s PDFs), which only the project\'s machines have'

const read = new Map<string, PageMarks[]>()
function pagesOf (file: string): PageMarks[] {
  let pages = read.get(file)
  if (pages === undefined) {
    const pdf = openPdf(readFileSync(`${BOOKLETS}${file}`), file)
    try {
      pages = Array.from({ length: pdf.pages }, (_, at) => pdf.marks(at + 1))
    } finally {
      pdf.close()
    }
    read.set(file, pages)
  }
  return pages
}

/** A body size of these booklets' text, as read-booklet.ts measures it (10 pt in all three). */
const TEXT_SIZE = 10
const LEAST = 2.4 * TEXT_SIZE

for (const file of ['2014/2014_PV_impresso_D1_CD1.pdf', '2015/2015_PV_impresso_D1_CD1.pdf']) {
  test(`${file}: the drawing beside every question label is furniture, on every page`, { skip }, () => {
    const pages = pagesOf(file)
    const furniture = recurringDrawings(pages.map(pageGraphics), LEAST)
    const lacking: string[] = []
    let labels = 0
    for (const page of pages) {
      const marks = [...page.paths, ...page.images].filter((mark) => furniture.has(mark)).map((mark) => ('box' in mark ? mark.box : mark))
      for (const line of textLines(page.glyphs)) {
        if (labelOf(line) === null) continue
        labels++
        // On the label's row, to its right, within a label's width.
        const row = { x0: line.box.x1, y0: line.box.y0 - 0.5 * height(line.box), x1: line.box.x1 + 3 * width(line.box), y1: line.box.y1 + 0.5 * height(line.box) }
        if (!marks.some((box) => coveredShare(box, row) > 0)) lacking.push(`page ${page.number} ${line.text}`)
      }
    }
    assert.ok(labels >= 90, `${labels} labels read`)
    assert.deepEqual(lacking, [])
  })
}

for (const file of ['2014/2014_PV_impresso_D1_CD1.pdf', '2015/2015_PV_impresso_D1_CD1.pdf', '2025/2025_PV_impresso_D2_CD7.pdf']) {
  test(`${file}: an image printed on fewer than ${RECURS_ON} pages is never furniture`, { skip }, () => {
    const pages = pagesOf(file)
    const furniture = recurringDrawings(pages.map(pageGraphics), LEAST)
    const pagesOfPixels = new Map<string, Set<number>>()
    for (const page of pages) for (const image of page.images) pagesOfPixels.set(image.pixels, (pagesOfPixels.get(image.pixels) ?? new Set()).add(page.number))
    const rare = pages.flatMap((page) => page.images.filter((image) => pagesOfPixels.get(image.pixels)!.size < RECURS_ON))
    assert.ok(rare.length >= 20, `${rare.length} images printed once or twice`)
    assert.deepEqual(rare.filter((image) => furniture.has(image)).map((image) => image.pixels), [])
  })

  test(`${file}: the footer recurs, and no question's label does`, { skip }, () => {
    const pages = pagesOf(file).map((page) => ({ page: page.number, lines: textLines(page.glyphs), height: page.height }))
    const found = recurringTexts(pages, (line) => labelOf(line) !== null)
    // Every page after the cover prints something recurring in its bottom tenth (the footer).
    const withFooter = pages.filter(({ page, height: pageHeight }) => (found.get(page) ?? []).some((box) => box.y0 > 0.9 * pageHeight))
    assert.ok(withFooter.length >= pages.length - 2, `${withFooter.length} of ${pages.length} pages`)
    const labelsFound = pages.flatMap(({ page, lines }) => lines.filter((line) => labelOf(line) !== null && (found.get(page) ?? []).some((box) => coveredShare(line.box, box) > 0.9)))
    assert.deepEqual(labelsFound.map((line) => line.text), [])
  })
}
