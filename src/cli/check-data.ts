import path from 'node:path'
import { parseArgs } from 'node:util'
import { SAMPLE_DATA_DIR } from '../config.ts'
import { dataFolders } from '../data/dataset/data-folders.ts'
import { loadDataset } from '../data/dataset/load-dataset.ts'

/**
 * `npm run check-data -- [--summary] [folder...]`: prints, for each dataset folder, every error
 * and warning, grouped by kind with counts, then what its official table does to it, per
 * application (corrections applied and skipped, disagreements between sources, annulled and
 * unscored items, missing positions); then, of several folders, the exams two of them hold.
 * Folders are served together as ENEM_DATA_DIR serves them (`a:b` is two folders).
 * Exits 1 when there are errors (the server would refuse to start on them), 2 on a bad argument.
 */
const USAGE = `Usage: npm run check-data -- [--summary] [folder...]
  folder     dataset folders to check together, as ENEM_DATA_DIR lists them (a:b is two);
             default ENEM_DATA_DIR, else the built-in sample
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
const given = parsed.positionals.flatMap((value) => dataFolders(value))
const dataDirs = given.length > 0 ? given : dataFolders(process.env.ENEM_DATA_DIR ?? '')
if (dataDirs.length === 0) dataDirs.push(path.resolve(SAMPLE_DATA_DIR))
const { catalog, report, folders } = await loadDataset(dataDirs, { filesBaseUrl: 'https://enem.dev' })

const write = (text: string) => process.stdout.write(`${text}\n`)
for (const [position, folder] of folders.entries()) {
  if (position > 0) write('')
  write(`Dataset: ${folder.dir}`)
  if (folder.report.errors.length === 0) write(`Exams: ${folder.examKeys.length}, question records: ${folder.questionCount} (${folder.examKeys.join(', ')})`)
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
process.exitCode = report.errors.length > 0 ? 1 : 0
