import { LANGUAGE_POSITIONS } from '../official/exam-layout.ts'
import { areaForm, scoreArea, type AreaForm, type AreaScore, type ItemFacts, type LeftOut } from './area-scoring.ts'
import { skillCode } from '../skills/skill-code.ts'
import { committedBooklets, type ScoringBooklet, type ScoringItem } from './booklet-table.ts'

/*
 * The score of an answer sheet: one area of one INEP booklet (`CO_PROVA`), its letters in that
 * booklet's order, as a candidate or INEP's microdata have it. The booklets come from the table
 * the import writes (src/data/scores/booklet-table.ts). A linguagens sheet from 2010 on may also
 * come in the microdata's 50-character form: the English five, the Spanish five, the forty common
 * items; only the chosen language's five count, the other five are left out as not taken.
 */

export interface SheetRequest {
  readonly year: number
  readonly booklet: number
  readonly answers: string
  readonly language?: string | undefined
}

/** A sheet's score: its booklet and the area's score (null when the sheet is wholly blank). */
export interface SheetScore {
  readonly booklet: { readonly code: number, readonly area: ScoringBooklet['area'], readonly colour: string }
  readonly area: AreaScore | null
}

/** Why a sheet cannot be scored: the request field at fault and a message naming its value. */
export interface SheetProblem {
  readonly field: 'year' | 'booklet' | 'language' | 'answers'
  readonly message: string
}

const LANGUAGES = ['ingles', 'espanhol'] as const

export class SheetScorer {
  readonly #booklets: ReadonlyMap<number, ReadonlyMap<number, ScoringBooklet>>
  /** Forms worked out so far, by year, booklet, language and sheet length. */
  readonly #forms = new Map<string, AreaForm>()

  constructor (booklets: ReadonlyMap<number, ReadonlyMap<number, ScoringBooklet>> = committedBooklets()) {
    this.#booklets = booklets
  }

  /** The years with item data, ascending. */
  get years (): number[] {
    return [...this.#booklets.keys()].sort((a, b) => a - b)
  }

  /** A booklet of a year, or undefined. */
  booklet (year: number, code: number): ScoringBooklet | undefined {
    return this.#booklets.get(year)?.get(code)
  }

  score (request: SheetRequest): SheetScore | SheetProblem {
    const { year, answers } = request
    const booklets = this.#booklets.get(year)
    if (booklets === undefined) return { field: 'year', message: `year ${year} has no item data; years with item data: ${this.years.join(', ')}` }
    const booklet = booklets.get(request.booklet)
    if (booklet === undefined) return { field: 'booklet', message: `booklet ${request.booklet} is not a booklet of ${year}; its booklets: ${codeRanges(booklets.keys())}` }
    if (booklet.unordered !== null) return { field: 'booklet', message: `booklet ${booklet.code} of ${year} cannot be scored: INEP's item file does not give its order (${booklet.unordered})` }
    const languages = LANGUAGES.filter((language) => booklet.slots.some((slot) => 'ingles' in slot && slot[language] !== null))
    let language: typeof LANGUAGES[number] | null = null
    if (languages.length > 0) {
      const asked = LANGUAGES.find((known) => known === request.language)
      if (request.language === undefined) return { field: 'language', message: `language is required for linguagens booklet ${booklet.code}; it has ${languages.join(', ')}` }
      if (asked === undefined || !languages.includes(asked)) return { field: 'language', message: `language ${JSON.stringify(request.language)} is not one booklet ${booklet.code} has items for; it has ${languages.join(', ')}` }
      language = asked
    }
    const lengths = languages.length > 0 ? [booklet.slots.length, booklet.slots.length + LANGUAGE_POSITIONS] : [booklet.slots.length]
    // Characters are code points: an emoji is one blank, not two UTF-16 units of the count.
    const characters = codePointCount(answers)
    if (!lengths.includes(characters)) {
      return { field: 'answers', message: `answers must be ${lengths.join(' or ')} characters for booklet ${booklet.code}, got ${characters}` }
    }
    const marks = characters === answers.length ? answers : Array.from(answers)
    const form = this.#form(booklet, language, characters)
    return {
      booklet: { code: booklet.code, area: booklet.area, colour: booklet.colour },
      area: scoreArea(form, (index) => marks[index - 1])
    }
  }

  /** The booklet's form for a language and a sheet length; `index` is a position on the sheet, from 1. */
  #form (booklet: ScoringBooklet, language: typeof LANGUAGES[number] | null, length: number): AreaForm {
    const key = `${booklet.year}|${booklet.code}|${language}|${length}`
    let form = this.#forms.get(key)
    if (form !== undefined) return form
    const wide = length > booklet.slots.length
    const positions: Array<{ index: number, facts: ItemFacts } | LeftOut> = []
    booklet.slots.forEach((slot, at) => {
      if ('common' in slot) {
        positions.push({ index: at + 1 + (wide ? LANGUAGE_POSITIONS : 0), facts: factsOf(booklet, slot.common) })
        return
      }
      const item = language === null ? null : slot[language]
      const index = wide && language === 'espanhol' ? at + 1 + LANGUAGE_POSITIONS : at + 1
      positions.push(item === null ? { index, reason: 'no-parameters' } : { index, facts: factsOf(booklet, item) })
      if (wide) positions.push({ index: language === 'espanhol' ? at + 1 : at + 1 + LANGUAGE_POSITIONS, reason: 'not-taken-language' })
    })
    form = areaForm(booklet.area, positions)
    this.#forms.set(key, form)
    return form
  }
}

/** How many code points a string holds: its UTF-16 units, less the second unit of each surrogate pair. */
function codePointCount (text: string): number {
  let count = text.length
  for (let at = 0; at < text.length - 1; at++) {
    const unit = text.charCodeAt(at)
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(at + 1)
      if (next >= 0xdc00 && next <= 0xdfff) {
        count--
        at++
      }
    }
  }
  return count
}

/** An item of a booklet: its skill is a habilidade of the booklet's area. */
function factsOf (booklet: ScoringBooklet, item: ScoringItem): ItemFacts {
  return { item: item.item, key: item.key, excluded: item.abandoned, irt: item.irt, skill: item.skill === null ? null : skillCode(booklet.area, item.skill) }
}

export function isSheetProblem (value: SheetScore | SheetProblem): value is SheetProblem {
  return 'field' in value
}

/**
 * Codes as runs of consecutive numbers, ascending: a year has up to 132 booklets, mostly in runs.
 * @example codeRanges([1193, 1191, 1192, 1240]) === '1191-1193, 1240'
 */
function codeRanges (codes: Iterable<number>): string {
  const runs: Array<[number, number]> = []
  for (const code of [...codes].sort((a, b) => a - b)) {
    const last = runs.at(-1)
    if (last !== undefined && code === last[1] + 1) last[1] = code
    else runs.push([code, code])
  }
  return runs.map(([first, last]) => (first === last ? String(first) : `${first}-${last}`)).join(', ')
}
