import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'

/*
 * INEP item files written by the conversion tests for their own fixtures: booklets described as
 * lists of items in the booklet's order, written as ITENS_PROVA rows (and, where a test wants a
 * second source, as an `items/enem-<year>.json` file), so each test's expectations follow from
 * the booklets it describes.
 */

const HEADER = 'CO_POSICAO;SG_AREA;CO_ITEM;TX_GABARITO;CO_HABILIDADE;IN_ITEM_ABAN;TX_MOTIVO_ABAN;NU_PARAM_A;NU_PARAM_B;NU_PARAM_C;TX_COR;CO_PROVA;TP_LINGUA;IN_ITEM_ADAPTADO'

export interface FixtureItem {
  readonly item: number
  readonly key: string
  readonly language?: 'ingles' | 'espanhol'
}

export interface FixtureBooklet {
  readonly code: number
  readonly area: 'LC' | 'CH' | 'CN' | 'MT'
  readonly colour: string
  /** CO_POSICAO of the booklet's first position (its language positions share the first five). */
  readonly first: number
  /** The booklet's positions in order: one item, or the English and the Spanish item. */
  readonly slots: ReadonlyArray<readonly FixtureItem[]>
  readonly adapted?: boolean
}

/** The ITENS_PROVA rows of `booklets`. */
export function itensProvaText (booklets: readonly FixtureBooklet[]): string {
  const rows = booklets.flatMap((booklet) => booklet.slots.flatMap((items, at) => items.map((item) => [
    booklet.first + at, booklet.area, item.item, item.key, 1 + (item.item % 30), 0, '', 1.5, 0.5, 0.2, booklet.colour, booklet.code,
    item.language === undefined ? '' : item.language === 'ingles' ? '0.0' : '1.0', booklet.adapted === true ? 1 : 0
  ].join(';'))))
  return [HEADER, ...rows].join('\n') + '\n'
}

/** Writes `itens-prova/ITENS_PROVA_<year>.csv` into `inepDir`. */
export function writeItensProva (inepDir: string, year: number, booklets: readonly FixtureBooklet[]): void {
  mkdirSync(path.join(inepDir, 'itens-prova'), { recursive: true })
  writeFileSync(path.join(inepDir, 'itens-prova', `ITENS_PROVA_${year}.csv`), itensProvaText(booklets))
}

/** Writes `items/enem-<year>.json` into `inepDir`: the items of `booklet` at `number(slot)`, as that file's numbering has them. */
export function writeItemsFile (inepDir: string, year: number, booklets: ReadonlyArray<{ booklet: FixtureBooklet, number: (slot: number) => number }>): void {
  const items = booklets.flatMap(({ booklet, number }) => booklet.slots.flatMap((slotItems, at) => slotItems.map((item) => ({
    number: number(at + 1),
    area: booklet.area,
    skill: 1 + (item.item % 30),
    item: item.item,
    gabarito: item.key,
    irt: { a: 1.5, b: 0.5, c: 0.2 },
    abandoned: false,
    ...(item.language === undefined ? {} : { language: item.language })
  }))))
  mkdirSync(path.join(inepDir, 'items'), { recursive: true })
  writeFileSync(path.join(inepDir, 'items', `enem-${year}.json`), JSON.stringify({ year, items }))
}
