import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import type { Box } from '../../booklets/boxes.ts'
import type { OcrReader } from '../../booklets/ocr.ts'
import { annotatedPage, cropRegion, type Outline } from '../../booklets/page-pictures.ts'
import { openPdf, type PdfBooklet } from '../../booklets/page-marks.ts'
import type { Alternative as BookletAlternative, Block } from '../../booklets/question-parts.ts'
import { markdownTable } from '../../booklets/tables.ts'
import { readBooklet, type BookletQuestion, type BookletReading } from '../../booklets/read-booklet.ts'
import { examKey } from '../../exam-key.ts'
import type { OfficialPosition, OfficialYear } from '../../official/official-table.ts'
import { DISCIPLINE_OF_AREA, LETTERS, type Alternative, type DatasetQuestion } from '../../record-schemas.ts'
import { findBookletFiles, type BookletDay, type BookletExam } from './booklet-files.ts'
import { bookletKeys, checkMarkedKeys, type BookletKeys, type BookletPosition } from './booklet-keys.ts'
import { examTitle, fileAddress, type AreaBooklet, type ConvertedExam, type ConvertedRecord, type ExamId, type LeftOut } from '../converted-exam.ts'
import { checkedExam } from '../official-check.ts'

/*
 * The `inep-booklets` source: INEP's printed booklets (PDF), read by src/data/booklets/, become
 * records. One booklet per day (src/data/sources/booklet-files.ts); each question read is matched to
 * the position the booklet prints it at, whose area, language, key and INEP facts come from
 * ITENS_PROVA and the answer key (src/data/sources/booklet-keys.ts). Records are numbered as
 * printed. A statement is Markdown: paragraphs, and each figure cropped from the page as a PNG where
 * it stands; an alternative is its text, or its figure. What cannot be written as printed is left out
 * with its reason: a question whose letters were not all found, text no OCR read.
 */

const KIND = 'inep-booklets'

export interface BookletConversionOptions {
  /** Reads text whose font has no usable mapping; null: such questions are left out. */
  readonly ocr?: OcrReader | null
  /** Where each page is written as a picture with what was found drawn on it, or null. */
  readonly pagesDir?: string | null
}

/** Every exam of the folder's booklets, newest first as the folder lists them. */
export function convertInepBooklets (sourceDir: string, inepDir: string | null, options: BookletConversionOptions = {}): ConvertedExam[] {
  const exams = findBookletFiles(sourceDir)
  if (exams.length === 0) throw new Error(`${sourceDir} holds no INEP booklet (<year>_PV_impresso_D<day>_CD<n>.pdf), at its top or one folder down`)
  return exams.map((exam) => convertExam(exam, inepDir, options))
}

function convertExam (exam: BookletExam, inepDir: string | null, options: BookletConversionOptions): ConvertedExam {
  const id: ExamId = { year: exam.year, application: exam.application }
  const leftOut: LeftOut[] = []
  const warnings: string[] = []
  const candidates: ConvertedRecord[] = []
  const positions: OfficialPosition[] = []
  const booklets: AreaBooklet[] = []
  let sourceRecords = 0
  let ocrLines = 0
  for (const day of exam.days) {
    const keys = bookletKeys({ year: exam.year, application: exam.application, day: day.day, cd: day.cd, inepDir, answerKeyPdf: day.answerKey })
    const pdf = openPdf(readFileSync(day.booklet), path.basename(day.booklet))
    try {
      const reading = readBooklet(pdf, { ocr: options.ocr ?? null })
      if (options.pagesDir != null) writePagePictures(pdf, reading, path.join(options.pagesDir, `${examKey(exam.year, exam.application)}-D${day.day}`))
      ocrLines += reading.pages.reduce((sum, page) => sum + page.ocr.length, 0)
      sourceRecords += reading.questions.length
      candidates.push(...convertDay(id, day, croppedFigures(pdf), reading, keys, leftOut, warnings))
      positions.push(...keys.positions.map((position) => officialPosition(position, keys)))
      booklets.push(...keys.areas.map((area) => ({
        area: area.area,
        code: area.coProva,
        colour: area.colour ?? '',
        agree: keys.positions.filter((position) => position.area === area.area && position.key !== null).length,
        compared: keys.positions.filter((position) => position.area === area.area).length,
        sameOrder: area.sameOrder,
        renumberedTo: null
      })))
      warnings.push(...keys.notes.map((note) => `${path.basename(day.booklet)}: ${note}`))
      if (reading.decodingWarning !== null) warnings.push(`${path.basename(day.booklet)}: ${reading.decodingWarning}`)
      const said = [...new Set(pdf.notes())]
      if (said.length > 0) warnings.push(`${path.basename(day.booklet)}: MuPDF noted ${said.slice(0, 3).join('; ')}${said.length > 3 ? ` and ${said.length - 3} more` : ''}`)
    } finally {
      pdf.close()
    }
  }
  const table: OfficialYear = {
    year: exam.year,
    areaOrder: null,
    booklets: booklets.filter((booklet) => booklet.code !== null).map((booklet) => ({
      area: booklet.area,
      code: booklet.code,
      best: booklet.code!,
      colour: booklet.colour,
      agree: booklet.agree,
      compared: booklet.compared,
      sameOrder: [...booklet.sameOrder],
      source: 'ITENS_PROVA'
    })),
    positions: positions.sort((a, b) => a.index - b.index || (a.language ?? '').localeCompare(b.language ?? '')),
    disagreements: [],
    notes: []
  }
  const converted = checkedExam({ kind: KIND, id, sourceRecords, leftOut, booklets, table, warnings }, candidates)
  const written = new Set(converted.records)
  return { ...converted, reading: { figures: candidates.filter((record) => written.has(record)).reduce((sum, record) => sum + record.files.size, 0), ocrLines } }
}

function officialPosition (position: BookletPosition, keys: BookletKeys): OfficialPosition {
  const keySources = [keys.sources.answerKey, keys.sources.itensProva].filter((source): source is string => source !== null)
  return {
    index: position.index,
    language: position.language,
    area: position.area,
    key: position.key ?? 'X',
    item: position.item?.item ?? null,
    skill: position.item?.skill ?? null,
    excludedFromScoring: position.item?.abandoned ?? null,
    irt: position.item?.irt ?? null,
    booklet: position.coProva === null ? null : { code: position.coProva, colour: position.item?.colour ?? '' },
    sources: { key: keySources, area: keySources, item: position.item === null ? null : keys.sources.itensProva }
  }
}

/**
 * How a record's figure becomes a file: the crop's name and bytes, or (to compare readings without
 * rendering) a name alone.
 */
export type FigureFiles = (page: number, box: Box, name: string) => Uint8Array | null

export function croppedFigures (pdf: PdfBooklet): FigureFiles {
  return (page, box) => cropRegion(pdf.document, page, box)
}

/** The records of one day's booklet, and what of it is left out. */
export function convertDay (id: ExamId, day: BookletDay, figures: FigureFiles, reading: BookletReading, keys: BookletKeys, leftOut: LeftOut[], warnings: string[]): ConvertedRecord[] {
  const source = path.basename(day.booklet)
  if (reading.answerMarked) {
    // An answer-marked print draws the key on the page: one more check of it, which refuses where they differ.
    const { agree, unchecked } = checkMarkedKeys(keys, reading.questions.map((question) => ({ index: question.region.number, language: question.region.language, letters: question.marked })), source)
    warnings.push(`${source}: an answer-marked print; the letter it marks is the key at ${agree} positions${unchecked === 0 ? '' : `, ${unchecked} question${unchecked === 1 ? '' : 's'} read with no mark or several`}`)
  }
  const read = new Map(reading.questions.map((question) => [placeKey(question.region.number, question.region.language), question]))
  const records: ConvertedRecord[] = []
  const leave = (index: number, language: string | null, reason: LeftOut['reason'], detail: string) =>
    leftOut.push({ kind: KIND, exam: id, index, language, source: `${source} question ${index}${language === null ? '' : ` (${language})`}`, reason, detail })
  for (const annulled of keys.leftOut) leave(annulled.index, annulled.language, 'annulled', annulled.detail)
  for (const position of keys.positions) {
    if (position.key === null) continue
    const question = read.get(placeKey(position.index, position.language)) ?? read.get(placeKey(position.index, null))
    if (question === undefined) {
      leave(position.index, position.language, 'not-read', `no question ${position.index} was found in the booklet`)
      continue
    }
    if (question.region.language !== null && question.region.language !== position.language) {
      warnings.push(`${source}: question ${position.index} stands under a heading of ${question.region.language}, ITENS_PROVA says ${position.language ?? 'no language'}`)
    }
    const problem = question.parts.problem ?? unreadable(question, reading) ?? incomplete(question.parts.alternatives)
    if (problem !== null) {
      leave(position.index, position.language, problem.startsWith('text') ? 'unreadable-text' : 'no-alternatives', problem)
      continue
    }
    records.push(buildRecord(id, figures, question, position, source))
  }
  for (const question of reading.questions) {
    if (!keys.positions.some((position) => position.index === question.region.number)) warnings.push(`${source}: question ${question.region.number} was read but the booklet's item data has no such position`)
  }
  return records
}

function placeKey (index: number, language: string | null): string {
  return `${index}|${language ?? ''}`
}

function unreadable (question: BookletQuestion, reading: BookletReading): string | null {
  const lines = new Set([
    ...question.parts.statement.flatMap((block) => (block.kind === 'figure' ? [] : block.lines)),
    ...question.parts.alternatives.flatMap((alternative) => alternative.lines)
  ])
  const unread = reading.pages.flatMap((page) => page.unmapped).filter((line) => lines.has(line))
  return unread.length === 0 ? null : `text in a font with no text mapping that no OCR read (${unread.length} line${unread.length === 1 ? '' : 's'})`
}

function incomplete (alternatives: readonly BookletAlternative[]): string | null {
  const empty = alternatives.filter((alternative) => alternative.text === '' && alternative.figure === null).map((alternative) => alternative.letter)
  return empty.length === 0 ? null : `alternative${empty.length === 1 ? '' : 's'} ${empty.join(', ')} read with neither text nor figure`
}

/** Markdown's own characters in printed text, escaped so that text stays text. */
export function markdownText (text: string): string {
  return text
    .replace(/[\\`*_[\]<>|]/gu, (character) => `\\${character}`)
    .replace(/^(\s*)([#+-]|\d+[.)])(\s)/gmu, (_, space: string, mark: string, after: string) => `${space}${mark.replace(/([#+\-.)])$/u, '\\$1')}${after}`)
}

function buildRecord (id: ExamId, figures: FigureFiles, question: BookletQuestion, position: BookletPosition, source: string): ConvertedRecord {
  const files = new Map<string, Uint8Array>()
  let count = 0
  const { index, language } = position
  const figure = (page: number, box: Box): string => {
    const name = `figura-${++count}.png`
    const bytes = figures(page, box, name)
    if (bytes !== null) files.set(name, bytes)
    return fileAddress(id, index, language, name)
  }
  const contextFiles: string[] = []
  const paragraphs = question.parts.statement.map((block: Block) => {
    if (block.kind === 'text') return markdownText(block.text)
    if (block.kind === 'table') return markdownTable(block.rows, markdownText)
    const address = figure(block.page, block.figure.box)
    contextFiles.push(address)
    return `![Figura ${contextFiles.length}](${address})`
  })
  const alternatives: Alternative[] = question.parts.alternatives.map((alternative, at) => {
    const letter = LETTERS[at]!
    const isCorrect = letter === position.key
    if (alternative.figure !== null) {
      const file = figure(alternative.figure.page, alternative.figure.figure.box)
      return { letter, text: alternative.text === '' ? null : alternative.text, file, isCorrect }
    }
    // An alternative's text is plain, as every transcription's is (the contract): no Markdown escapes.
    return { letter, text: alternative.text, file: null, isCorrect }
  })
  const record: DatasetQuestion = {
    title: `Questão ${index} - ${examTitle(id)}`,
    index,
    discipline: DISCIPLINE_OF_AREA[position.area],
    language,
    year: id.year,
    context: paragraphs.length === 0 ? null : paragraphs.join('\n\n'),
    files: contextFiles,
    correctAlternative: position.key!,
    alternativesIntroduction: question.parts.asking === '' ? null : markdownText(question.parts.asking),
    alternatives
  }
  return { record, files, source: `${source} question ${index}`, sourceIndex: index }
}

const FOUND: Outline['colour'] = [0.1, 0.35, 0.9]
const ALTERNATIVE: Outline['colour'] = [0.1, 0.65, 0.2]
const FIGURE: Outline['colour'] = [0.95, 0.5, 0]
const FURNITURE: Outline['colour'] = [0.85, 0.1, 0.1]
const UNREAD: Outline['colour'] = [0.6, 0.1, 0.7]

/**
 * Each page as a PNG with what was read drawn on it: question text blue (labels thick), alternatives
 * green, figures orange, furniture red, text left unread purple.
 */
function writePagePictures (pdf: PdfBooklet, reading: BookletReading, folder: string): void {
  mkdirSync(folder, { recursive: true })
  for (const page of reading.pages) {
    const outlines: Outline[] = [
      ...page.furniture.map(({ line }) => ({ box: line.box, colour: FURNITURE })),
      ...page.drawnFurniture.map((box) => ({ box, colour: FURNITURE })),
      ...page.figures.map((figure) => ({ box: figure.box, colour: FIGURE, strong: true })),
      ...page.unmapped.map((line) => ({ box: line.box, colour: UNREAD, strong: true }))
    ]
    for (const { region, parts } of reading.questions) {
      if (region.label.page === page.number) outlines.push({ box: region.label.line.box, colour: FOUND, strong: true })
      for (const element of region.elements) if (element.page === page.number && element.kind === 'line') outlines.push({ box: element.line.box, colour: FOUND })
      for (const alternative of parts.alternatives) for (const line of alternative.lines) if (region.elements.some((element) => element.page === page.number && element.kind === 'line' && element.line === line)) outlines.push({ box: line.box, colour: ALTERNATIVE })
    }
    writeFileSync(path.join(folder, `page-${String(page.number).padStart(2, '0')}.png`), annotatedPage(pdf.document, page.number, outlines))
  }
}
