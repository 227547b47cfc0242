import { test } from 'node:test'
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { readItensProva } from '../../../../src/data/official/itens-prova.ts'
import { bookletColour, FIRST_COLOUR_YEAR, LAST_COLOUR_YEAR, sameColour } from '../../../../src/data/sources/booklets/booklet-colours.ts'
import { listBookletFiles, parseBookletFileName } from '../../../../src/data/sources/booklets/booklet-files.ts'
import { resolveBookletKeys } from '../../../../src/data/sources/booklets/booklet-keys.ts'
import { readGabarito } from '../../../../src/data/sources/inep-official.ts'

/*
 * The caderno → colour map against what INEP's own files say: the colour every booklet and answer
 * key here prints beside its caderno number, the legend the 2025 covers print, and ITENS_PROVA's
 * colours of every year 2009–2025 (../shared/inep).
 */

const REPO = fileURLToPath(new URL('../../../..', import.meta.url))
const INEP = path.resolve(REPO, '../shared/inep')
const BOOKLETS = path.join(INEP, 'booklets')
const GABARITOS = path.join(INEP, 'gabaritos')
const noBooklets = existsSync(BOOKLETS) ? false : `${BOOKLETS} is absent: the map was NOT compared with INEP's booklets`
const noGabaritos = existsSync(GABARITOS) ? false : `${GABARITOS} is absent: the map was NOT compared with INEP's answer keys`
const noItems = existsSync(path.join(INEP, 'itens-prova')) ? false : `${INEP}/itens-prova is absent: the map was NOT compared with ITENS_PROVA`

/**
 * Text whose font maps its glyphs to codes shifted by a constant (SOURCE.md: 2010, 2018's footer): such a line
 * holds the shifted space (U+0003), and every code of it from U+0003 on is its character less 29.
 */
function unshifted (text: string): string {
  return text.split('\n').map((line) => (line.includes('\u0003') ? [...line].map((character) => (character >= '\u0003' && character <= '\u005e' ? String.fromCharCode(character.charCodeAt(0) + 29) : character)).join('') : line)).join('\n')
}

function pdfText (file: string, first: number, last: number, layout = true): string {
  return execFileSync('pdftotext', [...(layout ? ['-layout'] : []), '-f', String(first), '-l', String(last), file, '-'], { encoding: 'utf8' })
}

test('a caderno outside its day, a day other than 1 and 2, and a year whose colours are not known are refused with what is known', () => {
  assert.throws(() => bookletColour(2025, 'regular', 1, 7), /day 1 has booklets CD1–CD4, not CD7/)
  assert.throws(() => bookletColour(2025, 'regular', 2, 4), /day 2 has booklets CD5–CD8, not CD4/)
  assert.throws(() => bookletColour(2025, 'regular', 3, 1), /ENEM has no day 3/)
  assert.throws(() => bookletColour(LAST_COLOUR_YEAR + 1, 'regular', 1, 1), new RegExp(`ENEM ${LAST_COLOUR_YEAR + 1}: the colour of day 1 CD1 is not known`))
  assert.throws(() => bookletColour(FIRST_COLOUR_YEAR - 1, 'ppl', 2, 6), /is not known/)
})

test('two names are one colour whatever their case and -o/-a ending, and rosa is not roxa', () => {
  assert.ok(sameColour('AMARELO', 'amarela'))
  assert.ok(sameColour('Branco', 'BRANCA'))
  assert.ok(!sameColour('rosa', 'roxa'))
  assert.ok(!sameColour('azul', 'amarela'))
})

test('every answer key here prints, beside its day and caderno, the colour the map gives', { skip: noBooklets || noGabaritos }, () => {
  const keys = [
    ...listBookletFiles(BOOKLETS).filter((file) => file.kind === 'key').map((file) => ({ file: file.path, year: file.year })),
    ...readdirSync(GABARITOS).filter((name) => name.endsWith('.pdf')).map((name) => ({ file: path.join(GABARITOS, name), year: Number(name.slice(0, 4)) }))
  ]
  assert.ok(keys.length >= 30, `${keys.length} answer keys`)
  for (const { file, year } of keys) {
    const key = readGabarito(path.dirname(file), path.basename(file))
    const printed = key.printed
    // A key may not print its day (2011's says only `Caderno 1 – Azul`): its INEP name then says it.
    const day = printed?.day ?? parseBookletFileName(path.basename(file))?.day ?? null
    assert.ok(day !== null && printed?.booklet != null && printed.colour != null, `${file}: ${JSON.stringify(printed)}`)
    if (printed.day != null && parseBookletFileName(path.basename(file)) !== null) assert.equal(printed.day, parseBookletFileName(path.basename(file))!.day, file)
    const colour = bookletColour(year, key.secondApplication ? 'ppl' : 'regular', day, printed.booklet)
    assert.ok(sameColour(printed.colour, colour), `${file}: prints ${printed.colour}, the map gives ${colour}`)
  }
})

test('every booklet here prints its caderno and the colour the map gives in its footer', { skip: noBooklets }, () => {
  const booklets = listBookletFiles(BOOKLETS).filter((file) => file.kind === 'booklet')
  for (const file of booklets) {
    const footer = /CADERNO\s*(\d{1,2})\s*[–•|-]\s*([A-Za-zÇç]+)/i.exec(unshifted(pdfText(file.path, 2, 3)))
    assert.ok(footer !== null, `${file.name}: no footer naming the caderno`)
    assert.equal(Number(footer[1]), file.booklet, file.name)
    const colour = bookletColour(file.year, file.application, file.day, file.booklet)
    assert.ok(sameColour(footer[2]!, colour), `${file.name}: prints ${footer[2]}, the map gives ${colour}`)
  }
})

test('the 2025 covers\' legend (1 Azul … 8 Verde) gives every caderno the map\'s colour', { skip: noBooklets }, () => {
  const cover = pdfText(path.join(BOOKLETS, '2025', '2025_PV_impresso_D1_CD1.pdf'), 1, 1, false)
  // The legend is clipped at the cover's edge: `1 Azu`, `2 Am`, `6 Cinz`, `8 Ver`; entries past 8 are not colours (Ledor, Libras).
  const legend = [...cover.matchAll(/^(\d{1,2}) ([A-Z][a-z]+)$/gm)].map((match) => ({ cd: Number(match[1]), shown: match[2]!.toLowerCase() })).filter(({ cd }) => cd <= 8)
  assert.deepEqual([...new Set(legend.map(({ cd }) => cd))].sort(), [1, 2, 3, 4, 5, 6, 7, 8])
  for (const { cd, shown } of legend) {
    const colour = bookletColour(2025, 'regular', cd <= 4 ? 1 : 2, cd)
    assert.ok(colour.startsWith(shown), `CD${cd}: the legend shows ${shown}…, the map gives ${colour}`)
  }
})

test('every year 2009–2025: each caderno\'s colour, spelt as that year\'s ITENS_PROVA writes it, is a booklet of the regular application in each area of its day, four cadernos four booklets', { skip: noItems || noGabaritos }, () => {
  for (let year = FIRST_COLOUR_YEAR; year <= LAST_COLOUR_YEAR; year++) {
    const items = readItensProva(INEP, year)
    for (const day of [1, 2] as const) {
      const keyFile = `gabaritos/${year}_dia${day}.pdf`
      const dayKey = existsSync(path.join(INEP, keyFile)) ? readGabarito(INEP, keyFile) : null
      const codes = [0, 1, 2, 3].map((offset) => {
        const cd = (day === 1 ? 1 : 5) + offset
        const keys = resolveBookletKeys({ year, application: 'regular', day, cd, items, answerKey: null, dayKey })
        for (const area of keys.areas) assert.equal(area.colour, bookletColour(year, 'regular', day, cd), `${year} CD${cd} ${area.area}`)
        return keys.areas.map((area) => area.coProva)
      })
      for (const area of [0, 1]) assert.equal(new Set(codes.map((pair) => pair[area])).size, 4, `${year} day ${day}: ${JSON.stringify(codes)}`)
    }
  }
})
