import { test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { ACCEPTED_SHARE, decodedMarks, decodeFonts, type FontDecoding } from '../../../src/data/booklets/font-decoding.ts'
import { likeness, renderGlyphs } from '../../../src/data/booklets/glyph-shapes.ts'
import { checkedOcrLine } from '../../../src/data/booklets/ocr.ts'
import { openPdf, type PageMarks, type PdfBooklet } from '../../../src/data/booklets/page-marks.ts'
import { BRAZILIAN_WORDS, brazilianWords, WordListUnavailable, wordListOf, wordShare, wordsOf } from '../../../src/data/booklets/word-list.ts'

/*
 * Fonts decoded glyph by glyph, on INEP's own PDFs (../shared/inep/booklets; skipped without them,
 * or without Debian's word list): 2010 day 1 sets its body in a CID Arial with no text mapping at
 * all, 2021 day 2 in an Arial that maps a letter once and leaves copies of it unmapped. What a test
 * checks is measured against something the decoding did not use: the pixels of the glyphs it names
 * (re-rendered here), the word list, and the predecessor's transcription of the same exam.
 */

const SHARED = fileURLToPath(new URL('../../../../shared/', import.meta.url))
const BOOKLETS = path.join(SHARED, 'inep/booklets')
const skip = !existsSync(BOOKLETS)
  ? 'needs ../shared/inep/booklets (INEP\'s PDFs), which only the project\'s machines have'
  : !existsSync(BRAZILIAN_WORDS) ? `needs Debian's word list at ${BRAZILIAN_WORDS} (apt-get install wbrazilian; .ci/run does)` : false

interface Decoded { readonly pdf: PdfBooklet, readonly marks: PageMarks[], readonly decodings: FontDecoding[] }
const decoded = new Map<string, Decoded>()
function decode (file: string): Decoded {
  let found = decoded.get(file)
  if (found === undefined) {
    const pdf = openPdf(readFileSync(path.join(BOOKLETS, file)), file)
    found = { pdf, ...decodedMarks(pdf) }
    decoded.set(file, found)
  }
  return found
}

/** The font that prints most of the booklet's unmapped glyphs, and its decoding. */
function bodyDecoding (file: string): FontDecoding {
  const { decodings } = decode(file)
  const unmapped = decodings.filter((decoding) => decoding.reason === 'unmapped')
  assert.ok(unmapped.length > 0, `${file}: a font without mapping found`)
  return unmapped.sort((a, b) => b.share.words - a.share.words)[0]!
}

/** The text of a font's glyphs as read, page after page. */
function fontText (file: string, font: string): string {
  return decode(file).marks.map((page) => page.glyphs.filter((glyph) => glyph.source?.font === font).map((glyph) => glyph.mapped ? glyph.text : '\u25a1').join('')).join(' ')
}

test('the word list: a share of words found, two letters or more, hyphenated parts each', () => {
  const list = wordListOf('casa\nguarda\nchuva\nÁgua\n')
  assert.deepEqual(wordShare(list, 'A casa, a água e o guarda-chuva; xyzw.'), { words: 4, found: 3, share: 0.75 })
  assert.deepEqual(wordsOf('d’água, pé-de-moleque'), ['d’água', 'pé-de-moleque'])
  assert.equal(wordShare(list, '').share, 0)
})

test('a missing word list is a one-line error that names the package', () => {
  const missing = path.join(tmpdir(), 'no-such-word-list')
  assert.throws(() => brazilianWords(missing), (error: Error) => error instanceof WordListUnavailable && !error.message.includes('\n') && error.message.includes('wbrazilian'))
})

test('2010 day 1: the CID Arial with no mapping decodes, its shift agreeing with the glyphs named by shape', { skip }, () => {
  const file = '2010/2010_PV_impresso_D1_CD1.pdf'
  const body = bodyDecoding(file)
  assert.ok(body.accepted, `${body.font} decoded`)
  assert.ok(body.share.words > 5000 && body.share.share >= ACCEPTED_SHARE, `${body.share.found} of ${body.share.words} words Portuguese`)
  // The shift is no guess: every glyph named by its shape whose character is ASCII sits at id + shift.
  assert.notEqual(body.shift, null)
  const byShape = [...body.glyphs].filter(([, glyph]) => glyph.by === 'shape' && /^[!-~]$/u.test(glyph.text))
  assert.ok(byShape.length >= 20, `${byShape.length} glyphs named by shape`)
  for (const [gid, glyph] of byShape) assert.equal(gid + body.shift!, glyph.text.charCodeAt(0), `glyph ${gid} drawn as ${glyph.text}`)
  // Nearly every glyph printed is now read.
  const text = fontText(file, body.font)
  const unread = [...text].filter((character) => character === '\u25a1').length
  assert.ok(unread < 0.01 * text.length, `${unread} of ${text.length} glyphs printed unnamed`)
})

test('2021 day 2: each glyph named by shape draws the same pixels as the glyph mapped to that text', { skip }, () => {
  const file = '2021/2021_PV_impresso_D2_CD5.pdf'
  const body = bodyDecoding(file)
  assert.ok(body.accepted && body.share.share >= ACCEPTED_SHARE, `${body.share.found} of ${body.share.words} words Portuguese`)
  const { marks, pdf } = decode(file)
  const font = pdf.fonts().get(body.font)!
  const own = new Map<string, number>()
  for (const glyph of marks.flatMap((page) => page.glyphs)) {
    if (glyph.source?.font === body.font && body.glyphs.get(glyph.source.gid)?.by === 'own') own.set(glyph.text, glyph.source.gid)
  }
  const pairs = [...body.glyphs].filter(([, glyph]) => glyph.by === 'shape' && own.has(glyph.text)).map(([gid, glyph]) => [gid, own.get(glyph.text)!] as const)
  assert.ok(pairs.length >= 50, `${pairs.length} glyphs with a mapped twin`)
  const shapes = renderGlyphs(pairs.flatMap(([a, b]) => [{ font, gid: a }, { font, gid: b }]))
  for (let at = 0; at < pairs.length; at++) assert.ok(likeness(shapes[2 * at]!, shapes[2 * at + 1]!) > 0.97, `glyph ${pairs[at]![0]} and ${pairs[at]![1]}`)
})

/** The share of a booklet's words holding a glyph its body font left unmapped, as decoded, that the transcription of its year holds. */
function decodedWordsTranscribed (file: string, year: number): { read: number, found: number } | null {
  const transcribed = path.join(SHARED, `enem-data/${year}/questions`)
  if (!existsSync(transcribed)) return null
  const words = new Set<string>()
  for (const folder of readdirSync(transcribed)) {
    const details = JSON.parse(readFileSync(path.join(transcribed, folder, 'details.json'), 'utf8')) as { context?: string | null, alternativesIntroduction?: string | null, alternatives?: Array<{ text?: string | null }> }
    const text = [details.context, details.alternativesIntroduction, ...(details.alternatives ?? []).map((alternative) => alternative.text)].join(' ')
    for (const word of wordsOf(text)) words.add(word.toLowerCase())
  }
  const body = bodyDecoding(file)
  // Words holding a glyph the font left unmapped, as decoded: they must be the transcription's.
  const decodedOnly = new Set([...body.glyphs].filter(([, glyph]) => glyph.by !== 'own').map(([, glyph]) => glyph.text).filter((text) => /\p{L}/u.test(text)))
  const read = wordsOf(fontText(file, body.font)).filter((word) => word.length > 2 && [...word].some((letter) => decodedOnly.has(letter)))
  return { read: read.length, found: read.filter((word) => words.has(word.toLowerCase())).length }
}

/** More than a thousand words hold a decoded glyph, and nine in ten of them are the transcription's (where it is at hand). */
function assertDecodedWordsTranscribed (file: string, year: number): void {
  const measured = decodedWordsTranscribed(file, year)
  if (measured === null) return
  assert.ok(measured.read > 1000, `${measured.read} words with decoded glyphs`)
  assert.ok(measured.found / measured.read >= 0.9, `${measured.found} of ${measured.read} decoded words in the transcription`)
}

test('2021 day 2: the decoded text\'s words are the transcription\'s words', { skip }, () => {
  assertDecodedWordsTranscribed('2021/2021_PV_impresso_D2_CD5.pdf', 2021)
})

test('2018 day 2: an Arial subset with no mapping reads its accented letters, which another Arial subset maps drawn a little otherwise', { skip }, () => {
  // Its é, ã, ó are 0.77–0.94 alike to the mapped ones, below the same-shape bar: the words name them.
  const file = '2018/2018_PV_impresso_D2_CD5.pdf'
  const body = bodyDecoding(file)
  assert.ok(body.accepted, `${body.font} decoded`)
  const text = fontText(file, body.font)
  const unread = [...text].filter((character) => character === '\u25a1').length
  assert.ok(unread < 0.01 * text.length, `${unread} of ${text.length} glyphs printed unnamed`)
  assertDecodedWordsTranscribed(file, 2018)
})

test('2018 day 2: signs no mapped glyph draws are named by the standard font Arial follows (Helvetica), no letter among them; its bullets are the transcription\'s', { skip }, () => {
  // No mapped font of the booklet prints its bullet, quotes or º: shape (the same pixels) and words cannot name them.
  const file = '2018/2018_PV_impresso_D2_CD5.pdf'
  const body = bodyDecoding(file)
  const signs = [...body.glyphs.values()].filter((glyph) => glyph.by === 'standard').map((glyph) => glyph.text)
  for (const sign of ['•', '“', '”']) assert.ok(signs.includes(sign), `${sign} named (named: ${signs.join(' ')})`)
  assert.deepEqual(signs.filter((text) => /^[\p{Script=Latin}]$/u.test(text) && !/[ºª]/u.test(text)), [], 'no Latin letter named by a standard font')
  const bullets = decode(file).marks.flatMap((page) => page.glyphs).filter((glyph) => glyph.source?.font === body.font && glyph.text === '•').length
  const transcribed = path.join(SHARED, 'enem-data/2018/questions')
  if (!existsSync(transcribed)) return
  // Day 2 is 91–180 (the blue booklet's numbers); each bullet the transcription types is one printed.
  let typed = 0
  for (let index = 91; index <= 180; index++) {
    const details = path.join(transcribed, String(index), 'details.json')
    if (existsSync(details)) typed += [...(JSON.parse(readFileSync(details, 'utf8')) as { context?: string | null }).context ?? ''].filter((character) => character === '•').length
  }
  assert.ok(typed > 0)
  assert.equal(bullets, typed)
})

test('fonts whose mapping reads as Portuguese are left as they are', { skip }, () => {
  const file = '2021/2021_PV_impresso_D2_CD5.pdf'
  const { decodings, marks } = decode(file)
  const decodedFonts = new Set(decodings.map((decoding) => decoding.font))
  const untouched = new Set(marks.flatMap((page) => page.glyphs).filter((glyph) => glyph.source !== undefined && !decodedFonts.has(glyph.source.font)).map((glyph) => glyph.source!.font))
  assert.ok(untouched.size > 3)
  assert.ok(!decodings.some((decoding) => decoding.reason === 'wrong-mapping'), 'no mapped font of 2021 taken for a shifted one')
})

test('without the word list, a font is read by its glyphs\' shapes alone: nothing guessed', { skip }, () => {
  const file = '2021/2021_PV_impresso_D2_CD5.pdf'
  const { pdf } = decode(file)
  const raw = Array.from({ length: pdf.pages }, (_, at) => pdf.marks(at + 1))
  const { decodings } = decodeFonts(raw, pdf.fonts(), { words: null })
  const body = decodings.find((decoding) => decoding.font === bodyDecoding(file).font)!
  assert.ok(body.accepted && body.named.shape > 0)
  assert.equal(body.named.shift + body.named.words + body.named.ocr, 0)
  for (const [gid, glyph] of body.glyphs) assert.equal(glyph.text, bodyDecoding(file).glyphs.get(gid)?.text, `glyph ${gid} named as with the list`)
})

test('a line read by OCR is checked as a decoding is: split words joined, stray marks dropped, I for l in a numeral, nonsense refused', { skip: existsSync(BRAZILIAN_WORDS) ? false : `needs ${BRAZILIAN_WORDS}` }, () => {
  const words = brazilianWords()
  // The misreadings issue 58 quotes from 2021 day 2's line OCR.
  assert.equal(checkedOcrLine('uma serp ente-marinha (6).', words), 'uma serpente-marinha (6).')
  assert.equal(checkedOcrLine('1) s ensibilizar a comunidade', words), '1) sensibilizar a comunidade')
  assert.equal(checkedOcrLine('Il. o medicamento . Z, e não há desconto', words), 'II. o medicamento Z, e não há desconto')
  // Two words that are words stay two.
  assert.equal(checkedOcrLine('a casa de pedra', words), 'a casa de pedra')
  assert.equal(checkedOcrLine('lhq xzvt qwmr pkk', words), null)
})
