// Synchronous reads on purpose: start-up reads some 2,800 small files with nothing else to do
// meanwhile, and readFileSync/readdirSync skip the FileHandle and thread-pool round trips of
// fs/promises (full dataset, on a busy 2-core machine: 720-890 ms -> 260-410 ms to load).
import { readdirSync, readFileSync, type Dirent } from 'node:fs'
import path from 'node:path'
import { Compile } from 'typebox/compile'
import Type from 'typebox'
import { Catalog, type Exam } from './catalog.ts'
import { DatasetReport } from './dataset-report.ts'
import {
  ExamDetailsFileSchema, ExamSummarySchema, QuestionSchema, LETTERS,
  type ExamDetailsFile, type ExamSummary, type Question, type QuestionSummary
} from './record-schemas.ts'

/** Prefix of every file address in the source records; what follows it is a path in the dataset folder. */
export const SOURCE_FILE_PREFIX = 'https://enem.dev/'

const checkExamList = Compile(Type.Array(ExamSummarySchema))
const checkExamDetails = Compile(ExamDetailsFileSchema)
const checkQuestion = Compile(QuestionSchema)

const QUESTION_FOLDER = /^([1-9][0-9]*)(?:-([a-z0-9]+(?:-[a-z0-9]+)*))?$/
const SOURCE_ADDRESS = /https:\/\/enem\.dev\/[^\s)"'<>\]]+/g
const QUESTION_FIELDS = new Set(Object.keys(QuestionSchema.properties))

export interface LoadOptions {
  /**
   * Absolute base that replaces `https://enem.dev` in file addresses, e.g. `http://localhost:3000/files`.
   * No trailing slash.
   */
  filesBaseUrl: string
}

export interface LoadedDataset {
  /** Null when the report holds errors: such a dataset is not served. */
  catalog: Catalog | null
  report: DatasetReport
  /**
   * Paths (relative to the dataset folder, `/`-separated) of every non-JSON file the dataset
   * holds in its question folders and at its top level: the only files `/files` may serve.
   */
  servableFiles: ReadonlySet<string>
}

/**
 * Reads, validates and indexes a dataset folder in the layout of DATA.md. Never throws for
 * bad data: every problem lands in the report, and `catalog` is null if any is an error.
 * @example const { catalog, report } = await loadDataset('data/sample', { filesBaseUrl: 'http://localhost:3000/files' })
 */
export async function loadDataset (dataDir: string, options: LoadOptions): Promise<LoadedDataset> {
  const report = new DatasetReport()
  const servableFiles = new Set<string>()
  const rewrite = (text: string) => text.replaceAll(SOURCE_FILE_PREFIX, `${options.filesBaseUrl}/`)

  const rootEntries = readEntries(dataDir)
  if (rootEntries === null) {
    report.add('unreadable_file', '.', '', `the dataset folder ${dataDir} cannot be read`)
    return { catalog: null, report, servableFiles }
  }
  for (const entry of rootEntries) {
    if (entry.isFile() && !entry.name.endsWith('.json')) servableFiles.add(entry.name)
  }

  const examList = readJson(dataDir, 'exams.json', report)
  if (examList === undefined) return { catalog: null, report, servableFiles }
  if (!checkExamList.Check(examList)) {
    reportSchemaErrors(report, 'exams.json', examList, checkExamList.Errors(examList))
    return { catalog: null, report, servableFiles }
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

  const exams: Exam[] = []
  for (const summary of dedupeByYear(examList)) {
    const exam = loadExam(dataDir, summary, report, servableFiles, rewrite)
    if (exam !== undefined) exams.push(exam)
  }

  const catalog = report.errors.length === 0 ? new Catalog(exams) : null
  return { catalog, report, servableFiles }
}

function dedupeByYear (summaries: ExamSummary[]): ExamSummary[] {
  const seen = new Set<number>()
  return summaries.filter((summary) => !seen.has(summary.year) && seen.add(summary.year))
}

function loadExam (
  dataDir: string,
  summary: ExamSummary,
  report: DatasetReport,
  servableFiles: Set<string>,
  rewrite: (text: string) => string
): Exam | undefined {
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

  const loaded = folders.map((folder) => loadQuestionFolder(dataDir, year, folder, report, servableFiles))

  const questions: Question[] = []
  const sourceFileOf = new Map<Question, string>()
  for (const item of loaded) {
    if (item === undefined) continue
    const question = toServedQuestion(item.record, rewrite)
    questions.push(question)
    sourceFileOf.set(question, item.file)
    checkFolderAgreement(item.record, summary.year, item.folder, item.file, report)
    checkQuestionConsistency(item.record, summary, item.file, report, servableFiles)
  }

  const languageSlugs = summary.languages.map((option) => option.value)
  const languageRank = (language: string | null) => {
    if (language === null) return -1
    const rank = languageSlugs.indexOf(language)
    return rank === -1 ? languageSlugs.length : rank
  }
  questions.sort((a, b) => a.index - b.index || languageRank(a.language) - languageRank(b.language))

  checkDuplicatesAndMixedIndexes(questions, sourceFileOf, report)
  compareListedEntries(details.questions, questions, sourceFileOf, detailsFile, report)

  return {
    summary: { title: summary.title, year: summary.year, disciplines: summary.disciplines, languages: summary.languages },
    questions,
    questionSummaries: questions.map(({ title, index, discipline, language }) => ({ title, index, discipline, language })),
    languageSlugs,
    disciplineSlugs: summary.disciplines.map((option) => option.value),
    defaultLanguage: languageSlugs[0] ?? null
  }
}

interface LoadedRecord {
  folder: string
  file: string
  record: Question & Record<string, unknown>
}

function loadQuestionFolder (
  dataDir: string,
  year: string,
  folder: string,
  report: DatasetReport,
  servableFiles: Set<string>
): LoadedRecord | undefined {
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
  return { folder, file, record: record as Question & Record<string, unknown> }
}

/** Picks the contract's fields in the contract's order and points file addresses at our /files. */
function toServedQuestion (record: Question, rewrite: (text: string) => string): Question {
  const rewriteNullable = (text: string | null) => (text === null ? null : rewrite(text))
  return {
    title: record.title,
    index: record.index,
    discipline: record.discipline,
    language: record.language,
    year: record.year,
    context: rewriteNullable(record.context),
    files: record.files.map(rewrite),
    correctAlternative: record.correctAlternative,
    alternativesIntroduction: rewriteNullable(record.alternativesIntroduction),
    alternatives: record.alternatives.map((alternative) => ({
      letter: alternative.letter,
      text: rewriteNullable(alternative.text),
      file: rewriteNullable(alternative.file),
      isCorrect: alternative.isCorrect
    }))
  }
}

function compareExamSummaries (listed: ExamSummary, details: ExamDetailsFile, file: string, report: DatasetReport): void {
  for (const field of ['title', 'year', 'disciplines', 'languages'] as const) {
    if (JSON.stringify(listed[field]) !== JSON.stringify(details[field])) {
      report.add('exam_summary_mismatch', file, `/${field}`, `exams.json has ${JSON.stringify(listed[field])}, details.json has ${JSON.stringify(details[field])}`)
    }
  }
}

function checkFolderAgreement (record: Question, year: number, folder: string, file: string, report: DatasetReport): void {
  const match = QUESTION_FOLDER.exec(folder)
  const folderIndex = match === null ? undefined : Number(match[1])
  const folderLanguage = match?.[2] ?? null
  if (record.year !== year) report.add('folder_mismatch', file, '/year', `record says ${record.year}, folder is under ${year}`)
  if (match === null) {
    report.add('folder_mismatch', file, '', `folder name ${JSON.stringify(folder)} is not <index> or <index>-<language>`)
    return
  }
  if (record.index !== folderIndex) report.add('folder_mismatch', file, '/index', `record says ${record.index}, folder says ${folderIndex}`)
  if (record.language !== folderLanguage) {
    report.add('folder_mismatch', file, '/language', `record says ${JSON.stringify(record.language)}, folder says ${JSON.stringify(folderLanguage)}`)
  }
}

function checkQuestionConsistency (
  record: Question & Record<string, unknown>,
  exam: ExamSummary,
  file: string,
  report: DatasetReport,
  servableFiles: ReadonlySet<string>
): void {
  for (const field of Object.keys(record)) {
    if (!QUESTION_FIELDS.has(field)) report.add('unknown_field', file, `/${field}`, `field ${JSON.stringify(field)} is not part of the contract`)
  }
  const expectedTitle = `Questão ${record.index} - ${exam.title}`
  if (record.title !== expectedTitle) report.add('title_mismatch', file, '/title', `${JSON.stringify(record.title)}, expected ${JSON.stringify(expectedTitle)}`)
  if (record.discipline !== null && !exam.disciplines.some((option) => option.value === record.discipline)) {
    report.add('unknown_discipline', file, '/discipline', `${JSON.stringify(record.discipline)} is not a discipline of ${exam.title}`)
  }
  if (record.language !== null && !exam.languages.some((option) => option.value === record.language)) {
    report.add('unknown_language', file, '/language', `${JSON.stringify(record.language)} is not a language of ${exam.title}`)
  }

  const letters = record.alternatives.map((alternative) => alternative.letter).join('')
  if (letters !== LETTERS.join('')) report.add('alternative_count', file, '/alternatives', `letters are ${letters === '' ? 'none' : letters}, expected ABCDE`)
  const flagged = record.alternatives.filter((alternative) => alternative.isCorrect).map((alternative) => alternative.letter)
  if (flagged.length !== 1 || flagged[0] !== record.correctAlternative) {
    report.add('answer_key_mismatch', file, '/correctAlternative', `correctAlternative is ${record.correctAlternative}, isCorrect is set on ${flagged.length === 0 ? 'no alternative' : flagged.join(', ')}`)
  }
  record.alternatives.forEach((alternative, position) => {
    if ((alternative.text === null || alternative.text.trim() === '') && alternative.file === null) {
      report.add('empty_alternative', file, `/alternatives/${position}`, `alternative ${alternative.letter} has neither text nor file`)
    }
  })
  if ((record.context === null || record.context.trim() === '') && record.files.length === 0) {
    report.add('empty_question', file, '', 'the question has neither context nor files')
  }

  const addresses: Array<[string, string]> = record.files.map((address, position) => [`/files/${position}`, address])
  record.alternatives.forEach((alternative, position) => {
    if (alternative.file !== null) addresses.push([`/alternatives/${position}/file`, alternative.file])
  })
  for (const field of ['context', 'alternativesIntroduction'] as const) {
    for (const address of record[field]?.match(SOURCE_ADDRESS) ?? []) addresses.push([`/${field}`, address])
  }
  for (const [field, address] of addresses) {
    if (!address.startsWith(SOURCE_FILE_PREFIX)) {
      report.add('foreign_file_address', file, field, `${JSON.stringify(address)} does not start with ${SOURCE_FILE_PREFIX}`)
    } else if (!servableFiles.has(address.slice(SOURCE_FILE_PREFIX.length))) {
      report.add('missing_file', file, field, `${address} has no file in the dataset`)
    }
  }
}

function checkDuplicatesAndMixedIndexes (questions: Question[], sourceFileOf: Map<Question, string>, report: DatasetReport): void {
  const seen = new Map<string, Question>()
  const languagesByIndex = new Map<number, Set<string | null>>()
  for (const question of questions) {
    const key = `${question.index}|${question.language}`
    const first = seen.get(key)
    if (first !== undefined) {
      report.add('duplicate_record', sourceFileOf.get(question)!, '', `same index ${question.index} and language ${JSON.stringify(question.language)} as ${sourceFileOf.get(first)}`)
    } else {
      seen.set(key, question)
    }
    const languages = languagesByIndex.get(question.index) ?? new Set()
    languages.add(question.language)
    languagesByIndex.set(question.index, languages)
  }
  for (const [index, languages] of languagesByIndex) {
    if (languages.has(null) && languages.size > 1) {
      const question = seen.get(`${index}|null`)!
      report.add('mixed_language_index', sourceFileOf.get(question)!, '/language',
        `index ${index} has a null-language record and variants in ${[...languages].filter((l) => l !== null).join(', ')}`)
    }
    const records = questions.filter((question) => question.index === index)
    const disciplines = new Set(records.map((record) => record.discipline))
    if (disciplines.size > 1) {
      report.add('variant_discipline_mismatch', sourceFileOf.get(records[0]!)!, '/discipline',
        `the records of index ${index} disagree on the discipline: ${records.map((r) => `${r.language ?? 'null'}=${r.discipline}`).join(', ')}`)
    }
  }
}

function compareListedEntries (
  listed: QuestionSummary[],
  questions: Question[],
  sourceFileOf: Map<Question, string>,
  detailsFile: string,
  report: DatasetReport
): void {
  const key = (entry: { index: number, language: string | null }) => `${entry.index}|${entry.language}`
  const recordsByKey = new Map(questions.map((question) => [key(question), question]))
  const listedKeys = new Set<string>()
  listed.forEach((entry, position) => {
    const field = `/questions/${position}`
    if (listedKeys.has(key(entry))) {
      report.add('duplicate_entry', detailsFile, field, `index ${entry.index} language ${JSON.stringify(entry.language)} is listed more than once`)
      return
    }
    listedKeys.add(key(entry))
    const record = recordsByKey.get(key(entry))
    if (record === undefined) {
      report.add('listed_without_record', detailsFile, field, `index ${entry.index} language ${JSON.stringify(entry.language)} has no question folder`)
      return
    }
    for (const name of ['title', 'discipline'] as const) {
      if (entry[name] !== record[name]) {
        report.add('summary_mismatch', detailsFile, `${field}/${name}`, `lists ${JSON.stringify(entry[name])}, ${sourceFileOf.get(record)} has ${JSON.stringify(record[name])}`)
      }
    }
  })
  for (const question of questions) {
    if (!listedKeys.has(key(question))) {
      report.add('unlisted_record', sourceFileOf.get(question)!, '', `not listed in ${detailsFile}`)
    }
  }
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

interface SchemaError { instancePath: string, message: string, keyword: string, params: Record<string, unknown> }

/**
 * One issue per offending field, in words a dataset maintainer can act on: TypeBox reports every
 * branch of a union separately ("must be string", "must be null", "must match anyOf").
 */
function reportSchemaErrors (report: DatasetReport, file: string, value: unknown, errors: Iterable<SchemaError>): void {
  const byField = new Map<string, SchemaError[]>()
  for (const error of errors) {
    if (error.keyword === 'required') {
      for (const property of (error.params.requiredProperties as string[] | undefined) ?? []) {
        report.add('invalid_record', file, `${error.instancePath}/${property}`, 'is required; it is missing')
      }
      continue
    }
    const group = byField.get(error.instancePath) ?? []
    group.push(error)
    byField.set(error.instancePath, group)
  }
  for (const [field, group] of byField) {
    const allowed = group.flatMap((error) => {
      if (error.keyword === 'const') return [error.params.allowedValue]
      if (error.keyword === 'enum') return (error.params.allowedValues as unknown[] | undefined) ?? []
      return []
    }).map((value) => JSON.stringify(value))
    const messages = allowed.length > 0
      ? [`must be one of ${allowed.join(', ')}`]
      : [...new Set(group.filter((error) => error.keyword !== 'anyOf' && error.keyword !== 'boolean').map((error) => error.message))]
    if (messages.length === 0) continue
    const actual = valueAt(value, field)
    const got = actual === undefined ? 'it is missing' : `got ${JSON.stringify(actual)?.slice(0, 80)}`
    report.add('invalid_record', file, field, `${messages.join(' or ')}; ${got}`)
  }
}

/** The value at a JSON pointer such as `/alternatives/0/letter`, or undefined. */
function valueAt (value: unknown, pointer: string): unknown {
  let current = value
  for (const key of pointer.split('/').slice(1)) {
    if (current === null || typeof current !== 'object') return undefined
    current = (current as Record<string, unknown>)[key.replaceAll('~1', '/').replaceAll('~0', '~')]
  }
  return current
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
