// Synchronous reads on purpose: start-up reads some 2,800 small files with nothing else to do
// meanwhile, and readFileSync/readdirSync skip the FileHandle and thread-pool round trips of
// fs/promises, which made loading the full dataset several times slower.
import { readdirSync, readFileSync, type Dirent } from 'node:fs'
import path from 'node:path'
import {
  checkExamDetails, checkExamList, checkQuestion, compareExamSummaries, reportSchemaErrors, type DatasetRecordFile
} from './check-dataset.ts'
import type { DatasetReport } from './dataset-report.ts'
import { DEFAULT_APPLICATION, examKey, parseExamKey, type Application } from '../exam-key.ts'
import type { ExamDetailsFile, DatasetExamSummary } from '../record-schemas.ts'

/*
 * Reading a dataset folder (the layout docs/data.md's "The dataset folder" gives) into the records its
 * files hold, each checked against its schema. A file that cannot be read or breaks its schema
 * is reported and left out; nothing here throws for bad data.
 */

/** One exam as its files hold it. */
export interface DatasetExam {
  /** Its exams.json entry. */
  summary: DatasetExamSummary
  application: Application
  /** Its key (src/data/exam-key.ts), which is also its folder: `2020`, `2020-ppl`. */
  key: string
  details: ExamDetailsFile
  detailsFile: string
  /** Its question records, in folder order (by index, then folder name). */
  records: DatasetRecordFile[]
}

export interface DatasetFolder {
  /** Exams in exams.json order, each exam (year and application) once; an exam whose details.json is unusable is left out. */
  exams: DatasetExam[]
  /**
   * Paths (relative to the dataset folder, `/`-separated) of every non-JSON file the dataset
   * holds in its question folders and at its top level: what a record's address may name. Of
   * these, /files serves the images records do name (check-dataset.ts's namedFiles).
   */
  servableFiles: Set<string>
}

/** Reads a dataset folder; null when its folder or exams.json is unusable (reported). */
export function readDataset (dataDir: string, report: DatasetReport): DatasetFolder | null {
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

  const listedKeys = new Set<string>()
  const listed: DatasetExamSummary[] = []
  for (const summary of examList) {
    const key = examKey(summary.year, summary.application)
    if (listedKeys.has(key)) {
      report.add('duplicate_exam', 'exams.json', '', `${describeExamKey(key)} is listed more than once`)
      continue
    }
    listedKeys.add(key)
    listed.push(summary)
  }
  for (const entry of rootEntries) {
    if (entry.isDirectory() && parseExamKey(entry.name) !== null && !listedKeys.has(entry.name)) {
      report.add('unlisted_exam', entry.name, '', `folder ${entry.name} is not listed in exams.json`)
    }
  }

  const exams: DatasetExam[] = []
  for (const summary of listed) {
    const exam = readExam(dataDir, summary, report, servableFiles)
    if (exam !== undefined) exams.push(exam)
  }
  return { exams, servableFiles }
}

/**
 * An exam key in words, for messages: `year 2020`, `year 2020 (ppl)`.
 * @example describeExamKey('2020-ppl') === 'year 2020 (ppl)'
 */
export function describeExamKey (key: string): string {
  const exam = parseExamKey(key)
  if (exam === null) return key
  return exam.application === DEFAULT_APPLICATION ? `year ${exam.year}` : `year ${exam.year} (${exam.application})`
}

function readExam (dataDir: string, summary: DatasetExamSummary, report: DatasetReport, servableFiles: Set<string>): DatasetExam | undefined {
  const application = summary.application ?? DEFAULT_APPLICATION
  // The exam's folder is named by its key: `2020`, or `2020-ppl` for a second application.
  const year = examKey(summary.year, application)
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
  const records: DatasetRecordFile[] = []
  for (const folder of folders) {
    const item = readQuestionFolder(dataDir, year, folder, report, servableFiles)
    if (item !== undefined) records.push(item)
  }
  return { summary, application, key: year, details, detailsFile, records }
}

function readQuestionFolder (
  dataDir: string,
  year: string,
  folder: string,
  report: DatasetReport,
  servableFiles: Set<string>
): DatasetRecordFile | undefined {
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
  return { folder, file, record: record as DatasetRecordFile['record'] }
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
