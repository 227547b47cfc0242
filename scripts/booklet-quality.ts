import { tmpdir } from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { OcrUnavailable, tesseract } from '../src/data/booklets/ocr.ts'
import { INEP_DATA_DIR } from '../src/data/sources/build-dataset.ts'
import { DEFECT_CLASSES } from '../src/data/sources/reading-defects.ts'
import { MEASURED_BOOKLETS, measureInepDir, measureListed, meetsFloors, percent, snapshotLoader, type QualityRow } from '../src/data/sources/reading-quality.ts'

/*
 * Issue 58's yardstick: `npx tsx scripts/booklet-quality.ts [year-or-file ...] [--list] [--fresh]`
 * reads every booklet of ../shared/inep/booklets (or those named: `2009`, `ppl`, a file name) and
 * prints, per booklet, records found of the keyed positions, the comparison with the transcription
 * (or another colour, 2025) and the defect classes (src/data/sources/reading-quality.ts says how).
 * `alt`: alternatives equal, or differing only where the transcription misspells (its word no Portuguese
 * word, ours one: `misspelt` counts those records), or only where OCR of the page reads ours and not
 * theirs (`page` counts those). `alt≈`: alternatives equal or within a typo (2 characters) of the other's, to tell a transcription's
 * typo from a misreading; the issue's floor is on `alt`. `--list`: each record that differs or has a defect, with why. Readings are kept in
 * <tmpdir>/enem-booklet-readings under their inputs' hashes (the test reads the same); `--fresh`
 * reads again, to time the reader; `--floors`: the levels measured where the issue's target is not
 * met, as test/data/booklets/layouts.test.ts's MEASURED holds them. A figure below the issue's floor
 * is marked `!`.
 */

const REPO = path.resolve(import.meta.dirname, '..')
const SHARED = path.resolve(REPO, '../shared')
const CACHE_DIR = path.join(tmpdir(), 'enem-booklet-readings')

const { values, positionals } = parseArgs({ allowPositionals: true, options: { list: { type: 'boolean' }, fresh: { type: 'boolean' }, floors: { type: 'boolean' }, help: { type: 'boolean' } } })
if (values.help === true) {
  process.stdout.write('Usage: npx tsx scripts/booklet-quality.ts [year-or-file ...] [--list] [--fresh] [--floors]\n')
  process.exit(0)
}
const entries = MEASURED_BOOKLETS.filter((entry) => positionals.length === 0 || positionals.some((wanted) => entry.file.startsWith(wanted) || path.basename(entry.file) === wanted))
if (entries.length === 0) {
  process.stderr.write(`No booklet measured matches ${positionals.join(', ')}: expected a year (2009), ppl, or a file name of ${MEASURED_BOOKLETS.map((entry) => path.basename(entry.file)).join(', ')}\n`)
  process.exit(2)
}

// OCR as the conversion reads (Tesseract); without it a reading would be another reader's, so none is kept.
const options = { bookletsDir: path.join(SHARED, 'inep/booklets'), datasetDir: path.join(SHARED, 'enem-data'), inepDir: measureInepDir(path.join(SHARED, 'inep'), INEP_DATA_DIR), cacheDir: CACHE_DIR, ocr: tesseract, fresh: values.fresh === true }
const load = snapshotLoader(options)

const SHORT: Record<string, string> = { 'recurring-figure': 'rec', 'rule-figure': 'rule', 'credit-in-asking': 'cred', 'line-numbers': 'lnum', 'key-picture': 'keyp', 'markdown-escape': 'esc', 'text-in-figure': 'txtfig' }
const header = ['booklet', 'against', 'found', 'alt %', 'misspelt', 'page', 'alt≈ %', 'theirs⊂ours %', 'ours⊂theirs %', 'figures %', ...DEFECT_CLASSES.map((kind) => SHORT[kind]!), 's']
process.stdout.write(`${header.join('\t')}\n`)

function cell (part: number, whole: number, meets: boolean): string {
  return `${percent(part, whole)}${meets || whole === 0 ? '' : '!'} (${part}/${whole})`
}

let total = 0
const rows: QualityRow[] = []
for (const entry of entries) {
  const started = performance.now()
  let row: QualityRow
  try {
    row = measureListed(entry, load, options)
  } catch (error) {
    if (error instanceof OcrUnavailable) {
      process.stderr.write(`OCR unavailable: ${error.message}\n`)
      process.exit(1)
    }
    // A booklet that cannot be read or keyed is a row of the table, and the run's exit status.
    const where = /\((\/[^)]*\/src\/[^)]+)\)/u.exec((error as Error).stack ?? '')?.[1]
    process.stdout.write(`${path.basename(entry.file)}\tnot measured: ${(error as Error).message.split('\n')[0]}${where === undefined ? '' : ` (at ${path.relative(REPO, where)})`}\n`)
    process.exitCode = 1
    continue
  }
  const cached = load(entry.file).cached
  total += (performance.now() - started) / 1000
  rows.push(row)
  const meets = meetsFloors(row)
  const compared = row.against !== null
  process.stdout.write([
    row.file,
    row.against ?? '–',
    `${row.found}/${row.expected}${meets.found ? '' : '!'}`,
    compared ? cell(row.alternatives, row.compared, meets.alternatives) : '–',
    compared ? String(row.theirMisspelt) : '–',
    compared ? String(row.pageShown) : '–',
    compared ? `${percent(row.alternativesNear, row.compared)} (${row.alternativesNear})` : '–',
    compared ? cell(row.theirsInOurs, row.compared, meets.theirsInOurs) : '–',
    compared ? cell(row.oursInTheirs, row.assessable, meets.oursInTheirs) : '–',
    compared ? cell(row.ourFigures, row.theirFigures, meets.figures) : '–',
    ...DEFECT_CLASSES.map((kind) => String(row.defects[kind])),
    `${row.seconds}${cached ? ' (cached)' : ''}`
  ].join('\t') + '\n')
  if (values.list === true) {
    for (const { record, why } of row.differing) process.stdout.write(`  ${record}: ${why}\n`)
    for (const defect of row.defectList) process.stdout.write(`  ${defect.index}${defect.language === null ? '' : `-${defect.language}`} [${defect.kind}] ${defect.why}\n`)
  }
}
if (values.floors === true) {
  // Shares rounded down to a tenth of a percent, so that the level measured passes as a floor.
  const measured = Object.fromEntries(rows.flatMap((row) => {
    const meets = meetsFloors(row)
    const shares: Array<[keyof typeof meets, number, number]> = [['found', row.found, row.expected], ['alternatives', row.alternatives, row.compared], ['theirsInOurs', row.theirsInOurs, row.compared], ['oursInTheirs', row.oursInTheirs, row.assessable], ['figures', row.ourFigures, row.theirFigures]]
    const levels = [
      ...shares.filter(([measure, , whole]) => !meets[measure] && whole > 0 && (row.against !== null || measure === 'found')).map(([measure, part, whole]) => [measure, Math.floor(1000 * part / whole) / 1000] as const),
      ...DEFECT_CLASSES.filter((kind) => row.defects[kind] > 0).map((kind) => [kind, row.defects[kind]] as const)
    ]
    return levels.length === 0 ? [] : [[row.file, Object.fromEntries(levels)]]
  }))
  process.stdout.write(`${JSON.stringify(measured, null, 2)}\n`)
}
process.stdout.write(`${rows.length} booklets in ${total.toFixed(1)} s (reading ${rows.reduce((sum, row) => sum + row.seconds, 0).toFixed(1)} s as each snapshot was made)\n`)
