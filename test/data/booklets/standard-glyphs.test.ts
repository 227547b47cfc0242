import { test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import * as mupdf from 'mupdf'
import { decodedMarks } from '../../../src/data/booklets/font-decoding.ts'
import { openPdf } from '../../../src/data/booklets/page-marks.ts'
import { symbolGlyphs } from '../../../src/data/booklets/standard-glyphs.ts'

/*
 * standard-glyphs.ts: a symbol font's unmapped glyphs named by the Symbol font MuPDF carries. On the
 * reference itself every sign is named as itself; on
 * 2021 day 2 (CD5), whose SymbolMT subset has neither ToUnicode nor glyph names, every sign named
 * that a keyboard types is one its transcription types, and the pieces of its tall brackets stay unnamed.
 */

const BOOKLET = fileURLToPath(new URL('../../../../shared/inep/booklets/2021/2021_PV_impresso_D2_CD5.pdf', import.meta.url))
const TRANSCRIPTION = fileURLToPath(new URL('../../../../shared/enem-data/2021/questions', import.meta.url))

test('the reference\'s own signs are named as themselves', () => {
  const symbol = new mupdf.Font('Symbol')
  const signs = ['<', '=', '+', '−', 'π', 'Δ', '×', '≤']
  const named = symbolGlyphs(symbol, signs.map((sign) => symbol.encodeCharacter(sign.codePointAt(0)!)))
  assert.deepEqual([...named.values()], signs)
})

test('2021 day 2\'s SymbolMT: every sign named is typed in the transcription, and a bracket\'s pieces are not named', { skip: existsSync(BOOKLET) && existsSync(TRANSCRIPTION) ? false : 'needs ../shared (INEP\'s 2021 booklet and the transcription)' }, () => {
  const pdf = openPdf(readFileSync(BOOKLET), path.basename(BOOKLET))
  const { decodings } = decodedMarks(pdf)
  const symbol = decodings.find((decoding) => /SymbolMT/u.test(decoding.font))
  assert.ok(symbol !== undefined, 'the SymbolMT subset was named')
  const named = [...symbol.glyphs.values()].map((glyph) => glyph.text).filter((text) => text !== ' ')
  assert.ok(named.length >= 10, `${named.length} signs named`)
  const text = readdirSync(TRANSCRIPTION).map((folder) => path.join(TRANSCRIPTION, folder, 'details.json')).filter(existsSync).map((file) => JSON.stringify(JSON.parse(readFileSync(file, 'utf8')))).join('\n')
  // As a transcription types a sign on a keyboard: a minus as a hyphen, a multiplication sign as x, a dot as a full stop.
  const typedAs = (sign: string) => [sign, ({ '−': '-', '×': 'x', '⋅': '.' } as Record<string, string>)[sign] ?? sign]
  // The transcription types no Greek nor arrows (it shows those formulas as pictures): the signs a keyboard has are checked.
  const typable = named.filter((sign) => typedAs(sign).some((typed) => /^[\x21-\x7e]$/u.test(typed)))
  assert.ok(typable.length >= 4, `${typable.length} signs a keyboard types named`)
  const missing = typable.filter((sign) => !typedAs(sign).some((typed) => text.includes(typed)))
  assert.deepEqual(missing, [], 'signs named that the transcription never types')
  // The tall brackets' pieces (in Symbol, extensions of an advance of 0.384 em) match no character.
  assert.ok(symbol.unnamed.glyphs >= 1, 'the bracket pieces stay unnamed')
})
