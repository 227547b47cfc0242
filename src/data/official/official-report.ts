import type { Exam } from '../catalog.ts'
import type { Application } from '../exam-key.ts'
import { compareRows, type CorrectionLedger } from './corrections.ts'
import { areaByOrder, type OfficialTable } from './official-table.ts'

/** Per exam year, the figures the data check prints with `--summary`. */
export interface OfficialCounts {
  year: number
  /** The booklet of each area, `CH 117 45/45`, or `CH none` when none agrees well enough. */
  booklets: string
  records: number
  withInep: number
  keysCorrected: number
  annulled: number
  excludedFromScoring: number
  disciplinesCorrected: number
  languagesLabelled: number
  skipped: number
  uncorrected: number
  disputed: number
  missingPositions: number
  missingVariants: number
  itemsWithoutRecord: number
}

interface RecordRef { year: number, index: number, language: string | null }

const label = ({ year, index, language }: RecordRef) => `${year} #${index}${language === null ? '' : ` ${language}`}`

/**
 * What applying an official table to a dataset did and found, for the data check
 * (src/cli/check-data.ts): every correction applied or skipped, every value the table
 * contradicts without a correction row, every disagreement between sources, every annulled or
 * unscored item, and the positions each exam lacks.
 */
export class OfficialReport {
  readonly #table: OfficialTable
  readonly #ledger: CorrectionLedger
  readonly #exams: readonly Exam[]

  constructor (table: OfficialTable, ledger: CorrectionLedger, exams: readonly Exam[]) {
    this.#table = table
    this.#ledger = ledger
    this.#exams = exams
  }

  get tableDir (): string { return this.#table.dir }
  /** The application whose exams and table these are. */
  get application (): Application { return this.#table.application }
  get applied () { return this.#ledger.applied }
  get skipped () { return this.#ledger.skipped }
  get uncorrected () { return this.#ledger.uncorrected }

  /** Records served with `inep.annulled` (or `excludedFromScoring`) true. */
  flagged (flag: 'annulled' | 'excludedFromScoring'): RecordRef[] {
    return this.#exams.flatMap((exam) => exam.questions.filter((question) => question.inep?.[flag] === true))
      .map(({ year, index, language }) => ({ year, index, language }))
  }

  /**
   * Positions 1–180 with no record at all, and the language variants missing: where the
   * table keys a position per language, each of the exam's languages should have a record there.
   */
  missing (exam: Exam): { positions: number[], variants: RecordRef[] } {
    const year = exam.summary.year
    const present = new Set(exam.questions.map((question) => `${question.index}|${question.language ?? ''}`))
    const indexes = new Set(exam.questions.map((question) => question.index))
    const positions = Array.from({ length: 180 }, (_, i) => i + 1).filter((index) => !indexes.has(index))
    const perLanguage = new Set((this.#table.years.get(year)?.positions ?? []).filter((entry) => entry.language !== null).map((entry) => entry.index))
    if (perLanguage.size === 0 && exam.languageSlugs.length > 0) {
      // Without per-language entries, the foreign-language questions are the first five of the LC block.
      const block = this.#table.years.get(year)?.areaOrder?.areas.indexOf('LC') ?? -1
      if (block !== -1) for (let index = block * 45 + 1; index <= block * 45 + 5; index++) perLanguage.add(index)
    }
    const variants: RecordRef[] = []
    for (const index of [...perLanguage].sort((a, b) => a - b)) {
      for (const language of exam.languageSlugs) {
        if (!present.has(`${index}|${language}`)) variants.push({ year, index, language })
      }
    }
    return { positions, variants }
  }

  /** The table's entries (INEP's items at our positions) of an exam that no served record stands for. */
  itemsWithoutRecord (exam: Exam): RecordRef[] {
    const year = exam.summary.year
    const present = new Set(exam.questions.map((question) => `${question.index}|${question.language ?? ''}`))
    return (this.#table.years.get(year)?.positions ?? [])
      .filter((entry) => !present.has(`${entry.index}|${entry.language ?? ''}`))
      .map(({ index, language }) => ({ year, index, language }))
  }

  /** Records served with `inep: null`, each with the reason. */
  withoutInep (): Array<RecordRef & { reason: string }> {
    const ambiguous = new Set(this.#ledger.ambiguous.map(({ year, index }) => `${year}|${index}`))
    return this.#exams.flatMap((exam) => exam.questions.filter((question) => question.inep === null).map(({ year, index, language }) => {
      const yearTable = this.#table.years.get(year)
      const reason = yearTable === undefined
        ? 'no official data for the year'
        : ambiguous.has(`${year}|${index}`)
          ? 'no language, at a position INEP keys per language, and no rule decides it'
          : yearTable.booklets.some((booklet) => booklet.code === null && booklet.area === areaByOrder(yearTable, index)?.area)
            ? 'no booklet of its area agrees with the records'
            : 'INEP lists no item at its position'
      return { year, index, language, reason }
    }))
  }

  /** The years of the table that hold disagreements and are exams of the dataset: only those are the dataset's disputes. */
  #disputes (year: number) {
    return this.#exams.some((exam) => exam.summary.year === year) ? this.#table.years.get(year)?.disagreements ?? [] : []
  }

  counts (): OfficialCounts[] {
    const years = [...new Set([...this.#exams.map((exam) => exam.summary.year)])].sort((a, b) => a - b)
    return years.map((year) => {
      const exam = this.#exams.find((candidate) => candidate.summary.year === year)!
      const applied = this.applied.filter(({ row }) => row.year === year)
      const missing = this.missing(exam)
      const booklets = this.#table.years.get(year)?.booklets ?? []
      return {
        year,
        booklets: booklets.map((booklet) => `${booklet.area} ${booklet.code ?? 'none'} ${booklet.agree}/${booklet.compared}`).join(', ') || '-',
        records: exam.questions.length,
        withInep: exam.questions.filter((question) => question.inep !== null).length,
        keysCorrected: applied.filter(({ row }) => row.field === 'correctAlternative').length,
        annulled: this.flagged('annulled').filter((ref) => ref.year === year).length,
        excludedFromScoring: this.flagged('excludedFromScoring').filter((ref) => ref.year === year).length,
        disciplinesCorrected: applied.filter(({ row }) => row.field === 'discipline').length,
        languagesLabelled: applied.filter(({ row }) => row.field === 'language').length,
        skipped: this.skipped.filter(({ row }) => row.year === year).length,
        uncorrected: this.uncorrected.filter((value) => value.year === year).length,
        disputed: this.#disputes(year).length,
        missingPositions: missing.positions.length,
        missingVariants: missing.variants.length,
        itemsWithoutRecord: this.itemsWithoutRecord(exam).length
      }
    })
  }

  /** One line, for the start-up log. */
  summaryLine (): string {
    // Counted once: counting checks every exam for missing records, a visible share of start-up when done per total.
    const counts = this.counts()
    const total = (field: Exclude<keyof OfficialCounts, 'booklets'>) => counts.reduce((sum, row) => sum + row[field], 0)
    return `${total('withInep')} of ${total('records')} records with INEP's item, ${total('keysCorrected')} keys, ${total('disciplinesCorrected')} disciplines and ` +
      `${total('languagesLabelled')} languages corrected, ${total('skipped')} corrections skipped, ` +
      `${total('uncorrected')} official values without a correction, ${total('disputed')} disputed, ${total('annulled')} annulled`
  }

  /** The counts per exam year as an aligned table. */
  formatCounts (): string {
    const columns: Array<[keyof OfficialCounts, string]> = [
      ['year', 'year'], ['records', 'records'], ['withInep', 'with inep'], ['keysCorrected', 'keys corrected'], ['annulled', 'annulled'],
      ['excludedFromScoring', 'unscored'], ['disciplinesCorrected', 'disciplines corrected'], ['languagesLabelled', 'languages labelled'],
      ['skipped', 'skipped'], ['uncorrected', 'uncorrected'], ['disputed', 'disputed'], ['missingPositions', 'missing positions'],
      ['missingVariants', 'missing variants'], ['itemsWithoutRecord', 'items without record'], ['booklets', 'booklet per area (agreeing keys)']
    ]
    const rows = [columns.map(([, title]) => title), ...this.counts().map((counts) => columns.map(([field]) => String(counts[field])))]
    const widths = columns.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)))
    return rows.map((row) => row.map((cell, column) => (column === columns.length - 1 ? cell : cell.padStart(widths[column]!))).join('  ')).join('\n')
  }

  /** The full account, section by section, every entry with its file or source. */
  format (): string {
    const lines: string[] = [`Official data: ${this.#table.dir}`]
    const section = (title: string, entries: string[]) => {
      lines.push(`${title} (${entries.length})`)
      for (const entry of entries) lines.push(`  ${entry}`)
    }
    section('CORRECTED: official value served instead of the dataset\'s', [...this.applied].sort((a, b) => compareRows(a.row, b.row)).map(({ row, file }) =>
      `${file} /${row.field}: ${JSON.stringify(row.inDataset)} -> ${JSON.stringify(row.served)} (${row.source})`))
    const repairs = this.#table.repairs.filter((row) => this.#exams.some((exam) => exam.summary.year === row.year))
    section('REPAIRED: completed from INEP\'s booklet of the exam when the folder was built (npm run dataset)', repairs.filter((row) => row.fields.length > 0).map((row) =>
      `${label(row)} (${row.rules.join(', ')}) ${row.fields.join(', ')}: ${row.detail} (${row.source})`))
    section('NOT REPAIRED: taken for repair, but the booklet\'s reading could not complete it', repairs.filter((row) => row.fields.length === 0).map((row) =>
      `${label(row)} (${row.rules.join(', ')}): ${row.detail} (${row.source})`))
    section('SKIPPED: the dataset no longer holds the value a correction was written against', this.skipped.map(({ row, file, datasetHolds }) =>
      file === null
        ? `${label(row)} /${row.field}: no such record in the dataset (row ${JSON.stringify(row.inDataset)} -> ${JSON.stringify(row.served)})`
        : `${file} /${row.field}: row expects ${JSON.stringify(row.inDataset)}, dataset holds ${JSON.stringify(datasetHolds)}; serving the dataset's value (official ${JSON.stringify(row.served)})`))
    section('UNCORRECTED: the official value differs and no correction row covers it (re-run npm run import-official)', this.uncorrected.map((value) =>
      `${value.file} /${value.field}: dataset ${JSON.stringify(value.inDataset)}, official ${JSON.stringify(value.official)} (${value.source})`))
    section('BOOKLETS: per exam and area, the INEP booklet whose keys agree with the records (src/data/official/booklet-match.ts)',
      [...this.#table.years.values()].filter((year) => this.#exams.some((exam) => exam.summary.year === year.year)).flatMap((year) =>
        year.booklets.map((booklet) => booklet.compared === 0 && booklet.code === null
          ? `${year.year} ${booklet.area}: none (no booklet of the area has an item at a position holding a record) (${booklet.source})`
          : `${year.year} ${booklet.area}: ${booklet.code === null ? `none (best ${booklet.best}, ${booklet.colour})` : `${booklet.code} (${booklet.colour})`}, ` +
            `${booklet.agree} of ${booklet.compared} keys agree${booklet.sameOrder.length > 0 ? `; same order: ${booklet.sameOrder.join(', ')}` : ''} (${booklet.source})`)))
    section('NO INEP: records served with inep null, and why', this.withoutInep().map((ref) => `${label(ref)}: ${ref.reason}`))
    section('ITEMS WITHOUT RECORD: INEP items at positions of an exam the dataset has no record for', this.#exams.flatMap((exam) => this.itemsWithoutRecord(exam).map(label)))
    section('DISPUTED: the official sources disagree; nothing is corrected from them', [...this.#table.years.values()].flatMap((year) =>
      this.#disputes(year.year).map((disagreement) => `${label({ year: year.year, index: disagreement.index, language: disagreement.language })} ${disagreement.field}: ` +
        disagreement.values.map(({ source, value }) => `${source} says ${JSON.stringify(value)}`).join(', '))))
    section('NO LANGUAGE: a record without a language where INEP keys the position per language (no official entry applies)',
      this.#ledger.ambiguous.map(({ file }) => file))
    section('ANNULLED by INEP (the record keeps its letter; inep.annulled is true)', this.flagged('annulled').map(label))
    section('UNSCORED: INEP left the item out of the score (inep.excludedFromScoring)', this.flagged('excludedFromScoring').map(label))
    section('MISSING: positions 1–180 and language variants an exam does not have', this.#exams.flatMap((exam) => {
      const { positions, variants } = this.missing(exam)
      const entries: string[] = []
      if (positions.length > 0) entries.push(`${exam.summary.year} positions ${compactRanges(positions)}`)
      if (variants.length > 0) entries.push(`${exam.summary.year} variants ${variants.map(({ index, language }) => `${index} ${language}`).join(', ')}`)
      return entries
    }))
    section('NOTES of the official sources', [...this.#table.years.values()].flatMap((year) =>
      year.notes.map((note) => `${year.year}: ${note.note} (${note.sources.join(', ')})`)))
    section('AREA of positions: order of the blocks of 45 positions, by year', [...this.#table.years.values()].filter((year) => year.areaOrder !== null)
      .map((year) => `${year.year}: ${year.areaOrder!.areas.join(', ')} (${year.areaOrder!.sources.join(', ')})`))
    lines.push('Per exam year:', this.formatCounts())
    return lines.join('\n')
  }
}

/** `[1, 2, 3, 7]` → `1–3, 7`. */
function compactRanges (numbers: readonly number[]): string {
  const parts: string[] = []
  for (let i = 0; i < numbers.length; i++) {
    let end = i
    while (end + 1 < numbers.length && numbers[end + 1] === numbers[end]! + 1) end++
    parts.push(end === i ? String(numbers[i]) : `${numbers[i]}–${numbers[end]}`)
    i = end
  }
  return parts.join(', ')
}
