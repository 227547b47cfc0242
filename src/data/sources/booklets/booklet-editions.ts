import type { Application } from '../../exam-key.ts'
import type { Booklet, BookletSlot, YearItems } from '../../official/itens-prova.ts'
import { indexOfSlot } from '../../official/itens-prova.ts'
import type { Area, OfficialKey } from '../../record-schemas.ts'

/*
 * Which of INEP's booklets (`CO_PROVA`) a printed booklet is, among the many ITENS_PROVA lists for
 * one area and colour (2025: three blue ones per area, for the regular, the COP30 and the second
 * application; adapted versions; several codes sharing one order).
 *
 *   printedIndex(booklet, slot): number         the question number a slot is printed with
 *   printableBooklets(items, area): Booklet[]   the booklets a printed booklet can be: neither adapted nor unordered
 *   keyAgreement(booklet, keyAt): Agreement     how many of its keys a printed answer key shows
 *   editionsOf(booklets): Booklet[][]           booklets grouped by their set of items
 *   editionBooklet(items, area, colour, application, regularEdition?): Choice
 *                                               the booklet of a colour without the booklet's answer key
 *
 * ITENS_PROVA says nothing of the application a booklet belongs to, so, without the booklet's own
 * answer key, it is told from the data as follows (test/data/sources/booklet-keys.test.ts holds each
 * rule against every answer key and second-application booklet here):
 * - an *edition* is the booklets of an area with one set of items (every colour of one application
 *   holds the same items in another order);
 * - the regular application's edition is the one an answer key of INEP for that day and year selects
 *   (its booklet agrees with it at every position) when one is given, else the edition of the lowest
 *   code: true of every year whose answer keys are here (2015–2025) but 2024, whose lowest codes are
 *   another application's (the repository keeps 2024's answer keys, data/inep/gabaritos/); its booklet
 *   of a colour is that colour's lowest code in it;
 * - the second application's edition is the only other edition holding the colour, or, of several,
 *   the only one INEP also prints in adapted versions (braille, large print, a reader's: a whole
 *   application has them; 2020's digital application and 2014's booklets 223–230 have none). Where
 *   INEP lists it under two runs of codes with one order (the reaplicação and the PPL, one printed
 *   booklet: INEP's file says `reaplicacao_PPL`), the booklet named is the later run's, as the public
 *   copies name 2020's grey mathematics booklet 670 and 2023's 1294; otherwise its lowest code of the
 *   colour. Where that does not decide (2025 lists a COP30 and a second application, both with
 *   adapted versions), it is refused.
 */

/** An answer key as comparing needs it: the letter (X for annulled) printed at a position in a language; undefined where none is. */
export type KeyAt = (index: number, language: string | null) => OfficialKey | undefined

/** Years whose ITENS_PROVA does not write the printed numbers in `CO_POSICAO` (its SOURCE.md): 2016 places the areas elsewhere, 2017 counts within the area. */
const POSITIONS_NOT_AS_PRINTED: ReadonlySet<number> = new Set([2016, 2017])

/**
 * The number a booklet's slot is printed with: `CO_POSICAO`, which counts within the exam as the
 * booklets print it, except in 2016 and 2017, whose slots take their place in the year's area order.
 */
export function printedIndex (booklet: Booklet, slot: BookletSlot): number {
  if (POSITIONS_NOT_AS_PRINTED.has(booklet.year)) return indexOfSlot(booklet, slot.slot)
  return slot.items[0]!.position
}

/** The booklets of `area` a printed booklet can follow: every one but adapted versions and those whose order the file cannot give, by code. */
export function printableBooklets (items: YearItems, area: Area): Booklet[] {
  return [...items.booklets.values()]
    .filter((booklet) => booklet.area === area && booklet.unordered === null && !isAdapted(booklet))
    .sort((a, b) => a.code - b.code)
}

function isAdapted (booklet: Booklet): boolean {
  return booklet.slots.some((slot) => slot.items.some((item) => item.adapted === true))
}

/** How a booklet's keys compare with an answer key. */
export interface Agreement {
  readonly code: number
  /** Its items whose key the answer key prints alike (`Anulado` = X). */
  readonly agree: number
  /** Its items. */
  readonly items: number
  /** Its first items whose key differs or that the answer key lacks: printed number, language, both keys. */
  readonly differences: ReadonlyArray<{ readonly index: number, readonly language: string | null, readonly printed: OfficialKey | null, readonly listed: OfficialKey }>
}

/** How many of `booklet`'s keys `keyAt` shows alike. */
export function keyAgreement (booklet: Booklet, keyAt: KeyAt): Agreement {
  let agree = 0
  let count = 0
  const differences: Array<Agreement['differences'][number]> = []
  for (const slot of booklet.slots) {
    const index = printedIndex(booklet, slot)
    for (const item of slot.items) {
      count++
      const printed = keyAt(index, item.language)
      if (printed === item.key) agree++
      else differences.push({ index, language: item.language, printed: printed ?? null, listed: item.key })
    }
  }
  return { code: booklet.code, agree, items: count, differences }
}

/** `booklets` grouped by their set of items (one application's booklets in every colour), each group by code, groups by their lowest code. */
export function editionsOf (booklets: readonly Booklet[]): Booklet[][] {
  const groups = new Map<string, Booklet[]>()
  for (const booklet of [...booklets].sort((a, b) => a.code - b.code)) {
    const itemSet = booklet.slots.flatMap((slot) => slot.items.map((item) => String(item.item))).sort().join(',')
    const group = groups.get(itemSet)
    if (group === undefined) groups.set(itemSet, [booklet])
    else group.push(booklet)
  }
  return [...groups.values()]
}

/** The booklet taken for a colour, and how. */
export interface Choice {
  readonly booklet: Booklet
  /** Why this one: which rule chose it. */
  readonly how: string
  /** Other codes of the same colour holding the same order (the same keys and items at every position). */
  readonly sameOrder: readonly number[]
}

/**
 * The booklet of `colour` and `area` of the application, told from ITENS_PROVA without the booklet's
 * own answer key (the rules at the top). `regularEdition` is the regular application's edition when
 * an answer key of the day told it; otherwise the lowest code's edition is. Throws, saying why, when
 * the data cannot tell.
 */
export function editionBooklet (items: YearItems, area: Area, colour: string, application: Application, regularEdition: { readonly codes: ReadonlySet<number>, readonly how: string } | null = null): Choice {
  const editions = editionsOf(printableBooklets(items, area))
  const regular = regularEdition === null
    ? editions[0]
    : editions.find((edition) => edition.some((booklet) => regularEdition.codes.has(booklet.code)))
  const file = `ITENS_PROVA_${items.year}`
  if (regular === undefined) throw new Error(`${file} lists no booklet of ${area}`)
  const regularHow = regularEdition === null ? 'the edition of the lowest code' : regularEdition.how
  if (application === 'regular') {
    const ofColour = regular.filter((booklet) => booklet.colour === colour)
    if (ofColour.length === 0) throw new Error(`${file}: the regular application's booklets of ${area} (${codesOf(regular)}) include no ${colour} one`)
    return { booklet: ofColour[0]!, how: `regular application (${regularHow}), lowest ${colour} code`, sameOrder: sameOrderAs(ofColour[0]!, ofColour) }
  }
  const others = editions.filter((edition) => edition !== regular && edition.some((booklet) => booklet.colour === colour))
  // A whole application is printed in adapted versions too (braille, large print, a reader's): an extra run of booklets without them (2020's digital application, 2014's 223–230) is not the second application.
  const adapted = adaptedBooklets(items, area)
  const withAdapted = others.filter((edition) => adapted.some((booklet) => mostlyWithin(booklet, edition)))
  const candidates = others.length === 1 ? others : withAdapted
  if (candidates.length !== 1) {
    throw new Error(`${file}: which ${colour} booklet of ${area} is the second application's cannot be told from the item data ` +
      `(${others.length === 0 ? `no ${colour} booklet besides the regular application's` : `editions besides the regular one: ${others.map(codesOf).join('; ')}`}); give its answer-key PDF`)
  }
  const ofColour = candidates[0]!.filter((booklet) => booklet.colour === colour)
  const later = laterRun(ofColour)
  const booklet = later ?? ofColour[0]!
  const which = others.length === 1 ? 'the only edition besides the regular one' : 'the edition besides the regular one printed in adapted versions too'
  return {
    booklet,
    how: `second application: ${which}, ${later === null ? `lowest ${colour} code` : `listed under two runs of codes, the later run's ${colour} booklet`}`,
    sameOrder: sameOrderAs(booklet, ofColour)
  }
}

function adaptedBooklets (items: YearItems, area: Area): Booklet[] {
  return [...items.booklets.values()].filter((booklet) => booklet.area === area && isAdapted(booklet))
}

/** Whether most of `booklet`'s items are items of `edition` (an adapted version changes a few). */
function mostlyWithin (booklet: Booklet, edition: readonly Booklet[]): boolean {
  const editionItems = new Set(edition.flatMap((member) => member.slots.flatMap((slot) => slot.items.map((item) => item.item))))
  const own = booklet.slots.flatMap((slot) => slot.items.map((item) => item.item))
  return own.filter((item) => editionItems.has(item)).length > own.length / 2
}

/** Of one colour's booklets (by code), the highest code holding the lowest one's order, when there is such a second one. */
function laterRun (ofColour: readonly Booklet[]): Booklet | null {
  if (ofColour.length < 2) return null
  const same = ofColour.filter((booklet) => booklet !== ofColour[0] && sameOrder(booklet, ofColour[0]!))
  return same.at(-1) ?? null
}

function sameOrderAs (booklet: Booklet, candidates: readonly Booklet[]): number[] {
  return candidates.filter((other) => other !== booklet && sameOrder(other, booklet)).map((other) => other.code)
}

function sameOrder (a: Booklet, b: Booklet): boolean {
  const order = (booklet: Booklet) => booklet.slots.map((slot) => slot.items.map((item) => `${item.language ?? ''}${item.item}`).join('/')).join(',')
  return order(a) === order(b)
}

function codesOf (booklets: readonly Booklet[]): string {
  return booklets.map((booklet) => `${booklet.code} ${booklet.colour}`).join(', ')
}
