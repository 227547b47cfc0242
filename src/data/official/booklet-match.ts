import type { Area, OfficialKey } from '../record-schemas.ts'
import { areaOrder, examIndexOf } from './exam-layout.ts'
import type { Booklet, YearItems } from './itens-prova.ts'

/*
 * Which of INEP's booklets our numbering follows, found from the data (the contract's "Official
 * item data for every exam"): per exam and area, the booklet whose items at each position carry the
 * keys the records carry. Several booklets can share one order; then the blue (AZUL) one, of those
 * the lowest code, is named. A colour alone never decides: the agreement must reach MINIMUM_AGREEMENT.
 */

/**
 * The fraction of the compared positions (those holding a record and an item) whose key must agree
 * for a booklet to be taken: of the records present, so that an incomplete exam (a source that lacks
 * positions) is matched as well as a complete one.
 */
export const MINIMUM_AGREEMENT = 0.8
/** Fewer compared positions than this decide nothing: a handful of keys can agree with a booklet by chance. */
export const MINIMUM_COMPARED = 10

/** What matching needs of a record: where it stands and the key it carries. */
export interface RecordKey {
  readonly index: number
  readonly language: string | null
  readonly key: string
}

/** How well one booklet agrees with the records of its area. */
export interface BookletAgreement {
  readonly code: number
  readonly colour: string
  /** Positions of the area where a record's key equals the booklet's item key (in the record's language). */
  readonly agree: number
  /** Positions of the area that hold both a record and an item. */
  readonly compared: number
}

/** The booklet of one area of an exam, or why none was taken. */
export interface AreaMatch {
  readonly area: Area
  /** The booklet taken, or null when none agrees on MINIMUM_AGREEMENT of the compared positions. */
  readonly booklet: Booklet | null
  /** The taken booklet's agreement, else the best one's (null when the year has no booklet of the area). */
  readonly agreement: BookletAgreement | null
  /** Booklets with the same agreement as the one taken (the same order under other codes or colours). */
  readonly sameOrder: readonly number[]
}

/** Per area of the exam of `items.year`, in the exam's order, the booklet the records follow. */
export function matchBooklets (items: YearItems, records: readonly RecordKey[]): AreaMatch[] {
  const byIndex = new Map<number, RecordKey[]>()
  for (const record of records) {
    const list = byIndex.get(record.index)
    if (list === undefined) byIndex.set(record.index, [record])
    else list.push(record)
  }
  return areaOrder(items.year).map((area) => {
    const candidates = [...items.booklets.values()]
      .filter((booklet) => booklet.area === area && booklet.unordered === null)
      .map((booklet) => ({ booklet, agreement: agreementOf(booklet, byIndex) }))
    if (candidates.length === 0) return { area, booklet: null, agreement: null, sameOrder: [] }
    const best = Math.max(...candidates.map(({ agreement }) => agreement.agree))
    const tied = candidates.filter(({ agreement }) => agreement.agree === best)
      .sort((x, y) => preference(x.booklet) - preference(y.booklet) || x.booklet.code - y.booklet.code)
    const { booklet, agreement } = tied[0]!
    const taken = agreement.compared >= MINIMUM_COMPARED && agreement.agree >= MINIMUM_AGREEMENT * agreement.compared
    return {
      area,
      booklet: taken ? booklet : null,
      agreement,
      sameOrder: tied.slice(1).map((entry) => entry.booklet.code).sort((a, b) => a - b)
    }
  })
}

/** 0 for a blue booklet that is not an adapted version, 1 for every other. */
function preference (booklet: Booklet): number {
  const adapted = booklet.slots.some((slot) => slot.items.some((item) => item.adapted === true))
  return booklet.colour === 'azul' && !adapted ? 0 : 1
}

function agreementOf (booklet: Booklet, byIndex: ReadonlyMap<number, readonly RecordKey[]>): BookletAgreement {
  let agree = 0
  let compared = 0
  for (const slot of booklet.slots) {
    const records = byIndex.get(examIndexOf(booklet.year, booklet.area, slot.slot)) ?? []
    if (records.length === 0 || slot.items.length === 0) continue
    compared++
    if (records.some((record) => itemKeysFor(slot.items, record.language).includes(record.key as OfficialKey))) agree++
  }
  return { code: booklet.code, colour: booklet.colour, agree, compared }
}

/** The keys a record in `language` can be compared with: its language's item, else every item of the slot. */
function itemKeysFor (items: Booklet['slots'][number]['items'], language: string | null): OfficialKey[] {
  const own = items.filter((item) => item.language === language)
  return (own.length > 0 ? own : items).map((item) => item.key)
}
