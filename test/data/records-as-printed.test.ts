import { after, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { SAMPLE_DATA_DIR } from '../../src/config.ts'
import { loadDataset } from '../../src/data/dataset/load-dataset.ts'
import { markdownImages, normalizedAddress } from '../../src/data/record-markdown.ts'
import { recordFigures } from '../../src/data/record-figures.ts'
import type { Question } from '../../src/data/record-schemas.ts'
import { convertEnemDevPpl } from '../../src/data/sources/enem-dev-ppl.ts'
import { convertMaritaca } from '../../src/data/sources/maritaca-2024.ts'
import { writeConversion } from '../../src/data/sources/write-conversion.ts'
import { renderInlineMarkdown, renderMarkdown } from '../../src/web/markdown.ts'
import { FULL_DATA_DIR } from '../helper.ts'

/*
 * Every served record as the question browser renders it (src/web/markdown.ts, the page's own
 * Markdown): no code block (a source's stray indentation turned into monospace text that runs off a
 * phone's screen) and no literal "null" (what a source wrote where it lost a figure); and its figures
 * (src/data/record-figures.ts, which every view asks) each image it names, once. Over the dataset the
 * tests serve (the sample, or the full one with ENEM_DATA_DIR) and, with the project's test setup's
 * ../shared, every exam the public sources give, as `npm run dataset` builds them: the predecessor's
 * dataset beside the 2024 and second-application conversions.
 */

const REPO = fileURLToPath(new URL('../..', import.meta.url))
const SHARED = path.resolve(REPO, '../shared')
const COPIES = {
  dataset: path.join(SHARED, 'enem-data'),
  ppl: path.join(SHARED, 'sources', 'enem-dev-second-applications'),
  2024: path.join(SHARED, 'sources', 'maritaca-enem-2024'),
  inep: path.join(SHARED, 'inep')
}
const absent = Object.values(COPIES).filter((dir) => !existsSync(dir))
const OPTIONS = { filesBaseUrl: 'http://api.test/files' }

/** A record's Markdown fields as the page renders them: the statement and introduction as blocks, each alternative inline. */
function renderedParts (question: Question): Array<[string, string]> {
  return [
    ['context', renderMarkdown(question.context ?? '', 'Imagem')],
    ['alternativesIntroduction', renderMarkdown(question.alternativesIntroduction ?? '', 'Imagem')],
    ...question.alternatives.map((alternative): [string, string] => [`alternative ${alternative.letter}`, renderInlineMarkdown(alternative.text ?? '', 'Imagem')])
  ]
}

const label = (question: Question) => `${question.year}${question.application === 'regular' ? '' : `-${question.application}`}/${question.index}${question.language === null ? '' : `-${question.language}`}`

/** What the page would show that the booklet does not print, one line per record and field. */
function notAsPrinted (questions: readonly Question[]): string[] {
  return questions.flatMap((question) => renderedParts(question).flatMap(([field, html]) => [
    ...(/<(pre|code)\b/.test(html) ? [`${label(question)} ${field}: a code block`] : []),
    // The words the reader sees: the HTML without its tags (an image's address and description are attributes).
    ...(/\bnull\b/.test(html.replace(/<[^>]*>/g, ' ')) ? [`${label(question)} ${field}: a literal "null"`] : [])
  ]))
}

/** Every image a record names, by its normalized address, with what recordFigures gives; records where they differ. */
function figuresNotOnce (questions: readonly Question[]): string[] {
  return questions.flatMap((question) => {
    const named = new Set([
      ...[question.context, question.alternativesIntroduction, ...question.alternatives.map((alternative) => alternative.text)].flatMap((text) => markdownImages(text ?? '')),
      ...question.alternatives.flatMap((alternative) => (alternative.file === null ? [] : [alternative.file])),
      ...question.files
    ].map(normalizedAddress))
    const figures = recordFigures(question).map((figure) => normalizedAddress(figure.address))
    return figures.length === named.size && figures.every((address) => named.has(address)) ? [] : [`${label(question)}: ${figures.length} figures for ${named.size} images`]
  })
}

async function servedQuestions (dirs: string | readonly string[]): Promise<Question[]> {
  const loaded = await loadDataset(dirs, OPTIONS)
  assert.ok(loaded.catalog !== null, loaded.report.errors.map((error) => error.message).join('\n'))
  return loaded.catalog.listExams().flatMap((exam) => [...exam.questions])
}

describe(`the records the tests serve (${FULL_DATA_DIR === undefined ? 'the sample' : 'ENEM_DATA_DIR'})`, () => {
  test('render as printed: no code block, no literal "null"; each image they name is a figure once', async (t) => {
    const questions = await servedQuestions(FULL_DATA_DIR ?? SAMPLE_DATA_DIR)
    assert.ok(questions.length > 0)
    assert.deepEqual(notAsPrinted(questions), [])
    assert.deepEqual(figuresNotOnce(questions), [])
    t.diagnostic(`${questions.length} records rendered`)
  })
})

describe('every exam the public sources give, converted as npm run dataset converts them', { skip: absent.length === 0 ? false : `${absent.join(', ')} absent: the converted exams were NOT rendered` }, () => {
  const work = mkdtempSync(path.join(tmpdir(), 'enem-as-printed-'))
  after(() => rmSync(work, { recursive: true, force: true }))

  test('render as printed: no code block, no literal "null"; each image they name is a figure once', async (t) => {
    const converted2024 = path.join(work, '2024')
    const convertedPpl = path.join(work, 'ppl')
    writeConversion(converted2024, convertMaritaca(COPIES[2024], COPIES.inep), path.basename(COPIES[2024]))
    writeConversion(convertedPpl, convertEnemDevPpl(COPIES.ppl, COPIES.inep), path.basename(COPIES.ppl))
    const questions = await servedQuestions([COPIES.dataset, converted2024, convertedPpl])
    const ppl = questions.filter((question) => question.application === 'ppl')
    assert.ok(ppl.length > 1000, `${ppl.length} second-application records`)
    assert.deepEqual(notAsPrinted(questions), [])
    assert.deepEqual(figuresNotOnce(questions), [])
    t.diagnostic(`${questions.length} records rendered, ${ppl.length} of the second applications`)
  })
})
