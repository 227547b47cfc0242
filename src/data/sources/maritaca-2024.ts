import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import Type from 'typebox'
import { Compile } from 'typebox/compile'
import { matchBooklets, type AreaMatch } from '../official/booklet-match.ts'
import { examIndexOf, languagePositions } from '../official/exam-layout.ts'
import { readItensProva, type Booklet, type ItemRow, type YearItems } from '../official/itens-prova.ts'
import { textLanguage } from '../official/language-labels.ts'
import { officialYearWithSecondSources, type ItemEntry } from './inep-official.ts'
import { DISCIPLINE_OF_AREA, LETTERS, type Alternative, type Area, type Letter, type DatasetQuestion } from '../record-schemas.ts'
import { placeRecords, type SourceKey } from './booklets/booklet-placement.ts'
import { areaBooklet, examTitle, fileAddress, type ConvertedExam, type ConvertedRecord, type ExamId, type LeftOut } from './converted-exam.ts'
import { checkedExam } from './official-check.ts'

/*
 * The `maritaca-2024` source (../shared/sources/maritaca-enem-2024, its SOURCE.md): a regular exam
 * as `<year>.jsonl`, one question per line in text, `[[placeholder]]` where a figure stands (in
 * the text and in alternatives), the figures listed in that order with a description each, and the
 * key as `label`. It is numbered by another booklet than ours and holds no item codes, so:
 * the booklet of each area is found by the keys among every booklet of the year (several share
 * its order: the green ones and the adapted ones); each record's item is the one those booklets
 * hold at its position, and a position where they hold different items (an adapted booklet's
 * replacement) is left out, since the source's text may be either; the item is then looked up by
 * `CO_ITEM` in the area's blue (AZUL) booklet holding the same items, whose order every exam of
 * the dataset follows (src/data/official/exam-layout.ts), and that gives the record its index.
 */

const KIND = 'maritaca-2024'
const FILE_NAME = /^(\d{4})\.jsonl$/
const PLACEHOLDER = '[[placeholder]]'
const SOURCE_ID = /^questao_(\d+)$/

const MaritacaRecordSchema = Type.Object({
  id: Type.String({ pattern: SOURCE_ID.source }),
  question: Type.String(),
  alternatives: Type.Array(Type.String(), { minItems: 5, maxItems: 5 }),
  label: Type.String(),
  figures: Type.Array(Type.String()),
  description: Type.Array(Type.String())
})
const checkMaritacaRecord = Compile(MaritacaRecordSchema)
type MaritacaRecord = Type.Static<typeof MaritacaRecordSchema>

/** Every `<year>.jsonl` of the source, oldest first. */
export function convertMaritaca (sourceDir: string, inepDir: string): ConvertedExam[] {
  const files = readdirSync(sourceDir).filter((name) => FILE_NAME.test(name)).sort()
  if (files.length === 0) throw new Error(`${sourceDir} holds no <year>.jsonl file`)
  return files.map((name) => {
    const year = Number(FILE_NAME.exec(name)![1])
    return convertExam(sourceDir, name, readItensProva(inepDir, year), inepDir)
  })
}

interface SourceEntry {
  readonly source: string
  readonly position: number
  readonly value: MaritacaRecord
  readonly key: SourceKey
}

/**
 * One `<year>.jsonl` file: the exam in our numbering, checked against the year's item data, and
 * its official table from the item data with the year's second sources of `inepDir` (answer-key
 * PDFs, `items/enem-<year>.json` renumbered through `CO_ITEM` as the records are).
 */
export function convertExam (sourceDir: string, file: string, items: YearItems, inepDir: string): ConvertedExam {
  const id: ExamId = { year: items.year, application: 'regular' }
  const leftOut: LeftOut[] = []
  const leave = (source: string, index: number, language: string | null, reason: LeftOut['reason'], detail: string) =>
    leftOut.push({ kind: KIND, exam: id, index, language, source, reason, detail })

  const lines = readFileSync(path.join(sourceDir, file), 'utf8').split('\n').filter((line) => line.trim() !== '')
  const entries: SourceEntry[] = []
  const positions = new Map<number, string>()
  const languageAt = new Set(languagePositions(items.year))
  lines.forEach((line, at) => {
    let value: unknown
    const lineSource = `${file} line ${at + 1}`
    try {
      value = JSON.parse(line)
    } catch (error) {
      leave(lineSource, at + 1, null, 'invalid-record', (error as Error).message)
      return
    }
    if (!checkMaritacaRecord.Check(value)) {
      const [first] = checkMaritacaRecord.Errors(value)
      leave(lineSource, at + 1, null, 'invalid-record', first === undefined ? 'not a question' : `${first.instancePath} ${first.message}`)
      return
    }
    const source = `${file} ${value.id}`
    const position = Number(SOURCE_ID.exec(value.id)![1])
    const placeholders = countPlaceholders(value.question) + value.alternatives.reduce((sum, text) => sum + countPlaceholders(text), 0)
    if (placeholders !== value.figures.length || value.description.length !== value.figures.length) {
      leave(source, position, null, 'invalid-record', `${placeholders} placeholders, ${value.figures.length} figures, ${value.description.length} descriptions`)
      return
    }
    const other = positions.get(position)
    if (other !== undefined) {
      leave(source, position, null, 'duplicate', `${other} has number ${position} too`)
      return
    }
    positions.set(position, source)
    const key = (LETTERS as readonly string[]).includes(value.label) ? value.label : 'X'
    entries.push({ source, position, value, key: { index: position, language: null, key } })
  })

  // Booklets are matched on keys alone; then each question at a foreign-language position gets its language.
  const matches = matchBooklets(items, entries.map(({ key }) => key))
  const languages = foreignLanguages(items.year, matches, entries)
  const placeable = entries.flatMap((entry) => {
    if (!languageAt.has(entry.position)) return [entry]
    const language = languages.get(entry)
    if (language === undefined) {
      leave(entry.source, entry.position, null, 'no-language', 'neither the keys of the booklet the source follows nor its text tell its language')
      return []
    }
    return [{ ...entry, key: { ...entry.key, language } }]
  })

  const placements = placeRecords(items.year, matches, placeable.map(({ key }) => key))
  const targets = new Map(matches.map((match) => [match.area, match.booklet === null ? null : targetBooklet(items, match.booklet)]))
  const candidates: ConvertedRecord[] = []
  const written = new Map<string, string>()
  const warnings: string[] = []
  placeable.forEach((entry, at) => {
    const { source, position, value, key } = entry
    const placement = placements[at]!
    if (!placement.placed) return leave(source, position, key.language, placement.reason, placement.detail)
    const match = matches.find((candidate) => candidate.area === placement.area)!
    const target = targets.get(placement.area)!
    // Where an item stands in our numbering, for the report of a question left out.
    const ours = (code: number | null) => {
      const slot = target?.slots.find((candidate) => candidate.items.some((other) => other.item === code))
      return slot === undefined ? '' : ` (our ${examIndexOf(items.year, placement.area, slot.slot)})`
    }
    const item = itemOfSameOrder(items, match, placement.slot, key.language)
    if ('reason' in item) return leave(source, position, key.language, item.reason, item.detail.replace(/item (\d+)/g, (text, code: string) => `${text}${ours(Number(code))}`))
    if (key.key === 'X') return leave(source, position, key.language, 'no-key', `the source's label is ${JSON.stringify(value.label)}; INEP's key of item ${item.item.item}${ours(item.item.item)}: ${item.item.key}`)
    const targetSlot = target?.slots.find((slot) => slot.items.some((other) => other.item === item.item.item && other.language === item.item.language))
    if (target === null || targetSlot === undefined) {
      return leave(source, position, key.language, 'not-in-target', target === null
        ? `no blue booklet of ${placement.area} holds the items of booklet ${placement.booklet.code}`
        : `booklet ${target.code} does not list item ${item.item.item}`)
    }
    const index = examIndexOf(items.year, placement.area, targetSlot.slot)
    const place = `${index}|${key.language ?? ''}`
    if (written.has(place)) return leave(source, position, key.language, 'duplicate', `${written.get(place)} is renumbered to ${index} too`)
    written.set(place, source)
    candidates.push(buildRecord(sourceDir, id, value, { index, language: key.language, area: placement.area, key: key.key as Letter }, source, position, warnings))
  })

  const renumberItems = (itemEntries: readonly ItemEntry[]): ItemEntry[] => itemEntries.flatMap((itemEntry) => {
    for (const target of targets.values()) {
      const slot = target?.slots.find((candidate) => candidate.items.some((other) => other.item === itemEntry.item && other.item !== null))
      if (target == null || slot === undefined) continue
      const own = slot.items.find((other) => other.item === itemEntry.item)!
      return [{ ...itemEntry, number: examIndexOf(items.year, target.area, slot.slot), ...(own.language === null ? {} : { language: own.language }) }]
    }
    return []
  })
  const table = officialYearWithSecondSources(inepDir, items, candidates.map(({ record }) => record), renumberItems)
  for (const booklet of table.booklets) {
    const target = targets.get(booklet.area)
    if (target != null && booklet.code !== target.code) warnings.push(`${booklet.area}: the renumbered records agree best with booklet ${booklet.best}, not with ${target.code}`)
  }
  const booklets = matches.map((match) => areaBooklet(match, targets.get(match.area)?.code ?? null))
  return checkedExam({ kind: KIND, id, sourceRecords: lines.length, leftOut, booklets, table, warnings }, candidates)
}

/**
 * The language of each question at a foreign-language position: the one language whose item in
 * the booklet the source follows has the question's key; where the keys do not tell (both or
 * neither), the language most questions of those positions were told to be by their keys, and
 * failing that, the language the question's text and figure descriptions are plainly in (the
 * descriptions quote what stands in figures). A text check alone misreads an English text that
 * quotes Spanish.
 */
function foreignLanguages (year: number, matches: readonly AreaMatch[], entries: readonly SourceEntry[]): Map<SourceEntry, string> {
  const positions = new Set(languagePositions(year))
  const booklet = matches.find((match) => match.area === 'LC')?.booklet ?? null
  const first = examIndexOf(year, 'LC', 1)
  const byKey = new Map<SourceEntry, string | null>()
  for (const entry of entries) {
    if (!positions.has(entry.position)) continue
    const items = booklet?.slots[entry.position - first]?.items ?? []
    const agreeing = items.filter((item) => item.language !== null && item.key === entry.key.key)
    byKey.set(entry, agreeing.length === 1 ? agreeing[0]!.language : null)
  }
  const counts = new Map<string, number>()
  for (const language of byKey.values()) if (language !== null) counts.set(language, (counts.get(language) ?? 0) + 1)
  const ranked = [...counts].sort((a, b) => b[1] - a[1])
  const usual = ranked.length > 0 && (ranked.length === 1 || ranked[0]![1] > ranked[1]![1]) ? ranked[0]![0] : null
  const languages = new Map<SourceEntry, string>()
  for (const [entry, language] of byKey) {
    const { value } = entry
    const told = language ?? usual ?? textLanguage({
      context: [value.question, ...value.description].join('\n'),
      alternativesIntroduction: null,
      alternatives: value.alternatives.map((text, at) => ({ letter: LETTERS[at]!, text, file: null, isCorrect: false }))
    })
    if (told !== null) languages.set(entry, told)
  }
  return languages
}

function countPlaceholders (text: string): number {
  return text.split(PLACEHOLDER).length - 1
}

function isAdapted (booklet: Booklet): boolean {
  return booklet.slots.some((slot) => slot.items.some((item) => item.adapted === true))
}

/** The item at `slot` in `language` (or the one common item) of a booklet, or null when there is not exactly one. */
function itemAt (booklet: Booklet, slot: number, language: string | null): ItemRow | null {
  const all = booklet.slots[slot - 1]?.items ?? []
  const own = all.filter((item) => item.language === language)
  const items = own.length > 0 ? own : all
  return items.length === 1 ? items[0]! : null
}

/**
 * The item every booklet of the source's order (the one taken and those of the same order) holds
 * at `slot`; when they hold different items, the reason the record is left out.
 */
function itemOfSameOrder (items: YearItems, match: AreaMatch, slot: number, language: string | null): { item: ItemRow } | { reason: LeftOut['reason'], detail: string } {
  const booklets = [match.booklet!, ...match.sameOrder.map((code) => items.booklets.get(code)!)]
  const byItem = new Map<number | null, Booklet[]>()
  for (const booklet of booklets) {
    const item = itemAt(booklet, slot, language)
    if (item === null) return { reason: 'no-language', detail: `booklet ${booklet.code} holds ${booklet.slots[slot - 1]?.items.length ?? 0} items at position ${slot}` }
    byItem.set(item.item, [...(byItem.get(item.item) ?? []), booklet])
  }
  if (byItem.size === 1) return { item: itemAt(match.booklet!, slot, language)! }
  const detail = [...byItem].map(([item, holders]) => `item ${item ?? '?'} in ${holders.map((booklet) => `${booklet.code}${isAdapted(booklet) ? ' (adapted)' : ''}`).join(', ')}`).join('; ')
  return { reason: booklets.some(isAdapted) ? 'adapted-item' : 'ambiguous-item', detail: `position ${slot}: ${detail}` }
}

/**
 * The blue (AZUL) booklet, not an adapted version, that holds the same items as `booklet`: the
 * order our numbering follows for that area and group of booklets. Null when the year has none.
 */
export function targetBooklet (items: YearItems, booklet: Booklet): Booklet | null {
  const itemsOf = (candidate: Booklet) => candidate.slots.flatMap((slot) => slot.items.map((item) => `${item.item}|${item.language ?? ''}`)).sort().join()
  const wanted = itemsOf(booklet)
  return [...items.booklets.values()]
    .filter((candidate) => candidate.area === booklet.area && candidate.colour === 'azul' && candidate.unordered === null && !isAdapted(candidate) && itemsOf(candidate) === wanted)
    .sort((a, b) => a.code - b.code)[0] ?? null
}

interface Placed {
  index: number
  language: string | null
  area: Area
  key: Letter
}

/**
 * The record of a source question at its place in our numbering: `[[placeholder]]` marks become
 * the figures' Markdown images, the description as alternative text, in the order the figures
 * are listed (the text's marks first, then each alternative's); an alternative that is a figure
 * alone has it as its `file`. The source breaks lines where blocks end (title, verse, the
 * statement after the text), so each line becomes a Markdown paragraph.
 */
export function buildRecord (sourceDir: string, id: ExamId, value: MaritacaRecord, placed: Placed, source: string, sourceIndex: number, warnings: string[]): ConvertedRecord {
  const files = new Map<string, string>()
  let next = 0
  const figure = (): { address: string, alt: string } => {
    const at = next++
    const figurePath = value.figures[at]!
    const name = path.basename(figurePath)
    const from = path.join(sourceDir, figurePath)
    if (existsSync(from)) files.set(name, from)
    else warnings.push(`${source}: figure ${figurePath} is not in the source`)
    return { address: fileAddress(id, placed.index, placed.language, name), alt: altText(value.description[at]!) }
  }
  const withImages = (text: string, images: string[]) => text.split(PLACEHOLDER).reduce((done, part) => {
    const { address, alt } = figure()
    images.push(address)
    return `${done}![${alt}](${address})${part}`
  })
  const contextImages: string[] = []
  const context = paragraphs(withImages(value.question, contextImages))
  const alternatives: Alternative[] = value.alternatives.map((text, at) => {
    const letter = LETTERS[at]!
    if (text.trim() === PLACEHOLDER) return { letter, text: null, file: figure().address, isCorrect: letter === placed.key }
    return { letter, text: withImages(text, []), file: null, isCorrect: letter === placed.key }
  })
  const record: DatasetQuestion = {
    title: `Questão ${placed.index} - ${examTitle(id)}`,
    index: placed.index,
    discipline: DISCIPLINE_OF_AREA[placed.area],
    language: placed.language,
    year: id.year,
    context,
    files: contextImages,
    correctAlternative: placed.key,
    alternativesIntroduction: null,
    alternatives
  }
  return { record, files, source, sourceIndex }
}

/** A figure description as Markdown alternative text: one line, without the brackets that would end it. */
function altText (description: string): string {
  return description.replace(/\s+/g, ' ').replace(/\[/g, '(').replace(/\]/g, ')').trim()
}

/** Each line of the source as its own Markdown paragraph. */
function paragraphs (text: string): string {
  return text.split('\n').map((line) => line.trim()).filter((line) => line !== '').join('\n\n')
}
