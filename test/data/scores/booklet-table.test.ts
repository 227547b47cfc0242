import { test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { BOOKLET_TABLE_DIR, buildBookletTableFiles, readBookletTables } from '../../../src/data/scores/booklet-table.ts'
import { readItensProva } from '../../../src/data/official/itens-prova.ts'

/*
 * data/scores is exactly what `npm run import-official` makes of INEP's ITENS_PROVA files
 * (../shared/inep/itens-prova): the server scores sheets from it without those files.
 */

const REPO = fileURLToPath(new URL('../../..', import.meta.url))
const SOURCES_DIR = path.resolve(REPO, '../shared/inep')
const noSources = existsSync(path.join(SOURCES_DIR, 'itens-prova')) ? false : `${SOURCES_DIR}/itens-prova is absent: data/scores was NOT compared with INEP's files`

test('every file of data/scores is what the import makes of INEP\'s ITENS_PROVA files', { skip: noSources }, () => {
  const built = buildBookletTableFiles(SOURCES_DIR)
  assert.deepEqual([...built.keys()].sort(), readdirSync(BOOKLET_TABLE_DIR).sort())
  for (const [name, text] of built) assert.equal(readFileSync(path.join(BOOKLET_TABLE_DIR, name), 'utf8'), text, name)
})

test('the committed table gives every ordered booklet\'s items, keys, abandonment and parameters, slot by slot, as INEP\'s file has them', { skip: noSources }, () => {
  const tables = readBookletTables()
  for (const year of [2009, 2017, 2023]) {
    const items = readItensProva(SOURCES_DIR, year)
    const booklets = tables.get(year)!
    assert.deepEqual([...booklets.keys()].sort((a, b) => a - b), [...items.booklets.keys()])
    for (const booklet of items.booklets.values()) {
      const scoring = booklets.get(booklet.code)!
      assert.equal(scoring.area, booklet.area)
      assert.equal(scoring.unordered, booklet.unordered)
      if (booklet.unordered !== null) continue
      assert.equal(scoring.slots.length, booklet.slots.length)
      booklet.slots.forEach((slot, at) => {
        const entry = scoring.slots[at]!
        for (const row of slot.items) {
          const item = 'common' in entry ? entry.common : entry[row.language!]
          assert.deepEqual(item, { item: row.item, key: row.key, abandoned: row.abandoned, irt: row.irt, skill: row.skill }, `${year} booklet ${booklet.code} slot ${slot.slot}`)
        }
      })
    }
  }
})
