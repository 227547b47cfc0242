import { DATASET_FILE_PREFIX } from '../dataset/check-dataset.ts'
import { DEFAULT_APPLICATION, examKey, type Application } from '../exam-key.ts'
import { DISCIPLINE_OF_AREA, type Area, type Option, type DatasetExamSummary, type DatasetQuestion } from '../record-schemas.ts'
import type { AreaMatch } from '../official/booklet-match.ts'
import type { CorrectionRow, OfficialYear } from '../official/official-table.ts'

/*
 * What converting a source (src/data/sources/) makes of one exam, before it is written
 * (src/data/sources/write-conversion.ts): the records it keeps in our numbering, the records it
 * leaves out and why, and the official table and correction rows that give every kept record
 * INEP's item and key when the server applies the folder's own `official/`.
 */

/** The source kinds `npm run import-source` converts. */
export const SOURCE_KINDS = ['maritaca-2024', 'enem-dev-ppl', 'inep-booklets'] as const
export type SourceKind = typeof SOURCE_KINDS[number]

export interface ExamId {
  readonly year: number
  readonly application: Application
}

/** The exam's folder in a dataset, its key (src/data/exam-key.ts): `2024`, `2012-ppl`. */
export function examFolder ({ year, application }: ExamId): string {
  return examKey(year, application)
}

/** The exam's title: `ENEM 2024`, `ENEM PPL 2012`. */
export function examTitle ({ year, application }: ExamId): string {
  return application === DEFAULT_APPLICATION ? `ENEM ${year}` : `ENEM PPL ${year}`
}

/** A record's folder inside its exam's `questions/`: `95`, `1-ingles`. */
export function questionFolder (index: number, language: string | null): string {
  return language === null ? String(index) : `${index}-${language}`
}

/** The address a record gives a file it holds in its own question folder. */
export function fileAddress (exam: ExamId, index: number, language: string | null, name: string): string {
  return `${DATASET_FILE_PREFIX}${examFolder(exam)}/questions/${questionFolder(index, language)}/${name}`
}

/** Why a source record is not written. */
export const LEFT_OUT_REASONS = {
  'invalid-record': 'the source record is not a question record',
  duplicate: 'another source record stands at the same position',
  'no-booklet': 'no booklet of its area agrees with the source',
  'no-item': 'the booklet the source follows lists no item at its position',
  'no-language': 'at a foreign-language position, and its language cannot be told',
  'adapted-item': 'the booklets the source agrees with hold another item here in their adapted versions: the text may be the adapted item\'s',
  'ambiguous-item': 'the booklets the source agrees with hold different items here',
  order: 'its key disagrees with the booklet\'s item, as do its neighbours\': the source\'s order may differ from the booklet\'s here',
  'not-in-target': 'its item is not in the booklet our numbering follows',
  'no-key': 'the source gives no answer key',
  'missing-file': 'a file its text shows is not in the source: it would reach the reader without it',
  'no-official-entry': 'the official table gives it no INEP item or key',
  annulled: 'INEP annulled it: no letter in its item data or answer key',
  'not-read': 'the booklet\'s reading found no question at this position',
  'unreadable-text': 'its text is set in a font with no text mapping, and no OCR read it',
  'no-alternatives': 'its five alternatives could not all be read as printed'
} as const
export type LeftOutReason = keyof typeof LEFT_OUT_REASONS

/** A source record the conversion leaves out. */
export interface LeftOut {
  readonly kind: SourceKind
  readonly exam: ExamId
  /** Its position in the source's numbering. */
  readonly index: number
  readonly language: string | null
  /** Where the source holds it (`2024.jsonl questao_115`, `2012-segunda-aplicacao/questions/146`). */
  readonly source: string
  readonly reason: LeftOutReason
  /** The facts behind the reason (items, booklets, keys). */
  readonly detail: string
}

/** A record the conversion writes. */
export interface ConvertedRecord {
  /** The record in our numbering; its file addresses point into its own question folder. */
  readonly record: DatasetQuestion
  /** The files of its question folder: file name → path of the source file to copy, or the bytes to write. */
  readonly files: ReadonlyMap<string, string | Uint8Array>
  /** Where the source holds it. */
  readonly source: string
  /** Its position in the source's numbering. */
  readonly sourceIndex: number
}

/** Per area, the booklet the source was found to follow, for the summary. */
export interface AreaBooklet {
  readonly area: Area
  /** The booklet taken, or null when none agrees well enough. */
  readonly code: number | null
  readonly colour: string
  readonly agree: number
  readonly compared: number
  readonly sameOrder: readonly number[]
  /** The booklet the records were renumbered to, when it is not `code` (2024: the blue one). */
  readonly renumberedTo: number | null
}

/** An area's booklet match as the summary gives it; `renumberedTo` as in AreaBooklet. */
export function areaBooklet (match: AreaMatch, renumberedTo: number | null = null): AreaBooklet {
  return {
    area: match.area,
    code: match.booklet?.code ?? null,
    colour: match.agreement?.colour ?? '',
    agree: match.agreement?.agree ?? 0,
    compared: match.agreement?.compared ?? 0,
    sameOrder: match.sameOrder,
    renumberedTo
  }
}

export interface ConvertedExam {
  readonly kind: SourceKind
  readonly id: ExamId
  /** Records the source holds for the exam. */
  readonly sourceRecords: number
  readonly records: readonly ConvertedRecord[]
  readonly leftOut: readonly LeftOut[]
  readonly booklets: readonly AreaBooklet[]
  /** The official table of the exam, as the server reads it from the folder's `official/`. */
  readonly table: OfficialYear
  readonly corrections: readonly CorrectionRow[]
  /** What the conversion noticed that changes no record (a file the source lacks). */
  readonly warnings: readonly string[]
  /** A conversion that reads pages (the booklets): the figures its records hold, the lines OCR read. */
  readonly reading?: { readonly figures: number, readonly ocrLines: number }
}

const DISCIPLINE_LABELS: Record<string, string> = {
  'ciencias-humanas': 'Ciências Humanas e suas Tecnologias',
  'ciencias-natureza': 'Ciências da Natureza e suas Tecnologias',
  linguagens: 'Linguagens, Códigos e suas Tecnologias',
  matematica: 'Matemática e suas Tecnologias'
}
const LANGUAGE_LABELS: Record<string, string> = { espanhol: 'Espanhol', ingles: 'Inglês' }

/**
 * The exams.json entry of a converted exam, as the dataset's: the four disciplines and the
 * languages its records hold, in the dataset's order (alphabetical by slug).
 */
export function examSummary (exam: ConvertedExam): DatasetExamSummary {
  const languages = [...new Set(exam.records.map(({ record }) => record.language).filter((language) => language !== null))]
    .filter((language) => language in LANGUAGE_LABELS).sort()
  const disciplines: Option[] = Object.values(DISCIPLINE_OF_AREA).sort().map((value) => ({ label: DISCIPLINE_LABELS[value]!, value }))
  return {
    title: examTitle(exam.id),
    year: exam.id.year,
    disciplines,
    languages: languages.map((value) => ({ label: LANGUAGE_LABELS[value]!, value })),
    ...(exam.id.application === DEFAULT_APPLICATION ? {} : { application: exam.id.application })
  }
}

/** The label the reports give an exam: its key, `2024`, `2012-ppl`. */
export const examLabel = examFolder
