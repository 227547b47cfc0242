import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { OFFICIAL_DATA_DIR } from '../data/official/official-table.ts'
import { buildOfficialFiles } from '../data/sources/inep-official.ts'
import { BOOKLET_TABLE_DIR, buildBookletTableFiles } from '../data/scores/booklet-table.ts'

/**
 * `npm run import-official -- [--sources DIR] [--dataset DIR] [--out DIR]`: reads INEP's files
 * (answer-key PDFs and item data; default `../shared/inep` beside the repository) and writes the
 * official table, one `<year>.json` per exam year, plus `corrections.json` computed against the
 * dataset (default ENEM_DATA_DIR, else `../shared/enem-data`), into `data/official`; and what
 * scoring an answer sheet needs of INEP's ITENS_PROVA files into `data/scores` (src/data/scores/booklet-table.ts).
 */
const REPO = fileURLToPath(new URL('../..', import.meta.url))
export const DEFAULT_SOURCES_DIR = path.resolve(REPO, '../shared/inep')
export const DEFAULT_DATASET_DIR = path.resolve(REPO, '../shared/enem-data')

const USAGE = `Usage: npm run import-official -- [--sources DIR] [--dataset DIR] [--out DIR]
  --sources DIR  INEP's files: gabaritos/*.pdf and items/*.json (default ${DEFAULT_SOURCES_DIR})
  --dataset DIR  dataset the corrections are computed against (default ENEM_DATA_DIR, else ${DEFAULT_DATASET_DIR})
  --out DIR      where the table is written, replacing its JSON files (default ${OFFICIAL_DATA_DIR})
The booklets scoring needs (from itens-prova/*.csv) go to ${BOOKLET_TABLE_DIR}.
Needs pdftotext (Debian package poppler-utils).`

let values: { sources?: string, dataset?: string, out?: string, help?: boolean }
try {
  values = parseArgs({ options: { sources: { type: 'string' }, dataset: { type: 'string' }, out: { type: 'string' }, help: { type: 'boolean' } } }).values
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n${USAGE}\n`)
  process.exit(2)
}
if (values.help === true) {
  process.stdout.write(`${USAGE}\n`)
  process.exit(0)
}

const sourcesDir = path.resolve(values.sources ?? DEFAULT_SOURCES_DIR)
const datasetDir = path.resolve(values.dataset ?? (process.env.ENEM_DATA_DIR || DEFAULT_DATASET_DIR))
const outDir = path.resolve(values.out ?? OFFICIAL_DATA_DIR)

writeTableFolder(outDir, buildOfficialFiles(sourcesDir, datasetDir), `${sourcesDir} and ${datasetDir}`)
writeTableFolder(BOOKLET_TABLE_DIR, buildBookletTableFiles(sourcesDir), sourcesDir)

/** Replaces the JSON files of a folder by `files` (name → text). */
function writeTableFolder (dir: string, files: ReadonlyMap<string, string>, from: string): void {
  mkdirSync(dir, { recursive: true })
  for (const name of readdirSync(dir)) if (name.endsWith('.json')) rmSync(path.join(dir, name))
  for (const [name, text] of files) writeFileSync(path.join(dir, name), text)
  process.stdout.write(`Wrote ${files.size} files to ${dir} from ${from}\n`)
}
