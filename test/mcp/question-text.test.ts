import { test } from 'node:test'
import assert from 'node:assert/strict'
import { SAMPLE_DATA_DIR } from '../../src/config.ts'
import { loadDataset } from '../../src/data/dataset/load-dataset.ts'
import { recordFigures } from '../../src/data/record-figures.ts'
import { markdownImages, normalizedAddress } from '../../src/data/record-markdown.ts'
import { labelsOf, questionText } from '../../src/mcp/question-text.ts'
import { FULL_DATA_DIR } from '../helper.ts'

/*
 * The tools' text of a question shows every figure of the record, as every view of a question does
 * (src/data/record-figures.ts): a figure the statement shows where it stands, an alternative's with
 * it, and a figure only `files` holds once, under "Imagens" (an alternative's figure listed in `files`
 * too is not repeated there). Over every served record (the sample, or
 * the full dataset with ENEM_DATA_DIR).
 */

test('every figure of every record is in its text: where the record shows it, and once more only if no text of it does', async (t) => {
  const loaded = await loadDataset(FULL_DATA_DIR ?? SAMPLE_DATA_DIR, { filesBaseUrl: 'http://api.test/files' })
  const exams = loaded.catalog!.listExams()
  const labels = labelsOf(exams.map((exam) => exam.summary))
  let figures = 0
  for (const question of exams.flatMap((exam) => [...exam.questions])) {
    const text = questionText(question, labels, false)
    // Where the record itself shows an image (its Markdown, an alternative's file), as often as it does.
    const shown = [
      ...[question.context, question.alternativesIntroduction, ...question.alternatives.map((alternative) => alternative.text)].flatMap((markdown) => markdownImages(markdown ?? '')),
      ...question.alternatives.flatMap((alternative) => (alternative.file === null ? [] : [normalizedAddress(alternative.file)]))
    ]
    for (const { address } of recordFigures(question)) {
      figures++
      const times = shown.filter((image) => image === normalizedAddress(address)).length
      // A link's destination: the address, then the link's end or its title.
      const links = text.split(`(${address}`).slice(1).filter((after) => after.startsWith(')') || after.startsWith(' ')).length
      assert.equal(links, Math.max(times, 1), `${question.year}/${question.index} ${address} in:\n${text}`)
    }
  }
  assert.ok(figures > 0)
  t.diagnostic(`${figures} figures`)
})
