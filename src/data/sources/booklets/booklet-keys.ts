import { existsSync } from 'node:fs'
import path from 'node:path'
import type { Application } from '../../exam-key.ts'
import { readItensProva, ITENS_PROVA_FOLDER, type ItemLanguage, type ItemRow, type YearItems } from '../../official/itens-prova.ts'
import { AREAS, type Area, type Letter, type OfficialKey } from '../../record-schemas.ts'
import { bookletColour, sameColour } from './booklet-colours.ts'
import { editionBooklet, keyAgreement, printableBooklets, printedIndex, type Agreement, type Choice, type KeyAt } from './booklet-editions.ts'
import { readGabarito, type Gabarito } from '../inep-official.ts'

/*
 * The keys and INEP's facts of every position a printed booklet holds (the contract's "Every exam
 * from INEP's own booklets": keys and INEP's facts).
 *
 *   bookletKeys({ year, application, day, cd, inepDir?, answerKeyPdf? }): BookletKeys
 *       reads ITENS_PROVA_<year>.csv from `<inepDir>/itens-prova/` and the answer-key PDF
 *       (through `pdftotext -layout`, or the `.txt` beside it), then resolveBookletKeys
 *   resolveBookletKeys({ year, application, day, cd, items, answerKey, dayKey? }): BookletKeys
 *       the same on what was read
 *
 * With ITENS_PROVA: each area's booklet (`CO_PROVA`) is the one of the caderno's colour whose keys the
 * answer-key PDF prints (every position alike), or, without that PDF, the application's booklet of that
 * colour as src/data/sources/booklet-editions.ts tells it; every position's number, area (`SG_AREA`),
 * language (`TP_LINGUA`) and item come from that booklet, never from fixed ranges. The PDF is then a
 * check: a position it prints otherwise, or lacks, refuses the booklet, naming position and both
 * letters (`Anulado` there is `X` in ITENS_PROVA, agreement). An item INEP left out of scoring
 * (`IN_ITEM_ABAN`) keeps its key: scoring leaves it out, elsewhere; a note says so.
 * Without ITENS_PROVA (the weeks between INEP's answer key and its item data): the keys, areas (the
 * column under each area's heading) and languages (the INGLÊS/ESPANHOL columns) of the PDF alone.
 * A position with no letter anywhere (X in every source there is) is left out, annulled.
 * Neither source: refused.
 *
 * Positions are in booklet order: each area of the day in turn, its foreign-language positions first,
 * the English ones then the Spanish ones (from 2017 day 1 prints 1–5 twice), then the rest.
 */

export interface BookletKeysRequest {
  readonly year: number
  readonly application: Application
  readonly day: 1 | 2
  /** The caderno number (`CD<n>` of the file name). */
  readonly cd: number
  /** INEP's files: `itens-prova/ITENS_PROVA_<year>.csv` is read when there; null or absent: none. */
  readonly inepDir?: string | null
  /** The booklet's answer-key PDF (`<year>_GB_…_D<day>_CD<n>.pdf`), or null. */
  readonly answerKeyPdf?: string | null
}

/** One position as the booklet prints it. */
export interface BookletPosition {
  /** The number printed (day 1: 1–90, day 2: 91–180); a foreign-language position is listed once per language. */
  readonly index: number
  readonly language: ItemLanguage | null
  readonly area: Area
  /** The key; null where the position has no letter anywhere (annulled). */
  readonly key: Letter | null
  /** INEP's item at the position (ITENS_PROVA's row); null without ITENS_PROVA. */
  readonly item: ItemRow | null
  /** The booklet (`CO_PROVA`) of the position's area; null without ITENS_PROVA. */
  readonly coProva: number | null
}

/** The booklet taken for one area of the day. */
export interface AreaBooklet {
  readonly area: Area
  /** `CO_PROVA`; null without ITENS_PROVA. */
  readonly coProva: number | null
  /** Its `TX_COR` as read (lower case); null without ITENS_PROVA. */
  readonly colour: string | null
  /** Which rule chose it, in words. */
  readonly how: string
  /** Other codes of that colour holding the same order (the same items and keys at every position). */
  readonly sameOrder: readonly number[]
}

/** A position no record is written for, and why. */
export interface LeftOutPosition {
  readonly index: number
  readonly language: ItemLanguage | null
  readonly area: Area
  readonly reason: 'annulled'
  readonly detail: string
}

export interface BookletKeys {
  readonly year: number
  readonly application: Application
  readonly day: 1 | 2
  readonly cd: number
  /** The sources read: ITENS_PROVA's file and the answer key's, or null. */
  readonly sources: { readonly itensProva: string | null, readonly answerKey: string | null }
  /** How many keys the answer key printed (90, or 95 on the day holding the language positions); null without one. */
  readonly answerKeyCount: number | null
  /** Every position printed, in booklet order. */
  readonly positions: readonly BookletPosition[]
  /** The day's two areas in the order the booklet prints them. */
  readonly areas: readonly AreaBooklet[]
  readonly leftOut: readonly LeftOutPosition[]
  /** Facts that change no key: items INEP left out of scoring, how an answer key of the day told the regular application. */
  readonly notes: readonly string[]
}

/** What resolveBookletKeys works on: the request with its files read. */
export interface BookletKeysInput {
  readonly year: number
  readonly application: Application
  readonly day: 1 | 2
  readonly cd: number
  /** The year's ITENS_PROVA, or null. */
  readonly items: YearItems | null
  /** The booklet's own answer key, or null. */
  readonly answerKey: Gabarito | null
  /**
   * Another answer key of INEP for the same day of the regular application (another colour:
   * `gabaritos/<year>_dia<day>.pdf`), which tells the regular application's booklets from the others
   * when the booklet's own key is absent; null or absent: none.
   */
  readonly dayKey?: Gabarito | null
}

/** The first question number of each day. */
const DAY_FIRST: Record<1 | 2, number> = { 1: 1, 2: 91 }
const DAY_QUESTIONS = 90

/**
 * Reads the request's files and resolves its keys (resolveBookletKeys). Without the booklet's answer
 * key, it also reads `<inepDir>/gabaritos/<year>_dia<day>.pdf` (or its `.txt`) when there, INEP's
 * key of another colour of the day, to tell the regular application's booklets from the others.
 * Throws with one line when neither ITENS_PROVA nor the answer key is at hand, or a file cannot be read.
 * @example bookletKeys({ year: 2025, application: 'regular', day: 2, cd: 7, inepDir: 'data/inep', answerKeyPdf: '2025_GB_impresso_D2_CD7.pdf' }).areas.map((area) => area.coProva) // [1483, 1471]
 */
export function bookletKeys (request: BookletKeysRequest): BookletKeys {
  const { year, inepDir, answerKeyPdf } = request
  const itemsFile = inepDir == null ? null : path.join(inepDir, ITENS_PROVA_FOLDER, `ITENS_PROVA_${year}.csv`)
  const items = itemsFile !== null && existsSync(itemsFile) ? readItensProva(inepDir!, year) : null
  const answerKey = answerKeyPdf == null ? null : readGabarito(path.dirname(answerKeyPdf), path.basename(answerKeyPdf))
  if (items === null && answerKey === null) {
    throw new Error(`ENEM ${year} day ${request.day} CD${request.cd}: no ITENS_PROVA_${year}.csv${inepDir == null ? '' : ` in ${path.join(inepDir, ITENS_PROVA_FOLDER)}`} and no answer-key PDF: its keys cannot be known`)
  }
  let dayKey: Gabarito | null = null
  if (items !== null && answerKey === null && inepDir != null) {
    const name = `gabaritos/${year}_dia${request.day}.pdf`
    if (existsSync(path.join(inepDir, name)) || existsSync(path.join(inepDir, `${name}.txt`))) dayKey = readGabarito(inepDir, name)
  }
  return resolveBookletKeys({ ...request, items, answerKey, dayKey })
}

/**
 * The keys of a booklet from what was read (see the top of this file). Throws, naming what, when the
 * answer key is another booklet's or disagrees with ITENS_PROVA, when no booklet of the colour fits,
 * or when neither source is given.
 */
export function resolveBookletKeys (input: BookletKeysInput): BookletKeys {
  const { year, day, cd, items, answerKey } = input
  if (answerKey !== null) checkAnswerKeyNames(input, answerKey)
  if (items === null) {
    if (answerKey === null) throw new Error(`ENEM ${year} day ${day} CD${cd}: neither ITENS_PROVA nor an answer key: its keys cannot be known`)
    return keysFromAnswerKey(input, answerKey)
  }
  return keysFromItems(input, items, answerKey)
}

function checkAnswerKeyNames ({ year, application, day, cd, items }: BookletKeysInput, answerKey: Gabarito): void {
  const printed = answerKey.printed
  const wrong = (what: string) => new Error(`${answerKey.source}: it is the answer key of ${what}, not of ENEM ${year} day ${day} CD${cd}`)
  if (printed?.day != null && printed.day !== day) throw wrong(`day ${printed.day}`)
  if (printed?.booklet != null && printed.booklet !== cd) throw wrong(`CD${printed.booklet}`)
  if (answerKey.secondApplication && application === 'regular') throw wrong('the second application')
  if (items !== null && printed?.colour != null) {
    const colour = bookletColour(year, application, day, cd)
    if (!sameColour(printed.colour, colour)) throw wrong(`a ${printed.colour} booklet (CD${cd} is ${colour})`)
  }
}

/** The keys of the answer key alone: its areas from the column headings, its languages from the INGLÊS/ESPANHOL columns. */
function keysFromAnswerKey ({ year, application, day, cd }: BookletKeysInput, answerKey: Gabarito): BookletKeys {
  const positions: BookletPosition[] = []
  for (const [index, row] of [...answerKey.keys].sort(([a], [b]) => a - b)) {
    if (index < DAY_FIRST[day] || index >= DAY_FIRST[day] + DAY_QUESTIONS) throw new Error(`${answerKey.source}: question ${index} is not on day ${day}`)
    const area = answerKey.areaOf.get(index)!
    if (row.length > 1 && row.length !== answerKey.languages.length) throw new Error(`${answerKey.source}: question ${index} has ${row.length} keys and the key names ${answerKey.languages.length} languages`)
    row.forEach((key, column) => positions.push({
      index,
      language: row.length === 1 ? null : answerKey.languages[column] as ItemLanguage,
      area,
      key: key === 'X' ? null : key,
      item: null,
      coProva: null
    }))
  }
  const areas = orderedAreas(positions).map((area) => ({ area, coProva: null, colour: null, how: `the column under the ${area} heading of ${answerKey.source}`, sameOrder: [] }))
  const ordered = bookletOrder(positions, areas.map((entry) => entry.area))
  return {
    year,
    application,
    day,
    cd,
    sources: { itensProva: null, answerKey: answerKey.source },
    answerKeyCount: positions.length,
    positions: ordered,
    areas,
    leftOut: leftOutOf(ordered, `${answerKey.source} prints Anulado and no ITENS_PROVA was given`),
    notes: []
  }
}

function keysFromItems (input: BookletKeysInput, items: YearItems, answerKey: Gabarito | null): BookletKeys {
  const { year, application, day, cd } = input
  const colour = bookletColour(year, application, day, cd)
  const file = `ITENS_PROVA_${year}`
  const dayAreas = areasOfDay(items, day)
  const keyAt = answerKey === null ? null : keyLookup(answerKey)
  const notes: string[] = []
  const choices = dayAreas.map((area) => {
    const choice = answerKey === null
      ? editionBooklet(items, area, colour, application, regularEditionFromDayKey(input, items, area, notes))
      : bookletOfAnswerKey(items, area, colour, application, answerKey, keyAt!)
    return { area, ...choice }
  })

  const positions: BookletPosition[] = choices.flatMap(({ area, booklet }) => booklet.slots.flatMap((slot) => slot.items.map((item) => ({
    index: printedIndex(booklet, slot),
    language: item.language,
    area,
    key: item.key === 'X' ? null : item.key,
    item,
    coProva: booklet.code
  }))))
  const ordered = bookletOrder(positions, dayAreas)
  for (const position of ordered) {
    if (position.index < DAY_FIRST[day] || position.index >= DAY_FIRST[day] + DAY_QUESTIONS) throw new Error(`${file}: booklet ${position.coProva} (${position.area}) places an item at ${position.index}, not on day ${day}`)
    if (position.item!.abandoned && position.key !== null) {
      notes.push(`${position.index}${position.language === null ? '' : ` (${position.language})`}: INEP left item ${position.item!.item ?? '?'} out of scoring (IN_ITEM_ABAN = 1${position.item!.abandonReason === null ? '' : `: ${position.item!.abandonReason}`}); its key ${position.item!.key} is kept`)
    }
  }
  if (answerKey !== null) checkAgainstAnswerKey(ordered, answerKey, file)
  return {
    year,
    application,
    day,
    cd,
    sources: { itensProva: items.source, answerKey: answerKey?.source ?? null },
    answerKeyCount: answerKey === null ? null : [...answerKey.keys.values()].reduce((sum, row) => sum + row.length, 0),
    positions: ordered,
    areas: choices.map(({ area, booklet, how, sameOrder }) => ({ area, coProva: booklet.code, colour: booklet.colour, how, sameOrder })),
    leftOut: leftOutOf(ordered, answerKey === null ? `${file} gives X and no answer key was given` : `${file} gives X, ${answerKey.source} prints Anulado`),
    notes
  }
}

/** The two areas whose booklets print their questions on `day`, in the order printed. */
function areasOfDay (items: YearItems, day: 1 | 2): Area[] {
  const firsts = AREAS.flatMap((area) => {
    const booklets = printableBooklets(items, area)
    if (booklets.length === 0) return []
    const first = Math.min(...booklets[0]!.slots.map((slot) => printedIndex(booklets[0]!, slot)))
    return first >= DAY_FIRST[day] && first < DAY_FIRST[day] + DAY_QUESTIONS ? [{ area, first }] : []
  }).sort((a, b) => a.first - b.first)
  if (firsts.length !== 2) throw new Error(`ITENS_PROVA_${items.year}: ${firsts.length} areas print on day ${day} (${firsts.map(({ area }) => area).join(', ') || 'none'}), not two`)
  return firsts.map(({ area }) => area)
}

/** The booklet of `colour` whose keys the answer key prints; when none prints alike everywhere, the closest, which the check then refuses. */
function bookletOfAnswerKey (items: YearItems, area: Area, colour: string, application: Application, answerKey: Gabarito, keyAt: KeyAt): Choice {
  const candidates = printableBooklets(items, area).filter((booklet) => booklet.colour === colour)
  if (candidates.length === 0) throw new Error(`ITENS_PROVA_${items.year} lists no ${colour} booklet of ${area}`)
  const agreements = candidates.map((booklet) => ({ booklet, agreement: keyAgreement(booklet, keyAt) }))
  const whole = agreements.filter(({ agreement }) => agreement.agree === agreement.items)
  if (whole.length === 0) {
    const best = agreements.reduce((a, b) => (b.agreement.agree > a.agreement.agree ? b : a))
    return { booklet: best.booklet, how: `the ${colour} booklet closest to ${answerKey.source} (${best.agreement.agree} of ${best.agreement.items} keys alike)`, sameOrder: [] }
  }
  // Booklets printing the same keys hold one order under several codes: the regular one is named by its lowest code, the second application's by the later run's (booklet-editions.ts).
  const named = application === 'regular' ? whole[0]! : whole.at(-1)!
  return {
    booklet: named.booklet,
    how: `the ${colour} booklet whose keys ${answerKey.source} prints at every position`,
    sameOrder: whole.filter((entry) => entry !== named).map(({ booklet }) => booklet.code)
  }
}

/**
 * The regular application's edition of `area` as INEP's answer key of another colour of the day tells
 * it (its booklet agrees at every position), or null when no such key was given or none agrees.
 */
function regularEditionFromDayKey ({ day, dayKey }: BookletKeysInput, items: YearItems, area: Area, notes: string[]): { codes: ReadonlySet<number>, how: string } | null {
  if (dayKey == null || dayKey.secondApplication || (dayKey.printed?.day != null && dayKey.printed.day !== day)) return null
  const keyAt = keyLookup(dayKey)
  const agreeing = printableBooklets(items, area).filter((booklet) => {
    const agreement: Agreement = keyAgreement(booklet, keyAt)
    return agreement.agree === agreement.items
  })
  if (agreeing.length === 0) {
    notes.push(`${area}: no booklet agrees with ${dayKey.source} at every position; the regular application is taken as the lowest code's`)
    return null
  }
  return { codes: new Set(agreeing.map((booklet) => booklet.code)), how: `the edition of ${agreeing.map((booklet) => booklet.code).join('/')}, whose keys ${dayKey.source} prints` }
}

/** The letter an answer key prints at a number in a language (its only one where the row has one). */
function keyLookup (answerKey: Gabarito): KeyAt {
  return (index, language) => {
    const row = answerKey.keys.get(index)
    if (row === undefined) return undefined
    if (row.length === 1) return language === null ? row[0] : undefined
    if (language === null) return undefined
    const column = answerKey.languages.indexOf(language)
    return column === -1 ? undefined : row[column]
  }
}

/** Refuses the booklet where the answer key prints another letter, another area or another set of positions than ITENS_PROVA. */
function checkAgainstAnswerKey (positions: readonly BookletPosition[], answerKey: Gabarito, file: string): void {
  const keyAt = keyLookup(answerKey)
  const problems: string[] = []
  for (const position of positions) {
    const printed = keyAt(position.index, position.language)
    const where = `position ${position.index}${position.language === null ? '' : ` (${position.language})`}`
    const listed = position.item!.key
    if (printed === undefined) problems.push(`${where}: no key printed, ${file} (CO_PROVA ${position.coProva}) gives ${letterName(listed)}`)
    else if (printed !== listed) problems.push(`${where}: the answer key prints ${letterName(printed)}, ${file} (CO_PROVA ${position.coProva}) gives ${letterName(listed)}`)
    else if (answerKey.areaOf.get(position.index) !== position.area) problems.push(`${where}: printed under ${answerKey.areaOf.get(position.index)}, ${file} gives ${position.area}`)
  }
  const listed = new Set(positions.map((position) => `${position.index}|${position.language ?? ''}`))
  for (const [index, row] of answerKey.keys) {
    row.forEach((_, column) => {
      const language = row.length === 1 ? '' : answerKey.languages[column] ?? '?'
      if (!listed.has(`${index}|${language}`)) problems.push(`position ${index}${language === '' ? '' : ` (${language})`}: printed in the answer key, in no booklet of ${file} taken`)
    })
  }
  if (problems.length > 0) {
    const shown = problems.slice(0, 5).join('; ')
    throw new Error(`${answerKey.source} disagrees with ${file} at ${problems.length} position${problems.length === 1 ? '' : 's'}: ${shown}${problems.length > 5 ? '; …' : ''}`)
  }
}

/** The letters an answer-marked print marks for one question, as read (read-booklet.ts: `BookletQuestion.marked`). */
export interface MarkedLetters {
  readonly index: number
  /** The language its heading announced, or null (then every position at `index` is checked). */
  readonly language: ItemLanguage | null
  readonly letters: readonly string[]
}

/**
 * An answer-marked print's marks ("com gabarito": the key's letter of each question marked on the
 * page), one more check of the keys: a question with one letter marked where its position's key is
 * another refuses the booklet, naming the position and both letters. Questions read with no mark or
 * several are not checked; how many agree and how many were not checked is returned for the report.
 */
export function checkMarkedKeys (keys: BookletKeys, marked: readonly MarkedLetters[], source: string): { agree: number, unchecked: number } {
  const problems: string[] = []
  let agree = 0
  let unchecked = 0
  for (const question of marked) {
    const positions = keys.positions.filter((position) => position.index === question.index && (question.language === null || position.language === question.language) && position.key !== null)
    if (positions.length === 0) continue
    if (question.letters.length !== 1) {
      unchecked++
      continue
    }
    for (const position of positions) {
      if (position.key === question.letters[0]) agree++
      else problems.push(`position ${position.index}${position.language === null ? '' : ` (${position.language})`}: the print marks ${question.letters[0]}, the key is ${position.key}${position.coProva === null ? '' : ` (CO_PROVA ${position.coProva})`}`)
    }
  }
  if (problems.length > 0) {
    throw new Error(`${source} is an answer-marked print whose marks disagree with the keys at ${problems.length} position${problems.length === 1 ? '' : 's'}: ${problems.slice(0, 5).join('; ')}${problems.length > 5 ? '; …' : ''}`)
  }
  return { agree, unchecked }
}

function letterName (key: OfficialKey): string {
  return key === 'X' ? 'X (annulled)' : key
}

/** The areas of positions, in the order of their first number. */
function orderedAreas (positions: readonly BookletPosition[]): Area[] {
  const first = new Map<Area, number>()
  for (const position of positions) first.set(position.area, Math.min(first.get(position.area) ?? Infinity, position.index))
  return [...first].sort(([, a], [, b]) => a - b).map(([area]) => area)
}

/** Booklet order: area by area, the English then the Spanish positions, then the common ones, each by number. */
function bookletOrder (positions: readonly BookletPosition[], areas: readonly Area[]): BookletPosition[] {
  const rank = (position: BookletPosition) => position.language === 'ingles' ? 0 : position.language === 'espanhol' ? 1 : 2
  return [...positions].sort((a, b) => areas.indexOf(a.area) - areas.indexOf(b.area) || rank(a) - rank(b) || a.index - b.index)
}

function leftOutOf (positions: readonly BookletPosition[], why: string): LeftOutPosition[] {
  return positions.filter((position) => position.key === null).map(({ index, language, area }) => ({
    index,
    language,
    area,
    reason: 'annulled' as const,
    detail: `no letter anywhere: ${why}`
  }))
}
