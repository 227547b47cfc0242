import { chmodSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { DATASET_FILE_PREFIX, fileAddresses, isPlaceholderAddress } from '../../dataset/check-dataset.ts'
import { DEFAULT_APPLICATION } from '../../exam-key.ts'
import type { RepairRow } from '../../official/official-table.ts'
import type { DatasetQuestion } from '../../record-schemas.ts'
import { examFolder, type ConvertedExam, type ConvertedRecord } from '../converted-exam.ts'
import { compareRecords, inOrderShare, normalText, RATIO, sameAlternative, words } from '../reading-comparison.ts'

/*
 * Another source's records completed from INEP's booklet of the same exam (`npm run dataset`, when a
 * pinned booklet's exam is one another source already gives). A record is taken for repair by rules
 * on its data alone:
 *
 *   no-statement       no context and no figure: it shows only its alternativesIntroduction, which
 *                      holds either the asking sentence alone (the statement is missing) or the whole
 *                      statement run together with it;
 *   placeholder-image  a file address of it is the dataset's placeholder for a lost picture;
 *   empty-alternative  an alternative with neither text nor figure.
 *
 * The booklet's reading of the question at the same position (and served language) is first shown to
 * be the same question: each alternative the record has equals the booklet's as
 * src/data/sources/reading-comparison.ts compares them, or differs from it by a typo (TYPO_SHARE of
 * their letters in order: the booklet's print is then taken, `presenca` → `presença`); and the record's
 * statement is found in the booklet's, in order (RATIO of its words; both ways where the record has
 * its statement). Then the booklet gives what the rules say is missing: the statement and its figures
 * (`context`, `files`: the PNGs written into the record's folder) and the asking sentence
 * (`alternativesIntroduction`) for the first two, the empty alternatives for the third. The record
 * keeps the rest: its other alternatives (but a typo), key, discipline and language. Every record taken
 * is a row (src/data/official/official-table.ts RepairRow): what was replaced and from which booklet
 * and question, or why nothing was.
 */

/** The share of an alternative's letters, in order, that another reading of it must have for the two to differ by a typo. */
export const TYPO_SHARE = 0.95

export type RepairRule = RepairRow['rules'][number]

/** What each rule takes, for the reports. */
export const REPAIR_RULE_ABOUT: Readonly<Record<RepairRule, string>> = {
  'no-statement': 'no context and no figure: the record shows only its alternativesIntroduction (the asking sentence alone, or the whole statement run together with it)',
  'placeholder-image': 'a file address of the record is the dataset\'s placeholder for a lost picture',
  'empty-alternative': 'an alternative with neither text nor figure'
}

const isEmpty = (alternative: DatasetQuestion['alternatives'][number]) => (alternative.text ?? '').trim() === '' && alternative.file === null

/** The rules that take `record` for repair (none: it is left alone). */
export function repairRules (record: DatasetQuestion): RepairRule[] {
  const rules: RepairRule[] = []
  if ((record.context ?? '').trim() === '' && record.files.length === 0) rules.push('no-statement')
  if (fileAddresses(record).some(([, address]) => isPlaceholderAddress(address))) rules.push('placeholder-image')
  if (record.alternatives.some(isEmpty)) rules.push('empty-alternative')
  return rules
}

/** Where a repaired record's figures go: its folder's address, and whether a name is taken there. */
export interface RepairTarget {
  /** The address of the record's folder, ending in `/`: `https://enem.dev/2023/questions/141/`. */
  readonly folderAddress: string
  readonly taken: (name: string) => boolean
}

export type RepairResult =
  | { readonly repaired: true, readonly record: DatasetQuestion, readonly files: ReadonlyMap<string, string | Uint8Array>, readonly fields: readonly string[], readonly detail: string }
  | { readonly repaired: false, readonly detail: string }

const notRepaired = (detail: string): RepairResult => ({ repaired: false, detail })
const percent = (share: number) => `${Math.round(share * 100)} %`
const shown = (alternative: DatasetQuestion['alternatives'][number]) => (isEmpty(alternative) ? 'empty' : alternative.text === null ? 'a figure' : JSON.stringify(normalText(alternative.text)))
const letters = (list: readonly string[]) => `alternative${list.length === 1 ? '' : 's'} ${list.join(', ')}`

/** The share of `a`'s letters found in order in `b`, and of `b`'s in `a`: the smaller. Spaces are form, not letters (`CH3 -(CH)2` and `CH3-(CH)2`). */
export function letterShare (a: string, b: string): number {
  const left = [...normalText(a).replace(/\s+/gu, '')]
  const right = [...normalText(b).replace(/\s+/gu, '')]
  return Math.min(inOrderShare(left, right), inOrderShare(right, left))
}

/** The booklet's text of an alternative, with the record's capital where they differ only in it (a transcription capitalises every alternative). */
function withCapitalOf (text: string, theirs: string): string {
  const [first] = text
  return first !== undefined && theirs[0] !== undefined && first !== theirs[0] && first.toLocaleUpperCase('pt-BR') === theirs[0] ? `${theirs[0]}${text.slice(1)}` : text
}

/**
 * A paragraph's last sentence apart from the sentences before it (a sentence ends at `.`, `!`, `?` or `…`
 * followed by a capital), or null when it holds one sentence, or too few words before it to be a statement.
 */
export function lastSentenceApart (text: string): { readonly before: string, readonly last: string } | null {
  const ends = [...text.matchAll(/[.!?…]["”»)]?\s+(?=["“«(]?\p{Lu})/gu)]
  const end = ends.at(-1)
  if (end === undefined) return null
  const cut = end.index + end[0].length
  const before = text.slice(0, cut).trim()
  const last = text.slice(cut).trim()
  return words(before).length < 5 || last === '' ? null : { before, last }
}

/**
 * The booklet's reading with its statement apart from its asking sentence where it read them as one
 * (a statement printed in the same paragraph as the question, 2009's 145: no context, the whole paragraph
 * its asking sentence): the question is the paragraph's last sentence, the statement what stands before it.
 */
function withStatementApart (booklet: ConvertedRecord): ConvertedRecord {
  const ours = booklet.record
  if ((ours.context ?? '').trim() !== '' || ours.files.length > 0 || ours.alternativesIntroduction === null) return booklet
  const apart = lastSentenceApart(ours.alternativesIntroduction)
  return apart === null ? booklet : { ...booklet, record: { ...ours, context: apart.before, alternativesIntroduction: apart.last } }
}

/**
 * `record` (taken by `rules`) completed from `booklet`, the booklet's reading of the same position,
 * or why it is not. Pure: the caller writes the record and its files.
 */
export function repairRecord (record: DatasetQuestion, rules: readonly RepairRule[], read: ConvertedRecord, target: RepairTarget): RepairResult {
  const booklet = withStatementApart(read)
  const ours = booklet.record
  const statement = rules.includes('no-statement') || rules.includes('placeholder-image')
  if (statement && (ours.context ?? '').trim() === '') return notRepaired('the booklet prints nothing before its asking sentence: there is no statement to complete it with')
  if (rules.includes('placeholder-image') && ours.files.length === 0) return notRepaired('the booklet\'s reading has no figure to put in place of the placeholder')
  if (ours.alternatives.length !== record.alternatives.length) return notRepaired(`the booklet shows ${ours.alternatives.length} alternatives, the record ${record.alternatives.length}`)

  // The booklet's figures, named in the record's folder (a name taken there gets a prefix).
  const files = new Map<string, string | Uint8Array>()
  const moved = (address: string): string => {
    const name = address.slice(address.lastIndexOf('/') + 1)
    const own = target.taken(name) ? `booklet-${name}` : name
    files.set(own, booklet.files.get(name)!)
    return `${target.folderAddress}${own}`
  }

  const alternatives = record.alternatives.map((alternative) => ({ ...alternative }))
  /** The letters filled from the booklet (empty in the record), and those whose text differs from the booklet's by a typo. */
  const filled: string[] = []
  const typos: string[] = []
  for (const [at, theirs] of record.alternatives.entries()) {
    const own = ours.alternatives[at]!
    if (isEmpty(theirs)) {
      if (isEmpty(own)) return notRepaired(`alternative ${theirs.letter} is empty in the booklet's reading too`)
      alternatives[at] = { ...theirs, text: own.text, file: own.file === null ? null : moved(own.file) }
      filled.push(theirs.letter)
    } else if (!sameAlternative(own, theirs)) {
      if (theirs.text === null || own.text === null || letterShare(theirs.text, own.text) < TYPO_SHARE) {
        return notRepaired(`not the same question, or not read alike: alternative ${theirs.letter} is ${shown(theirs)} in the record and ${shown(own)} in the booklet`)
      }
      alternatives[at] = { ...theirs, text: withCapitalOf(own.text, theirs.text) }
      typos.push(theirs.letter)
    }
  }
  const comparison = compareRecords(ours, record)
  if (comparison.theirsInOurs < RATIO) return notRepaired(`not the same question, or not read alike: ${percent(comparison.theirsInOurs)} of the record's statement is found in order in the booklet's (${percent(RATIO)} needed)`)
  // Where the record's statement is too short or partly a picture to tell (oursInTheirs null), its words found in the booklet's suffice.
  if (!rules.includes('no-statement') && comparison.oursInTheirs !== null && comparison.oursInTheirs < RATIO) return notRepaired(`not the same statement: ${percent(comparison.oursInTheirs)} of the booklet's is found in order in the record's (${percent(RATIO)} needed)`)

  let repaired: DatasetQuestion = { ...record, alternatives }
  const details: string[] = []
  if (statement) {
    let context = ours.context!
    const addresses = ours.files.map((address) => {
      const served = moved(address)
      context = context.replaceAll(address, served)
      return served
    })
    repaired = { ...repaired, context, files: addresses, alternativesIntroduction: ours.alternativesIntroduction }
    const figures = addresses.length === 0 ? '' : `, ${addresses.length} figure${addresses.length === 1 ? '' : 's'}`
    if (rules.includes('placeholder-image')) details.push(`the placeholder replaced: the booklet's statement${figures}`)
    else if (inOrderShare(words(ours.context), words(record.alternativesIntroduction)) >= RATIO) details.push(`the statement it held in alternativesIntroduction (${words(record.alternativesIntroduction).length} words) moved to context${figures}, the asking sentence as printed`)
    else details.push(`the missing statement completed (${words(ours.context).length} words${figures}), the asking sentence as printed`)
  }
  if (filled.length > 0) details.push(`${letters(filled)}, empty in the record, as the booklet prints ${filled.length === 1 ? 'it' : 'them'}`)
  if (typos.length > 0) details.push(`${letters(typos)} as the booklet prints ${typos.length === 1 ? 'it' : 'them'} (the record's differs by a typo)`)
  const fields = [
    ...(repaired.context === record.context ? [] : ['context']),
    ...(JSON.stringify(repaired.files) === JSON.stringify(record.files) ? [] : ['files']),
    ...(repaired.alternativesIntroduction === record.alternativesIntroduction ? [] : ['alternativesIntroduction']),
    ...alternatives.flatMap((alternative, at) => (['text', 'file'] as const).filter((field) => alternative[field] !== record.alternatives[at]![field]).map((field) => `alternatives/${alternative.letter}/${field}`))
  ]
  return { repaired: true, record: repaired, files, fields, detail: details.join('; ') }
}

/**
 * Repairs, in the dataset folder `outDir`, the records of `booklet`'s exam that a rule takes, from
 * `booklet` (convertInepBooklets' reading of the exam's pinned booklets): each record written back
 * with its figures. `servedLanguage` gives a record's language as it is served (the official table's
 * language rows), to match a foreign-language position. Positions the booklets do not print (a day
 * not at hand) are left alone. Returns a row per record taken, by index.
 */
export function repairFromBooklet (outDir: string, booklet: ConvertedExam, servedLanguage: (record: DatasetQuestion) => string | null): RepairRow[] {
  const questionsDir = path.join(outDir, examFolder(booklet.id), 'questions')
  const printed = new Set(booklet.table.positions.map((position) => position.index))
  const rows: RepairRow[] = []
  for (const folder of readdirSync(questionsDir).sort()) {
    const file = path.join(questionsDir, folder, 'details.json')
    if (!existsSync(file)) continue
    const record = JSON.parse(readFileSync(file, 'utf8')) as DatasetQuestion
    const rules = repairRules(record)
    if (rules.length === 0 || !printed.has(record.index)) continue
    const language = servedLanguage(record)
    const atIndex = booklet.records.filter((converted) => converted.record.index === record.index)
    const match = atIndex.find((converted) => converted.record.language === language) ?? (atIndex.length === 1 && atIndex[0]!.record.language === null ? atIndex[0] : undefined)
    const leftOut = booklet.leftOut.find((left) => left.index === record.index && (left.language === null || left.language === language))
    const row = (fields: readonly string[], source: string, detail: string): RepairRow => ({
      year: booklet.id.year,
      ...(booklet.id.application === DEFAULT_APPLICATION ? {} : { application: booklet.id.application }),
      index: record.index,
      language: record.language,
      rules,
      fields: [...fields],
      source,
      detail
    })
    if (match === undefined) {
      rows.push(row([], leftOut?.source ?? `the booklet of position ${record.index}`, leftOut === undefined
        ? `the booklet's reading has no question ${record.index}${language === null ? '' : ` in ${language}`}`
        : `the booklet's reading left it out (${leftOut.reason}: ${leftOut.detail})`))
      continue
    }
    const recordDir = path.dirname(file)
    const result = repairRecord(record, rules, match, {
      folderAddress: `${DATASET_FILE_PREFIX}${examFolder(booklet.id)}/questions/${folder}/`,
      taken: (name) => existsSync(path.join(recordDir, name))
    })
    if (!result.repaired) {
      rows.push(row([], match.source, result.detail))
      continue
    }
    // A copy may be read-only (the modes of its source): the folder is made writable, the file replaced.
    chmodSync(recordDir, 0o755)
    rmSync(file)
    writeFileSync(file, `${JSON.stringify(result.record, null, 2)}\n`)
    for (const [name, bytes] of result.files) writeFileSync(path.join(recordDir, name), typeof bytes === 'string' ? readFileSync(bytes) : bytes)
    rows.push(row(result.fields, match.source, result.detail))
  }
  return rows.sort((a, b) => a.index - b.index || (a.language ?? '').localeCompare(b.language ?? ''))
}
