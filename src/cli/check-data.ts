import path from 'node:path'
import { SAMPLE_DATA_DIR } from '../config.ts'
import { loadDataset } from '../data/load-dataset.ts'

/**
 * `npm run check-data -- [folder]`: prints every error and warning of a dataset, grouped by kind
 * with counts, and exits 1 when there are errors (the server would refuse to start on it).
 */
const dataDir = path.resolve(process.argv[2] ?? process.env.ENEM_DATA_DIR ?? SAMPLE_DATA_DIR)
const { catalog, report } = await loadDataset(dataDir, { filesBaseUrl: 'https://enem.dev' })

process.stdout.write(`Dataset: ${dataDir}\n`)
if (catalog !== null) {
  process.stdout.write(`Exams: ${catalog.listExams().length}, question records: ${catalog.questionCount}\n`)
}
process.stdout.write(`${report.format()}\n`)
process.exitCode = report.errors.length > 0 ? 1 : 0
