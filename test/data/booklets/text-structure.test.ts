import { test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, readFileSync } from 'node:fs'
import { isCredit } from '../../../src/data/booklets/credits.ts'
import { pageFurniture } from '../../../src/data/booklets/furniture.ts'
import { marginNumbers, withoutLineNumbers } from '../../../src/data/booklets/line-numbers.ts'
import { openPdf, type PdfBooklet } from '../../../src/data/booklets/page-marks.ts'
import { compareFlow, findGutter, flowPlaces } from '../../../src/data/booklets/page-layout.ts'
import { questionParts } from '../../../src/data/booklets/question-parts.ts'
import { joinSplitLabels, readBooklet } from '../../../src/data/booklets/read-booklet.ts'
import { labelOf, questionRegions, type FlowElement } from '../../../src/data/booklets/question-regions.ts'
import { COLUMN_GAP, textLines } from '../../../src/data/booklets/text-lines.ts'
import { BOOKLETS } from './booklet-reading.ts'

/*
 * The text-structure rules (margin line numbers, source credits, verse, repeated hyphens) on real
 * pages of INEP's booklets (../shared/inep/booklets, which users do not have: skipped without it):
 * one page's text lines, put in reading order as the reader does, make the fixture, and each
 * assertion is a property the page shows (the numbers count its lines; a credit is in small print
 * under its text), checked on every question of the page, not a typed-in answer.
 */

const skip = existsSync(BOOKLETS) ? false : 'needs ../shared/inep/booklets (INEP\'s PDFs), which only the project\'s machines have'

const pdfs = new Map<string, PdfBooklet>()
function booklet (file: string): PdfBooklet {
  let pdf = pdfs.get(file)
  if (pdf === undefined) {
    pdf = openPdf(readFileSync(`${BOOKLETS}${file}`), file)
    pdfs.set(file, pdf)
  }
  return pdf
}

/** The text lines of the page that holds question `label`, the page before and the page after, in reading order. */
function pagesOf (file: string, label: number): FlowElement[] {
  const pdf = booklet(file)
  for (let number = 1; number <= pdf.pages; number++) {
    const elements = pageElements(pdf, number)
    if (elements.some((element) => element.kind === 'line' && labelOf(element.line)?.number === label)) {
      // A text printed once for several questions may stand on the page before their labels.
      return [...(number > 1 ? pageElements(pdf, number - 1) : []), ...elements, ...(number < pdf.pages ? pageElements(pdf, number + 1) : [])]
    }
  }
  throw new Error(`${file}: no page holds question ${label}`)
}

const pages = new WeakMap<PdfBooklet, Map<number, FlowElement[]>>()
function pageElements (pdf: PdfBooklet, number: number): FlowElement[] {
  const read = pages.get(pdf) ?? new Map<number, FlowElement[]>()
  pages.set(pdf, read)
  const known = read.get(number) ?? readPage(pdf, number)
  read.set(number, known)
  return known
}

function readPage (pdf: PdfBooklet, number: number): FlowElement[] {
  const marks = pdf.marks(number)
  const first = textLines(marks.glyphs)
  const gutter = findGutter(marks.width, marks.height, marks.paths, first.map((line) => line.box))
  // The page's furniture (running band, footer) left out, as the reader does.
  const cut = joinSplitLabels(textLines(marks.glyphs, { gap: COLUMN_GAP, gutterX: gutter?.x ?? null }))
  const furniture = pageFurniture(cut, { top: 0, bottom: marks.height })
  const lines = cut.filter((line) => !furniture.has(line) || furniture.get(line) === 'heading')
  const places = flowPlaces(lines.map((line) => line.box), gutter)
  return lines.map((line, at): FlowElement => ({ kind: 'line', page: number, place: places[at]!, line })).sort((a, b) => compareFlow(a.place, b.place))
}

function question (file: string, label: number) {
  const region = questionRegions(pagesOf(file, label)).find((found) => found.number === label)
  if (region === undefined) throw new Error(`${file}: question ${label} not read`)
  return { region, parts: questionParts([...region.shared, ...region.elements]) }
}

const D1_2025 = '2025/2025_PV_impresso_D1_CD1.pdf'
const D2_2009 = '2009/2009_PV_impresso_D2_CD7.pdf'

test('margin line numbers: the numbers found count the lines they stand on (1 2 3 … in 2025, 1 4 7 … in 2009) and leave the prose', { skip }, () => {
  for (const [file, label] of [[D1_2025, 6], [D1_2025, 38], [D2_2009, 128]] as const) {
    const { region, parts } = question(file, label)
    const elements = [...region.shared, ...region.elements]
    const numbers = [...marginNumbers(elements).values()].sort((a, b) => a.element.line.baseline - b.element.line.baseline)
    assert.ok(numbers.length >= 5, `${file} ${label}: ${numbers.length} margin numbers`)
    // The printed numbers increase down the page, each step no larger than the lines between them (one more where the count skips a line).
    for (const [at, number] of numbers.entries()) {
      const next = numbers[at + 1]
      if (next === undefined) continue
      const linesBetween = elements.filter((element) => element.kind === 'line' && element.line.baseline > number.element.line.baseline + 1 && element.line.baseline <= next.element.line.baseline + 1 &&
        element.page === number.element.page && element.place.column === number.element.place.column && element.line.box.x0 > number.right)
      assert.ok(next.number > number.number, `${file} ${label}: ${number.number} then ${next.number}`)
      assert.ok(Math.abs(next.number - number.number - new Set(linesBetween.map((element) => element.kind === 'line' ? Math.round(element.line.baseline) : 0)).size) <= 1)
    }
    // The prose then holds no run of bare numbers, and no word is lost: each numbered line's words stay.
    const prose = parts.statement.flatMap((block) => (block.kind === 'text' ? [block.text] : [])).join('\n')
    assert.doesNotMatch(prose, /(?:^|\s)\d{1,2}\s+\p{L}+[^\d]{0,120}?\s\d{1,2}\s+\p{L}+[^\d]{0,120}?\s\d{1,2}\s/u)
    for (const { element } of numbers) {
      const words = element.line.text.replace(/^\d+\s*/u, '')
      if (words !== '') assert.ok(prose.replace(/\s+/gu, ' ').includes(words.slice(0, 30)), `${file} ${label}: "${words}" kept`)
    }
  }
})

test('margin line numbers: a numbered list and a formula\'s coefficient are no line numbers', { skip }, () => {
  // 2025 q44 prints "1 – cria um laço…" as a list item, set at the text's own left edge.
  const { region } = question(D1_2025, 44)
  const elements = [...region.shared, ...region.elements]
  assert.equal(marginNumbers(elements).size, 0)
  const listed = elements.filter((element) => element.kind === 'line' && /^\d\s+–/u.test(element.line.text)).length
  assert.ok(listed >= 3)
  assert.equal(withoutLineNumbers(elements).filter((element) => element.kind === 'line' && /^\d\s+–/u.test(element.line.text)).length, listed)
})

test('source credits: every question of a page with credits closes its statement with the credit, never asks with it, and a credit is one paragraph', { skip }, () => {
  for (const [file, label] of [[D1_2025, 6], [D1_2025, 16], [D1_2025, 44], [D1_2025, 50], [D1_2025, 57], [D2_2009, 128]] as const) {
    const { region, parts } = question(file, label)
    const small = [...region.shared, ...region.elements].filter((element) => element.kind === 'line' && /Dispon[ií]vel em|\d{4}/u.test(element.line.text) &&
      element.line.size < 0.9 * Math.max(...region.elements.map((other) => (other.kind === 'line' ? other.line.size : 0))))
    assert.ok(small.length > 0, `${file} ${label}: a credit in small print`)
    assert.equal(isCredit(parts.asking, false), false, `${file} ${label}: asks with "${parts.asking}"`)
    const credits = parts.statement.filter((block) => block.kind === 'text' && block.credit)
    assert.equal(credits.length, 1, `${file} ${label}: one credit paragraph, not ${JSON.stringify(credits.map((block) => block.kind === 'text' ? block.text : ''))}`)
    // Every small-print line of the credit is in that one paragraph.
    const credit = credits[0]!
    for (const element of small) if (element.kind === 'line') assert.ok(credit.kind === 'text' && credit.lines.includes(element.line), `${file} ${label}: "${element.line.text}" in the credit`)
  }
})

test('verse stays verse: a poem whose lines end where the next word would have fit keeps each printed line', { skip }, () => {
  const { parts } = question(D1_2025, 16)
  const stanzas = parts.statement.filter((block) => block.kind === 'text' && !block.credit && block.lines.length >= 3)
  assert.ok(stanzas.length >= 2)
  for (const stanza of stanzas) if (stanza.kind === 'text') assert.equal(stanza.text.split('  \n').length, stanza.lines.length, stanza.text)
})

test('paragraphs as printed: an indented line after a full stop starts a paragraph, and a hyphen printed again at a line\'s start is one hyphen', { skip }, () => {
  for (const label of [13, 32]) {
    const { region, parts } = question(D1_2025, label)
    const text = parts.statement.flatMap((block) => (block.kind === 'text' ? [block.text] : [])).join('\n\n')
    assert.doesNotMatch(text, /\p{L}- -\p{L}/u)
    // As many paragraphs as lines the page sets in from the text's left edge after a line ending a sentence.
    const lines = region.elements.filter((element) => element.kind === 'line' && element.line.size >= 9.5)
    const left = Math.min(...lines.map((element) => (element.kind === 'line' ? element.line.box.x0 : Infinity)))
    const indents = lines.filter((element, at) => element.kind === 'line' && at > 0 && element.line.box.x0 > left + 5 && lines[at - 1]!.kind === 'line' && /[.!?]$/u.test((lines[at - 1] as { line: { text: string } }).line.text)).length
    const prose = parts.statement.filter((block) => block.kind === 'text' && !block.credit && block.lines.length > 1).length
    assert.ok(prose >= indents + 1, `question ${label}: ${prose} paragraphs for ${indents} indents`)
  }
})

test('tables set as text between rules are text: every cell\'s words come from the table\'s lines, no word of them lost, and the contract\'s four 2025 tables are tables', { skip }, () => {
  const file = '2025/2025_PV_impresso_D2_CD7.pdf'
  const { questions } = readBooklet(booklet(file))
  const tables = questions.flatMap(({ region, parts }) => parts.statement.flatMap((block) => (block.kind === 'table' ? [{ number: region.number, block }] : [])))
  for (const { number, block } of tables) {
    assert.ok(block.rows.length >= 2, `question ${number}: a header and a row`)
    for (const row of block.rows) assert.equal(row.length, block.rows[0]!.length, `question ${number}: a row of ${row.length} cells`)
    const cells = block.rows.flat().join(' ').split(/\s+/u).filter((word) => word !== '')
    const printed = block.lines.map((line) => line.text).join(' ').split(/\s+/u).filter((word) => word !== '')
    assert.deepEqual([...cells].sort(), [...printed].sort(), `question ${number}: the cells hold the table's words`)
  }
  // The contract names them (2025: 129, 142, 165, 169 were pictures).
  for (const number of [129, 142, 165, 169]) assert.ok(tables.some((table) => table.number === number), `question ${number} has a table`)
})

test('a boxed text is its words once: a frame around prose gives way to its lines, each part of it read whole (2025 q42, the contract\'s case)', { skip }, () => {
  const { questions } = readBooklet(booklet(D1_2025))
  const boxed = questions.find(({ region }) => region.number === 42)!
  const framed = boxed.region.elements.flatMap((element) => (element.kind === 'figure' ? [element.figure] : []))
  assert.equal(framed.length, 1, 'the page draws one frame')
  assert.equal(boxed.parts.statement.filter((block) => block.kind === 'figure').length, 0)
  const text = boxed.parts.statement.flatMap((block) => (block.kind === 'text' ? [block.text] : [])).join('\n\n')
  // Every line the frame holds is in the text as often as the page prints it (once, or a heading each part repeats).
  const frame = framed[0]!.box
  const held = boxed.region.elements.flatMap((element) => (element.kind === 'line' && element.line.box.y0 > frame.y0 && element.line.box.y1 < frame.y1 ? [element.line] : []))
  const printed = [...held, ...framed[0]!.lines].map((line) => line.text)
  for (const line of new Set(printed)) assert.equal(text.split(line).length - 1, printed.filter((other) => other === line).length, `"${line}" as often as printed`)
})
