import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import type { DatasetQuestion } from '../record-schemas.ts'
import { compareRecords, normalText, RATIO, sameAlternative, words } from './reading-comparison.ts'
import { bookletDefects, defectCounts, type Defect, type DefectClass } from './reading-defects.ts'
import { grow, type Box } from '../booklets/boxes.ts'
import { readRegion, type OcrReader } from '../booklets/ocr.ts'
import { openPdf, type PdfBooklet } from '../booklets/page-marks.ts'
import { brazilianWordsIfInstalled, type WordList } from '../booklets/word-list.ts'
import { BLUE_BOOKLET } from './booklets/booklet-files.ts'
import { bookletKeys } from './booklets/booklet-keys.ts'
import { cachedSnapshot, type BookletSnapshot, type SnapshotRecord } from './reading-snapshot.ts'

/*
 * How well one booklet was read (issue 58's measure, year by year): records found of the positions
 * its keys give, and each record compared with an independent reading of the same question, as the
 * fifth round compares (src/data/sources/reading-comparison.ts) — the predecessor's transcription,
 * found at the blue booklet's number of the same INEP item (a yellow booklet's 101 may be blue's
 * 137), or another colour of the same day (2025, which has no transcription) — and the defect
 * classes counted (src/data/sources/reading-defects.ts). The floors are the issue's.
 */

export const FLOORS = { found: 0.97, alternatives: 0.9, statement: 0.9, figures: 0.9 } as const

export interface QualityRow {
  readonly file: string
  /** What the records were compared with: `transcription`, another booklet's file name, or null (none). */
  readonly against: string | null
  readonly expected: number
  readonly found: number
  readonly compared: number
  /** Records whose alternatives are each equal to the other's, or differ only where the transcription misspells (`theirMisspellings`). */
  readonly alternatives: number
  /** Of `alternatives`, those equal only once the transcription's misspellings are set aside. */
  readonly theirMisspelt: number
  /** Of `alternatives`, those whose every difference the page shows the transcription's (`pageShowsTheirs`: OCR of the print reads ours). */
  readonly pageShown: number
  /** Records whose alternatives are each equal or within TYPO characters of the other's: how many differ by a typo alone, either side's. */
  readonly alternativesNear: number
  /** Theirs found in ours (nothing missing). */
  readonly theirsInOurs: number
  /** Ours found in theirs (nothing from elsewhere), of `assessable`. */
  readonly oursInTheirs: number
  readonly assessable: number
  /** Records whose statement shows a figure in the other reading, and of them those whose statement shows one (or a table) in ours. */
  readonly theirFigures: number
  readonly ourFigures: number
  readonly defects: Record<DefectClass, number>
  readonly seconds: number
  /** Each record that differs, with why, and each defect. */
  readonly differing: ReadonlyArray<{ readonly record: string, readonly why: string }>
  readonly defectList: readonly Defect[]
}

/** A share as a percentage with one decimal, or `–` of nothing. */
export function percent (part: number, whole: number): string {
  return whole === 0 ? '–' : `${(Math.floor(1000 * part / whole) / 10).toFixed(1)}`
}

const nameOf = (record: Pick<DatasetQuestion, 'index' | 'language'>) => `${record.index}${record.language === null ? '' : `-${record.language}`}`

/** The predecessor's transcription of a question, by its blue-booklet number, or null. */
export function transcribed (datasetDir: string, year: number, index: number, language: string | null): DatasetQuestion | null {
  const file = path.join(datasetDir, String(year), 'questions', `${index}${language === null ? '' : `-${language}`}`, 'details.json')
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) as DatasetQuestion : null
}

function itemOf (snapshot: BookletSnapshot, record: DatasetQuestion): number | null {
  return snapshot.positions.find((position) => position.index === record.index && position.language === record.language)?.item ??
    snapshot.positions.find((position) => position.index === record.index)?.item ?? null
}

/**
 * The other reading of each record: `blueIndex` maps INEP's item to the number the transcription
 * (which follows the blue booklet) gives it; `other` is another colour's snapshot, matched by item.
 */
export type Counterpart = (record: SnapshotRecord) => DatasetQuestion | null

export function transcriptionCounterpart (snapshot: BookletSnapshot, datasetDir: string, blueIndex: ReadonlyMap<number, number> | null): Counterpart {
  return ({ record }) => {
    let index = record.index
    if (blueIndex !== null) {
      const item = itemOf(snapshot, record)
      const blue = item === null ? undefined : blueIndex.get(item)
      if (blue === undefined) return null
      index = blue
    }
    return transcribed(datasetDir, snapshot.year, index, record.language)
  }
}

export function colourCounterpart (snapshot: BookletSnapshot, other: BookletSnapshot): Counterpart {
  const byItem = new Map<string, DatasetQuestion>()
  for (const { record } of other.records) {
    const item = itemOf(other, record)
    if (item !== null) byItem.set(`${item}|${record.language ?? ''}`, record)
  }
  return ({ record }) => {
    const item = itemOf(snapshot, record)
    return item === null ? null : byItem.get(`${item}|${record.language ?? ''}`) ?? null
  }
}

function firstDifference (ours: DatasetQuestion, theirs: DatasetQuestion): string {
  if (ours.alternatives.length !== theirs.alternatives.length) return ` (ours ${ours.alternatives.length} alternatives, theirs ${theirs.alternatives.length})`
  const differing = theirs.alternatives.find((alternative, at) => !sameAlternative(ours.alternatives[at]!, alternative))
  if (differing === undefined) return ''
  const own = ours.alternatives.find((alternative) => alternative.letter === differing.letter)
  // Where the two texts part, with a little before it: the difference, not the first words both share.
  const a = normalText(own?.text ?? null)
  const b = normalText(differing.text)
  let from = 0
  while (from < a.length && a[from] === b[from]) from++
  from = Math.max(0, from - 20)
  const show = (alternative: typeof differing | undefined, text: string) => alternative === undefined ? 'none' : `${alternative.file === null ? '' : '[picture] '}"${from > 0 ? '…' : ''}${text.slice(from, from + 60)}"`
  return ` (${differing.letter}: ours ${show(own, a)}, theirs ${show(differing, b)})`
}

/** Characters (edits) by which two alternatives may differ and count as near: a typo of either side. */
export const TYPO = 2

/** Whether two texts are within `limit` edits of each other (Levenshtein, stopped past the limit). */
export function withinEdits (a: string, b: string, limit: number): boolean {
  if (Math.abs(a.length - b.length) > limit) return false
  let previous = Array.from({ length: b.length + 1 }, (_, at) => at)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    let best = i
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1))
      best = Math.min(best, current[j]!)
    }
    if (best > limit) return false
    previous = current
  }
  return previous[b.length]! <= limit
}

/**
 * Whether every alternative is equal to the transcription's or differs only where the transcription
 * misspells: word for word, each word that differs is none in the Portuguese word list on their
 * side and one on ours ("camponestas" for the print's "camponesas", "joao" for "joão"). A
 * transcription's error the page shows is not ours; the list, not either reading, tells which side
 * erred. A word both sides spell as words ("do" for "de") is a difference.
 */
export function theirMisspellings (ours: DatasetQuestion, theirs: DatasetQuestion, list: WordList): boolean {
  if (ours.alternatives.length !== theirs.alternatives.length) return false
  let misspelt = 0
  for (const [at, alternative] of theirs.alternatives.entries()) {
    const own = ours.alternatives[at]!
    if (sameAlternative(own, alternative)) continue
    if (own.file !== null || alternative.file !== null) return false
    const ourWords = words(own.text)
    const theirWords = words(alternative.text)
    if (ourWords.length !== theirWords.length) return false
    for (const [place, word] of theirWords.entries()) {
      if (word === ourWords[place]) continue
      if (list.has(word) || !list.has(ourWords[place]!)) return false
      misspelt++
    }
  }
  return misspelt > 0
}

/** What OCR reads of the print in a box of a page (words joined by spaces), or null where it cannot read. */
export type PrintedText = (page: number, box: Box) => string | null

/**
 * Whether the page shows the transcription wrong wherever the alternatives differ: OCR of the print
 * (Tesseract on the page's pixels, a reading independent of the fonts ours comes from) reads each
 * differing alternative as ours, within PAGE_SLACK of its length, and nearer ours than theirs. A
 * transcription's error the page shows is not ours (issue 58); where OCR reads neither, it is.
 */
export function pageShowsTheirs (entry: SnapshotRecord, theirs: DatasetQuestion, page: PrintedText): boolean {
  const ours = entry.record
  if (ours.alternatives.length !== theirs.alternatives.length) return false
  let differing = 0
  for (const [at, alternative] of theirs.alternatives.entries()) {
    const own = ours.alternatives[at]!
    if (sameAlternative(own, alternative)) continue
    differing++
    const where = entry.printed.find((printed) => printed.letter === own.letter)
    if (where === undefined || own.file !== null) return false
    const read = page(where.page, { x0: where.box[0], y0: where.box[1], x1: where.box[2], y1: where.box[3] })
    if (read === null) return false
    const form = (text: string | null) => normalText(text).replace(/\s+/gu, '')
    const printed = form(read)
    const toOurs = editDistance(printed, form(own.text))
    if (toOurs > PAGE_SLACK * form(own.text).length || toOurs >= editDistance(printed, form(alternative.text))) return false
  }
  return differing > 0
}

/** OCR's own misreadings an alternative may hold and still read as ours: a share of its characters. */
const PAGE_SLACK = 0.1

/** Levenshtein's distance between two texts. */
export function editDistance (a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, at) => at)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++) current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1))
    previous = current
  }
  return previous[b.length]!
}

function nearAlternatives (ours: DatasetQuestion, theirs: DatasetQuestion): boolean {
  return ours.alternatives.length === theirs.alternatives.length && theirs.alternatives.every((alternative, at) =>
    sameAlternative(ours.alternatives[at]!, alternative) || withinEdits(normalText(ours.alternatives[at]!.text), normalText(alternative.text), TYPO))
}

/**
 * Whether a statement shows a figure. An alternative's picture is not counted here: the comparison of
 * alternatives already takes text where the other shows a formula's picture.
 */
function statementFigure (record: DatasetQuestion): boolean {
  return record.files.length > 0 || /!\[/u.test(record.context ?? '')
}

/** A Markdown table: where the other shows a table's picture, ours may set it as text (the contract's "text stays text"). */
const TABLE = /^\|.*\|\s*\n\|\s*:?-{3,}/mu

/** One booklet measured; `counterpart` null: defects and found alone. */
export function measureBooklet (snapshot: BookletSnapshot, counterpart: Counterpart | null, against: string | null, list: WordList | null = brazilianWordsIfInstalled(), page: PrintedText | null = null): QualityRow {
  const expected = snapshot.positions.filter((position) => position.key !== null).length
  let compared = 0
  let alternatives = 0
  let theirMisspelt = 0
  let pageShown = 0
  let alternativesNear = 0
  let theirsInOurs = 0
  let oursInTheirs = 0
  let assessable = 0
  let theirFigures = 0
  let ourFigures = 0
  const differing: Array<{ record: string, why: string }> = []
  for (const entry of snapshot.records) {
    const theirs = counterpart?.(entry) ?? null
    if (theirs === null) continue
    const comparison = compareRecords(entry.record, theirs)
    compared++
    const why: string[] = []
    const misspelt = !comparison.alternatives && list !== null && theirMisspellings(entry.record, theirs, list)
    const shown = !comparison.alternatives && !misspelt && page !== null && pageShowsTheirs(entry, theirs, page)
    if (comparison.alternatives || misspelt || shown) alternatives++
    if (misspelt) theirMisspelt++
    if (shown) pageShown++
    if (comparison.alternatives || misspelt || shown || nearAlternatives(entry.record, theirs)) alternativesNear++
    if (!comparison.alternatives) why.push(`alternatives differ${firstDifference(entry.record, theirs)}${misspelt ? ', the transcription misspelling' : shown ? ', the page shows the transcription\'s error' : ''}`)
    if (comparison.theirsInOurs >= RATIO) theirsInOurs++
    else why.push(`${Math.round(100 * comparison.theirsInOurs)} % of their statement in ours`)
    if (comparison.oursInTheirs !== null) {
      assessable++
      if (comparison.oursInTheirs >= RATIO) oursInTheirs++
      else why.push(`${Math.round(100 * comparison.oursInTheirs)} % of our statement in theirs`)
    }
    if (statementFigure(theirs)) {
      theirFigures++
      if (statementFigure(entry.record) || TABLE.test(entry.record.context ?? '')) ourFigures++
      else why.push('their statement shows a figure, ours none')
    }
    if (why.length > 0) differing.push({ record: nameOf(entry.record), why: why.join('; ') })
  }
  const defectList = bookletDefects(snapshot)
  return {
    file: snapshot.file,
    against,
    expected,
    found: snapshot.records.length,
    compared,
    alternatives,
    theirMisspelt,
    pageShown,
    alternativesNear,
    theirsInOurs,
    oursInTheirs,
    assessable,
    theirFigures,
    ourFigures,
    defects: defectCounts(defectList),
    seconds: snapshot.seconds,
    differing: [
      ...snapshot.leftOut.filter((entry) => entry.reason !== 'annulled').map((entry) => ({ record: nameOf(entry), why: `left out: ${entry.reason}: ${entry.detail}` })),
      ...differing
    ],
    defectList
  }
}

/** Whether a row meets each of the issue's floors (defects: none of the class). */
export function meetsFloors (row: QualityRow): Record<'found' | 'alternatives' | 'theirsInOurs' | 'oursInTheirs' | 'figures', boolean> {
  return {
    found: row.found >= FLOORS.found * row.expected,
    alternatives: row.alternatives >= FLOORS.alternatives * row.compared,
    theirsInOurs: row.theirsInOurs >= FLOORS.statement * row.compared,
    oursInTheirs: row.oursInTheirs >= FLOORS.statement * row.assessable,
    figures: row.ourFigures >= FLOORS.figures * row.theirFigures
  }
}

/** How one booklet here is measured: against the transcription, against another colour of its day, or for its defects alone. */
export interface MeasuredBooklet {
  /** `<year or ppl>/<file>` under INEP's booklets folder. */
  readonly file: string
  readonly against: 'transcription' | { readonly colour: string } | null
}

/**
 * Every booklet of ../shared/inep/booklets measured for issue 58: the blue ones and the yellow ones
 * (2018, 2021 day 2) against the transcription, 2025 each day's blue against another colour (and that
 * colour counted for its defects), the second applications for their defects.
 */
export const MEASURED_BOOKLETS: readonly MeasuredBooklet[] = [
  { file: '2009/2009_PV_impresso_D1_CD1.pdf', against: 'transcription' },
  { file: '2009/2009_PV_impresso_D2_CD7.pdf', against: 'transcription' },
  { file: '2010/2010_PV_impresso_D1_CD1.pdf', against: 'transcription' },
  { file: '2010/2010_PV_impresso_D2_CD7.pdf', against: 'transcription' },
  { file: '2014/2014_PV_impresso_D1_CD1.pdf', against: 'transcription' },
  { file: '2014/2014_PV_impresso_D2_CD7.pdf', against: 'transcription' },
  { file: '2015/2015_PV_impresso_D1_CD1.pdf', against: 'transcription' },
  { file: '2015/2015_PV_impresso_D2_CD7.pdf', against: 'transcription' },
  { file: '2016/2016_PV_impresso_D1_CD1.pdf', against: 'transcription' },
  { file: '2016/2016_PV_impresso_D2_CD7.pdf', against: 'transcription' },
  { file: '2018/2018_PV_impresso_D2_CD5.pdf', against: 'transcription' },
  { file: '2021/2021_PV_impresso_D2_CD5.pdf', against: 'transcription' },
  { file: '2023/2023_PV_impresso_D2_CD7.pdf', against: 'transcription' },
  { file: '2025/2025_PV_impresso_D1_CD1.pdf', against: { colour: '2025/2025_PV_impresso_D1_CD3.pdf' } },
  { file: '2025/2025_PV_impresso_D1_CD3.pdf', against: null },
  { file: '2025/2025_PV_impresso_D2_CD7.pdf', against: { colour: '2025/2025_PV_impresso_D2_CD5.pdf' } },
  { file: '2025/2025_PV_impresso_D2_CD5.pdf', against: null },
  { file: 'ppl/2020_PV_reaplicacao_PPL_D2_CD6.pdf', against: null },
  { file: 'ppl/2021_PV_reaplicacao_PPL_D2_CD6.pdf', against: null },
  { file: 'ppl/2023_PV_reaplicacao_PPL_D2_CD6.pdf', against: null }
]

/**
 * INEP's files to key the booklets with: the shared copy of every year's ITENS_PROVA and of the day
 * keys of 2015–2025 (../shared/inep) where it is at hand, else the repository's data/inep (which
 * holds the years of the booklets here, and 2024's day keys alone). The same ITENS_PROVA files, so
 * the same keys, where both hold a year.
 */
export function measureInepDir (sharedInepDir: string, repositoryInepDir: string): string {
  return existsSync(path.join(sharedInepDir, 'itens-prova')) ? sharedInepDir : repositoryInepDir
}

/** A booklet's answer-key PDF beside it (`_PV_` → `_GB_`), or null. */
export function answerKeyBeside (booklet: string): string | null {
  const key = path.join(path.dirname(booklet), path.basename(booklet).replace('_PV_', '_GB_'))
  return existsSync(key) ? key : null
}

/** Item → the number the blue booklet of the same day prints it at, for a booklet of another colour; null for a blue one. */
export function blueNumbering (snapshot: BookletSnapshot, inepDir: string): Map<number, number> | null {
  const blue = BLUE_BOOKLET[snapshot.day]
  if (snapshot.cd === blue) return null
  const keys = bookletKeys({ year: snapshot.year, application: snapshot.application, day: snapshot.day, cd: blue, inepDir })
  return new Map(keys.positions.flatMap((position) => (position.item?.item == null ? [] : [[position.item.item, position.index] as const])))
}

export interface MeasureOptions {
  /** INEP's booklets (../shared/inep/booklets). */
  readonly bookletsDir: string
  /** The predecessor's transcription (../shared/enem-data). */
  readonly datasetDir: string
  /** INEP's files of the repository (data/inep). */
  readonly inepDir: string
  /** Where snapshots are kept between runs. */
  readonly cacheDir: string
  readonly ocr: OcrReader | null
  /** Snapshots made again whatever the cache holds (to time the reader). */
  readonly fresh?: boolean
}

/** A snapshot of one booklet of MEASURED_BOOKLETS, made once per options (and cached). */
export function snapshotLoader (options: MeasureOptions): (file: string) => { snapshot: BookletSnapshot, cached: boolean } {
  const made = new Map<string, { snapshot: BookletSnapshot, cached: boolean }>()
  return (file) => {
    const known = made.get(file)
    if (known !== undefined) return known
    const booklet = path.join(options.bookletsDir, file)
    const result = cachedSnapshot({ booklet, answerKey: answerKeyBeside(booklet), inepDir: options.inepDir, ocr: options.ocr }, options.cacheDir, { fresh: options.fresh ?? false })
    made.set(file, result)
    return result
  }
}

/** One booklet of MEASURED_BOOKLETS measured as the list says. */
export function measureListed (entry: MeasuredBooklet, load: (file: string) => { snapshot: BookletSnapshot }, options: Pick<MeasureOptions, 'datasetDir' | 'inepDir'> & Partial<Pick<MeasureOptions, 'bookletsDir' | 'ocr'>>): QualityRow {
  const { snapshot } = load(entry.file)
  if (entry.against === null) return measureBooklet(snapshot, null, null)
  if (entry.against === 'transcription') {
    const printed = options.bookletsDir === undefined || options.ocr == null ? null : printedText(path.join(options.bookletsDir, entry.file), options.ocr)
    try {
      return measureBooklet(snapshot, transcriptionCounterpart(snapshot, options.datasetDir, blueNumbering(snapshot, options.inepDir)), 'transcription', brazilianWordsIfInstalled(), printed?.read ?? null)
    } finally {
      printed?.close()
    }
  }
  const other = load(entry.against.colour).snapshot
  return measureBooklet(snapshot, colourCounterpart(snapshot, other), other.file)
}

/** OCR of a booklet's print, region by region, the PDF opened at the first read. */
function printedText (booklet: string, ocr: OcrReader): { read: PrintedText, close: () => void } {
  let pdf: PdfBooklet | null = null
  return {
    read: (page, box) => {
      pdf ??= openPdf(readFileSync(booklet), path.basename(booklet))
      const words = readRegion(pdf.document, page, grow(box, 1), ocr)
      return words.length === 0 ? null : words.map((word) => word.text).join(' ')
    },
    close: () => pdf?.close()
  }
}
