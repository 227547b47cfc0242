import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import Type from 'typebox'
import { Compile } from 'typebox/compile'
import { projectRoot } from '../official/official-table.ts'
import { itensProvaYears, readItensProva, type YearItems } from '../official/itens-prova.ts'
import { AREAS, type Area, type OfficialKey } from '../record-schemas.ts'

/*
 * What scoring an answer sheet needs of INEP's ITENS_PROVA files (src/data/official/itens-prova.ts),
 * kept as a small committed table, `data/scores/booklets-<year>.json`, that `npm run
 * import-official` writes: the server scores sheets on a clone without INEP's files. Per year, the
 * distinct items once (`[CO_ITEM, key, abandoned 0/1, a, b, c, CO_HABILIDADE]`, parameters and skill
 * null where INEP gives none), and per booklet its code, area, colour, why its order cannot be told (or null), and its
 * 45 slots in the booklet's order: an item's place in `items`, or `[English, Spanish]` (null for a
 * language the booklet lacks) at a language position.
 */

export const BOOKLET_TABLE_DIR = path.join(projectRoot(), 'data', 'scores')
const FILE_NAME = /^booklets-(\d{4})\.json$/

const ItemEntrySchema = Type.Tuple([
  Type.Union([Type.Integer(), Type.Null()]),
  Type.Enum(['A', 'B', 'C', 'D', 'E', 'X']),
  Type.Union([Type.Literal(0), Type.Literal(1)]),
  Type.Union([Type.Number(), Type.Null()]),
  Type.Union([Type.Number(), Type.Null()]),
  Type.Union([Type.Number(), Type.Null()]),
  Type.Union([Type.Integer({ minimum: 1, maximum: 30 }), Type.Null()])
])
const SlotEntrySchema = Type.Union([
  Type.Integer({ minimum: 0 }),
  Type.Tuple([Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]), Type.Union([Type.Integer({ minimum: 0 }), Type.Null()])])
])
const BookletEntrySchema = Type.Tuple([
  Type.Integer(), Type.Enum(AREAS), Type.String(), Type.Union([Type.String(), Type.Null()]), Type.Array(SlotEntrySchema)
])
const BookletTableFileSchema = Type.Object({
  year: Type.Integer(),
  source: Type.String(),
  items: Type.Array(ItemEntrySchema),
  booklets: Type.Array(BookletEntrySchema)
}, { additionalProperties: false })
const BOOKLET_TABLE_FILE = Compile(BookletTableFileSchema)
export type BookletTableFile = Type.Static<typeof BookletTableFileSchema>

/** One item as scoring sees it. */
export interface ScoringItem {
  /** `CO_ITEM`; null where INEP's file leaves it empty. */
  readonly item: number | null
  readonly key: OfficialKey
  /** `IN_ITEM_ABAN` = 1. */
  readonly abandoned: boolean
  readonly irt: { readonly a: number, readonly b: number, readonly c: number } | null
  /** `CO_HABILIDADE`: the skill number in the area's Matriz; null where INEP gives none. */
  readonly skill: number | null
}

/** One slot of a booklet: its common item, or its item per language. */
export type ScoringSlot =
  | { readonly common: ScoringItem }
  | { readonly ingles: ScoringItem | null, readonly espanhol: ScoringItem | null }

export interface ScoringBooklet {
  readonly year: number
  readonly code: number
  readonly area: Area
  readonly colour: string
  /** Why the booklet's order cannot be told from INEP's file, or null. */
  readonly unordered: string | null
  /** The booklet's 45 positions in its order; empty when `unordered`. */
  readonly slots: readonly ScoringSlot[]
}

/** The table file of one year, built from its ITENS_PROVA file as read. */
export function buildBookletTable (items: YearItems): BookletTableFile {
  const entries: BookletTableFile['items'] = []
  const placeOf = new Map<string, number>()
  const place = (row: YearItems['rows'][number] | undefined): number | null => {
    if (row === undefined) return null
    const entry: BookletTableFile['items'][number] = [row.item, row.key, row.abandoned ? 1 : 0, row.irt?.a ?? null, row.irt?.b ?? null, row.irt?.c ?? null, row.skill]
    const key = JSON.stringify(entry)
    let at = placeOf.get(key)
    if (at === undefined) {
      at = entries.push(entry) - 1
      placeOf.set(key, at)
    }
    return at
  }
  const booklets: BookletTableFile['booklets'] = []
  for (const booklet of items.booklets.values()) {
    const slots = booklet.unordered !== null
      ? []
      : booklet.slots.map((slot) => {
        const [only] = slot.items
        if (slot.items.length === 1 && only!.language === null) return place(only)!
        return [place(slot.items.find((row) => row.language === 'ingles')), place(slot.items.find((row) => row.language === 'espanhol'))] as [number | null, number | null]
      })
    booklets.push([booklet.code, booklet.area, booklet.colour, booklet.unordered, slots])
  }
  return { year: items.year, source: items.source, items: entries, booklets }
}

/** The text of a table file: one item or booklet a line, so that a change reads as a small diff. */
export function formatBookletTable (table: BookletTableFile): string {
  const lines = (entries: readonly unknown[]) => entries.map((entry) => `    ${JSON.stringify(entry)}`).join(',\n')
  return `{\n  "year": ${table.year},\n  "source": ${JSON.stringify(table.source)},\n  "items": [\n${lines(table.items)}\n  ],\n  "booklets": [\n${lines(table.booklets)}\n  ]\n}\n`
}

/** The file name of a year's table. */
export function bookletTableName (year: number): string {
  return `booklets-${year}.json`
}

let committed: Map<number, Map<number, ScoringBooklet>> | undefined

/** The committed table (data/scores), read once per process. */
export function committedBooklets (): ReadonlyMap<number, ReadonlyMap<number, ScoringBooklet>> {
  committed ??= readBookletTables()
  return committed
}

/** Every year's booklets from a table folder, by year and code. Throws naming a file that is not a table. */
export function readBookletTables (dir: string = BOOKLET_TABLE_DIR): Map<number, Map<number, ScoringBooklet>> {
  const years = new Map<number, Map<number, ScoringBooklet>>()
  if (!existsSync(dir)) return years
  for (const name of readdirSync(dir).sort()) {
    const match = FILE_NAME.exec(name)
    if (match === null) continue
    const value = JSON.parse(readFileSync(path.join(dir, name), 'utf8')) as unknown
    if (!BOOKLET_TABLE_FILE.Check(value) || value.year !== Number(match[1])) throw new Error(`${path.join(dir, name)} is not a booklet table of year ${match[1]}`)
    years.set(value.year, bookletsOf(value))
  }
  return years
}

function bookletsOf (table: BookletTableFile): Map<number, ScoringBooklet> {
  const items: ScoringItem[] = table.items.map(([item, key, abandoned, a, b, c, skill]) => ({
    item, key, abandoned: abandoned === 1, irt: a === null || b === null || c === null ? null : { a, b, c }, skill
  }))
  const itemAt = (at: number | null): ScoringItem | null => {
    if (at === null) return null
    const item = items[at]
    if (item === undefined) throw new Error(`booklets-${table.year}.json: no item ${at}`)
    return item
  }
  const booklets = new Map<number, ScoringBooklet>()
  for (const [code, area, colour, unordered, slots] of table.booklets) {
    booklets.set(code, {
      year: table.year,
      code,
      area,
      colour,
      unordered,
      slots: slots.map((slot) => typeof slot === 'number'
        ? { common: itemAt(slot)! }
        : { ingles: itemAt(slot[0]), espanhol: itemAt(slot[1]) })
    })
  }
  return booklets
}

/** Every year's table file (name → text) built from the ITENS_PROVA files of the official sources folder. */
export function buildBookletTableFiles (sourcesDir: string): Map<string, string> {
  return new Map(itensProvaYears(sourcesDir).map((year) => [bookletTableName(year), formatBookletTable(buildBookletTable(readItensProva(sourcesDir, year)))]))
}
