import { describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { brotliCompressSync, brotliDecompressSync, constants as zlibConstants, gunzipSync } from 'node:zlib'
import { loadConfig } from '../../src/config.ts'
import { deflatePart, deflatePartFollowedBy, gzipOfParts, storedPart } from '../../src/http/answers/deflated-parts.ts'
import { BROTLI_QUALITY, PreparedBody, partsAnswerGzip } from '../../src/http/answers/prepared-body.ts'
import { PreparedCatalog } from '../../src/http/answers/prepared-catalog.ts'
import { exportEntryBytes, PreparedExport } from '../../src/http/answers/prepared-export.ts'
import { build, FULL_DATA_DIR, loadTestDataset, requestPaths, TEST_PUBLIC_URL } from '../helper.ts'

/*
 * Issue 26, item 3: an answer made for one request (a search page, an unseeded draw, a multi-year
 * export) is compressed at a cost priced for one use: its gzip assembled from parts compressed once
 * (src/http/answers/deflated-parts.ts), brotli only for a small one at a low quality; answers that
 * are kept keep their better levels. Checked by the bytes and the levels, not by timing.
 */

const env: Record<string, string> = FULL_DATA_DIR === undefined ? {} : { ENEM_DATA_DIR: FULL_DATA_DIR }
const dataset = await loadTestDataset(loadConfig({ PUBLIC_URL: TEST_PUBLIC_URL, ...env }))
const catalog = dataset.catalog!
const records = catalog.listExams().flatMap((exam) => [...exam.questions])
const BROWSER = 'gzip, deflate, br'

describe('a gzip body assembled from parts', () => {
  test('inflates to the parts\' bytes one after another, whatever their sizes and kinds', () => {
    const text = Buffer.from('a question, '.repeat(3000))
    const noise = randomBytes(150_000)
    const pieces = [Buffer.from('{"head":['), text, Buffer.from(','), noise, Buffer.alloc(0), Buffer.from(']}')]
    // Stored and deflated parts, mixed; a stored part longer than one stored block (64 KiB).
    const parts = [storedPart(pieces[0]!), deflatePart(pieces[1]!), storedPart(pieces[2]!), storedPart(pieces[3]!), deflatePart(pieces[3]!), deflatePart(pieces[4]!), storedPart(pieces[5]!)]
    const expected = Buffer.concat([pieces[0]!, pieces[1]!, pieces[2]!, pieces[3]!, pieces[3]!, pieces[4]!, pieces[5]!])
    assert.deepEqual(gunzipSync(gzipOfParts(parts)), expected)
    assert.deepEqual(gunzipSync(gzipOfParts([])), Buffer.alloc(0))
  })

  test('its CRC-32, combined from the parts\' own, is the whole\'s, over parts of every length from 0 to a few thousand bytes (gunzip checks it)', () => {
    const pieces = Array.from({ length: 300 }, (_, at) => randomBytes(at % 7 === 0 ? at % 5 : (at * 37) % 4000))
    const parts = pieces.map((piece, at) => (at % 2 === 0 ? storedPart(piece) : deflatePart(piece)))
    assert.deepEqual(gunzipSync(gzipOfParts(parts)), Buffer.concat(pieces))
  })

  test('a part followed by a separator, and the part alone from the same buffer, inflate to the bytes with and without it, in any order and with their CRC-32s', () => {
    const comma = storedPart(Buffer.from(','))
    const newline = storedPart(Buffer.from('\n'))
    const pieces = Array.from({ length: 60 }, (_, at) => (at % 3 === 0 ? randomBytes((at * 53) % 3000) : Buffer.from(`{"index":${at},"text":"${'palavra '.repeat(at)}"}`)))
    const made = pieces.map((piece, at) => deflatePartFollowedBy(piece, at % 2 === 0 ? comma : newline))
    const parts = made.flatMap(({ part, followed }, at) => (at % 4 === 1 ? [part] : [followed, part]))
    const expected = pieces.flatMap((piece, at) => (at % 4 === 1 ? [piece] : [piece, Buffer.from(at % 2 === 0 ? ',' : '\n'), piece]))
    assert.deepEqual(gunzipSync(gzipOfParts(parts)), Buffer.concat(expected))
    // The part is a view of the followed one's buffer: its bytes are not held twice.
    for (const { part, followed } of made) assert.equal(part.deflated.buffer, followed.deflated.buffer)
  })
})

describe('pages and draws made for one request', () => {
  const prepared = new PreparedCatalog(catalog)
  const items = records.slice(0, 50)

  test('a page not kept is a body made for one request: gzip first, assembled from the questions\' parts, the same bytes', () => {
    const page = prepared.page(items, 0, 50)
    assert.equal(page.effort, 'parts')
    assert.equal(page.encodingFor(BROWSER), 'gzip')
    assert.deepEqual(gunzipSync(page.encoded('gzip')), page.raw)
    // Each question's part is made once and kept: a part of every page that lists it.
    assert.equal(prepared.question(items[0]!).deflatedPart, prepared.question(items[0]!).deflatedPart)
  })

  test('a kept page keeps brotli first, at the level of kept bodies', () => {
    const page = prepared.page(items, 0, 50, { keepAs: 'test-list' })
    assert.equal(page.effort, 'fast')
    assert.equal(page.encodingFor(BROWSER), 'br')
    assert.ok(BROTLI_QUALITY.parts < BROTLI_QUALITY.fast)
    assert.deepEqual(brotliDecompressSync(page.encoded('br')), page.raw)
  })

  test('to a client that takes br but not gzip, the bytes as they are (issue 32: brotli for one request cost 15-18 questions\' CPU); brotli, at the one-use quality, only to one that refuses identity', () => {
    const page = prepared.page(items, 0, 50)
    assert.equal(page.encodingFor('br'), 'identity')
    assert.equal(page.encodingFor('br;q=1, identity;q=0.5'), 'identity')
    assert.equal(page.encodingFor('br, gzip;q=0.5'), 'gzip', 'gzip is assembled from parts: whatever the client prefers, it is the cheaper one it takes')
    assert.equal(page.encodingFor('br, identity;q=0'), 'br')
    assert.equal(page.encodingFor('br, *;q=0'), 'br')
    assert.equal(page.encodingFor('br, *;q=0, identity'), 'identity')
    const expected = brotliCompressSync(page.raw, {
      params: {
        [zlibConstants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY.parts,
        [zlibConstants.BROTLI_PARAM_MODE]: zlibConstants.BROTLI_MODE_TEXT,
        [zlibConstants.BROTLI_PARAM_SIZE_HINT]: page.raw.length
      }
    })
    assert.deepEqual(page.encoded('br'), expected, 'compressed at the one-use quality')
    assert.deepEqual(brotliDecompressSync(page.encoded('br')), page.raw)
    assert.equal(page.encodingFor('gzip;q=0, br;q=0'), 'identity')
    assert.equal(page.encodingFor(undefined), 'identity')
  })
})

describe('multi-year exports', () => {
  const years = [...new Set(catalog.listExams().map((exam) => exam.summary.year))].sort((a, b) => a - b)

  test('gzip from the years\' parts, the same bytes as the years\' exports one after another, tagged by them', () => {
    const exports = new PreparedExport(catalog, new PreparedCatalog(catalog))
    const pair = [years[0]!, years.at(-1)!]
    const body = exports.body({ years: pair })
    assert.equal(body.effort, 'parts')
    assert.equal(body.encodingFor(BROWSER), 'gzip')
    assert.equal(body.encodingFor('br'), 'identity', 'never brotli: megabytes per request')
    assert.equal(body.encodingFor('br, identity;q=0'), 'identity')
    const expected = Buffer.concat(pair.map((year) => exports.body({ years: [year] }).raw))
    assert.deepEqual(gunzipSync(body.encoded('gzip')), expected)
    assert.deepEqual(body.raw, expected)
    assert.equal(body.etag, new PreparedExport(catalog, new PreparedCatalog(catalog)).body({ years: pair }).etag, 'the same tag for the same bytes')
    // The whole dataset's gzip is assembled from the same parts, and is the whole export.
    const whole = exports.body({ years })
    assert.deepEqual(gunzipSync(whole.encoded('gzip')), whole.raw)
  })

  test('are tagged alike exactly when their bytes are alike, across instances', (t) => {
    if (years.length < 3) {
      t.skip('needs three exams')
      return
    }
    const selections = [[years[0]!, years[1]!], [years[0]!, years[2]!], [years[1]!, years[2]!], [years[0]!, years[1]!, years[2]!]]
    const first = new PreparedExport(catalog, new PreparedCatalog(catalog))
    const second = new PreparedExport(catalog, new PreparedCatalog(catalog))
    const bodies = selections.map((selection) => first.body({ years: selection }))
    for (const [at, body] of bodies.entries()) {
      assert.equal(second.body({ years: selections[at]! }).etag, body.etag, 'another instance tags the same exams alike')
      for (const other of bodies.slice(at + 1)) {
        assert.equal(other.etag === body.etag, other.raw.equals(body.raw), 'equal tags for equal bytes only')
      }
    }
  })

  test('are kept from their second request, up to the bound, the least recently asked let go first', (t) => {
    if (years.length < 3) {
      t.skip('needs three exams')
      return
    }
    const pairs = [[years[0]!, years[1]!], [years[0]!, years[2]!], [years[1]!, years[2]!]]
    const sizes = pairs.map((pair) => exportEntryBytes(new PreparedExport(catalog, new PreparedCatalog(catalog)).body({ years: pair })))
    // Room for the last two asked, not for all three.
    const bound = sizes[1]! + sizes[2]!
    const exports = new PreparedExport(catalog, new PreparedCatalog(catalog), { multiExamCacheBytes: bound })
    const once = exports.body({ years: pairs[0]! })
    assert.notEqual(exports.body({ years: pairs[0]! }), once, 'asked once, not kept')
    // Asked once each, then again: the second requests are kept, and the first pair, asked least recently, let go.
    for (const pair of pairs.slice(1)) exports.body({ years: pair })
    const bodies = pairs.map((pair) => exports.body({ years: pair }))
    assert.ok(exports.multiExamKeptBytes <= bound)
    assert.equal(exports.body({ years: pairs[2]! }), bodies[2], 'the last one asked is kept')
    assert.equal(exports.body({ years: pairs[1]! }), bodies[1], 'so is the one before')
    assert.notEqual(exports.body({ years: pairs[0]! }), bodies[0], 'the first one asked was let go')
    assert.deepEqual(exports.body({ years: pairs[0]! }).raw, bodies[0]!.raw, 'and is made again alike')
    assert.ok(exports.multiExamKeptBytes <= bound)
  })
})

describe('one-exam exports', () => {
  test('named by years none of their exams is of, are made of shared parts and never kept for good, however many the names', () => {
    const exports = new PreparedExport(catalog, new PreparedCatalog(catalog))
    const exam = catalog.listExams()[0]!
    const year = exam.summary.year
    const own = exports.body({ years: [year], applications: new Set([exam.summary.application]) })
    const keptAtFirst = exports.keptForGood
    // As the battery asks: its year among others that hold none of its application's exams (here, years held by none).
    const names = Array.from({ length: 300 }, (_, at) => [year, 3000 + at].sort((a, b) => a - b))
    for (const years of names) {
      const body = exports.body({ years, applications: new Set([exam.summary.application]) })
      assert.deepEqual(body.raw, own.raw, 'the same lines')
      assert.ok(body.sharedBytes > 0, 'its bytes are the exam\'s, not a copy')
      assert.deepEqual(gunzipSync(body.encoded('gzip')), own.raw)
    }
    assert.equal(exports.keptForGood, keptAtFirst, 'no name of a set of years kept for good')
    assert.ok(exports.multiExamKeptBytes <= 4 * 1024 * 1024)
    assert.equal(exports.body({ years: [year], applications: new Set([exam.summary.application]) }), own, 'its own name\'s body is kept')
  })
})

describe('through the server', () => {
  test('a first search and an unseeded draw answer gzip to a browser, the same bytes as identity; a multi-year export too', async (t) => {
    const server = await build(t, env)
    const get = (url: string, headers: Record<string, string> = {}) => server.request({ method: 'GET', url, headers })
    const word = (await get('/v1/questions?limit=1')).json<{ questions: Array<{ context: string | null }> }>().questions[0]!.context?.match(/\p{L}{4,}/u)?.[0] ?? 'a'
    const url = `/v1/questions?q=${encodeURIComponent(word)}&limit=50`
    const zipped = await get(url, { 'accept-encoding': BROWSER })
    const plain = await get(url)
    if (plain.rawPayload.length >= 512) assert.equal(zipped.headers['content-encoding'], 'gzip')
    const bytes = zipped.headers['content-encoding'] === 'gzip' ? gunzipSync(zipped.rawPayload) : zipped.rawPayload
    assert.deepEqual(bytes, plain.rawPayload)
    assert.equal(zipped.headers.etag, plain.headers.etag)
    // A client that takes br alone: a first search's bytes as they are, on both request paths.
    for (const [name, send] of requestPaths(server)) {
      const first = `/v1/questions?q=${encodeURIComponent(word)}&limit=49&offset=${name.length}`
      const brOnly = await send({ url: first, headers: { 'accept-encoding': 'br' } })
      assert.equal(brOnly.statusCode, 200, name)
      assert.equal(brOnly.headers['content-encoding'], undefined, name)
      assert.equal(brOnly.headers.vary, 'Accept-Encoding', name)
      assert.deepEqual(brOnly.rawPayload, (await send(first)).rawPayload, name)
    }

    const draw = await get('/v1/questions/random?count=50', { 'accept-encoding': BROWSER })
    assert.equal(draw.headers['cache-control'], 'no-store')
    assert.equal(draw.headers['content-encoding'], 'gzip')
    assert.equal(JSON.parse(gunzipSync(draw.rawPayload).toString()).questions.length, Math.min(50, (await get('/v1/questions?limit=1')).json<{ metadata: { total: number } }>().metadata.total))

    const years = (await get('/v1/exams')).json<Array<{ year: number }>>().map((exam) => exam.year).sort((a, b) => a - b)
    const exportUrl = `/v1/export/questions.jsonl?year=${years[0]},${years.at(-1)}`
    const exported = await get(exportUrl, { 'accept-encoding': BROWSER })
    assert.equal(exported.headers['content-encoding'], 'gzip')
    assert.deepEqual(gunzipSync(exported.rawPayload), (await get(exportUrl)).rawPayload)
  })
})

test('partsAnswerGzip, asked before a body of parts exists, says what the body\'s own negotiation chooses', () => {
  const raw = Buffer.from(JSON.stringify({ text: 'a body of parts, long enough to compress '.repeat(30) }))
  const body = new PreparedBody([raw], { etag: '"parts"', effort: 'parts', gzipParts: () => [deflatePart(raw)] })
  assert.ok(body.compressible)
  const offers = [undefined, '', 'gzip, deflate, br', 'gzip', '*', 'br', 'gzip;q=0', 'br, identity;q=0', 'identity', 'GZIP', 'deflate', 'gzip;q=0.1, identity;q=0.5', '*;q=0']
  let gzip = 0
  for (const offer of offers) {
    const chosen = body.encodingFor(offer)
    assert.equal(partsAnswerGzip(offer), chosen === 'gzip', `${offer}: the body answers ${chosen}`)
    if (chosen === 'gzip') gzip++
  }
  assert.ok(gzip >= 2 && gzip < offers.length, `${gzip} of ${offers.length} offers answered gzip`)
})
