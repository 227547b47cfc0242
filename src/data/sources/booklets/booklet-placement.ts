import type { AreaMatch } from '../../official/booklet-match.ts'
import { areaOfIndex, examIndexOf } from '../../official/exam-layout.ts'
import type { Booklet, ItemRow } from '../../official/itens-prova.ts'
import type { Area } from '../../record-schemas.ts'
import type { LeftOutReason } from '../converted-exam.ts'

/*
 * Where a source record stands in the booklet its area was found to follow
 * (src/data/official/booklet-match.ts), and whether it may be written. A record whose key differs
 * from its item's is kept (its key is then corrected, one correction row) only when the positions
 * beside it agree: they pin the record to its place, so only the key is wrong. Where neighbours
 * disagree too, the source's order may differ from the booklet's there (a swapped or shifted run),
 * a key sequence cannot tell which, and the record is left out rather than given another
 * question's key.
 */

/** What placing needs of a source record: its position in the source's numbering, language and key (`X` when the source gives none). */
export interface SourceKey {
  readonly index: number
  readonly language: string | null
  readonly key: string
}

export type Placement =
  | {
    readonly placed: true
    readonly area: Area
    readonly booklet: Booklet
    /** 1–45: the record's position in the booklet's order. */
    readonly slot: number
    /** The items the record can be: its language's, else every item of the position (a record without a language at a language position). */
    readonly items: readonly ItemRow[]
    readonly keyAgrees: boolean
  }
  | { readonly placed: false, readonly reason: LeftOutReason, readonly detail: string }

/** The placement of each record (same order as `records`) in the booklets `matches` took for the exam of `year`. */
export function placeRecords (year: number, matches: readonly AreaMatch[], records: readonly SourceKey[]): Placement[] {
  const firsts = records.map((record) => {
    const area = areaOfIndex(year, record.index)
    const match = matches.find((entry) => entry.area === area)
    if (area === null || match === undefined) return { placed: false as const, reason: 'no-item' as const, detail: `position ${record.index} is outside the exam` }
    if (match.booklet === null) {
      const best = match.agreement
      return {
        placed: false as const,
        reason: 'no-booklet' as const,
        detail: best === null ? `the year lists no booklet of ${area}` : `best booklet of ${area}: ${best.code}, ${best.agree} of ${best.compared} keys agree`
      }
    }
    const slot = record.index - examIndexOf(year, area, 1) + 1
    const all = match.booklet.slots[slot - 1]?.items ?? []
    if (all.length === 0) return { placed: false as const, reason: 'no-item' as const, detail: `booklet ${match.booklet.code} has no position ${slot}` }
    const own = all.filter((item) => item.language === record.language)
    const items = own.length > 0 ? own : all
    const keyAgrees = items.some((item) => item.key === record.key)
    return { placed: true as const, area, booklet: match.booklet, slot, items, keyAgrees }
  })
  const disagreeing = new Set(firsts.flatMap((placement) => placement.placed && !placement.keyAgrees ? [`${placement.booklet.code}|${placement.slot}`] : []))
  return firsts.map((placement, at): Placement => {
    if (!placement.placed || placement.keyAgrees) return placement
    const { booklet, slot, items } = placement
    const neighbours = [slot - 1, slot + 1].filter((other) => disagreeing.has(`${booklet.code}|${other}`))
    if (neighbours.length === 0) return placement
    return {
      placed: false,
      reason: 'order',
      detail: `key ${records[at]!.key}, booklet ${booklet.code} position ${slot} holds item ${items.map((item) => `${item.item ?? '?'} (${item.key})`).join(', ')}; ` +
        (neighbours.length === 1 ? `position ${neighbours[0]} disagrees too` : `positions ${neighbours.join(' and ')} disagree too`)
    }
  })
}
