import { describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { brotliDecompressSync, deflateRawSync, gunzipSync } from 'node:zlib'
import { loadConfig } from '../../src/config.ts'
import { deflatePart, deflatePartOffLoop, gzipChunksOfParts, gzipOfParts, storedPart } from '../../src/http/answers/deflated-parts.ts'
import { ownedBytes } from '../../src/data/dataset/owned-bytes.ts'
import { PreparedCatalog } from '../../src/http/answers/prepared-catalog.ts'
import { PreparedExport } from '../../src/http/answers/prepared-export.ts'
import { FULL_DATA_DIR, loadTestDataset, TEST_PUBLIC_URL } from '../helper.ts'

/*
 * Issue 32: a compressed form that is kept holds no more memory than its own bytes. node:zlib hands
 * back a small output as a view into the larger chunk it wrote into; kept as it came, each of a few
 * thousand questions' parts held that whole chunk.
 */

const env: Record<string, string> = FULL_DATA_DIR === undefined ? {} : { ENEM_DATA_DIR: FULL_DATA_DIR }
const dataset = await loadTestDataset(loadConfig({ PUBLIC_URL: TEST_PUBLIC_URL, ...env }))
const records = dataset.catalog!.listExams().flatMap((exam) => [...exam.questions])

/** The memory a buffer keeps alive: its whole ArrayBuffer. */
const held = (buffer: Buffer) => buffer.buffer.byteLength

describe('kept compressed forms hold their own bytes only', () => {
  test('ownedBytes copies a view into a larger buffer, and gives a buffer that owns its bytes as it is', () => {
    const output = deflateRawSync(Buffer.from('a question '.repeat(50)))
    const owned = ownedBytes(output)
    assert.deepEqual(owned, output)
    assert.equal(held(owned), owned.length)
    assert.equal(ownedBytes(owned), owned)
  })

  test('a question\'s deflated part, br and gzip forms, on every record', async () => {
    const prepared = new PreparedCatalog(dataset.catalog!)
    for (const record of records) {
      const body = prepared.question(record)
      // Its bytes and its deflated part are views of the same followed by a comma (what a list
      // sends for every item but its last), which hold those bytes and no more.
      const { deflated } = body.deflatedPart
      const listed = body.listedPart.deflated
      assert.equal(held(listed), listed.length)
      assert.equal(deflated.buffer, listed.buffer)
      assert.deepEqual(listed.subarray(0, deflated.length), deflated)
      assert.equal(held(body.listedRaw), body.raw.length + 1)
      assert.equal(body.raw.buffer, body.listedRaw.buffer)
      assert.equal(body.listedRaw.toString('utf8'), `${body.raw.toString('utf8')},`)
      assert.deepEqual(gunzipSync(gzipOfParts([body.deflatedPart])), body.raw)
      const br = body.encoded('br')
      assert.equal(held(br), br.length)
      assert.deepEqual(brotliDecompressSync(br), body.raw)
      const gzip = body.encoded('gzip')
      assert.equal(held(gzip), gzip.length)
      assert.deepEqual(gunzipSync(gzip), body.raw)
    }
    const offLoop = await deflatePartOffLoop(prepared.question(records[0]!).raw)
    assert.equal(held(offLoop.deflated), offLoop.deflated.length)
    assert.deepEqual(offLoop.deflated, deflatePart(prepared.question(records[0]!).raw).deflated)
  })

  test('a page, kept or made for one request, and its gzip assembled from parts', () => {
    const prepared = new PreparedCatalog(dataset.catalog!)
    const view = records.slice(0, 12)
    for (const page of [prepared.page(view, 0, 10, { keepAs: 'first twelve' }), prepared.pageOfItems(view.slice(0, 3), view.length, 0, 3)]) {
      assert.equal(held(page.raw), page.raw.length)
      const gzip = page.encoded('gzip')
      assert.equal(held(gzip), gzip.length)
      assert.deepEqual(gunzipSync(gzip), page.raw)
    }
    const chunks = gzipChunksOfParts([storedPart(Buffer.from('{"head":')), prepared.question(records[0]!).listedPart])
    for (const chunk of chunks.slice(1)) assert.equal(held(chunk), chunk.length)
  })

  test('each year\'s export is a view into the whole export\'s bytes, holding that year\'s lines', () => {
    const exports = new PreparedExport(dataset.catalog!, new PreparedCatalog(dataset.catalog!))
    const whole = exports.body({}).raw
    const lines = whole.toString('utf8').split('\n').filter((line) => line !== '')
    const years = [...new Set(dataset.catalog!.listExams().map((exam) => exam.summary.year))]
    for (const year of years) {
      const raw = exports.body({ years: [year] }).raw
      assert.equal(raw.buffer, whole.buffer, `${year}: no copy`)
      const expected = lines.filter((line) => (JSON.parse(line) as { year: number }).year === year)
      assert.ok(expected.length > 0)
      assert.equal(raw.toString('utf8'), `${expected.join('\n')}\n`)
    }
  })
})
