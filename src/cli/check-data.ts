import path from 'node:path'
import { parseArgs } from 'node:util'
import { SAMPLE_DATA_DIR } from '../config.ts'
import { dataFolders } from '../data/dataset/data-folders.ts'
import { loadDataset } from '../data/dataset/load-dataset.ts'
import { describeSources, readManifest } from '../data/dataset/dataset-manifest.ts'

/**
 * `npm run check-data -- [--summary] [folder...]`: prints, for each dataset folder, every error
 * and warning, grouped by kind with counts, then what its official table does to it, per
 * application (corrections applied and skipped, disagreements between sources, annulled and
 * unscored items, missing positions); then, of several folders, the exams two of them hold.
 * Folders are served together as ENEM_DATA_DIR serves them (`a:b` is two folders). A folder built
 * by `npm run dataset` has its sources (manifest.json) printed too.
 * Exits 1 when there are errors (the server would refuse to start on them) or a file address that
 * does not resolve to a file as the server serves it (missing_file), 2 on a bad argument.
 */
const USAGE = `Usage: npm run check-data -- [--summary] [folder...]
  folder     dataset folders to check together, as ENEM_DATA_DIR lists them (a:b is two);
             default ENEM_DATA_DIR, else the built-in sample
  --summary  print counts only, not every entry
  --help     print this help
Exits 0 when the dataset can be served with every file its records show, 1 when it has errors
or a file address that does not resolve, 2 on a bad argument.`

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
const given = parsed.positionals.flatMap((value) => dataFolders(value))
const dataDirs = given.length > 0 ? given : dataFolders(process.env.ENEM_DATA_DIR ?? '')
if (dataDirs.length === 0) dataDirs.push(path.resolve(SAMPLE_DATA_DIR))
const { catalog, report, folders } = await loadDataset(dataDirs, { filesBaseUrl: 'https://enem.dev' })

const write = (text: string) => process.stdout.write(`${text}\n`)
for (const [position, folder] of folders.entries()) {
  if (position > 0) write('')
  write(`Dataset: ${folder.dir}`)
  if (folder.report.errors.length === 0) write(`Exams: ${folder.examKeys.length}, question records: ${folder.questionCount} (${folder.examKeys.join(', ')})`)
  writeProvenance(folder.dir)
  if (parsed.values.summary === true) {
    for (const { kind, severity, count } of folder.report.countsByKind()) write(`${severity.toUpperCase()} ${kind} ${count}`)
    write(`Summary: ${folder.report.summaryLine()}`)
  } else {
    write(folder.report.format())
  }
  for (const official of folder.official) {
    const application = official.application === 'regular' ? '' : `Exams of application ${official.application}:\n`
    if (parsed.values.summary === true) write(`${application}Official data: ${official.tableDir}\n${official.summaryLine()}\n${official.formatCounts()}`)
    else write(`\n${application}${official.format()}`)
  }
}
if (folders.length > 1) {
  write('')
  const across = report.issues.filter((issue) => issue.kind === 'duplicate_exam' && !folders.some((folder) => folder.report.issues.some((own) => own.message === issue.message)))
  for (const issue of across) write(`ERROR duplicate_exam ${issue.file}: ${issue.message}`)
  write(`All ${folders.length} folders: ${report.summaryLine()}`)
}
if (catalog !== null) write(`Exams served: ${catalog.listExams().length}, question records: ${catalog.questionCount}`)
// Every address is looked up as the server will serve it (src/data/dataset/file-addresses.ts): one that does not resolve answers 404 to a reader.
const unresolved = report.warnings.filter((issue) => issue.kind === 'missing_file').length
if (unresolved > 0) write(`FAILED: ${unresolved} file address${unresolved === 1 ? '' : 'es'} of served records do not resolve to a file (missing_file)`)
process.exitCode = report.errors.length > 0 || unresolved > 0 ? 1 : 0

/** The sources of a folder `npm run dataset` built, from its manifest.json. */
function writeProvenance (dir: string): void {
  let manifest
  try {
    manifest = readManifest(dir)
  } catch (error) {
    write(`ERROR manifest: ${(error as Error).message}`)
    process.exitCode = 1
    return
  }
  if (manifest === null) return
  write(`Sources (manifest.json): ${manifest.totals.exams} exams, ${manifest.totals.written} records written, ${manifest.totals.leftOut} left out`)
  for (const line of describeSources(manifest)) write(`  ${line}`)
}
