import { Catalog, type Exam } from '../catalog.ts'
import { DATASET_FILE_PREFIX, checkDuplicatesAndMixedIndexes, checkFolderAgreement, checkQuestionConsistency, compareListedEntries, namedFiles, type DatasetRecordFile } from './check-dataset.ts'
import { CorrectionLedger } from '../official/corrections.ts'
import { DatasetReport } from './dataset-report.ts'
import { officialDirFor, readOfficialTable, type OfficialTable } from '../official/official-table.ts'
import { OfficialReport } from '../official/official-report.ts'
import { dataFolders } from './data-folders.ts'
import { servedAddresses } from './file-addresses.ts'
import { creditsOf, readManifest, type DataCredit } from './dataset-manifest.ts'
import { APPLICATIONS, compareNewestFirst, type Application } from '../exam-key.ts'
import { describeExamKey, readDataset, type DatasetExam } from './read-dataset.ts'
import type { Question, DatasetQuestion } from '../record-schemas.ts'
import { incompletenessOf } from '../record-statement.ts'

export { DATASET_FILE_PREFIX }

export interface LoadOptions {
  /**
   * Absolute base that replaces `https://enem.dev` in file addresses, e.g. `http://localhost:3000/files`.
   * No trailing slash.
   */
  filesBaseUrl: string
  /**
   * Folder of the official table (src/data/official/official-table.ts) to apply; null applies none.
   * Default: the dataset's own `official/` folder when it has one (the sample does), otherwise
   * the repository's `data/official` (the real exams).
   */
  officialDir?: string | null
}

export interface LoadedDataset {
  /** Null when the report holds errors: such a dataset is not served. */
  catalog: Catalog | null
  /**
   * Every folder's report in one (with several folders, each file named with its folder's path),
   * plus the exams two folders both hold.
   */
  report: DatasetReport
  /**
   * What the official table of the first folder's regular exams changed, skipped and found (of
   * its second applications when it has no regular exam); null when no table was applied. Each
   * folder's reports, per application, are in `folders`.
   */
  official: OfficialReport | null
  /** What each folder held, in the order given. */
  folders: readonly FolderLoad[]
  /**
   * Paths (relative to a dataset folder, `/`-separated) of the image files the folders' records name
   * and the folders hold, each with the folder that holds it: the only files `/files` may serve. A
   * path two folders hold (a top-level file) is the first folder's.
   */
  servableFiles: ReadonlyMap<string, string>
  /**
   * The sources of the exams served, from the manifest.json of the folders `npm run dataset`
   * built (src/data/dataset/dataset-manifest.ts); null when no folder has one.
   */
  credits: readonly DataCredit[] | null
}

/** What one dataset folder held. */
export interface FolderLoad {
  dir: string
  /** Its own report, files named relative to it. */
  report: DatasetReport
  /** What the official table did, one report per application it holds exams of. */
  official: readonly OfficialReport[]
  /** Keys (src/data/exam-key.ts) of the exams it holds, newest first. */
  examKeys: readonly string[]
  /** Question records of those exams. */
  questionCount: number
  /** The sources of its exams, from its manifest.json; null when it has none. */
  credits: readonly DataCredit[] | null
}

/**
 * Reads, checks, corrects and indexes one dataset folder, or several served together (each with
 * its own official table: see LoadOptions.officialDir). A string is read as ENEM_DATA_DIR is: one
 * folder, or several separated by `:` (src/data/dataset/data-folders.ts). Never throws for bad data: every problem
 * lands in the report, and `catalog` is null if any is an error; an exam two folders both hold is
 * an error.
 * @example const { catalog, report } = await loadDataset('data/sample', { filesBaseUrl: 'http://localhost:3000/files' })
 * @example await loadDataset(['/srv/enem-data', '/srv/enem-ppl'], { filesBaseUrl })
 */
export async function loadDataset (dataDirs: string | readonly string[], options: LoadOptions): Promise<LoadedDataset> {
  const dirs = typeof dataDirs === 'string' ? dataFolders(dataDirs) : dataDirs
  const loads = dirs.map((dir) => loadFolder(dir, options))
  const several = loads.length !== 1
  const report = several ? new DatasetReport() : loads[0]!.folder.report
  const exams: Exam[] = []
  const holder = new Map<string, string>()
  const servableFiles = new Map<string, string>()
  for (const { folder, exams: folderExams } of loads) {
    if (several) for (const issue of folder.report.issues) report.add(issue.kind, `${folder.dir}/${issue.file}`, issue.field, issue.message)
    for (const exam of folderExams) {
      const other = holder.get(exam.key)
      if (other !== undefined) {
        report.add('duplicate_exam', `${folder.dir}/exams.json`, '', `${describeExamKey(exam.key)} is held by ${other} too: an exam may come from one folder only`)
        continue
      }
      holder.set(exam.key, folder.dir)
      exams.push(exam)
    }
    for (const file of folder.servableFiles) if (!servableFiles.has(file)) servableFiles.set(file, folder.dir)
  }
  const catalog = report.errors.length === 0 ? new Catalog(exams) : null
  const folders = loads.map(({ folder }) => ({ dir: folder.dir, report: folder.report, official: folder.official, examKeys: folder.examKeys, questionCount: folder.questionCount, credits: folder.credits }))
  const credited = folders.filter((folder) => folder.credits !== null)
  const credits = credited.length === 0 ? null : credited.flatMap((folder) => folder.credits!)
  return { catalog, report, official: folders[0]?.official[0] ?? null, folders, servableFiles, credits }
}

function loadFolder (dataDir: string, options: LoadOptions): { folder: FolderLoad & { servableFiles: ReadonlySet<string> }, exams: Exam[] } {
  const report = new DatasetReport()
  const source = readDataset(dataDir, report)
  if (source === null) return { folder: { dir: dataDir, report, official: [], examKeys: [], questionCount: 0, servableFiles: new Set(), credits: null }, exams: [] }

  const officialDir = options.officialDir === undefined ? officialDirFor(dataDir) : options.officialDir
  const rewrite = (text: string) => servedAddresses(text, options.filesBaseUrl)
  const exams: Exam[] = []
  const official: OfficialReport[] = []
  // One table per application (src/data/official/official-table.ts), each over that application's exams.
  for (const application of APPLICATIONS) {
    const sourceExams = source.exams.filter((exam) => exam.application === application)
    if (sourceExams.length === 0) continue
    let table: OfficialTable | null = null
    if (officialDir !== null) {
      try {
        table = readOfficialTable(officialDir, application)
      } catch (error) {
        report.add('invalid_official_data', officialDir, '', (error as Error).message)
      }
    }
    const ledger = table === null ? null : new CorrectionLedger(table)
    const built = sourceExams.map((exam) => buildExam(exam, report, source.servableFiles, rewrite, ledger))
    ledger?.finish(new Set(built.map((exam) => exam.summary.year)))
    if (table !== null && ledger !== null) official.push(new OfficialReport(table, ledger, built))
    exams.push(...built)
  }
  const examKeys = [...exams].sort((a, b) => compareNewestFirst(a.summary, b.summary)).map((exam) => exam.key)
  const questionCount = exams.reduce((sum, exam) => sum + exam.questions.length, 0)
  let credits: DataCredit[] | null = null
  try {
    const manifest = readManifest(dataDir)
    if (manifest !== null) credits = creditsOf(manifest, new Set(examKeys))
  } catch (error) {
    report.add('invalid_manifest', 'manifest.json', '', (error as Error).message)
  }
  const servableFiles = namedFiles(source.exams.flatMap((exam) => exam.records.map((item) => item.record)), source.servableFiles)
  return { folder: { dir: dataDir, report, official, examKeys, questionCount, servableFiles, credits }, exams }
}

function buildExam (
  source: DatasetExam,
  report: DatasetReport,
  servableFiles: ReadonlySet<string>,
  rewrite: (text: string) => string,
  ledger: CorrectionLedger | null
): Exam {
  const { summary, application } = source
  const languageSlugs = summary.languages.map((option) => option.value)
  const languageRank = (language: string | null) => {
    if (language === null) return -1
    const rank = languageSlugs.indexOf(language)
    return rank === -1 ? languageSlugs.length : rank
  }
  for (const item of source.records) {
    checkFolderAgreement(item.record, summary.year, item.folder, item.file, report)
    checkQuestionConsistency(item.record, summary, item.file, report, servableFiles)
  }
  const records: DatasetRecordFile[] = [...source.records]
    .sort((a, b) => a.record.index - b.record.index || languageRank(a.record.language) - languageRank(b.record.language))
  checkDuplicatesAndMixedIndexes(records, report)
  compareListedEntries(source.details.questions, records, source.detailsFile, report)

  const questions = records.map((item) => toServedQuestion(item.record, application, item.file, rewrite, ledger))
  // A language the corrections give a record (src/data/official/language-labels.ts) is a language of the exam.
  const languages = [...summary.languages]
  for (const question of questions) {
    if (question.language !== null && !languages.some((option) => option.value === question.language)) {
      languages.push({ label: LANGUAGE_LABELS[question.language] ?? question.language, value: question.language })
      languageSlugs.push(question.language)
    }
  }
  questions.sort((a, b) => a.index - b.index || languageRank(a.language) - languageRank(b.language))
  return {
    key: source.key,
    summary: { title: summary.title, year: summary.year, application, disciplines: summary.disciplines, languages },
    questions,
    questionSummaries: questions.map(({ title, index, discipline, language, incomplete }) => ({ title, index, discipline, language, incomplete })),
    languageSlugs,
    disciplineSlugs: summary.disciplines.map((option) => option.value),
    defaultLanguage: languageSlugs[0] ?? null
  }
}

/** The label of a language slug the corrections introduce, as the real dataset's exams write it. */
const LANGUAGE_LABELS: Readonly<Record<string, string>> = { ingles: 'Inglês', espanhol: 'Espanhol' }

/**
 * Picks the contract's fields in the contract's order, points file addresses at our /files and
 * applies the official corrections (src/data/official/corrections.ts).
 */
function toServedQuestion (record: DatasetQuestion, application: Application, file: string, rewrite: (text: string) => string, ledger: CorrectionLedger | null): Question {
  const rewriteNullable = (text: string | null) => (text === null ? null : rewrite(text))
  const corrected = ledger?.correct(record, file) ?? {
    discipline: record.discipline,
    language: record.language,
    correctAlternative: record.correctAlternative,
    isCorrect: record.alternatives.map((alternative) => alternative.isCorrect),
    inep: null
  }
  return {
    title: record.title,
    index: record.index,
    discipline: corrected.discipline,
    language: corrected.language,
    year: record.year,
    application,
    context: rewriteNullable(record.context),
    files: record.files.map(rewrite),
    correctAlternative: corrected.correctAlternative,
    alternativesIntroduction: rewriteNullable(record.alternativesIntroduction),
    alternatives: record.alternatives.map((alternative, position) => ({
      letter: alternative.letter,
      text: rewriteNullable(alternative.text),
      file: rewriteNullable(alternative.file),
      isCorrect: corrected.isCorrect[position]!
    })),
    inep: corrected.inep,
    incomplete: incompletenessOf(record)
  }
}
