import { test } from 'node:test'
import assert from 'node:assert/strict'
import { figuresOnlyInFiles, recordFigures, type FiguredRecord } from '../../src/data/record-figures.ts'

/*
 * What a record's figures are (src/data/record-figures.ts), on records made for each case; every
 * served record is checked against the images it names in test/data/records-as-printed.test.ts.
 */

const record = (parts: Partial<FiguredRecord>): FiguredRecord => ({ context: null, alternativesIntroduction: null, files: [], alternatives: [], ...parts })
const alternative = (letter: string, text: string | null, file: string | null = null) => ({ letter: letter as 'A', text, file })

test('every figure once, in reading order: the statement\'s, those files alone hold, the introduction\'s, each alternative\'s', () => {
  const figures = recordFigures(record({
    context: 'Veja ![](s1.png) e ![mapa](s2.png).',
    files: ['s1.png', 'only.png', 's2.png', 'alt-b.png'],
    alternativesIntroduction: 'Segundo ![](intro.png):',
    alternatives: [alternative('A', 'texto'), alternative('B', null, 'alt-b.png'), alternative('C', '![](alt-c.png)')]
  }))
  assert.deepEqual(figures, [
    { address: 's1.png', place: 'context' },
    { address: 's2.png', place: 'context' },
    { address: 'only.png', place: 'files' },
    { address: 'intro.png', place: 'introduction' },
    { address: 'alt-b.png', place: 'alternative', letter: 'B' },
    { address: 'alt-c.png', place: 'alternative', letter: 'C' }
  ])
})

test('a figure named twice is one figure, where it first stands; an address is compared as the page renders it', () => {
  const figures = recordFigures(record({
    // The statement's image as written with a space, the file list with its escape: one file.
    context: '![](<a b.png>) ![](a%20b.png)',
    files: ['a%20b.png', 'a%20b.png'],
    alternatives: [alternative('A', null, 'a b.png')]
  }))
  assert.deepEqual(figures, [{ address: 'a%20b.png', place: 'context' }])
  assert.deepEqual(figuresOnlyInFiles(record({ context: '![](a.png)', files: ['a.png', 'b.png', 'b.png'] })), ['b.png'])
})

test('what the page does not render as an image is not a figure of the text: a script address, an image in a code span', () => {
  const figures = recordFigures(record({ context: '![](javascript:alert(1)) `![](code.png)`', files: ['real.png'] }))
  assert.deepEqual(figures, [{ address: 'real.png', place: 'files' }])
})
