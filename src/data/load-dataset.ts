import { Catalog, type Exam } from './catalog.ts'
import { SOURCE_FILE_PREFIX, checkDuplicatesAndMixedIndexes, checkFolderAgreement, checkQuestionConsistency, compareListedEntries, type SourceRecordFile } from './check-dataset.ts'
import { CorrectionLedger } from './official/corrections.ts'
import { DatasetReport } from './dataset-report.ts'
import { officialDirFor, readOfficialTable, type OfficialTable } from './official/official-table.ts'
import { OfficialReport } from './official/official-report.ts'
import { readDataset, type SourceExam } from './read-dataset.ts'
import type { Question, SourceQuestion } from './record-schemas.ts'

export { SOURCE_FILE_PREFIX }

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
  report: DatasetReport
  /** What the official table changed, skipped and found; null when no table was applied. */
  official: OfficialReport | null
  /**
   * Paths (relative to the dataset folder, `/`-separated) of every non-JSON file the dataset
   * holds in its question folders and at its top level: the only files `/files` may serve.
   */
  servableFiles: ReadonlySet<string>
}

/**
 * Reads, checks, corrects and indexes a dataset folder. Never throws for bad data: every
 * problem lands in the report, and `catalog` is null if any is an error.
 * @example const { catalog, report } = await loadDataset('data/sample', { filesBaseUrl: 'http://localhost:3000/files' })
 */
export async function loadDataset (dataDir: string, options: LoadOptions): Promise<LoadedDataset> {
  const report = new DatasetReport()
  const source = readDataset(dataDir, report)
  if (source === null) return { catalog: null, report, official: null, servableFiles: new Set() }

  const officialDir = options.officialDir === undefined ? officialDirFor(dataDir) : options.officialDir
  let table: OfficialTable | null = null
  if (officialDir !== null) {
    try {
      table = readOfficialTable(officialDir)
    } catch (error) {
      report.add('invalid_official_data', officialDir, '', (error as Error).message)
    }
  }
  const ledger = table === null ? null : new CorrectionLedger(table)
  const rewrite = (text: string) => text.replaceAll(SOURCE_FILE_PREFIX, `${options.filesBaseUrl}/`)

  const exams = source.exams.map((exam) => buildExam(exam, report, source.servableFiles, rewrite, ledger))
  ledger?.finish(new Set(exams.map((exam) => exam.summary.year)))
  const official = table === null || ledger === null ? null : new OfficialReport(table, ledger, exams)

  const catalog = report.errors.length === 0 ? new Catalog(exams) : null
  return { catalog, report, official, servableFiles: source.servableFiles }
}

function buildExam (
  source: SourceExam,
  report: DatasetReport,
  servableFiles: ReadonlySet<string>,
  rewrite: (text: string) => string,
  ledger: CorrectionLedger | null
): Exam {
  const { summary } = source
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
  const records: SourceRecordFile[] = [...source.records]
    .sort((a, b) => a.record.index - b.record.index || languageRank(a.record.language) - languageRank(b.record.language))
  checkDuplicatesAndMixedIndexes(records, report)
  compareListedEntries(source.details.questions, records, source.detailsFile, report)

  const questions = records.map((item) => toServedQuestion(item.record, item.file, rewrite, ledger))
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
    summary: { title: summary.title, year: summary.year, disciplines: summary.disciplines, languages },
    questions,
    questionSummaries: questions.map(({ title, index, discipline, language }) => ({ title, index, discipline, language })),
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
function toServedQuestion (record: SourceQuestion, file: string, rewrite: (text: string) => string, ledger: CorrectionLedger | null): Question {
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
    inep: corrected.inep
  }
}
