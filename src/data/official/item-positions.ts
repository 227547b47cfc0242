import type { Area } from '../record-schemas.ts'
import type { AreaMatch } from './booklet-match.ts'
import { indexOfSlot, type YearItems } from './itens-prova.ts'
import type { OfficialDisagreement, OfficialPosition } from './official-table.ts'

/*
 * The official table's positions of one exam from INEP's item data: every item of the booklet each
 * area follows (src/data/official/booklet-match.ts), at its place in our numbering, and the check
 * of those facts against the second sources (the answer-key PDFs and `items/`), which report a
 * disagreement and change nothing.
 */

/** The positions of the booklets `matches` took, in our numbering, one per item (two at a language position). */
export function positionsFromBooklets (items: YearItems, matches: readonly AreaMatch[]): OfficialPosition[] {
  const positions: OfficialPosition[] = []
  for (const { booklet } of matches) {
    if (booklet === null) continue
    for (const slot of booklet.slots) {
      for (const item of slot.items) {
        positions.push({
          index: indexOfSlot(booklet, slot.slot),
          language: item.language,
          area: item.area,
          key: item.key,
          item: item.item,
          skill: item.skill,
          excludedFromScoring: item.abandoned,
          irt: item.irt,
          booklet: { code: booklet.code, colour: booklet.colour },
          sources: { key: [items.source], area: [items.source], item: items.source }
        })
      }
    }
  }
  return positions.sort(comparePositions)
}

export function comparePositions (a: OfficialPosition, b: OfficialPosition): number {
  return a.index - b.index || (a.language ?? '').localeCompare(b.language ?? '')
}

/**
 * Where a second source states another key, area or item code for a position of the item data:
 * one disagreement per fact. A second-source entry without a language is compared with every
 * language's entry at its position.
 */
export function disagreementsWith (primary: readonly OfficialPosition[], secondary: readonly OfficialPosition[]): OfficialDisagreement[] {
  const byPosition = new Map<string, OfficialPosition>()
  for (const position of primary) byPosition.set(`${position.index}|${position.language ?? ''}`, position)
  const disagreements: OfficialDisagreement[] = []
  for (const other of secondary) {
    const targets = other.language === null
      ? primary.filter((position) => position.index === other.index)
      : [byPosition.get(`${other.index}|${other.language}`) ?? byPosition.get(`${other.index}|`)].filter((position) => position !== undefined)
    for (const position of targets) {
      const facts: Array<[string, string | null, string | null, readonly string[], readonly string[]]> = [
        ['key', position.key, other.key, position.sources.key, other.sources.key],
        ['area', position.area satisfies Area, other.area, position.sources.area, other.sources.area],
        ['item', itemText(position.item), itemText(other.item), [position.sources.item ?? ''], [other.sources.item ?? '']]
      ]
      for (const [field, value, otherValue, sources, otherSources] of facts) {
        if (value === null || otherValue === null || value === otherValue) continue
        disagreements.push({
          index: position.index,
          language: position.language,
          field,
          values: [{ source: sources.join(', '), value }, { source: otherSources.join(', '), value: otherValue }]
        })
      }
    }
  }
  return disagreements
}

/**
 * The positions with, added to the sources of their key and area, the second sources that state the
 * same value there, so that a correction names every file that backs it.
 */
export function withConfirmations (primary: readonly OfficialPosition[], secondary: readonly OfficialPosition[]): OfficialPosition[] {
  return primary.map((position) => {
    const others = secondary.filter((other) => other.index === position.index && (other.language === null || other.language === position.language))
    const keySources = others.filter((other) => other.key === position.key).flatMap((other) => other.sources.key)
    const areaSources = others.filter((other) => other.area === position.area).flatMap((other) => other.sources.area)
    return {
      ...position,
      sources: {
        key: [...new Set([...position.sources.key, ...keySources])],
        area: [...new Set([...position.sources.area, ...areaSources])],
        item: position.sources.item
      }
    }
  })
}

function itemText (item: number | null): string | null {
  return item === null ? null : String(item)
}
