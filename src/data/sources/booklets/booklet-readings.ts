import { chmodSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { DATASET_FILE_PREFIX } from '../../dataset/check-dataset.ts'
import { DEFAULT_APPLICATION } from '../../exam-key.ts'
import type { ReadingRow, RepairRow } from '../../official/official-table.ts'
import type { DatasetQuestion } from '../../record-schemas.ts'
import { examFolder, type ConvertedExam, type ConvertedRecord, type LeftOut } from '../converted-exam.ts'
import { compareRecords, normalText, RATIO, sameAlternative, type RecordComparison } from '../reading-comparison.ts'
import { BLUE_BOOKLET, parseBookletFileName } from './booklet-files.ts'
import { bookletKeys } from './booklet-keys.ts'
import { letterShare, repairRecord, repairRules, TYPO_SHARE, type RepairRule } from './booklet-repairs.ts'

/*
 * The print wins where two readings agree (`npm run dataset`, for an exam another source gives and
 * whose booklet of a day is pinned). Per record of such a day, the booklet's reading against the
 * transcription's, as src/data/sources/reading-comparison.ts compares them (every alternative equal
 * after forgiving form, or but a typo of the transcription's, which the print corrects; the statement's
 * words in order, RATIO each way):
 *
 *   - they agree: the record becomes the booklet's reading — its statement, figures, asking sentence and
 *     alternatives as printed — keeping its key, discipline, language and title. Where the print's reading
 *     shows fewer figures than the transcription (a figure the reader did not find, a formula it read as
 *     text), or none of its words in a statement (all in its asking sentence), the transcription stays whole,
 *     a row says so: a figure lost is worse than a word mistyped, and a record never loses its statement;
 *   - they disagree (or the booklet's reading has no such question): the transcription stays, and a row
 *     gives both readings where they differ;
 *   - the transcription has no statement (or a placeholder picture, an empty alternative: the repair rules
 *     of booklet-repairs.ts): the booklet's reading completes it, as repairRecord does. A booklet that is a
 *     re-save rather than INEP's bytes (source-pins.ts `resave`) is trusted for that only when its reading
 *     agrees with the transcription on TRUST_SHARE of the day's other records, the figure each day's
 *     agreement gives.
 *
 * Keys are never taken from the reading: the official table (INEP's) gives them when the folder is served.
 */

/** The share of a day's other records a re-save's reading must agree on before it repairs a record. */
export const TRUST_SHARE = 0.9

/** How well one day's booklet reading agrees with the transcription of the same day. */
export interface DayAgreement {
  readonly booklet: string
  readonly day: 1 | 2
  readonly resave: boolean
  /** The day's records no repair rule takes: those the two readings are compared on. */
  readonly compared: number
  readonly agreeing: number
  /** Whether the booklet's reading completes the day's records that lack a statement. */
  readonly trustedForRepairs: boolean
}

/** What the booklets did to an exam's records. */
export interface BookletReadings {
  readonly repairs: readonly RepairRow[]
  readonly readings: readonly ReadingRow[]
  readonly days: readonly DayAgreement[]
  readonly counts: {
    /** The two readings agree: the print's. */
    readonly print: number
    /** The two readings agree, but the print's shows fewer figures: the transcription's. */
    readonly agreeingKept: number
    /** The readings disagree, or the booklet's has no such question: the transcription's alone. */
    readonly disagreeing: number
    /** Completed from the print (no statement, a placeholder, an empty alternative). */
    readonly repaired: number
    /** Taken by a repair rule, not completed (why: the repair row). */
    readonly notRepaired: number
    /** At a position no pinned booklet prints (a day not at hand): the transcription's alone. */
    readonly notPrinted: number
  }
}

const figureCount = (record: DatasetQuestion): number => record.files.length + record.alternatives.filter((alternative) => alternative.file !== null).length
const percent = (share: number) => `${Math.round(share * 100)} %`
const CUT = 400
const shortened = (text: string) => (text.length > CUT ? `${text.slice(0, CUT)}…` : text)
const statementText = (record: DatasetQuestion) => normalText(`${record.context ?? ''} ${record.alternativesIntroduction ?? ''}`)

/**
 * Whether an alternative of the print's reading and the transcription's are the same reading: equal as
 * reading-comparison.ts forgives form, or differing by a typo (TYPO_SHARE of their letters in order, as a
 * repair takes it: `politico` for `político`, a lookalike letter of another alphabet), which the print corrects.
 */
function sameOrTypo (print: DatasetQuestion['alternatives'][number], theirs: DatasetQuestion['alternatives'][number]): boolean {
  if (sameAlternative(print, theirs)) return true
  return print.text !== null && theirs.text !== null && letterShare(print.text, theirs.text) >= TYPO_SHARE
}

/** The two readings of a record compared: the statement as reading-comparison.ts measures it; the alternatives equal but a typo. */
export function compareReadings (print: DatasetQuestion, transcription: DatasetQuestion): RecordComparison {
  const comparison = compareRecords(print, transcription)
  const alternatives = print.alternatives.length === transcription.alternatives.length && transcription.alternatives.every((alternative, at) => sameOrTypo(print.alternatives[at]!, alternative))
  return { ...comparison, alternatives }
}

/** Whether the two readings agree: every alternative the same but a typo, the statement's words in order RATIO each way. */
export function readingsAgree (comparison: RecordComparison): boolean {
  return comparison.alternatives && comparison.theirsInOurs >= RATIO && (comparison.oursInTheirs === null || comparison.oursInTheirs >= RATIO)
}

/** Where two disagreeing readings differ, each side's text: the alternatives that differ, or the statements. */
function difference (record: DatasetQuestion, print: DatasetQuestion, comparison: RecordComparison): { why: ReadingRow['why'], detail: string, transcription: string, print: string } {
  if (!comparison.alternatives) {
    if (print.alternatives.length !== record.alternatives.length) {
      return { why: 'alternatives-differ', detail: `the booklet's reading shows ${print.alternatives.length} alternatives, the transcription ${record.alternatives.length}`, transcription: '', print: '' }
    }
    const differing = record.alternatives.flatMap((alternative, at) => (sameOrTypo(print.alternatives[at]!, alternative) ? [] : [at]))
    const side = (of: DatasetQuestion) => differing.map((at) => `${of.alternatives[at]!.letter}) ${of.alternatives[at]!.text ?? '(a figure)'}`).join(' | ')
    return { why: 'alternatives-differ', detail: `alternative${differing.length === 1 ? '' : 's'} ${differing.map((at) => record.alternatives[at]!.letter).join(', ')} read otherwise`, transcription: shortened(side(record)), print: shortened(side(print)) }
  }
  const ways = [`${percent(comparison.theirsInOurs)} of the transcription's statement found in order in the print's`]
  if (comparison.oursInTheirs !== null) ways.push(`${percent(comparison.oursInTheirs)} of the print's in the transcription's`)
  return { why: 'statement-differs', detail: `${ways.join(', ')} (${percent(RATIO)} needed each way)`, transcription: shortened(statementText(record)), print: shortened(statementText(print)) }
}

/** Where the booklet prints a question of the transcription's numbering (the blue booklets'): its position and language there, or null when it does not. */
export type PrintedPlace = (index: number, language: string | null) => { readonly index: number, readonly language: string | null } | null

/**
 * The places of the transcription's questions (numbered as the blue booklets) in the booklets read:
 * the same where a day's booklet is the blue one; through ITENS_PROVA's items where it is another
 * colour (2018 and 2021 day 2 yellow): the blue booklet's item at the position, found in the day's
 * booklet. `booklets` are the booklet files read, by their INEP names.
 */
export function printedPlaces (booklet: ConvertedExam, booklets: readonly string[], inepDir: string): PrintedPlace {
  const colours = new Map<number, number>()
  for (const name of booklets) {
    const parsed = parseBookletFileName(name)
    if (parsed !== null && parsed.kind === 'booklet') colours.set(parsed.day, parsed.booklet)
  }
  const place = (index: number, language: string | null) => `${index}|${language ?? ''}`
  const moved = new Map<string, { index: number, language: string | null } | null>()
  for (const [day, cd] of colours) {
    const blue = BLUE_BOOKLET[day as 1 | 2]
    if (cd === blue) continue
    const keys = bookletKeys({ year: booklet.id.year, application: booklet.id.application, day: day as 1 | 2, cd: blue, inepDir, answerKeyPdf: null })
    const printedOfItem = new Map(booklet.table.positions.filter((position) => position.item !== null).map((position) => [position.item!, { index: position.index, language: position.language }]))
    for (const position of keys.positions) {
      const item = position.item?.item ?? null
      moved.set(place(position.index, position.language), item === null ? null : printedOfItem.get(item) ?? null)
    }
  }
  return (index, language) => {
    const found = moved.get(place(index, language)) ?? moved.get(place(index, null))
    return found === undefined ? { index, language } : found
  }
}

/** The booklet's reading at a place and language, or undefined; what the booklet left out there. */
function bookletMatch (booklet: ConvertedExam, index: number, language: string | null): { match: ConvertedRecord | undefined, leftOut: LeftOut | undefined } {
  const atIndex = booklet.records.filter((converted) => converted.record.index === index)
  const match = atIndex.find((converted) => converted.record.language === language) ?? (atIndex.length === 1 && atIndex[0]!.record.language === null ? atIndex[0] : undefined)
  const leftOut = booklet.leftOut.find((left) => left.index === index && (left.language === null || left.language === language))
  return { match, leftOut }
}

/**
 * The record as the booklet prints it: its statement, figures, asking sentence and alternatives' text and
 * figures from `print`; its key, discipline, language and title kept. Figures are named in the record's
 * folder (a name taken there gets a prefix); `fields` names what changed.
 */
export function printedRecord (record: DatasetQuestion, print: ConvertedRecord, folderAddress: string, taken: (name: string) => boolean): { record: DatasetQuestion, files: Map<string, string | Uint8Array>, fields: string[] } {
  const files = new Map<string, string | Uint8Array>()
  const moved = (address: string): string => {
    const name = address.slice(address.lastIndexOf('/') + 1)
    const own = taken(name) ? `booklet-${name}` : name
    files.set(own, print.files.get(name)!)
    return `${folderAddress}${own}`
  }
  let context = print.record.context
  const addresses = print.record.files.map((address) => {
    const served = moved(address)
    if (context !== null) context = context.replaceAll(address, served)
    return served
  })
  const alternatives = record.alternatives.map((alternative, at) => {
    const printed = print.record.alternatives[at]!
    return { ...alternative, text: printed.text, file: printed.file === null ? null : moved(printed.file) }
  })
  const next: DatasetQuestion = { ...record, context, files: addresses, alternativesIntroduction: print.record.alternativesIntroduction, alternatives }
  const fields = [
    ...(next.context === record.context ? [] : ['context']),
    ...(JSON.stringify(next.files) === JSON.stringify(record.files) ? [] : ['files']),
    ...(next.alternativesIntroduction === record.alternativesIntroduction ? [] : ['alternativesIntroduction']),
    ...alternatives.flatMap((alternative, at) => (['text', 'file'] as const).filter((field) => alternative[field] !== record.alternatives[at]![field]).map((field) => `alternatives/${alternative.letter}/${field}`))
  ]
  return { record: next, files, fields }
}

/** Writes `record` back into its folder with its new files; the files the old record named there and the new one does not are removed. */
function writeRecord (file: string, old: DatasetQuestion, record: DatasetQuestion, files: ReadonlyMap<string, string | Uint8Array>, folderAddress: string): void {
  const recordDir = path.dirname(file)
  // A copy may be read-only (the modes of its source): the folder is made writable, the file replaced.
  chmodSync(recordDir, 0o755)
  rmSync(file)
  writeFileSync(file, `${JSON.stringify(record, null, 2)}\n`)
  for (const [name, bytes] of files) writeFileSync(path.join(recordDir, name), typeof bytes === 'string' ? readFileSync(bytes) : bytes)
  const named = (of: DatasetQuestion) => new Set([...of.files, ...of.alternatives.map((alternative) => alternative.file)].filter((address): address is string => address !== null && address.startsWith(folderAddress)).map((address) => decodeURIComponent(address.slice(folderAddress.length))))
  const kept = named(record)
  for (const name of named(old)) if (!kept.has(name) && !name.includes('/')) rmSync(path.join(recordDir, name), { force: true })
}

interface Entry {
  readonly file: string
  readonly folder: string
  readonly record: DatasetQuestion
  readonly rules: readonly RepairRule[]
  readonly day: 1 | 2
  readonly booklet: string
  readonly match: ConvertedRecord | undefined
  readonly leftOut: LeftOut | undefined
  readonly comparison: RecordComparison | null
}

/**
 * Applies `booklet` (convertInepBooklets' reading of an exam's pinned booklets) to the exam's records in the
 * dataset folder `outDir` (see the top of this file). `servedLanguage` gives a record's language as served
 * (the official table's language rows); `resaves` names the booklet files that are re-saves; `printedPlace`
 * where the booklet prints each question (printedPlaces: another colour than the blue).
 */
export function readingsFromBooklet (outDir: string, booklet: ConvertedExam, servedLanguage: (record: DatasetQuestion) => string | null, resaves: ReadonlySet<string>, printedPlace: PrintedPlace = (index, language) => ({ index, language })): BookletReadings {
  const questionsDir = path.join(outDir, examFolder(booklet.id), 'questions')
  const printed = new Set(booklet.table.positions.map((position) => position.index))
  const dayOf = (index: number): 1 | 2 => (index <= 90 ? 1 : 2)
  // The booklet file of each day, from where the reading says each question stands.
  const bookletOfDay = new Map<1 | 2, string>()
  for (const { source } of [...booklet.records, ...booklet.leftOut]) {
    const name = source.split(' question ')[0]!
    const parsed = parseBookletFileName(name)
    if (parsed !== null && parsed.kind === 'booklet') bookletOfDay.set(parsed.day, name)
  }
  const place = (record: DatasetQuestion) => ({
    year: booklet.id.year,
    ...(booklet.id.application === DEFAULT_APPLICATION ? {} : { application: booklet.id.application }),
    index: record.index,
    language: record.language
  })

  const entries: Entry[] = []
  let notPrinted = 0
  for (const folder of readdirSync(questionsDir).sort()) {
    const file = path.join(questionsDir, folder, 'details.json')
    if (!existsSync(file)) continue
    const record = JSON.parse(readFileSync(file, 'utf8')) as DatasetQuestion
    if (!printed.has(record.index)) {
      notPrinted++
      continue
    }
    const rules = repairRules(record)
    const language = servedLanguage(record)
    const at = printedPlace(record.index, language)
    const { match, leftOut } = at === null ? { match: undefined, leftOut: undefined } : bookletMatch(booklet, at.index, at.language ?? language)
    const day = dayOf(record.index)
    entries.push({ file, folder, record, rules, day, booklet: bookletOfDay.get(day) ?? `the booklet of day ${day}`, match, leftOut, comparison: rules.length === 0 && match !== undefined ? compareReadings(match.record, record) : null })
  }

  const days: DayAgreement[] = [...new Set(entries.map((entry) => entry.day))].sort().map((day) => {
    const name = bookletOfDay.get(day) ?? `the booklet of day ${day}`
    const compared = entries.filter((entry) => entry.day === day && entry.rules.length === 0)
    const agreeing = compared.filter((entry) => entry.comparison !== null && readingsAgree(entry.comparison)).length
    const resave = resaves.has(name)
    return { booklet: name, day, resave, compared: compared.length, agreeing, trustedForRepairs: !resave || (compared.length > 0 && agreeing / compared.length >= TRUST_SHARE) }
  })

  const repairs: RepairRow[] = []
  const readings: ReadingRow[] = []
  const counts = { print: 0, agreeingKept: 0, disagreeing: 0, repaired: 0, notRepaired: 0, notPrinted }
  for (const entry of entries) {
    const { record, match } = entry
    const folderAddress = `${DATASET_FILE_PREFIX}${examFolder(booklet.id)}/questions/${entry.folder}/`
    const recordDir = path.dirname(entry.file)
    const taken = (name: string) => existsSync(path.join(recordDir, name))
    const source = match?.source ?? entry.leftOut?.source ?? `${entry.booklet} question ${record.index}`
    if (entry.rules.length > 0) {
      const row = (fields: readonly string[], detail: string): RepairRow => ({ ...place(record), rules: [...entry.rules], fields: [...fields], source, detail })
      const day = days.find((candidate) => candidate.day === entry.day)!
      let made: RepairRow
      if (match === undefined) {
        made = row([], entry.leftOut === undefined ? `the booklet's reading has no question ${record.index}` : `the booklet's reading left it out (${entry.leftOut.reason}: ${entry.leftOut.detail})`)
      } else if (!day.trustedForRepairs) {
        made = row([], `${day.booklet} is a re-save, not INEP's bytes, and its reading agrees with the transcription on ${day.agreeing} of the day's ${day.compared} other records (${percent(day.compared === 0 ? 0 : day.agreeing / day.compared)}; ${percent(TRUST_SHARE)} needed to trust it for a repair)`)
      } else {
        const result = repairRecord(record, entry.rules, match, { folderAddress, taken })
        if (result.repaired) {
          writeRecord(entry.file, record, result.record, result.files, folderAddress)
          made = row(result.fields, result.detail)
        } else {
          made = row([], result.detail)
        }
      }
      repairs.push(made)
      if (made.fields.length > 0) counts.repaired++
      else counts.notRepaired++
      continue
    }
    if (match === undefined || entry.comparison === null) {
      readings.push({ ...place(record), why: 'not-read', source, detail: entry.leftOut === undefined ? `the booklet's reading has no question ${record.index}` : `the booklet's reading left it out (${entry.leftOut.reason}: ${entry.leftOut.detail})`, transcription: '', print: '' })
      counts.disagreeing++
      continue
    }
    if (!readingsAgree(entry.comparison)) {
      readings.push({ ...place(record), source, ...difference(record, match.record, entry.comparison) })
      counts.disagreeing++
      continue
    }
    if (repairRules(match.record).includes('no-statement')) {
      // The words agree, but the print's reading holds them all in its asking sentence: taking it would leave the record without a statement.
      readings.push({ ...place(record), why: 'print-without-statement', source, detail: 'the readings agree, but the print\'s reading has no context and no figure (its statement read into the asking sentence): the transcription stays', transcription: shortened(normalText(record.context)), print: shortened(normalText(match.record.alternativesIntroduction)) })
      counts.agreeingKept++
      continue
    }
    if (figureCount(match.record) < figureCount(record)) {
      readings.push({ ...place(record), why: 'fewer-figures', source, detail: `the readings agree, but the print's shows ${figureCount(match.record)} figure${figureCount(match.record) === 1 ? '' : 's'}, the transcription ${figureCount(record)}: the transcription stays`, transcription: String(figureCount(record)), print: String(figureCount(match.record)) })
      counts.agreeingKept++
      continue
    }
    const made = printedRecord(record, match, folderAddress, taken)
    if (made.fields.length > 0) writeRecord(entry.file, record, made.record, made.files, folderAddress)
    counts.print++
  }
  const order = (a: { index: number, language: string | null }, b: { index: number, language: string | null }) => a.index - b.index || (a.language ?? '').localeCompare(b.language ?? '')
  return { repairs: repairs.sort(order), readings: readings.sort(order), days, counts }
}
