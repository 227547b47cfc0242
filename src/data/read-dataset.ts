// Synchronous reads on purpose: start-up reads some 2,800 small files with nothing else to do
// meanwhile, and readFileSync/readdirSync skip the FileHandle and thread-pool round trips of
// fs/promises, which made loading the full dataset several times slower.
import { readdirSync, readFileSync, type Dirent } from 'node:fs'
import path from 'node:path'
import {
  checkExamDetails, checkExamList, checkQuestion, compareExamSummaries, reportSchemaErrors, type SourceRecordFile
} from './check-dataset.ts'
import type { DatasetReport } from './dataset-report.ts'
import type { ExamDetailsFile, ExamSummary } from './record-schemas.ts'

/*
 * Reading a dataset folder (the layout of the README's "Data" section) into the records its
 * files hold, each checked against its schema. A file that cannot be read or breaks its schema
 * is reported and left out; nothing here throws for bad data.
 */

/** One exam as its files hold it. */
export interface SourceExam {
  /** Its exams.json entry. */
  summary: ExamSummary
  details: ExamDetailsFile
  detailsFile: string
  /** Its question records, in folder order (by index, then folder name). */
  records: SourceRecordFile[]
}

export interface SourceDataset {
  /** Exams in exams.json order, each year once; an exam whose details.json is unusable is left out. */
  exams: SourceExam[]
  /**
   * Paths (relative to the dataset folder, `/`-separated) of every non-JSON file the dataset
   * holds in its question folders and at its top level: the only files `/files` may serve.
   */
  servableFiles: Set<string>
}

/** Reads a dataset folder; null when its folder or exams.json is unusable (reported). */
export function readDataset (dataDir: string, report: DatasetReport): SourceDataset | null {
  const servableFiles = new Set<string>()
  const rootEntries = readEntries(dataDir)
  if (rootEntries === null) {
    report.add('unreadable_file', '.', '', `the dataset folder ${dataDir} cannot be read`)
    return null
  }
  for (const entry of rootEntries) {
    if (entry.isFile() && !entry.name.endsWith('.json')) servableFiles.add(entry.name)
  }

  const examList = readJson(dataDir, 'exams.json', report)
  if (examList === undefined) return null
  if (!checkExamList.Check(examList)) {
    reportSchemaErrors(report, 'exams.json', examList, checkExamList.Errors(examList))
    return null
  }

  const listedYears = new Set<number>()
  for (const summary of examList) {
    if (listedYears.has(summary.year)) report.add('duplicate_exam', 'exams.json', '', `year ${summary.year} is listed more than once`)
    listedYears.add(summary.year)
  }
  for (const entry of rootEntries) {
    if (entry.isDirectory() && /^\d+$/.test(entry.name) && !listedYears.has(Number(entry.name))) {
      report.add('unlisted_exam', entry.name, '', `folder ${entry.name} is not listed in exams.json`)
    }
  }

  const exams: SourceExam[] = []
  for (const summary of dedupeByYear(examList)) {
    const exam = readExam(dataDir, summary, report, servableFiles)
    if (exam !== undefined) exams.push(exam)
  }
  return { exams, servableFiles }
}

function dedupeByYear (summaries: ExamSummary[]): ExamSummary[] {
  const seen = new Set<number>()
  return summaries.filter((summary) => !seen.has(summary.year) && seen.add(summary.year))
}

function readExam (dataDir: string, summary: ExamSummary, report: DatasetReport, servableFiles: Set<string>): SourceExam | undefined {
  const year = String(summary.year)
  const detailsFile = `${year}/details.json`
  const details = readJson(dataDir, detailsFile, report, 'missing_exam')
  if (details === undefined) return undefined
  if (!checkExamDetails.Check(details)) {
    reportSchemaErrors(report, detailsFile, details, checkExamDetails.Errors(details))
    return undefined
  }
  compareExamSummaries(summary, details, detailsFile, report)

  const folders = (readEntries(path.join(dataDir, year, 'questions')) ?? [])
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort(compareFolderNames)
  const records: SourceRecordFile[] = []
  for (const folder of folders) {
    const item = readQuestionFolder(dataDir, year, folder, report, servableFiles)
    if (item !== undefined) records.push(item)
  }
  return { summary, details, detailsFile, records }
}

function readQuestionFolder (
  dataDir: string,
  year: string,
  folder: string,
  report: DatasetReport,
  servableFiles: Set<string>
): SourceRecordFile | undefined {
  const folderPath = `${year}/questions/${folder}`
  // A folder that cannot be listed serves no files; its details.json then fails to read and is reported.
  const entries = readEntries(path.join(dataDir, folderPath)) ?? []
  for (const entry of entries) {
    if (entry.isFile() && !entry.name.endsWith('.json')) servableFiles.add(`${folderPath}/${entry.name}`)
  }
  const file = `${folderPath}/details.json`
  const record = readJson(dataDir, file, report)
  if (record === undefined) return undefined
  if (!checkQuestion.Check(record)) {
    reportSchemaErrors(report, file, record, checkQuestion.Errors(record))
    return undefined
  }
  return { folder, file, record: record as SourceRecordFile['record'] }
}

function readJson (
  dataDir: string,
  file: string,
  report: DatasetReport,
  missingKind: 'unreadable_file' | 'missing_exam' = 'unreadable_file'
): unknown {
  let text: string
  try {
    text = readFileSync(path.join(dataDir, file), 'utf8')
  } catch (error) {
    report.add(missingKind, file, '', `cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`)
    return undefined
  }
  try {
    return JSON.parse(text) as unknown
  } catch (error) {
    report.add('unreadable_file', file, '', `is not valid JSON: ${(error as Error).message}`)
    return undefined
  }
}

/** Orders question folders by index, then name, so loading is deterministic. */
function compareFolderNames (a: string, b: string): number {
  return Number.parseInt(a, 10) - Number.parseInt(b, 10) || (a < b ? -1 : a > b ? 1 : 0)
}

/** A folder's entries, or null when it cannot be read. */
function readEntries (folder: string): Dirent[] | null {
  try {
    return readdirSync(folder, { withFileTypes: true })
  } catch {
    return null
  }
}
