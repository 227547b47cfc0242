import {
  officialFactsFor, type CorrectionRow, type OfficialFacts, type OfficialTable
} from './official-table.ts'
import { DISCIPLINE_OF_AREA, type Inep, type Letter, type DatasetQuestion } from '../record-schemas.ts'
import { languageLabelFor, type LanguageReason } from './language-labels.ts'
import { itemDifficulty } from '../inep-3pl.ts'

/*
 * The official table meets the dataset here. A record's answer key and discipline change only
 * through a row of the table's corrections.json, and only while the dataset still holds the
 * value the row was written against; everything else the table says is reported, not applied.
 */

export type CorrectedField = CorrectionRow['field']

/** What the official table says a record's corrected fields should be, and from where. */
export interface OfficialValue {
  field: Exclude<CorrectedField, 'language'>
  value: string
  source: string
}

/** The values of the corrected fields the official facts give for a record (annulled keys give none). */
export function officialValues (facts: OfficialFacts): OfficialValue[] {
  const values: OfficialValue[] = []
  const key = facts.position?.key
  if (key !== undefined && key !== 'X' && !facts.keyDisputed) {
    values.push({ field: 'correctAlternative', value: key, source: facts.position!.sources.key.join(', ') })
  }
  if (facts.area !== null) {
    values.push({ field: 'discipline', value: DISCIPLINE_OF_AREA[facts.area.area], source: facts.area.sources.join(', ') })
  }
  return values
}

/** The `inep` object of a record, or null when the table has no entry for it. */
export function inepOf (facts: OfficialFacts): Inep | null {
  const position = facts.position
  if (position === null) return null
  const sources = [...new Set([...position.sources.key, ...position.sources.area, ...(position.sources.item === null ? [] : [position.sources.item])])]
  return {
    item: position.item,
    area: position.area,
    skill: position.skill,
    key: position.key,
    annulled: position.key === 'X',
    excludedFromScoring: position.excludedFromScoring,
    irt: position.irt,
    difficulty: itemDifficulty(position.area, position.irt),
    booklet: position.booklet,
    sources
  }
}

/**
 * The correction rows a dataset needs against an official table: every record without a language
 * that the language rule (src/data/official/language-labels.ts) places, and every record whose key
 * or discipline differs from the official one (in its served language). What `npm run
 * import-official` writes.
 */
export function proposeCorrections (table: OfficialTable, records: readonly DatasetQuestion[]): CorrectionRow[] {
  const languagesAt = new Map<string, Array<string | null>>()
  for (const record of records) {
    const key = `${record.year}|${record.index}`
    languagesAt.set(key, [...(languagesAt.get(key) ?? []), record.language])
  }
  const rows: CorrectionRow[] = []
  for (const record of records) {
    const row = (field: CorrectedField, inDataset: string | null, served: string, source: string): CorrectionRow =>
      ({ year: record.year, index: record.index, language: record.language, field, inDataset, served, source })
    let language = record.language
    if (language === null) {
      const siblings = languagesAt.get(`${record.year}|${record.index}`)!.filter((other) => other !== null)
      const entries = table.entriesByPosition.get(`${record.year}|${record.index}`) ?? []
      const label = languageLabelFor(record, siblings, entries)
      if (label !== null) {
        language = label.language
        const sources = [...new Set(entries.flatMap((entry) => entry.sources.item ?? entry.sources.key))]
        rows.push(row('language', null, label.language, `${sources.join(', ')} (${LANGUAGE_REASONS[label.reason]})`))
      }
    }
    const facts = officialFactsFor(table, record.year, record.index, language)
    for (const official of officialValues(facts)) {
      const inDataset = record[official.field]
      if (inDataset === official.value) continue
      rows.push(row(official.field, inDataset, official.value, official.source))
    }
  }
  return rows.sort(compareRows)
}

const LANGUAGE_REASONS: Record<LanguageReason, string> = {
  sibling: 'INEP lists both languages here and the sibling record has the other',
  key: "INEP lists both languages here and only this language's key equals the record's",
  text: 'INEP lists both languages here, the keys do not tell, and the text is in this language'
}

export function compareRows (a: CorrectionRow, b: CorrectionRow): number {
  return a.year - b.year || a.index - b.index || (a.language ?? '').localeCompare(b.language ?? '') || a.field.localeCompare(b.field)
}

export interface AppliedCorrection { row: CorrectionRow, file: string }
export interface SkippedCorrection {
  row: CorrectionRow
  /** The record the row names, or null when the dataset has no such record. */
  file: string | null
  /** What the dataset holds instead of `row.inDataset` (undefined when there is no record). */
  datasetHolds?: string | null
}
/** A record the official table contradicts, with no correction row to fix it. */
export interface UncorrectedValue {
  file: string
  year: number
  index: number
  language: string | null
  field: CorrectedField
  inDataset: string | null
  official: string
  source: string
}

/** Applies a table's corrections to the records of a dataset, one record at a time, and keeps the account. */
export class CorrectionLedger {
  readonly applied: AppliedCorrection[] = []
  readonly skipped: SkippedCorrection[] = []
  readonly uncorrected: UncorrectedValue[] = []
  /** Records at a per-language position that carry no language: no official entry applies. */
  readonly ambiguous: Array<{ file: string, year: number, index: number }> = []
  readonly #table: OfficialTable
  readonly #rowsByRecord = new Map<string, CorrectionRow[]>()
  readonly #usedRows = new Set<CorrectionRow>()

  constructor (table: OfficialTable) {
    this.#table = table
    for (const row of table.corrections) {
      const key = recordKey(row.year, row.index, row.language)
      const rows = this.#rowsByRecord.get(key) ?? []
      rows.push(row)
      this.#rowsByRecord.set(key, rows)
    }
  }

  /**
   * The corrected fields and `inep` of one record (the record itself is not changed):
   * `correctAlternative` and the `isCorrect` flags move together.
   */
  correct (record: DatasetQuestion, file: string): { discipline: string | null, language: string | null, correctAlternative: Letter, isCorrect: boolean[], inep: Inep | null } {
    const rows = this.#rowsByRecord.get(recordKey(record.year, record.index, record.language)) ?? []
    const usable = rows.filter((row) => {
      this.#usedRows.add(row)
      if (record[row.field] === row.inDataset) return true
      this.skipped.push({ row, file, datasetHolds: record[row.field] })
      return false
    })
    // The language first: the official facts of a record are those of its served language.
    let language = record.language
    for (const row of usable) {
      if (row.field !== 'language') continue
      this.applied.push({ row, file })
      language = row.served
    }
    const facts = officialFactsFor(this.#table, record.year, record.index, language)
    if (facts.ambiguousLanguage) this.ambiguous.push({ file, year: record.year, index: record.index })
    let discipline = record.discipline
    let correctAlternative = record.correctAlternative
    let isCorrect = record.alternatives.map((alternative) => alternative.isCorrect)
    for (const row of usable) {
      if (row.field === 'language') continue
      this.applied.push({ row, file })
      if (row.field === 'discipline') {
        discipline = row.served
      } else {
        correctAlternative = row.served as Letter
        isCorrect = record.alternatives.map((alternative) => alternative.letter === row.served)
      }
    }
    const served = { discipline, correctAlternative }
    for (const official of officialValues(facts)) {
      if (served[official.field] === official.value) continue
      this.uncorrected.push({
        file,
        year: record.year,
        index: record.index,
        language,
        field: official.field,
        inDataset: record[official.field],
        official: official.value,
        source: official.source
      })
    }
    return { discipline, language, correctAlternative, isCorrect, inep: inepOf(facts) }
  }

  /** Rows that named no record of the dataset: skipped too. Call once, after every record. */
  finish (years: ReadonlySet<number>): void {
    for (const row of this.#table.corrections) {
      if (!this.#usedRows.has(row) && years.has(row.year)) this.skipped.push({ row, file: null })
    }
  }
}

function recordKey (year: number, index: number, language: string | null): string {
  return `${year}|${index}|${language ?? ''}`
}
