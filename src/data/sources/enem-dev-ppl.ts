import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { checkQuestion, DATASET_FILE_PREFIX } from '../dataset/check-dataset.ts'
import { matchBooklets } from '../official/booklet-match.ts'
import { readItensProva, type YearItems } from '../official/itens-prova.ts'
import { officialYearFromItems } from './inep-official.ts'
import { figuresOnlyInFiles } from '../record-figures.ts'
import type { DatasetQuestion } from '../record-schemas.ts'
import { placeRecords } from './booklets/booklet-placement.ts'
import { areaBooklet, fileAddress, examTitle, type ConvertedExam, type ConvertedRecord, type ExamId, type LeftOut } from './converted-exam.ts'
import { checkedExam } from './official-check.ts'

/*
 * The `enem-dev-ppl` source (../shared/sources/enem-dev-second-applications, its SOURCE.md): the
 * second applications 2011–2017 in our dataset's format, one `<year>-segunda-aplicacao/` folder
 * each, never reviewed. Each area's booklet is found in INEP's ITENS_PROVA of the year among every
 * booklet it lists (the second-application booklets are the ones that agree), the records keep
 * their positions, and each is placed on its booklet's item (src/data/sources/booklets/booklet-placement.ts).
 * File addresses are rewritten to the record's own folder of the converted exam: the source names
 * some files under `questions/<n>/` while they sit in `questions/<n>-<language>/`. The text is then
 * written as the booklet prints it (asPrinted, below).
 */

const KIND = 'enem-dev-ppl'
const EXAM_FOLDER = /^(\d{4})-segunda-aplicacao$/

/** Every second application of the source, oldest first. */
export function convertEnemDevPpl (sourceDir: string, inepDir: string): ConvertedExam[] {
  const folders = readdirSync(sourceDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && EXAM_FOLDER.test(entry.name))
    .map((entry) => entry.name).sort()
  if (folders.length === 0) throw new Error(`${sourceDir} holds no <year>-segunda-aplicacao folder`)
  return folders.map((folder) => {
    const year = Number(EXAM_FOLDER.exec(folder)![1])
    return convertExam(sourceDir, folder, readItensProva(inepDir, year))
  })
}

interface SourceRecord {
  readonly folder: string
  readonly source: string
  readonly record: DatasetQuestion
}

/** One `<year>-segunda-aplicacao/` folder, checked against the year's item data. */
export function convertExam (sourceDir: string, folder: string, items: YearItems): ConvertedExam {
  const id: ExamId = { year: items.year, application: 'ppl' }
  const leftOut: LeftOut[] = []
  const leave = (source: string, index: number, language: string | null, reason: LeftOut['reason'], detail: string) =>
    leftOut.push({ kind: KIND, exam: id, index, language, source, reason, detail })

  const questionsDir = path.join(sourceDir, folder, 'questions')
  const questionFolders = readdirSync(questionsDir, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name)
    .sort((a, b) => Number.parseInt(a, 10) - Number.parseInt(b, 10) || (a < b ? -1 : a > b ? 1 : 0))
  const readable: SourceRecord[] = []
  const taken = new Map<string, string>()
  for (const questionFolder of questionFolders) {
    const source = `${folder}/questions/${questionFolder}`
    const index = Number.parseInt(questionFolder, 10)
    let value: unknown
    try {
      value = JSON.parse(readFileSync(path.join(questionsDir, questionFolder, 'details.json'), 'utf8'))
    } catch (error) {
      leave(source, index, null, 'invalid-record', (error as Error).message)
      continue
    }
    if (!checkQuestion.Check(value)) {
      const [first] = checkQuestion.Errors(value)
      leave(source, index, null, 'invalid-record', first === undefined ? 'not a question record' : `${first.instancePath} ${first.message}`)
      continue
    }
    if (value.year !== items.year) {
      leave(source, value.index, value.language, 'invalid-record', `it says year ${value.year}`)
      continue
    }
    const position = `${value.index}|${value.language ?? ''}`
    const other = taken.get(position)
    if (other !== undefined) {
      leave(source, value.index, value.language, 'duplicate', `${other} holds index ${value.index}${value.language === null ? '' : ` ${value.language}`} too`)
      continue
    }
    taken.set(position, source)
    readable.push({ folder: questionFolder, source, record: value })
  }

  const keys = readable.map(({ record }) => ({ index: record.index, language: record.language, key: record.correctAlternative }))
  const matches = matchBooklets(items, keys)
  const placements = placeRecords(items.year, matches, keys)
  const warnings: string[] = []
  const candidates: ConvertedRecord[] = []
  readable.forEach((entry, at) => {
    const placement = placements[at]!
    if (!placement.placed) {
      leave(entry.source, entry.record.index, entry.record.language, placement.reason, placement.detail)
      return
    }
    const { converted, missing } = rewriteRecord(sourceDir, folder, id, entry)
    if (missing.length > 0) leave(entry.source, entry.record.index, entry.record.language, 'missing-file', `${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not in the source`)
    else candidates.push(converted)
  })

  const table = officialYearFromItems(items, candidates.map(({ record }) => record))
  const booklets = matches.map((match) => areaBooklet(match))
  return checkedExam({ kind: KIND, id, sourceRecords: questionFolders.length, leftOut, booklets, table, warnings }, candidates)
}

/**
 * The record with the converted exam's title and every file address pointing into its own
 * question folder, and the files to copy there: each found where the address says, else in the
 * record's own source folder; `missing` names the addresses found in neither (such a record is
 * left out: its reader would miss a figure its text shows).
 */
function rewriteRecord (sourceDir: string, folder: string, id: ExamId, { folder: ownFolder, source, record }: SourceRecord): { converted: ConvertedRecord, missing: string[] } {
  const sourcePrefix = new RegExp(`${escapeRegExp(`${DATASET_FILE_PREFIX}${folder}/questions/`)}[^/\\s)"'<>\\]]+/`, 'g')
  const ownPrefix = fileAddress(id, record.index, record.language, '')
  const files = new Map<string, string>()
  const missing: string[] = []
  const rewrite = (text: string): string => {
    for (const match of text.matchAll(new RegExp(`${sourcePrefix.source}([^\\s)"'<>\\]]+)`, 'g'))) {
      const name = match[1]!
      const relative = match[0].slice(DATASET_FILE_PREFIX.length)
      const found = [path.join(sourceDir, relative), path.join(sourceDir, folder, 'questions', ownFolder, name)].find((candidate) => existsSync(candidate))
      if (found !== undefined) files.set(name, found)
      else if (!missing.includes(match[0])) missing.push(match[0])
    }
    return text.replace(sourcePrefix, ownPrefix)
  }
  const rewriteNullable = (text: string | null) => (text === null ? null : rewrite(text))
  const converted = {
    record: asPrinted({
      title: `Questão ${record.index} - ${examTitle(id)}`,
      index: record.index,
      discipline: record.discipline,
      language: record.language,
      year: record.year,
      context: rewriteNullable(record.context),
      files: record.files.map(rewrite),
      correctAlternative: record.correctAlternative,
      alternativesIntroduction: rewriteNullable(record.alternativesIntroduction),
      alternatives: record.alternatives.map((alternative) => ({ ...alternative, text: rewriteNullable(alternative.text), file: rewriteNullable(alternative.file) }))
    }),
    files,
    source,
    sourceIndex: record.index
  }
  return { converted, missing }
}

/*
 * The source's Markdown as the booklet prints it. The program that wrote the source left two
 * artefacts in its text, each undone by a rule of its own (tested on the source's own files in
 * test/data/sources/enem-dev-ppl.test.ts):
 * - Stray indentation. A citation the booklet sets flush right, a paragraph's indented first line,
 *   came out as a run of spaces or no-break spaces at the start of the line, and a table the program
 *   could not read as lines of spaces alone. Markdown reads a line indented by four spaces as code
 *   (monospace, unwrapped, running off a phone's screen); the booklet prints a paragraph. So each
 *   line loses the white space at its ends, and a run of blank lines is one paragraph break (no
 *   line of the source ends in the two spaces of a Markdown line break, and no indented line is a
 *   list's: nothing the indentation meant is lost).
 * - `null`. Where the program lost a statement's figure it wrote a paragraph `null`, always the
 *   statement's last. The figure is then a file of the record that no text shows, when it has one
 *   (75 records): it goes back where the booklet prints it, in place of the `null`. A `null` with no
 *   such file (104 records, none of whose statements announces a figure there) stands for nothing
 *   and goes.
 */

/** White space at either end of a line: spaces, tabs, no-break spaces. */
const LINE_END_SPACE = /^[ \t\u00a0]+|[ \t\u00a0]+$/gm
/** The paragraph the source writes where it lost a figure. */
const LOST_FIGURE = 'null'

/** `text` without white space at the ends of its lines, blank lines as single paragraph breaks. */
export function withoutStrayIndentation (text: string): string {
  return text.replace(LINE_END_SPACE, '').replace(/\n{3,}/g, '\n\n').trim()
}

/** A Markdown image of `address`; in angle brackets where the address has what would end a plain one. */
function markdownImage (address: string): string {
  return /[\s()<>]/.test(address) ? `![](<${address}>)` : `![](${address})`
}

/** `context` with its `null` paragraph replaced by `figures` (Markdown images), or dropped when there are none. */
export function withLostFiguresPutBack (context: string, figures: readonly string[]): string {
  const lines = context.split('\n')
  const at = lines.indexOf(LOST_FIGURE)
  if (at === -1) return context
  lines[at] = figures.map(markdownImage).join('\n\n')
  return lines.filter((line, index) => index <= at || line !== LOST_FIGURE).join('\n').replace(/\n{3,}/g, '\n\n').trim()
}

/** A record of the source with its text as the booklet prints it: both rules above, on every Markdown field. */
export function asPrinted<R extends DatasetQuestion> (record: R): R {
  const printed = (text: string | null) => (text === null ? null : withoutStrayIndentation(text))
  const indented = {
    ...record,
    context: printed(record.context),
    alternativesIntroduction: printed(record.alternativesIntroduction),
    alternatives: record.alternatives.map((alternative) => ({ ...alternative, text: printed(alternative.text) }))
  }
  return indented.context === null ? indented : { ...indented, context: withLostFiguresPutBack(indented.context, figuresOnlyInFiles(indented)) }
}

function escapeRegExp (text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
