import { test } from 'node:test'
import assert from 'node:assert/strict'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { tesseract } from '../../../../src/data/booklets/ocr.ts'
import { findBookletFiles } from '../../../../src/data/sources/booklets/booklet-files.ts'
import { ANSWER_KEY_TEXTS } from '../../../../src/data/sources/booklets/booklet-source.ts'
import { conversionKey, convertBookletsCached, defaultConversionCache, readEntry, readerCodeHash, writeEntry } from '../../../../src/data/sources/booklets/conversion-cache.ts'
import { INEP_DATA_DIR } from '../../../../src/data/sources/build-dataset.ts'
import type { ConvertedExam } from '../../../../src/data/sources/converted-exam.ts'

/*
 * The conversion cache (src/data/sources/booklets/conversion-cache.ts): an entry gives back the exam
 * it was written from, bytes and all; its key follows every input and nothing else; and a real exam is
 * converted once, then taken from the cache the build and the other tests share.
 */

const REPO = fileURLToPath(new URL('../../../..', import.meta.url))
const BOOKLETS = path.resolve(REPO, '../shared/inep/booklets')
const noCopy = existsSync(BOOKLETS) ? false : `${BOOKLETS} is absent: no booklet was converted`

function scratch (t: { after: (fn: () => void) => void }): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'conversion-cache-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

/** A folder of links to 2023 day 2's booklet and answer key, with the key's committed text. */
function folder2023 (dir: string): string {
  const at = path.join(dir, 'booklets', '2023')
  mkdirSync(at, { recursive: true })
  for (const name of ['2023_PV_impresso_D2_CD7.pdf', '2023_GB_impresso_D2_CD7.pdf']) symlinkSync(path.join(BOOKLETS, '2023', name), path.join(at, name))
  symlinkSync(path.join(INEP_DATA_DIR, ANSWER_KEY_TEXTS, '2023_GB_impresso_D2_CD7.pdf.txt'), path.join(at, '2023_GB_impresso_D2_CD7.pdf.txt'))
  return path.dirname(at)
}

test('an entry gives back the exam written, each record\'s files as the same bytes; a half-written one is not an entry', (t) => {
  const dir = scratch(t)
  const png = new Uint8Array([137, 80, 78, 71, 1, 2, 3])
  const exam = {
    kind: 'inep-booklets',
    id: { year: 2023, application: 'regular' },
    sourceRecords: 2,
    records: [
      { record: { index: 91, context: 'Texto ![Figura 1](x/figura-1.png)' }, files: new Map([['figura-1.png', png]]), source: 'a question 91', sourceIndex: 91 },
      { record: { index: 92, context: null }, files: new Map(), source: 'a question 92', sourceIndex: 92 }
    ],
    leftOut: [],
    booklets: [],
    table: { year: 2023, areaOrder: null, booklets: [], positions: [], disagreements: [], notes: [] },
    corrections: [],
    warnings: ['a note'],
    reading: { figures: 1, ocrLines: 0 }
  } as unknown as ConvertedExam
  assert.equal(writeEntry(path.join(dir, 'entry'), exam), true)
  assert.deepEqual(readEntry(path.join(dir, 'entry')), exam)
  writeFileSync(path.join(dir, 'entry', 'exam.json'), '{"format":1,"rec')
  assert.throws(() => readEntry(path.join(dir, 'entry')))
  // A folder that cannot be written is no error: the exam is converted every time.
  writeFileSync(path.join(dir, 'file'), '')
  assert.equal(writeEntry(path.join(dir, 'file', 'entry'), exam), false)
})

test('the key changes with a booklet\'s bytes, the answer key\'s text, the year\'s ITENS_PROVA and the OCR, and with nothing else', { skip: noCopy }, (t) => {
  const dir = scratch(t)
  const source = folder2023(dir)
  const inep = path.join(dir, 'inep')
  cpSync(INEP_DATA_DIR, inep, { recursive: true })
  const key = () => conversionKey(findBookletFiles(source)[0]!, inep, tesseract)
  const first = key()
  assert.match(first, /^[0-9a-f]{64}$/)
  assert.equal(conversionKey(findBookletFiles(source)[0]!, INEP_DATA_DIR, tesseract), first, 'the same files elsewhere')
  assert.notEqual(conversionKey(findBookletFiles(source)[0]!, inep, null), first, 'without OCR')
  // Another year's item data is not an input of 2023's conversion.
  writeFileSync(path.join(inep, 'itens-prova', 'ITENS_PROVA_2025.csv'), 'changed')
  assert.equal(key(), first)
  writeFileSync(path.join(inep, 'itens-prova', 'ITENS_PROVA_2023.csv'), `${readFileSync(path.join(INEP_DATA_DIR, 'itens-prova', 'ITENS_PROVA_2023.csv'), 'utf8')}\n`)
  const withItems = key()
  assert.notEqual(withItems, first)
  const text = path.join(source, '2023', '2023_GB_impresso_D2_CD7.pdf.txt')
  rmSync(text)
  writeFileSync(text, `${readFileSync(path.join(INEP_DATA_DIR, ANSWER_KEY_TEXTS, '2023_GB_impresso_D2_CD7.pdf.txt'), 'utf8')} `)
  assert.notEqual(key(), withItems)
  assert.match(readerCodeHash(), /^[0-9a-f]{64}$/)
})

test('a real exam is converted once: the next conversion is taken from the shared cache and is the same exam', { skip: noCopy }, (t) => {
  const source = folder2023(scratch(t))
  const cacheDir = defaultConversionCache()
  const [first] = convertBookletsCached(source, INEP_DATA_DIR, { ocr: tesseract, cacheDir })
  const [again] = convertBookletsCached(source, INEP_DATA_DIR, { ocr: tesseract, cacheDir })
  assert.ok(first !== undefined && again !== undefined)
  assert.equal(again.cached, true)
  assert.equal(again.key, first.key)
  assert.ok(existsSync(path.join(cacheDir, first.key, 'exam.json')))
  assert.deepEqual(again.exam, first.exam)
  // The day's 90 positions, less those INEP annulled, read or left out with a reason.
  assert.equal(first.exam.records.length + first.exam.leftOut.length, first.exam.table.positions.length)
  assert.ok(first.exam.records.length > 80, `${first.exam.records.length} records`)
})
