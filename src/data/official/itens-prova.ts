import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { parse } from 'csv-parse/sync'
import { AREAS, LETTERS, type Area, type OfficialKey } from '../record-schemas.ts'
import { examIndexOf } from './exam-layout.ts'

/*
 * INEP's `ITENS_PROVA_<year>.csv` (the `itens-prova/` folder of the official sources; its SOURCE.md
 * lists the traps): one row per item per booklet (`CO_PROVA`, one area each) and position. Read
 * here into booklets whose items stand in the booklet's own order, so that every year reads alike:
 * `CO_POSICAO` counts within the exam in most years but within the area in 2017 and with the areas
 * in another place in 2016; 2017 numbers the English items 1–5 and the Spanish 6–10, the other
 * years write both languages at the same five positions; `TP_LINGUA` is `0.0`/`1.0`; 2009 writes
 * `CO_ITEM` as a float and leaves it empty on its one `X` row.
 */

export type ItemLanguage = 'ingles' | 'espanhol'

/** One row of an ITENS_PROVA file: one item of one booklet. */
export interface ItemRow {
  /** `CO_POSICAO` as the file writes it. */
  readonly position: number
  readonly area: Area
  /** `CO_ITEM`; null where the file leaves it empty. */
  readonly item: number | null
  /** `TX_GABARITO`: A–E, or X for an annulled item. */
  readonly key: OfficialKey
  /** `CO_HABILIDADE`; null where the file leaves it empty. */
  readonly skill: number | null
  /** `IN_ITEM_ABAN` = 1: INEP left the item out of the score. */
  readonly abandoned: boolean
  readonly abandonReason: string | null
  /** `NU_PARAM_A/B/C`; null where the file gives none. */
  readonly irt: { readonly a: number, readonly b: number, readonly c: number } | null
  /** `TX_COR`, lower-cased as INEP writes it (`azul`, `laranja - braile`, `leitor tela`). */
  readonly colour: string
  /** `CO_PROVA`. */
  readonly booklet: number
  /** `TP_LINGUA`: the foreign language of a language item, null for every other item. */
  readonly language: ItemLanguage | null
  /** `IN_ITEM_ADAPTADO` = 1; null in the years whose file has no such column. */
  readonly adapted: boolean | null
}

/** One position of a booklet in its own order: one item, or one per language at the language positions. */
export interface BookletSlot {
  /** 1–45: the position in the booklet's order, the five language positions first in linguagens from 2010 on. */
  readonly slot: number
  /** The items at this position: one common item, or the English and the Spanish one. */
  readonly items: readonly ItemRow[]
}

/** One booklet (`CO_PROVA`) of one area, its items in the booklet's order. */
export interface Booklet {
  readonly year: number
  readonly code: number
  readonly area: Area
  readonly colour: string
  readonly slots: readonly BookletSlot[]
  /** The languages its language positions offer (none outside linguagens, and in 2009). */
  readonly languages: readonly ItemLanguage[]
  /**
   * Why the booklet's order cannot be told from the file, or null when it can: a position listing
   * items that are not one per language (2013's adapted booklets 187–190 list two at every
   * position; 2020's digital linguagens booklets repeat items).
   */
  readonly unordered: string | null
}

/** The items of one year, every booklet, as the file lists them. */
export interface YearItems {
  readonly year: number
  /** The source file, relative to the official sources folder (`itens-prova/ITENS_PROVA_2021.csv`). */
  readonly source: string
  readonly rows: readonly ItemRow[]
  readonly booklets: ReadonlyMap<number, Booklet>
}

export const ITENS_PROVA_FOLDER = 'itens-prova'
const FILE_NAME = /^ITENS_PROVA_(\d{4})\.csv$/

/** The years whose ITENS_PROVA file the sources folder holds, ascending. */
export function itensProvaYears (sourcesDir: string): number[] {
  let names: string[]
  try {
    names = readdirSync(path.join(sourcesDir, ITENS_PROVA_FOLDER))
  } catch {
    return []
  }
  return names.flatMap((name) => {
    const match = FILE_NAME.exec(name)
    return match === null ? [] : [Number(match[1])]
  }).sort((a, b) => a - b)
}

/** Reads one year's ITENS_PROVA file from the official sources folder. Throws naming the file and line on a row it cannot read. */
export function readItensProva (sourcesDir: string, year: number): YearItems {
  const source = `${ITENS_PROVA_FOLDER}/ITENS_PROVA_${year}.csv`
  return parseItensProva(readFileSync(path.join(sourcesDir, source), 'utf8'), year, source)
}

/** Parses the text of an ITENS_PROVA file (`;`-separated, a header line naming INEP's columns). */
export function parseItensProva (text: string, year: number, source: string): YearItems {
  const records = parse(text, { delimiter: ';', columns: true, skip_empty_lines: true, trim: true }) as Array<Record<string, string | undefined>>
  const rows = records.map((record, at) => {
    try {
      return readRow(record)
    } catch (error) {
      throw new Error(`${source}, line ${at + 2}: ${(error as Error).message}`)
    }
  })
  return { year, source, rows, booklets: groupBooklets(year, rows) }
}

function readRow (record: Record<string, string | undefined>): ItemRow {
  const area = required(record, 'SG_AREA')
  if (!(AREAS as readonly string[]).includes(area)) throw new Error(`SG_AREA ${JSON.stringify(area)} is not an area`)
  const key = required(record, 'TX_GABARITO')
  if (!([...LETTERS, 'X'] as readonly string[]).includes(key)) throw new Error(`TX_GABARITO ${JSON.stringify(key)} is not A–E or X`)
  const [a, b, c] = ['NU_PARAM_A', 'NU_PARAM_B', 'NU_PARAM_C'].map((column) => optionalNumber(record, column))
  const language = optionalNumber(record, 'TP_LINGUA')
  if (language !== null && language !== 0 && language !== 1) throw new Error(`TP_LINGUA ${language} is neither 0 nor 1`)
  const adapted = optionalNumber(record, 'IN_ITEM_ADAPTADO')
  return {
    position: integer(required(record, 'CO_POSICAO'), 'CO_POSICAO'),
    area: area as Area,
    item: nullableInteger(record, 'CO_ITEM'),
    key: key as OfficialKey,
    skill: nullableInteger(record, 'CO_HABILIDADE'),
    abandoned: optionalNumber(record, 'IN_ITEM_ABAN') === 1,
    abandonReason: blankToNull(record.TX_MOTIVO_ABAN),
    irt: a == null || b == null || c == null ? null : { a, b, c },
    colour: required(record, 'TX_COR').toLowerCase(),
    booklet: integer(required(record, 'CO_PROVA'), 'CO_PROVA'),
    language: language === null ? null : language === 0 ? 'ingles' : 'espanhol',
    adapted: adapted === null ? null : adapted === 1
  }
}

function blankToNull (value: string | undefined): string | null {
  return value === undefined || value === '' ? null : value
}

function required (record: Record<string, string | undefined>, column: string): string {
  const value = blankToNull(record[column])
  if (value === null) throw new Error(`${column} is empty`)
  return value
}

function optionalNumber (record: Record<string, string | undefined>, column: string): number | null {
  const value = blankToNull(record[column])
  if (value === null) return null
  const number = Number(value)
  if (!Number.isFinite(number)) throw new Error(`${column} ${JSON.stringify(value)} is not a number`)
  return number
}

/** An integer column, which some years write as a float (`60181.0`). */
function nullableInteger (record: Record<string, string | undefined>, column: string): number | null {
  const value = optionalNumber(record, column)
  if (value === null) return null
  return integer(String(value), column)
}

function integer (value: string, column: string): number {
  const number = Number(value)
  if (!Number.isInteger(number)) throw new Error(`${column} ${JSON.stringify(value)} is not an integer`)
  return number
}

/**
 * The booklets of a year's rows. A booklet's order: first its language items, each language's in
 * the order of their positions, paired by rank (the English and the Spanish item of one position
 * share a slot, wherever the file writes them), then its other items by position.
 */
function groupBooklets (year: number, rows: readonly ItemRow[]): Map<number, Booklet> {
  const byCode = new Map<number, ItemRow[]>()
  for (const row of rows) {
    const list = byCode.get(row.booklet)
    if (list === undefined) byCode.set(row.booklet, [row])
    else list.push(row)
  }
  const booklets = new Map<number, Booklet>()
  for (const [code, list] of [...byCode].sort(([a], [b]) => a - b)) {
    const first = list[0]!
    const byPosition = (x: ItemRow, y: ItemRow): number => x.position - y.position
    const english = list.filter((row) => row.language === 'ingles').sort(byPosition)
    const spanish = list.filter((row) => row.language === 'espanhol').sort(byPosition)
    const common = list.filter((row) => row.language === null).sort(byPosition)
    const slots: BookletSlot[] = []
    const languageSlots = Math.max(english.length, spanish.length)
    for (let rank = 0; rank < languageSlots; rank++) {
      slots.push({ slot: rank + 1, items: [english[rank], spanish[rank]].filter((row) => row !== undefined) })
    }
    for (const row of common) slots.push({ slot: slots.length + 1, items: [row] })

    let unordered: string | null = null
    const areas = new Set(list.map((row) => row.area))
    const positions = new Map<number, number>()
    for (const row of common) positions.set(row.position, (positions.get(row.position) ?? 0) + 1)
    const repeated = [...positions.values()].filter((count) => count > 1).length
    if (areas.size > 1) unordered = `booklet ${code} lists items of ${[...areas].join(' and ')}`
    else if (repeated > 0) unordered = `booklet ${code} lists more than one item at ${repeated} positions`
    else if (english.length > 0 && spanish.length > 0 && english.length !== spanish.length) unordered = `booklet ${code} lists ${english.length} English and ${spanish.length} Spanish items`

    booklets.set(code, {
      year,
      code,
      area: first.area,
      colour: first.colour,
      slots,
      languages: (['ingles', 'espanhol'] as const).filter((language) => (language === 'ingles' ? english : spanish).length > 0),
      unordered
    })
  }
  return booklets
}

/** The index of a booklet's slot in our numbering (the exam's position 1–180), by the year's area order. */
export function indexOfSlot (booklet: Booklet, slot: number): number {
  return examIndexOf(booklet.year, booklet.area, slot)
}
