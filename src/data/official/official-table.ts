import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import Type from 'typebox'
import { Compile } from 'typebox/compile'
import { DEFAULT_APPLICATION, examKey, type Application } from '../exam-key.ts'
import { ApplicationSchema, AreaSchema, BookletSchema, IrtSchema, OfficialKeySchema, type Area } from '../record-schemas.ts'

/*
 * The project's own table of official facts: one `<year>.json` per exam year (`<year>-ppl.json`
 * for a second application, which says `"application": "ppl"`) plus `corrections.json` (whose
 * rows of a second application say so too), written by `npm run import-official` (src/cli/import-official.ts) for the
 * real exams, and by `npm run sample-data` for the invented sample. Every fact names the files it
 * was read from, relative to the sources folder (`gabaritos/2021_dia1.pdf`, `items/enem-2021.json`).
 */

/** Official data of the real exams, committed in the repository. */
export const OFFICIAL_DATA_DIR = path.join(projectRoot(), 'data', 'official')

/**
 * The folder holding package.json above this module: src/data/ when run from source, dist/ when
 * bundled into dist/server.js (scripts/build.ts), so a path relative to the module would differ.
 */
export function projectRoot (): string {
  let dir = path.dirname(fileURLToPath(import.meta.url))
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir)
    if (parent === dir) throw new Error(`no package.json above ${fileURLToPath(import.meta.url)}`)
    dir = parent
  }
  return dir
}

/** Folder name, inside a dataset folder, of official data that belongs to that dataset alone. */
export const DATASET_OFFICIAL_FOLDER = 'official'

const Sources = (description: string) => Type.Array(Type.String(), { minItems: 1, description })

export const OfficialPositionSchema = Type.Object({
  index: Type.Integer({ minimum: 1 }),
  language: Type.Union([Type.String(), Type.Null()]),
  area: AreaSchema,
  key: OfficialKeySchema,
  item: Type.Union([Type.Integer(), Type.Null()]),
  skill: Type.Union([Type.Integer({ minimum: 1, maximum: 30 }), Type.Null()]),
  excludedFromScoring: Type.Union([Type.Boolean(), Type.Null()]),
  irt: Type.Union([IrtSchema, Type.Null()]),
  booklet: Type.Union([BookletSchema, Type.Null()]),
  sources: Type.Object({
    key: Sources('Where the key (and annulment) was read'),
    area: Sources('Where the area was read'),
    item: Type.Union([Type.String(), Type.Null()], { description: 'Where item, skill, irt and excludedFromScoring were read' })
  })
})

const BookletMatchSchema = Type.Object({
  area: AreaSchema,
  /** The booklet taken, or null when none agrees well enough (then the best one's figures). */
  code: Type.Union([Type.Integer(), Type.Null()]),
  best: Type.Integer({ description: 'The best-agreeing booklet (the one taken, when one is)' }),
  colour: Type.String(),
  agree: Type.Integer({ minimum: 0, description: 'Positions whose record key equals the item key' }),
  compared: Type.Integer({ minimum: 0, description: 'Positions holding both a record and an item' }),
  sameOrder: Type.Array(Type.Integer(), { description: 'Other booklets with the same agreement (the same order)' }),
  source: Type.String()
})

export const OfficialDisagreementSchema = Type.Object({
  index: Type.Integer({ minimum: 1 }),
  language: Type.Union([Type.String(), Type.Null()]),
  field: Type.String(),
  values: Type.Array(Type.Object({ source: Type.String(), value: Type.String() }), { minItems: 2 })
})

/** A fact a source states that cannot be placed on a position of the dataset's numbering, or a cross-check. */
export const OfficialNoteSchema = Type.Object({
  sources: Sources('The files the note is about'),
  note: Type.String()
})

export const OfficialYearSchema = Type.Object({
  year: Type.Integer({ minimum: 1 }),
  /** Absent for a regular exam. */
  application: Type.Optional(ApplicationSchema),
  /** The areas of positions 1–45, 46–90, 91–135 and 136–180. */
  areaOrder: Type.Union([Type.Object({
    areas: Type.Array(AreaSchema, { minItems: 4, maxItems: 4 }),
    sources: Sources('Where the order was read')
  }), Type.Null()]),
  /** Per area, the INEP booklet whose order and keys the records follow (src/data/official/booklet-match.ts). */
  booklets: Type.Array(BookletMatchSchema),
  positions: Type.Array(OfficialPositionSchema),
  disagreements: Type.Array(OfficialDisagreementSchema),
  notes: Type.Array(OfficialNoteSchema)
})

export const CORRECTED_FIELDS = ['correctAlternative', 'discipline', 'language'] as const

/** Which record a row is about: its exam (`application` absent for a regular one), position and language. */
const RECORD_PLACE = {
  year: Type.Integer({ minimum: 1 }),
  application: Type.Optional(ApplicationSchema),
  index: Type.Integer({ minimum: 1 }),
  language: Type.Union([Type.String(), Type.Null()])
}

export const CorrectionRowSchema = Type.Object({
  ...RECORD_PLACE,
  field: Type.Enum(CORRECTED_FIELDS),
  inDataset: Type.Union([Type.String(), Type.Null()], { description: 'The value the dataset held when the row was written' }),
  served: Type.String({ description: 'The value served instead' }),
  source: Type.String({ description: 'The official files the served value comes from' })
})

/** Why a record was taken for repair from a booklet (src/data/sources/booklets/booklet-repairs.ts). */
export const REPAIR_RULES = ['no-statement', 'placeholder-image', 'empty-alternative'] as const

/**
 * A record `npm run dataset` completed from INEP's booklet of its exam, or found to need it and left
 * as it is (`fields` empty, `detail` says why). Applied when the folder is built, not when it is served: the
 * row says what was done and from where.
 */
export const RepairRowSchema = Type.Object({
  ...RECORD_PLACE,
  rules: Type.Array(Type.Enum(REPAIR_RULES), { minItems: 1, description: 'The rules that took the record (src/data/sources/booklets/booklet-repairs.ts)' }),
  fields: Type.Array(Type.String(), { description: 'The fields replaced by the booklet\'s (`context`, `files`, `alternativesIntroduction`, `alternatives/D/text`); none when not repaired' }),
  source: Type.String({ description: 'The booklet and question read' }),
  detail: Type.String({ description: 'What was done, or why nothing was' })
})

/** Why a record of a day with a pinned booklet keeps the transcription's reading (src/data/sources/booklets/booklet-readings.ts). */
export const READING_DIFFERENCES = ['alternatives-differ', 'statement-differs', 'fewer-figures', 'print-without-statement', 'not-read'] as const

/**
 * A record of an exam-day whose booklet is pinned that keeps the transcription's reading: the two readings
 * disagree (both are given, where they differ), or agree but the print's reading shows fewer figures, or
 * the booklet's reading has no such question. The records whose readings agree are the print's, counted in
 * the manifest; those without a statement are repair rows.
 */
export const ReadingRowSchema = Type.Object({
  ...RECORD_PLACE,
  why: Type.Enum(READING_DIFFERENCES),
  source: Type.String({ description: 'The booklet and question read' }),
  detail: Type.String({ description: 'What differs, measured' }),
  transcription: Type.String({ description: 'The transcription\'s reading where they differ (an alternative, or the statement)' }),
  print: Type.String({ description: 'The booklet\'s reading of the same part' })
})

export const CorrectionsFileSchema = Type.Object({
  /** What the rows were computed from (informative). */
  dataset: Type.String(),
  rows: Type.Array(CorrectionRowSchema),
  /** Absent where no booklet was at hand (`npm run import-official`, the conversions). */
  repairs: Type.Optional(Type.Array(RepairRowSchema)),
  /** The records of the days with a pinned booklet that keep the transcription's reading, and why (`npm run dataset`). */
  readings: Type.Optional(Type.Array(ReadingRowSchema))
})

export type OfficialPosition = Type.Static<typeof OfficialPositionSchema>
export type OfficialDisagreement = Type.Static<typeof OfficialDisagreementSchema>
export type OfficialNote = Type.Static<typeof OfficialNoteSchema>
export type OfficialYear = Type.Static<typeof OfficialYearSchema>
export type CorrectionRow = Type.Static<typeof CorrectionRowSchema>
export type RepairRow = Type.Static<typeof RepairRowSchema>
export type ReadingRow = Type.Static<typeof ReadingRowSchema>
export type CorrectionsFile = Type.Static<typeof CorrectionsFileSchema>

const checkYear = Compile(OfficialYearSchema)
const checkCorrections = Compile(CorrectionsFileSchema)

/**
 * The official facts of the exams of one application: a table is read per application, so that
 * within it an exam is known by its year alone (src/data/exam-key.ts).
 */
export interface OfficialTable {
  /** The folder read. */
  dir: string
  application: Application
  years: ReadonlyMap<number, OfficialYear>
  corrections: readonly CorrectionRow[]
  /** The records completed from a booklet when the folder was built, and those that could not be. */
  repairs: readonly RepairRow[]
  /** The entries of each position, by `year|index`, so a lookup per record stays cheap at start-up. */
  entriesByPosition: ReadonlyMap<string, readonly OfficialPosition[]>
}

/** An official table over `years` and `corrections`, with its lookup index. */
export function officialTable (dir: string, years: Iterable<OfficialYear>, corrections: readonly CorrectionRow[], application: Application = DEFAULT_APPLICATION, repairs: readonly RepairRow[] = []): OfficialTable {
  const yearMap = new Map<number, OfficialYear>()
  const entriesByPosition = new Map<string, OfficialPosition[]>()
  for (const year of years) {
    yearMap.set(year.year, year)
    for (const entry of year.positions) {
      const key = `${year.year}|${entry.index}`
      const entries = entriesByPosition.get(key)
      if (entries === undefined) entriesByPosition.set(key, [entry])
      else entries.push(entry)
    }
  }
  return { dir, application, years: yearMap, corrections, repairs, entriesByPosition }
}

/** What an official table gives about one position of an exam, for one record. */
export interface OfficialFacts {
  /** The position's official entry in the record's language (or the one common to all languages). */
  position: OfficialPosition | null
  /** The official area of the position, and where it was read; null when no source places it. */
  area: { area: Area, sources: readonly string[] } | null
  /** True when the table has per-language entries for the position and the record has no language. */
  ambiguousLanguage: boolean
  /** True when the sources disagree on the position's key: it corrects nothing. */
  keyDisputed: boolean
}

/**
 * Which official table a dataset gets: the one inside the dataset folder (`official/`) when
 * there is one (the invented sample carries its own), otherwise the repository's table of the
 * real exams.
 */
export function officialDirFor (dataDir: string): string {
  const own = path.join(dataDir, DATASET_OFFICIAL_FOLDER)
  try {
    if (statSync(own).isDirectory()) return own
  } catch {}
  return OFFICIAL_DATA_DIR
}

/**
 * Reads and validates the tables of one application in an official table folder (`<year>.json`
 * for regular exams, `<year>-ppl.json` for second applications, and the rows of corrections.json
 * of that application). Throws with a message naming the file on a missing or invalid file: the
 * table is part of the repository, so a bad one is a bug.
 */
export function readOfficialTable (dir: string, application: Application = DEFAULT_APPLICATION): OfficialTable {
  const years: OfficialYear[] = []
  let corrections: CorrectionRow[] = []
  let repairs: RepairRow[] = []
  const ofApplication = (value: { application?: Application | undefined }) => (value.application ?? DEFAULT_APPLICATION) === application
  for (const name of readdirSync(dir).sort()) {
    if (!name.endsWith('.json')) continue
    const file = path.join(dir, name)
    if (name === 'corrections.json') {
      const value = JSON.parse(readFileSync(file, 'utf8')) as unknown
      if (!checkCorrections.Check(value)) throw new Error(`${file}: ${firstError(checkCorrections.Errors(value))}`)
      corrections = value.rows.filter(ofApplication)
      repairs = (value.repairs ?? []).filter(ofApplication)
    } else if (/^\d+(-[a-z]+)?\.json$/.test(name)) {
      const value = JSON.parse(readFileSync(file, 'utf8')) as unknown
      if (!checkYear.Check(value)) throw new Error(`${file}: ${firstError(checkYear.Errors(value))}`)
      const key = examKey(value.year, value.application)
      if (`${key}.json` !== name) throw new Error(`${file}: holds the table of ${key}`)
      if (ofApplication(value)) years.push(value)
    }
  }
  return officialTable(dir, years, corrections, application, repairs)
}

function firstError (errors: Iterable<{ instancePath: string, message: string }>): string {
  const [error] = errors
  return error === undefined ? 'invalid' : `${error.instancePath === '' ? '(root)' : error.instancePath} ${error.message}`
}

/** The official area of `index` by the year's area order (blocks of 45 positions), or null. */
export function areaByOrder (year: OfficialYear | undefined, index: number): { area: Area, sources: readonly string[] } | null {
  const area = year?.areaOrder?.areas[Math.floor((index - 1) / 45)]
  return area === undefined || index > 180 ? null : { area, sources: year!.areaOrder!.sources }
}

/**
 * The official facts for a record at (`year`, `index`, `language`). A record in a language gets
 * that language's entry, or the entry common to every language; a record without a language at
 * a position INEP keys per language gets no entry (which language it is cannot be told), but
 * still the area when every language's entry agrees on it.
 */
export function officialFactsFor (table: OfficialTable, year: number, index: number, language: string | null): OfficialFacts {
  const yearTable = table.years.get(year)
  const entries = table.entriesByPosition.get(`${year}|${index}`) ?? []
  const common = entries.find((entry) => entry.language === null)
  const position = (language === null ? common : entries.find((entry) => entry.language === language) ?? common) ?? null
  const ambiguousLanguage = position === null && language === null && entries.length > 0
  let area: OfficialFacts['area'] = null
  if (yearTable?.disagreements.some((disagreement) => disagreement.index === index && disagreement.field === 'area') === true) {
    area = null
  } else if (position !== null) {
    area = { area: position.area, sources: position.sources.area }
  } else if (entries.length > 0 && entries.every((entry) => entry.area === entries[0]!.area)) {
    area = { area: entries[0]!.area, sources: [...new Set(entries.flatMap((entry) => entry.sources.area))] }
  } else {
    area = areaByOrder(yearTable, index)
  }
  const keyDisputed = yearTable?.disagreements.some((disagreement) => disagreement.index === index && disagreement.field === 'key' &&
    (disagreement.language === null || disagreement.language === position?.language)) === true
  return { position, area, ambiguousLanguage, keyDisputed }
}
