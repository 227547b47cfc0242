import path from 'node:path'
import { parseArgs } from 'node:util'
import { SOURCE_KINDS, type ConvertedExam, type SourceKind } from '../data/sources/converted-exam.ts'
import { formatSummary } from '../data/sources/conversion-summary.ts'
import { convertEnemDevPpl } from '../data/sources/enem-dev-ppl.ts'
import { convertMaritaca } from '../data/sources/maritaca-2024.ts'
import { convertInepBooklets } from '../data/sources/booklets/inep-booklets.ts'
import { tesseract, unlessUnavailable } from '../data/booklets/ocr.ts'
import { writeConversion } from '../data/sources/write-conversion.ts'
import { INEP_DATA_DIR } from '../data/sources/build-dataset.ts'

/**
 * `npm run import-source -- <kind> <source-dir> <out-dir> [--inep DIR]`: converts a source of
 * exams (src/data/sources/source-pins.ts says where each is published) into a dataset folder the server serves
 * beside the dataset, every record checked against INEP's item data (src/data/sources/).
 */
// What both conversions read of INEP's files is in the repository (data/inep/SOURCE.md).
const DEFAULT_INEP_DIR = INEP_DATA_DIR

const ocrWarnings: string[] = []
const ocr = unlessUnavailable(tesseract, (reason) => ocrWarnings.push(`OCR: ${reason}; questions that needed it are left out`))

const CONVERTERS: Record<SourceKind, (sourceDir: string, inepDir: string, pagesDir: string | null) => ConvertedExam[]> = {
  'maritaca-2024': convertMaritaca,
  'enem-dev-ppl': convertEnemDevPpl,
  'inep-booklets': (sourceDir, inepDir, pagesDir) => convertInepBooklets(sourceDir, inepDir, { ocr, pagesDir })
}

const USAGE = `Usage: npm run import-source -- <kind> <source-dir> <out-dir> [--inep DIR] [--pages DIR]
  kind        maritaca-2024 (ENEM 2024, piresramon/gpt-4-enem) | enem-dev-ppl (the second applications, yunger7/enem-api pull request 7)
              | inep-booklets (INEP's printed booklets, <year>_PV_impresso_D<day>_CD<n>.pdf, with their answer keys)
  source-dir  the source's folder
  out-dir     where the converted dataset folder is written; must be absent or empty
  --inep DIR  INEP's files: itens-prova/, gabaritos/, items/ (default ${DEFAULT_INEP_DIR})
  --pages DIR inep-booklets: also write each page as a picture with what was read drawn on it
npm run dataset builds every exam, these two conversions included, into one folder.`

let parsed: ReturnType<typeof parse>
try {
  parsed = parse()
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n${USAGE}\n`)
  process.exit(2)
}
if (parsed.values.help === true) {
  process.stdout.write(`${USAGE}\n`)
  process.exit(0)
}
const [kind, sourceDir, outDir] = parsed.positionals
if (kind === undefined || sourceDir === undefined || outDir === undefined || parsed.positionals.length > 3) {
  process.stderr.write(`Expected a kind, a source folder and an output folder\n${USAGE}\n`)
  process.exit(2)
}
if (!(SOURCE_KINDS as readonly string[]).includes(kind)) {
  process.stderr.write(`Unknown kind ${JSON.stringify(kind)}: expected ${SOURCE_KINDS.join(' or ')}\n${USAGE}\n`)
  process.exit(2)
}

try {
  if (parsed.values.pages !== undefined && kind !== 'inep-booklets') throw new Error('--pages is for inep-booklets alone')
  const pagesDir = parsed.values.pages === undefined ? null : path.resolve(parsed.values.pages)
  const exams = CONVERTERS[kind as SourceKind](path.resolve(sourceDir), path.resolve(parsed.values.inep ?? DEFAULT_INEP_DIR), pagesDir)
  writeConversion(path.resolve(outDir), exams, path.basename(path.resolve(sourceDir)))
  for (const warning of ocrWarnings) process.stderr.write(`${warning}\n`)
  process.stdout.write(`${formatSummary(exams)}\nWrote ${exams.length} exam${exams.length === 1 ? '' : 's'} to ${path.resolve(outDir)}\n`)
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`)
  process.exit(1)
}

function parse () {
  return parseArgs({ allowPositionals: true, options: { inep: { type: 'string' }, pages: { type: 'string' }, help: { type: 'boolean' } } })
}
