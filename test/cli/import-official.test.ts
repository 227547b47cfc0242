import { test } from 'node:test'
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { promisify } from 'node:util'
import { fileURLToPath } from 'node:url'
import { OFFICIAL_DATA_DIR, readOfficialTable } from '../../src/data/official/official-table.ts'
import { buildOfficialFiles } from '../../src/data/sources/inep-official.ts'

/*
 * data/official is exactly what `npm run import-official` makes of ../shared/inep (and of
 * ../shared/enem-data for corrections.json): it cannot drift by hand.
 */

const REPO = fileURLToPath(new URL('../..', import.meta.url))
const SOURCES_DIR = path.resolve(REPO, '../shared/inep')
const DATASET_DIR = path.resolve(REPO, '../shared/enem-data')
const noSources = existsSync(SOURCES_DIR) ? false : `${SOURCES_DIR} is absent: the official table was NOT compared with INEP's files`
const noDataset = existsSync(DATASET_DIR) ? false : `${DATASET_DIR} is absent: corrections.json was NOT compared with the dataset`

test('every year file of data/official is what the import makes of INEP\'s files and the dataset', { skip: noSources || noDataset }, () => {
  const built = buildOfficialFiles(SOURCES_DIR, DATASET_DIR)
  const committed = readdirSync(OFFICIAL_DATA_DIR).filter((name) => name !== 'corrections.json').sort()
  assert.deepEqual([...built.keys()].filter((name) => name !== 'corrections.json').sort(), committed)
  for (const [name, text] of built) assert.equal(readFileSync(path.join(OFFICIAL_DATA_DIR, name), 'utf8'), text, name)
})

test('data/official/corrections.json is what the import computes against the dataset', { skip: noSources || noDataset }, () => {
  const built = buildOfficialFiles(SOURCES_DIR, DATASET_DIR)
  assert.equal(readFileSync(path.join(OFFICIAL_DATA_DIR, 'corrections.json'), 'utf8'), built.get('corrections.json'))
})

test('where the day-1 PDF and the item data both give a key they agree, or the position is recorded as disputed and gets no entry', { skip: noSources }, async () => {
  const table = readOfficialTable(OFFICIAL_DATA_DIR)
  for (const name of readdirSync(path.join(SOURCES_DIR, 'items'))) {
    if (!name.endsWith('.json')) continue
    const items = JSON.parse(await readFile(path.join(SOURCES_DIR, 'items', name), 'utf8')) as { year: number, items: Array<{ number: number, language?: string, gabarito: string, item: number }> }
    const year = table.years.get(items.year)!
    for (const item of items.items) {
      const language = item.language ?? null
      const position = year.positions.find((entry) => entry.index === item.number && entry.language === language)
      const disputed = year.disagreements.some((entry) => entry.index === item.number && entry.language === language && entry.field === 'key')
      if (disputed) {
        assert.equal(position, undefined)
        continue
      }
      assert.ok(position !== undefined, `${items.year} ${item.number} ${language}`)
      assert.equal(position.key, item.gabarito)
      if (item.number <= 90) assert.ok(position.sources.key.includes(`gabaritos/${items.year}_dia1.pdf`))
    }
  }
})

test('import-official --help prints the usage and exits 0; an unknown flag exits 2', async () => {
  const run = promisify(execFile)
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'src/cli/import-official.ts', '--help'], { cwd: REPO })
  assert.match(stdout, /^Usage: npm run import-official/)
  await assert.rejects(run(process.execPath, ['--import', 'tsx', 'src/cli/import-official.ts', '--bogus'], { cwd: REPO }), (error: { code: number }) => error.code === 2)
})
