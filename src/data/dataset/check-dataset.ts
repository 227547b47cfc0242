import { Compile } from 'typebox/compile'
import Type from 'typebox'
import type { DatasetReport } from './dataset-report.ts'
import { DATASET_ADDRESSES, DATASET_FILE_PREFIX, addressedPath, servedPath } from './file-addresses.ts'
import { DEFAULT_APPLICATION } from '../exam-key.ts'
import {
  ExamDetailsFileSchema, DatasetExamSummarySchema, DatasetQuestionSchema, LETTERS,
  type ExamDetailsFile, type QuestionSummary, type DatasetExamSummary, type DatasetQuestion
} from '../record-schemas.ts'

/*
 * The checks of a dataset: shape (a record that breaks the contract's types is an error) and
 * agreement (parts that disagree are warnings). They look at the records as the files hold
 * them, before any correction, and only report; they never change a record.
 */

export { DATASET_FILE_PREFIX }

export const checkExamList = Compile(Type.Array(DatasetExamSummarySchema))
export const checkExamDetails = Compile(ExamDetailsFileSchema)
export const checkQuestion = Compile(DatasetQuestionSchema)

const QUESTION_FOLDER = /^([1-9][0-9]*)(?:-([a-z0-9]+(?:-[a-z0-9]+)*))?$/
const QUESTION_FIELDS = new Set(Object.keys(DatasetQuestionSchema.properties))
/** The predecessor's stand-in where a question's picture was lost (its dataset has one, at the root, served to six 2023 records). */
const PLACEHOLDER_FILE = /^broken[-_]image\.[a-z]+$/i

/** Whether a file address names the dataset's placeholder for a missing picture, not the question's own. */
export function isPlaceholderAddress (address: string): boolean {
  const named = addressedPath(address)
  return PLACEHOLDER_FILE.test(named.slice(named.lastIndexOf('/') + 1))
}

/** A question record read from its folder. */
export interface DatasetRecordFile {
  folder: string
  /** Path of its details.json, relative to the dataset folder. */
  file: string
  record: DatasetQuestion & Record<string, unknown>
}

export function compareExamSummaries (listed: DatasetExamSummary, details: ExamDetailsFile, file: string, report: DatasetReport): void {
  for (const field of ['title', 'year', 'application', 'disciplines', 'languages'] as const) {
    // A details.json need not repeat the application its folder already names.
    if (field === 'application' && details.application === undefined) continue
    const listedValue = field === 'application' ? listed.application ?? DEFAULT_APPLICATION : listed[field]
    const detailsValue = field === 'application' ? details.application ?? DEFAULT_APPLICATION : details[field]
    if (JSON.stringify(listedValue) !== JSON.stringify(detailsValue)) {
      report.add('exam_summary_mismatch', file, `/${field}`, `exams.json has ${JSON.stringify(listedValue)}, details.json has ${JSON.stringify(detailsValue)}`)
    }
  }
}

export function checkFolderAgreement (record: DatasetQuestion, year: number, folder: string, file: string, report: DatasetReport): void {
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

/** Every file address a record holds (its files, its alternatives' files, images in its texts), each with the field that holds it. */
export function fileAddresses (record: DatasetQuestion): Array<[field: string, address: string]> {
  const addresses: Array<[string, string]> = record.files.map((address, position) => [`/files/${position}`, address])
  record.alternatives.forEach((alternative, position) => {
    if (alternative.file !== null) addresses.push([`/alternatives/${position}/file`, alternative.file])
  })
  for (const field of ['context', 'alternativesIntroduction'] as const) {
    for (const address of record[field]?.match(DATASET_ADDRESSES) ?? []) addresses.push([`/${field}`, address])
  }
  record.alternatives.forEach((alternative, position) => {
    for (const address of alternative.text?.match(DATASET_ADDRESSES) ?? []) addresses.push([`/alternatives/${position}/text`, address])
  })
  return addresses
}

/**
 * The files a dataset folder's records name (their figures) that it holds, paths relative to the
 * folder: the only files /files serves. Whatever the name's extension: the dataset names some of its
 * GIF figures `.latex`. A file no record names (a stray file at the top of the
 * folder, a dotfile such as `.env`) is never served, nor a path with a segment that begins with a dot.
 */
export function namedFiles (records: Iterable<DatasetQuestion>, filesOnDisk: ReadonlySet<string>): Set<string> {
  const named = new Set<string>()
  for (const record of records) {
    for (const [, address] of fileAddresses(record)) {
      if (!address.startsWith(DATASET_FILE_PREFIX)) continue
      const relative = addressedPath(address)
      if (filesOnDisk.has(relative) && !relative.split('/').some((segment) => segment.startsWith('.'))) named.add(relative)
    }
  }
  return named
}

export function checkQuestionConsistency (
  record: DatasetQuestion & Record<string, unknown>,
  exam: DatasetExamSummary,
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
  // A statement may live in alternativesIntroduction alone (questions whose text sits above the
  // alternatives): only a question with nothing at all to read is empty.
  const blank = (text: string | null) => text === null || text.trim() === ''
  if (blank(record.context) && record.files.length === 0 && blank(record.alternativesIntroduction)) {
    report.add('empty_question', file, '', 'the question has neither context, files nor alternativesIntroduction')
  }

  for (const [field, address] of fileAddresses(record)) {
    if (!address.startsWith(DATASET_FILE_PREFIX)) {
      report.add('foreign_file_address', file, field, `${JSON.stringify(address)} does not start with ${DATASET_FILE_PREFIX}`)
    } else if (!servableFiles.has(servedPath(address) ?? '')) {
      // Looked up as the server will look up its served address (src/data/dataset/file-addresses.ts).
      report.add('missing_file', file, field, `${address} has no file in the dataset`)
    } else if (isPlaceholderAddress(address)) {
      report.add('placeholder_image', file, field, `${address} is the dataset's placeholder for a missing picture: the question's own image is not in the dataset`)
    }
  }
}

/** `records` in view order (by index, then language rank). */
export function checkDuplicatesAndMixedIndexes (records: readonly DatasetRecordFile[], report: DatasetReport): void {
  const seen = new Map<string, DatasetRecordFile>()
  const languagesByIndex = new Map<number, Set<string | null>>()
  for (const item of records) {
    const question = item.record
    const key = `${question.index}|${question.language}`
    const first = seen.get(key)
    if (first !== undefined) {
      report.add('duplicate_record', item.file, '', `same index ${question.index} and language ${JSON.stringify(question.language)} as ${first.file}`)
    } else {
      seen.set(key, item)
    }
    const languages = languagesByIndex.get(question.index) ?? new Set()
    languages.add(question.language)
    languagesByIndex.set(question.index, languages)
  }
  for (const [index, languages] of languagesByIndex) {
    if (languages.has(null) && languages.size > 1) {
      report.add('mixed_language_index', seen.get(`${index}|null`)!.file, '/language',
        `index ${index} has a null-language record and variants in ${[...languages].filter((l) => l !== null).join(', ')}`)
    }
    const group = records.filter((item) => item.record.index === index)
    const disciplines = new Set(group.map((item) => item.record.discipline))
    if (disciplines.size > 1) {
      report.add('variant_discipline_mismatch', group[0]!.file, '/discipline',
        `the records of index ${index} disagree on the discipline: ${group.map(({ record: r }) => `${r.language ?? 'null'}=${r.discipline}`).join(', ')}`)
    }
  }
}

export function compareListedEntries (
  listed: QuestionSummary[],
  records: readonly DatasetRecordFile[],
  detailsFile: string,
  report: DatasetReport
): void {
  const key = (entry: { index: number, language: string | null }) => `${entry.index}|${entry.language}`
  const recordsByKey = new Map(records.map((item) => [key(item.record), item]))
  const listedKeys = new Set<string>()
  listed.forEach((entry, position) => {
    const field = `/questions/${position}`
    if (listedKeys.has(key(entry))) {
      report.add('duplicate_entry', detailsFile, field, `index ${entry.index} language ${JSON.stringify(entry.language)} is listed more than once`)
      return
    }
    listedKeys.add(key(entry))
    const item = recordsByKey.get(key(entry))
    if (item === undefined) {
      report.add('listed_without_record', detailsFile, field, `index ${entry.index} language ${JSON.stringify(entry.language)} has no question folder`)
      return
    }
    for (const name of ['title', 'discipline'] as const) {
      if (entry[name] !== item.record[name]) {
        report.add('summary_mismatch', detailsFile, `${field}/${name}`, `lists ${JSON.stringify(entry[name])}, ${item.file} has ${JSON.stringify(item.record[name])}`)
      }
    }
  })
  for (const item of records) {
    if (!listedKeys.has(key(item.record))) {
      report.add('unlisted_record', item.file, '', `not listed in ${detailsFile}`)
    }
  }
}

interface SchemaError { instancePath: string, message: string, keyword: string, params: Record<string, unknown> }

/**
 * One issue per offending field, in words a dataset maintainer can act on: TypeBox reports every
 * branch of a union separately ("must be string", "must be null", "must match anyOf").
 */
export function reportSchemaErrors (report: DatasetReport, file: string, value: unknown, errors: Iterable<SchemaError>): void {
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
