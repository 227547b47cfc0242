import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import Type from 'typebox'
import { Compile } from 'typebox/compile'
import { compareRows, proposeCorrections } from '../official/corrections.ts'
import { DatasetReport } from '../dataset/dataset-report.ts'
import { officialTable, type CorrectionsFile, type OfficialDisagreement, type OfficialNote, type OfficialPosition, type OfficialYear } from '../official/official-table.ts'
import { readDataset } from '../dataset/read-dataset.ts'
import { areaOrder as areaOrderOfYear } from '../official/exam-layout.ts'
import { MINIMUM_AGREEMENT, MINIMUM_COMPARED, matchBooklets } from '../official/booklet-match.ts'
import { comparePositions, disagreementsWith, positionsFromBooklets, withConfirmations } from '../official/item-positions.ts'
import { itensProvaYears, readItensProva, type YearItems } from '../official/itens-prova.ts'
import { AREAS, type Area, type OfficialKey } from '../record-schemas.ts'

/*
 * Builds the official table (src/data/official/official-table.ts) from INEP's files: the answer-key PDFs
 * `gabaritos/<year>_dia<1|2>.pdf`, read as text by poppler's `pdftotext -layout`, and the item
 * data `items/enem-<year>.json`. Day 1 PDFs are the blue booklet (Caderno 1 Azul), the
 * dataset's numbering; day 2 PDFs are the yellow booklet (Caderno 5 Amarelo), another order of
 * the same questions, so they give only what does not depend on the order: which area each block
 * of 45 positions holds, and per area how many keys of each letter and how many annulled.
 */

const ItemsFileSchema = Type.Object({
  year: Type.Integer(),
  items: Type.Array(Type.Object({
    number: Type.Integer({ minimum: 1, maximum: 180 }),
    area: Type.Enum(AREAS),
    skill: Type.Union([Type.Integer({ minimum: 1, maximum: 30 }), Type.Null()]),
    item: Type.Union([Type.Integer(), Type.Null()]),
    gabarito: Type.Enum(['A', 'B', 'C', 'D', 'E', 'X']),
    irt: Type.Union([Type.Object({ a: Type.Number(), b: Type.Number(), c: Type.Number() }), Type.Null()]),
    abandoned: Type.Boolean(),
    language: Type.Optional(Type.String())
  }))
})
const ITEMS_FILE = Compile(ItemsFileSchema)
type ItemsFile = Type.Static<typeof ItemsFileSchema>
/** One entry of `items/enem-<year>.json`: an item at a question number of that file's numbering. */
export type ItemEntry = ItemsFile['items'][number]

/** First exam year the rule covers; earlier years get no table. */
const FIRST_YEAR = 2009

const AREA_HEADINGS: Array<[Area, RegExp]> = [
  ['LC', /LINGUAGENS/g], ['CH', /CIÊNCIAS HUMANAS/g], ['CN', /CIÊNCIAS DA NATUREZA/g], ['MT', /MATEMÁTICA/g]
]

/** One answer-key PDF, as read. */
export interface Gabarito {
  /** Relative name, e.g. `gabaritos/2021_dia1.pdf`. */
  source: string
  /** The areas of its two columns, left to right (the first and second block of 45 of that day). */
  areas: [Area, Area]
  /** Per question number: the keys of the row, one per language column or one common to all. */
  keys: Map<number, OfficialKey[]>
  /** The language of each key of a two-key row, in column order. */
  languages: string[]
  /** True when the PDF says it is the key of a second application of the exam. */
  secondApplication: boolean
  /** Per question number, the area of the column it is printed in (the column under that area's heading). */
  areaOf: Map<number, Area>
  /** The day, caderno and colour its heading prints (`1º DIA - CADERNO 1`, `Azul`); null where it prints none of them. */
  printed: { day: number | null, booklet: number | null, colour: string | null } | null
}

/**
 * Reads a gabarito PDF through `pdftotext -layout`, or the text `pdftotext -layout` made of it
 * when it stands beside the PDF as `<name>.txt` (data/inep/ commits it, so that `npm run dataset`
 * needs no poppler).
 */
export function readGabarito (sourcesDir: string, name: string): Gabarito {
  let text: string
  const extracted = path.join(sourcesDir, `${name}.txt`)
  if (existsSync(extracted)) return parseGabarito(readFileSync(extracted, 'utf8'), name)
  try {
    text = execFileSync('pdftotext', ['-layout', path.join(sourcesDir, name), '-'], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new Error('pdftotext is not installed (Debian package poppler-utils)')
    throw error
  }
  return parseGabarito(text, name)
}

/** Parses the text `pdftotext -layout` gives of a gabarito PDF. Throws when its layout is not understood. */
export function parseGabarito (text: string, source: string): Gabarito {
  const lines = text.split('\n')
  const headingLine = lines.find((line) => AREA_HEADINGS.filter(([, pattern]) => line.toUpperCase().match(pattern) !== null).length >= 2)
  if (headingLine === undefined) throw new Error(`${source}: no line names two areas`)
  const found = AREA_HEADINGS.flatMap(([area, pattern]) => [...headingLine.toUpperCase().matchAll(pattern)].map((match) => ({ area, at: match.index })))
    .sort((a, b) => a.at - b.at)
  if (found.length !== 2) throw new Error(`${source}: the heading line names ${found.length} areas`)
  const languageLine = lines.find((line) => /INGLÊS/i.test(line) && /ESPANHOL/i.test(line))
  const languages = languageLine === undefined
    ? []
    : [{ language: 'ingles', at: languageLine.search(/INGLÊS/i) }, { language: 'espanhol', at: languageLine.search(/ESPANHOL/i) }]
        .sort((a, b) => a.at - b.at).map(({ language }) => language)

  // A number belongs to the column whose heading starts nearer to it: the boundary is halfway between the two headings.
  const columnBoundary = (found[0]!.at + found[1]!.at) / 2
  const keys = new Map<number, OfficialKey[]>()
  const areaOf = new Map<number, Area>()
  for (const line of lines) {
    const tokens = [...line.matchAll(/\S+/g)].map((match) => ({ text: match[0], at: match.index }))
    for (let i = 0; i < tokens.length; i++) {
      if (!/^\d{1,3}$/.test(tokens[i]!.text)) continue
      const number = Number(tokens[i]!.text)
      const at = tokens[i]!.at
      const row: OfficialKey[] = []
      while (i + 1 < tokens.length && /^([A-E]|anulad[ao])$/i.test(tokens[i + 1]!.text)) {
        const token = tokens[++i]!.text
        row.push(token.length === 1 ? token as OfficialKey : 'X')
      }
      if (row.length === 0 || number < 1 || number > 180) continue
      if (keys.has(number)) throw new Error(`${source}: question ${number} appears twice`)
      keys.set(number, row)
      areaOf.set(number, found[at < columnBoundary ? 0 : 1]!.area)
    }
  }
  const headingAt = lines.indexOf(headingLine)
  return {
    source,
    areas: [found[0]!.area, found[1]!.area],
    keys,
    languages,
    secondApplication: /2ª APLICAÇÃO/i.test(text),
    areaOf,
    printed: printedBooklet(lines.slice(0, headingAt).join('\n'))
  }
}

const PRINTED_COLOUR = /\b(AZUL|AMAREL[OA]|BRANC[OA]|CINZA|ROSA|VERDE|LARANJA|ROX[OA])\b/i

/** What the heading of an answer key says of its booklet: `1º DIA - CADERNO 1`, `2diaº … CADERNO 7 … Azul`, `1° DIA – CADERNO 1 – AZUL`. */
function printedBooklet (heading: string): Gabarito['printed'] {
  const day = /([12])\s*[º°]?\s*DIA|([12])\s*dia\s*[º°]/i.exec(heading)
  const booklet = /CADERNO\s*(\d{1,2})/i.exec(heading)
  const colour = PRINTED_COLOUR.exec(heading)
  if (day === null && booklet === null && colour === null) return null
  return {
    day: day === null ? null : Number(day[1] ?? day[2]),
    booklet: booklet === null ? null : Number(booklet[1]),
    colour: colour === null ? null : colour[1]!.toLowerCase()
  }
}

/** Every table file (name → text) `npm run import-official` writes, built from the sources and the dataset. */
export function buildOfficialFiles (sourcesDir: string, datasetDir: string): Map<string, string> {
  const report = new DatasetReport()
  const dataset = readDataset(datasetDir, report)
  if (dataset === null || report.errors.length > 0) throw new Error(`${datasetDir}: the dataset has errors; run npm run check-data on it`)
  const records = dataset.exams.flatMap((exam) => exam.records.map((item) => item.record))
  const years = buildOfficialYears(sourcesDir, records)
  const files = new Map<string, string>()
  for (const year of years) files.set(`${year.year}.json`, formatTable(year))
  const table = officialTable('', years, [])
  const rows = proposeCorrections(table, records).sort(compareRows)
  const corrections: CorrectionsFile = { dataset: path.basename(path.resolve(datasetDir)), rows }
  files.set('corrections.json', formatTable(corrections))
  return files
}

/**
 * The official facts of every year the sources (or the area-order rule) cover, oldest first. Where
 * INEP's item data (`itens-prova/`) has the year and `records` hold its exam, the positions are the
 * items of the booklets the records follow, and the PDFs and `items/` are second sources checked
 * against them; elsewhere the PDFs and `items/` give what they can.
 */
export function buildOfficialYears (sourcesDir: string, records: readonly RecordKeySource[]): OfficialYear[] {
  const names = new Set([
    ...readdirSync(path.join(sourcesDir, 'gabaritos')).map((name) => `gabaritos/${name}`),
    ...readdirSync(path.join(sourcesDir, 'items')).map((name) => `items/${name}`)
  ])
  const itemYears = new Set(itensProvaYears(sourcesDir))
  const yearsWithFiles = [...names].map((name) => /(\d{4})/.exec(name)?.[1]).filter((year) => year !== undefined).map(Number)
  const lastYear = Math.max(...yearsWithFiles)
  const years: OfficialYear[] = []
  for (let year = FIRST_YEAR; year <= lastYear; year++) {
    const secondary = secondSourcesYear(sourcesDir, year, names)
    const examRecords = records.filter((record) => record.year === year)
    years.push(itemYears.has(year) && examRecords.length > 0
      ? withItemData(secondary, readItensProva(sourcesDir, year), examRecords)
      : secondary)
  }
  return years
}

/**
 * One year's facts from INEP's item data (`items`) for `records`, checked against the second sources
 * of that year the sources folder holds (answer-key PDFs, `items/enem-<year>.json`), as
 * buildOfficialYears does for the dataset's exams. `renumberItems` puts the entries of
 * `items/enem-<year>.json` in the records' numbering first, for a caller whose numbering that
 * file does not follow (src/data/sources/maritaca-2024.ts); an entry it drops is not compared.
 */
export function officialYearWithSecondSources (
  sourcesDir: string,
  items: YearItems,
  records: readonly RecordKeySource[],
  renumberItems: (entries: readonly ItemEntry[]) => ItemEntry[] = (entries) => [...entries]
): OfficialYear {
  const names = new Set([
    ...listFolder(sourcesDir, 'gabaritos').map((name) => `gabaritos/${name}`),
    ...listFolder(sourcesDir, 'items').map((name) => `items/${name}`)
  ])
  return withItemData(secondSourcesYear(sourcesDir, items.year, names, renumberItems), items, records)
}

function listFolder (sourcesDir: string, folder: string): string[] {
  try {
    return readdirSync(path.join(sourcesDir, folder))
  } catch {
    return []
  }
}

/** A year's facts from the answer-key PDFs and `items/` of the sources folder (`names`: the files it holds). */
function secondSourcesYear (
  sourcesDir: string,
  year: number,
  names: ReadonlySet<string>,
  renumberItems: (entries: readonly ItemEntry[]) => ItemEntry[] = (entries) => [...entries]
): OfficialYear {
  const has = (name: string) => names.has(name) && existsSync(path.join(sourcesDir, name))
  const dayOne = has(`gabaritos/${year}_dia1.pdf`) ? readGabarito(sourcesDir, `gabaritos/${year}_dia1.pdf`) : null
  const dayTwo = has(`gabaritos/${year}_dia2.pdf`) ? readGabarito(sourcesDir, `gabaritos/${year}_dia2.pdf`) : null
  const itemsName = `items/enem-${year}.json`
  const items = has(itemsName) ? readItems(sourcesDir, itemsName, year) : null
  return buildYear(year, dayOne, dayTwo, items === null ? null : { source: itemsName, entries: renumberItems(items.items) })
}

/**
 * A year's facts from INEP's item data alone (no answer-key PDF, no `items/` file): the area order
 * of the year and the items of the booklets `records` follow. What the sample's invented item file
 * goes through (src/cli/write-sample-dataset.ts).
 */
export function officialYearFromItems (items: YearItems, records: readonly RecordKeySource[]): OfficialYear {
  return withItemData(buildYear(items.year, null, null, null), items, records)
}

/** What the import needs of a dataset record. */
export interface RecordKeySource { year: number, index: number, language: string | null, correctAlternative: string }

/**
 * A year's facts from INEP's item data: the booklet of each area, its items at their positions,
 * and every disagreement of the second sources (`secondary`, from the PDFs and `items/`) with them.
 * A disagreement changes nothing: the position keeps the item data's facts, and the disputed
 * field is not corrected (src/data/official/corrections.ts).
 */
function withItemData (secondary: OfficialYear, items: YearItems, records: readonly RecordKeySource[]): OfficialYear {
  const matches = matchBooklets(items, records.map((record) => ({ index: record.index, language: record.language, key: record.correctAlternative })))
  const positions = withConfirmations(positionsFromBooklets(items, matches), secondary.positions)
  const booklets = matches.map((match) => ({
    area: match.area,
    code: match.booklet?.code ?? null,
    best: match.agreement?.code ?? 0,
    colour: match.agreement?.colour ?? '',
    agree: match.agreement?.agree ?? 0,
    compared: match.agreement?.compared ?? 0,
    sameOrder: [...match.sameOrder],
    source: items.source
  }))
  const notes: OfficialNote[] = [...secondary.notes]
  for (const match of matches) {
    if (match.booklet === null) {
      notes.push({
        sources: [items.source],
        note: match.agreement === null
          ? `no booklet of ${match.area}`
          : `no booklet of ${match.area} agrees with the records on ${MINIMUM_AGREEMENT * 100} % of at least ${MINIMUM_COMPARED} compared positions (best: ${match.agreement.code}, ${match.agreement.agree} of ${match.agreement.compared}); the area keeps the second sources' facts`
      })
    }
  }
  const coveredAreas = new Set(matches.filter((match) => match.booklet !== null).map((match) => match.area))
  const kept = secondary.positions.filter((position) => !coveredAreas.has(position.area))
  return {
    year: secondary.year,
    areaOrder: secondary.areaOrder,
    booklets,
    positions: [...positions, ...kept].sort(comparePositions),
    disagreements: [...secondary.disagreements, ...disagreementsWith(positions, secondary.positions)],
    notes
  }
}

function readItems (sourcesDir: string, name: string, year: number): ItemsFile {
  const value = JSON.parse(readFileSync(path.join(sourcesDir, name), 'utf8')) as unknown
  if (!ITEMS_FILE.Check(value)) throw new Error(`${name}: not in the expected format`)
  if (value.year !== year) throw new Error(`${name}: holds year ${value.year}`)
  return value
}

/** What the import of a year found beyond its positions: the sources' disagreements and its notes. */
interface YearFindings {
  disagreements: OfficialDisagreement[]
  notes: OfficialNote[]
}

type YearItemData = { source: string, entries: ItemEntry[] } | null

type AreaOrder = NonNullable<OfficialYear['areaOrder']>

function buildYear (year: number, dayOne: Gabarito | null, dayTwo: Gabarito | null, items: YearItemData): OfficialYear {
  const findings: YearFindings = { disagreements: [], notes: [] }
  const areaOrder = yearAreaOrder(year, dayOne, dayTwo, findings)
  const positions = dayOne === null ? [] : dayOnePositions(dayOne, items, findings)
  const usableDayTwoAreas = dayTwo === null ? new Set<Area>(AREAS) : dayTwoUsableAreas(dayTwo, items, findings)
  if (items !== null) positions.push(...itemDataPositions(items, { areaOrder, usableDayTwoAreas, dayOneFromPdf: dayOne !== null }, findings))
  positions.sort((a, b) => a.index - b.index || (a.language ?? '').localeCompare(b.language ?? ''))
  return { year, areaOrder, booklets: [], positions, ...findings }
}

/** The area of each block of 45: from the PDFs' column headings where both days have one, else the years around. */
function yearAreaOrder (year: number, dayOne: Gabarito | null, dayTwo: Gabarito | null, { notes }: YearFindings): AreaOrder {
  let areaOrder: AreaOrder = { areas: [...areaOrderOfYear(year)], sources: [`ENEM area order of ${year <= 2009 ? '2009' : year <= 2016 ? '2010–2016' : '2017 on'} (no INEP answer key for ${year} in the sources)`] }
  if (dayOne !== null && dayTwo !== null) {
    const shown = [...dayOne.areas, ...dayTwo.areas]
    areaOrder = { areas: shown, sources: [dayOne.source, dayTwo.source] }
    if (shown.join() !== [...areaOrderOfYear(year)].join()) {
      notes.push({ sources: [dayOne.source, dayTwo.source], note: `the PDFs show the areas ${shown.join(', ')}, not the order of the years around (${[...areaOrderOfYear(year)].join(', ')})` })
    }
  }
  if (dayTwo?.secondApplication === true) {
    notes.push({ sources: [dayTwo.source], note: 'this PDF is the answer key of the second application (2ª APLICAÇÃO); only its area order is used' })
  }
  return areaOrder
}

/**
 * Day 1: the PDF is in the dataset's numbering; the item data must agree with it. Where it does
 * not, at any position, its day-1 numbering is not the booklet's, and none of its day-1 data is used.
 */
function dayOnePositions (dayOne: Gabarito, items: YearItemData, findings: YearFindings): OfficialPosition[] {
  const { disagreements, notes } = findings
  const itemsAt = (index: number) => items?.entries.filter((entry) => entry.number === index) ?? []
  let disputed = false
  const entries: Array<{ position: OfficialPosition, item: ItemEntry | undefined }> = []
  for (let index = 1; index <= 90; index++) {
    const row = dayOne.keys.get(index)
    if (row === undefined) throw new Error(`${dayOne.source}: no key for question ${index}`)
    if (row.length > 1 && row.length !== dayOne.languages.length) throw new Error(`${dayOne.source}: question ${index} has ${row.length} keys`)
    const variants = row.length === 1 ? [{ language: null as string | null, key: row[0]! }] : row.map((key, column) => ({ language: dayOne.languages[column]!, key }))
    for (const { language, key } of variants) {
      const area = dayOne.areas[index <= 45 ? 0 : 1]
      const item = itemsAt(index).find((entry) => (entry.language ?? null) === language) ??
        (language === null ? undefined : itemsAt(index).find((entry) => entry.language === undefined))
      const position = bareOfficialPosition(index, language, area, key, dayOne.source)
      if (items !== null && item === undefined) {
        notes.push({ sources: [dayOne.source, items.source], note: `question ${index}${language === null ? '' : ` ${language}`} is in the PDF, not in the item data` })
      }
      if (items !== null && item !== undefined) {
        const differing = compareFacts([['key', key, item.gabarito], ['area', area, item.area]])
        for (const [field, pdfValue, itemValue] of differing) {
          disagreements.push({ index, language, field, values: [{ source: dayOne.source, value: pdfValue }, { source: items.source, value: itemValue }] })
        }
        if (differing.length > 0) {
          disputed = true
          continue
        }
      }
      entries.push({ position, item })
    }
  }
  if (disputed && items !== null) {
    notes.push({
      sources: [dayOne.source, items.source],
      note: `the item data disagrees with the blue booklet's keys at ${disagreements.filter((d) => d.field === 'key').length} day-1 positions, so its day-1 numbering is not the booklet's: its item codes, skills and IRT are used for no day-1 position, and disputed positions get no entry`
    })
  }
  return entries.map(({ position, item }) => {
    if (item !== undefined && !disputed) withItemsFileData(position, item, items!.source)
    return position
  })
}

/**
 * Day 2: the item data is in the dataset's numbering; the yellow booklet's PDF can only confirm
 * counts per area. The areas whose counts agree (all, without item data) are usable.
 */
function dayTwoUsableAreas (dayTwo: Gabarito, items: YearItemData, { disagreements, notes }: YearFindings): Set<Area> {
  const usable = new Set<Area>(AREAS)
  for (const [column, area] of dayTwo.areas.entries()) {
    const first = column === 0 ? 91 : 136
    const pdfCounts = countKeys([...dayTwo.keys].filter(([number]) => number >= first && number < first + 45).flatMap(([, row]) => row))
    const annulledNumbers = [...dayTwo.keys].filter(([number, row]) => number >= first && number < first + 45 && row.includes('X')).map(([number]) => number)
    if (items === null) {
      if (annulledNumbers.length > 0) {
        notes.push({ sources: [dayTwo.source], note: `yellow-booklet question${annulledNumbers.length > 1 ? 's' : ''} ${annulledNumbers.join(', ')} (${area}) annulled; position in the dataset's numbering unknown, so no record is marked` })
      }
      continue
    }
    const itemCounts = countKeys(items.entries.filter((entry) => entry.number >= first && entry.number < first + 45).map((entry) => entry.gabarito))
    if (pdfCounts !== itemCounts) {
      usable.delete(area)
      disagreements.push({ index: first, language: null, field: `keyCounts ${area} ${first}–${first + 44}`, values: [{ source: dayTwo.source, value: pdfCounts }, { source: items.source, value: itemCounts }] })
    } else {
      notes.push({ sources: [dayTwo.source, items.source], note: `${area} (${first}–${first + 44}): the same number of keys of each letter in both (${pdfCounts})` })
    }
  }
  return usable
}

/** The positions the item data gives: day 2's usable areas, and day 1 too when no PDF gave it. */
function itemDataPositions (
  items: NonNullable<YearItemData>,
  { areaOrder, usableDayTwoAreas, dayOneFromPdf }: { areaOrder: AreaOrder, usableDayTwoAreas: ReadonlySet<Area>, dayOneFromPdf: boolean },
  { disagreements }: YearFindings
): OfficialPosition[] {
  const blockArea = (index: number) => areaOrder.areas[Math.floor((index - 1) / 45)]!
  const positions: OfficialPosition[] = []
  for (const entry of items.entries) {
    if (entry.number <= 90 && dayOneFromPdf) continue
    const area = entry.area
    if (entry.area !== blockArea(entry.number)) {
      disagreements.push({ index: entry.number, language: entry.language ?? null, field: 'area', values: [{ source: areaOrder.sources.join(', '), value: blockArea(entry.number) }, { source: items.source, value: entry.area }] })
      continue
    }
    if (!usableDayTwoAreas.has(area) && entry.number > 90) continue
    const position = bareOfficialPosition(entry.number, entry.language ?? null, area, entry.gabarito, items.source)
    withItemsFileData(position, entry, items.source)
    positions.push(position)
  }
  return positions
}

/** A position known by its key and area alone (one source for both); withItemsFileData adds the item's data. */
function bareOfficialPosition (index: number, language: string | null, area: Area, key: OfficialPosition['key'], source: string): OfficialPosition {
  return { index, language, area, key, item: null, skill: null, excludedFromScoring: null, irt: null, booklet: null, sources: { key: [source], area: [source], item: null } }
}

function withItemsFileData (position: OfficialPosition, item: ItemEntry, source: string): void {
  position.item = item.item
  position.skill = item.skill
  position.excludedFromScoring = item.abandoned
  position.irt = item.irt
  position.sources.item = source
  if (!position.sources.key.includes(source)) position.sources.key.push(source)
  if (!position.sources.area.includes(source)) position.sources.area.push(source)
}

function compareFacts (facts: Array<[string, string, string]>): Array<[string, string, string]> {
  return facts.filter(([, a, b]) => a !== b)
}

/** `A 9, B 10, C 8, D 9, E 9, X 0`: how many keys of each value. */
function countKeys (keys: readonly string[]): string {
  return ['A', 'B', 'C', 'D', 'E', 'X'].map((letter) => `${letter} ${keys.filter((key) => key === letter).length}`).join(', ')
}

/**
 * JSON laid out for review: top-level fields on their own lines, and each entry of a top-level
 * array on one line, so a changed fact is a one-line diff.
 */
export function formatTable (value: object): string {
  const fields = Object.entries(value).map(([name, field]) => {
    if (!Array.isArray(field)) return `  ${JSON.stringify(name)}: ${JSON.stringify(field)}`
    if (field.length === 0) return `  ${JSON.stringify(name)}: []`
    return `  ${JSON.stringify(name)}: [\n${field.map((entry) => `    ${JSON.stringify(entry)}`).join(',\n')}\n  ]`
  })
  return `{\n${fields.join(',\n')}\n}\n`
}
