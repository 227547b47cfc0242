import { cp, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { SAMPLE_DATA_DIR } from '../src/config.ts'
import { DEFAULT_APPLICATION, examKey, type Application } from '../src/data/exam-key.ts'

/** Two dataset folders made from the sample: its regular exams in one, its second applications in the other. */
export interface SplitSample {
  regular: string
  ppl: string
  /** Removes both folders. */
  remove: () => Promise<void>
}

interface Listed { year: number, application?: Application }
interface Rows { dataset: string, rows: Listed[] }

/**
 * Splits the sample as a converter's output would sit beside the dataset: the exams of each
 * application, with the official tables and correction rows of that application, in a folder of
 * their own (under the system's temporary folder).
 */
export async function splitSample (): Promise<SplitSample> {
  const root = await mkdtemp(path.join(tmpdir(), 'enem-split-'))
  const folders = { regular: path.join(root, 'regular'), ppl: path.join(root, 'ppl') }
  const exams = JSON.parse(await readFile(path.join(SAMPLE_DATA_DIR, 'exams.json'), 'utf8')) as Listed[]
  const corrections = JSON.parse(await readFile(path.join(SAMPLE_DATA_DIR, 'official/corrections.json'), 'utf8')) as Rows
  const officialFiles = (await readdir(path.join(SAMPLE_DATA_DIR, 'official'))).filter((name) => name !== 'corrections.json' && name.endsWith('.json'))
  for (const application of ['regular', 'ppl'] as const) {
    const dir = folders[application]
    const ofApplication = (entry: Listed) => (entry.application ?? DEFAULT_APPLICATION) === application
    const own = exams.filter(ofApplication)
    for (const exam of own) await cp(path.join(SAMPLE_DATA_DIR, examKey(exam.year, exam.application)), path.join(dir, examKey(exam.year, exam.application)), { recursive: true })
    await writeFile(path.join(dir, 'exams.json'), JSON.stringify(own, null, 4))
    await cp(path.join(SAMPLE_DATA_DIR, 'official/inep'), path.join(dir, 'official/inep'), { recursive: true })
    for (const name of officialFiles) {
      const table = JSON.parse(await readFile(path.join(SAMPLE_DATA_DIR, 'official', name), 'utf8')) as Listed
      if (ofApplication(table)) await cp(path.join(SAMPLE_DATA_DIR, 'official', name), path.join(dir, 'official', name))
    }
    await writeFile(path.join(dir, 'official/corrections.json'), JSON.stringify({ ...corrections, rows: corrections.rows.filter(ofApplication) }, null, 2))
  }
  return { ...folders, remove: () => rm(root, { recursive: true, force: true }) }
}
