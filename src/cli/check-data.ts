import path from 'node:path'
import { parseArgs } from 'node:util'
import { SAMPLE_DATA_DIR } from '../config.ts'
import { loadDataset } from '../data/load-dataset.ts'

/**
 * `npm run check-data -- [--summary] [folder]`: prints every error and warning of a dataset,
 * grouped by kind with counts, then what the official table does to it (corrections applied and
 * skipped, disagreements between sources, annulled and unscored items, missing positions).
 * Exits 1 when there are errors (the server would refuse to start on it), 2 on a bad argument.
 */
const USAGE = `Usage: npm run check-data -- [--summary] [folder]
  folder     dataset to check (default ENEM_DATA_DIR, else the built-in sample)
  --summary  print counts only, not every entry
  --help     print this help
Exits 0 when the dataset can be served, 1 when it has errors, 2 on a bad argument.`

let parsed: ReturnType<typeof parse>
function parse () {
  return parseArgs({ allowPositionals: true, options: { summary: { type: 'boolean' }, help: { type: 'boolean' } } })
}
try {
  parsed = parse()
} catch (error) {
  const option = /'(-[^']*)'/.exec((error as Error).message)?.[1]
  process.stderr.write(`check-data: ${option === undefined ? (error as Error).message.split('\n')[0] : `unknown option ${option}`} (see --help)\n`)
  process.exit(2)
}
if (parsed.values.help === true) {
  process.stdout.write(`${USAGE}\n`)
  process.exit(0)
}
if (parsed.positionals.length > 1) {
  process.stderr.write(`check-data: expected at most one folder, got ${parsed.positionals.length} (see --help)\n`)
  process.exit(2)
}

const dataDir = path.resolve(parsed.positionals[0] ?? (process.env.ENEM_DATA_DIR || SAMPLE_DATA_DIR))
const { catalog, report, official } = await loadDataset(dataDir, { filesBaseUrl: 'https://enem.dev' })

process.stdout.write(`Dataset: ${dataDir}\n`)
if (catalog !== null) {
  process.stdout.write(`Exams: ${catalog.listExams().length}, question records: ${catalog.questionCount}\n`)
}
if (parsed.values.summary === true) {
  for (const { kind, severity, count } of report.countsByKind()) process.stdout.write(`${severity.toUpperCase()} ${kind} ${count}\n`)
  process.stdout.write(`Summary: ${report.summaryLine()}\n`)
  if (official !== null) process.stdout.write(`Official data: ${official.tableDir}\n${official.summaryLine()}\n${official.formatCounts()}\n`)
} else {
  process.stdout.write(`${report.format()}\n`)
  if (official !== null) process.stdout.write(`\n${official.format()}\n`)
}
process.exitCode = report.errors.length > 0 ? 1 : 0
