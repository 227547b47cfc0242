import type * as mupdf from 'mupdf'
import { likeness, renderGlyphs, type GlyphShape } from './glyph-shapes.ts'
import type { Glyph, PageMarks, PdfBooklet } from './page-marks.ts'
import { standardReferences, standardSign, symbolGlyphs } from './standard-glyphs.ts'
import { brazilianWords, isWord, WordListUnavailable, wordShare, type WordList, type WordShare } from './word-list.ts'

/*
 * Fonts whose glyphs carry no usable text, decoded once, glyph by glyph, and their text then read
 * through that table (the glyph boxes kept, so lines, columns and figures work as for mapped text).
 * Two kinds are met: a font that maps some glyphs and leaves others unmapped (2021's ArialMT:
 * `/gNNN` glyph names, no ToUnicode entry; 2010's CID Arial: no mapping at all), and a font whose
 * mapping is wrong (codes shifted by a constant). Each distinct glyph is named, in this order:
 * 1. by its drawn shape: rendered alone, it draws the very same pixels as a mapped glyph of a
 *    font of the same outlines in the booklet (the same font's mapped copy, or the mapped Arial
 *    beside the unmapped one);
 * 2. by a constant shift between glyph id (or code) and character, the one that the glyphs named
 *    by shape agree on (2010: id + 29, the TrueType order of ASCII) or, with no such evidence,
 *    the one whose words the word list holds most;
 * 3. by the words it stands in: a glyph still unnamed (2010's ã, ç, õ, which no mapped font of
 *    that booklet prints) is the letter that makes the most of its words Portuguese;
 * 4. a sign rather than a letter (2018's • “ ” – — º ∆ Ω, which no mapped font of that booklet
 *    prints), by the standard font its font follows (STANDARD_FONTS: Arial has Helvetica's
 *    advances and design): the glyph of its advance it is most like, clearly more than any other;
 * 5. by OCR of its rendered shape, when a reader is given (`nameGlyphs`).
 * The whole decoding is then checked by the share of its words in the word list, and refused
 * below ACCEPTED_SHARE (its glyphs stay unmapped: line OCR, or a question left out).
 */

/** A decoding whose words the list holds less than this share of is refused. Portuguese prose reads 0.9 and more. */
export const ACCEPTED_SHARE = 0.8
/**
 * A font's own mapping whose words the list holds less than this share of may be wrong (a shift):
 * it is, when a shift of its codes reads ACCEPTED_SHARE. (An italic font's English words, a credit's
 * names, read about 0.2–0.6; shifted codes near 0.)
 */
const DOUBTFUL_SHARE = 0.5
/** Fewer words than this say nothing of a decoding: it is taken when shapes alone named its glyphs. */
const MIN_WORDS = 20
/** Shifts whose decoding is tried against the word list: those that make most printed glyphs letters. */
const SHIFTS_TRIED = 8
/** Two renders this alike are the same outline (a letter and its accented form reach about 0.92). */
const SAME_SHAPE = 0.97
/**
 * Two renders of the same advance this alike may be one letter drawn by two subsets or a stand-in
 * font: a letter a mapped glyph prints stays a guess for the unnamed glyph (the words then decide).
 */
const LOOKALIKE = 0.7
/** Advances that differ less than this (in ems) are the same glyph's. */
const SAME_ADVANCE = 0.01
/** A glyph named by its words needs this many of them found, and more than twice the next letter's. */
const MIN_WORD_EVIDENCE = 2
/** What OCR reads a glyph as, and the character it is when a mapped glyph already prints what OCR read. */
const OCR_TWINS: Readonly<Record<string, string>> = { ',': '’', '\'': '’', '|': 'I', '-': '–', '"': '”' }
/** Candidate shifts tried when no glyph is named by shape. */
const MAX_SHIFT = 256
/**
 * The standard fonts (PDF's fourteen, which MuPDF carries) whose design a booklet's font follows,
 * by its family: Arial's advances are Helvetica's, Times New Roman's Times's.
 */
const STANDARD_FONTS: ReadonlyArray<{ readonly family: RegExp, readonly name: (bold: boolean, italic: boolean) => string }> = [
  { family: /^(arial|helvetica)/u, name: (bold, italic) => `Helvetica${bold || italic ? '-' : ''}${bold ? 'Bold' : ''}${italic ? 'Oblique' : ''}` },
  { family: /^times/u, name: (bold, italic) => `Times-${bold ? 'Bold' : ''}${italic ? 'Italic' : ''}${bold || italic ? '' : 'Roman'}` }
]
/**
 * The signs a standard font's glyph may name: digits, punctuation, quotes, dashes, the bullet,
 * degrees, Greek letters and the operators of school mathematics. Latin letters are not among
 * them (their words name them, step 3), nor the Greek ones drawn as a Latin letter (Α, ο, ν, κ),
 * nor the spacing accents that look like a quote (¨ ´), nor the pieces a tall bracket is built
 * of (a formula's, cropped as a figure).
 */
const SIGNS = [
  ...'0123456789!#%&()*+,./:;<=>?@[]{}|~',
  ...'°ºª·×÷±¬§µ–—‘’“”•…′″',
  ...'ΓΔΘΛΞΠΣΦΨΩαβγδεζηθλμξπρστφψωϕϑ',
  ...'−≤≥≠≈≅≡∞∆∇∈∉∂∑∏√∝∠⊥∩∪⊂⊃∧∨⇒⇔→←↔↑↓⋅∗∅'
]

const SYMBOL_FONT = /symbol|math|mt[ -]?extra|euclid|cmsy|cmex|msam|msbm|wingding|dingbat|zapf|pi ?std|c39/iu
/** What a glyph of a text font is guessed as from its words: a letter of Portuguese prose, or a ligature. */
const LETTERS = [...'abcdefghijklmnopqrstuvwxyzáàâãéêíóôõúüçABCDEFGHIJKLMNOPQRSTUVWXYZÁÀÂÃÉÊÍÓÔÕÚÜÇ', 'fi', 'fl']

/** How one font was decoded. */
export interface FontDecoding {
  /** The font as the PDF names it. */
  readonly font: string
  /** Why it needed decoding: glyphs with no mapping, or a mapping whose words are not Portuguese. */
  readonly reason: 'unmapped' | 'wrong-mapping'
  /** Each glyph named, by id: its text and how it was named. */
  readonly glyphs: ReadonlyMap<number, { readonly text: string, readonly by: NamingMethod }>
  /** Distinct glyphs named by each method. */
  readonly named: Readonly<Record<NamingMethod, number>>
  /** The constant shift used, when one was. */
  readonly shift: number | null
  /** Distinct glyphs left unnamed, and how often they are printed. */
  readonly unnamed: { readonly glyphs: number, readonly printed: number }
  /** The decoded text's words against the word list. */
  readonly share: WordShare
  /** Guesses dropped (a shift, words, OCR), with the share that refused them: too low, or too few words to tell. */
  readonly guessesRefused: { readonly glyphs: number, readonly share: WordShare } | null
  /** Whether the table was used: checked by the word list, or named by shapes alone. */
  readonly accepted: boolean
}

export type NamingMethod = 'own' | 'shape' | 'standard' | 'shift' | 'words' | 'ocr'

/** Names glyphs from their rendered shapes (OCR); a name per glyph, null where it reads none. */
export type GlyphNamer = (glyphs: ReadonlyArray<{ readonly font: mupdf.Font, readonly gid: number }>) => Array<string | null>

export interface DecodeOptions {
  /** The check of every guess; without it (null) glyphs are named by their shapes alone. */
  readonly words: WordList | null
  readonly nameGlyphs?: GlyphNamer | null
}

/** A font's glyphs as printed, in the content's order, and what is known of each distinct one. */
interface FontUse {
  readonly name: string
  /** page index, glyph index on it */
  readonly printed: Array<readonly [number, number]>
  readonly distinct: Map<number, { own: string | null, count: number }>
}

/** Decodes the booklet's fonts that need it and gives the pages read through the tables. */
export function decodeFonts (pages: readonly PageMarks[], fonts: ReadonlyMap<string, mupdf.Font>, options: DecodeOptions): { pages: PageMarks[], decodings: FontDecoding[] } {
  const uses = fontUses(pages)
  const reasons = new Map<string, FontDecoding['reason']>()
  for (const use of uses.values()) {
    const reason = needsDecoding(use, pages, options.words)
    if (reason !== null) reasons.set(use.name, reason)
  }
  const decodings: FontDecoding[] = []
  const tables = new Map<string, Map<number, string | null>>()
  // A symbol font's unmapped glyphs are named by the Symbol font MuPDF carries (standard-glyphs.ts).
  for (const use of uses.values()) {
    const font = fonts.get(use.name)
    if (!SYMBOL_FONT.test(use.name) || font === undefined) continue
    const unmapped = [...use.distinct].filter(([, glyph]) => glyph.own === null).map(([gid]) => gid)
    const named = symbolGlyphs(font, unmapped)
    if (named.size === 0) continue
    tables.set(use.name, new Map(named))
    decodings.push(symbolDecoding(use, named))
  }
  if (reasons.size === 0) return { pages: tables.size === 0 ? [...pages] : pages.map((page) => readThrough(page, tables)), decodings }
  const references = new References(uses, reasons, fonts)
  for (const [name, reason] of reasons) {
    const font = fonts.get(name)
    if (font === undefined) continue
    const { table, decoding } = decodeFont(uses.get(name)!, reason, font, pages, references, options)
    decodings.push(decoding)
    if (decoding.accepted) tables.set(name, table)
  }
  if (tables.size === 0) return { pages: [...pages], decodings }
  return { pages: pages.map((page) => readThrough(page, tables)), decodings }
}

function fontUses (pages: readonly PageMarks[]): Map<string, FontUse> {
  const uses = new Map<string, FontUse>()
  pages.forEach((page, pageAt) => {
    page.glyphs.forEach((glyph, glyphAt) => {
      if (glyph.source === undefined) return
      let use = uses.get(glyph.source.font)
      if (use === undefined) {
        use = { name: glyph.source.font, printed: [], distinct: new Map() }
        uses.set(use.name, use)
      }
      use.printed.push([pageAt, glyphAt])
      const known = use.distinct.get(glyph.source.gid)
      if (known === undefined) use.distinct.set(glyph.source.gid, { own: glyph.mapped ? glyph.text : null, count: 1 })
      else known.count++
    })
  })
  return uses
}

/** How a symbol font's glyphs were named by the Symbol font (standard-glyphs.ts): unchecked by words, which formulas have none of. */
function symbolDecoding (use: FontUse, named: ReadonlyMap<number, string>): FontDecoding {
  const unnamed = [...use.distinct].filter(([gid, glyph]) => glyph.own === null && !named.has(gid))
  return {
    font: use.name,
    reason: 'unmapped',
    glyphs: new Map([...named].map(([gid, text]) => [gid, { text, by: 'standard' as const }])),
    named: { own: 0, shape: 0, standard: named.size, shift: 0, words: 0, ocr: 0 },
    shift: null,
    unnamed: { glyphs: unnamed.length, printed: unnamed.reduce((sum, [, glyph]) => sum + glyph.count, 0) },
    share: { words: 0, found: 0, share: 0 },
    guessesRefused: null,
    accepted: true
  }
}

/** A symbol font's unmapped glyphs are named apart (symbolDecoding); a text font's need decoding. */
function needsDecoding (use: FontUse, pages: readonly PageMarks[], words: WordList | null): FontDecoding['reason'] | null {
  if (SYMBOL_FONT.test(use.name)) return null
  const unmapped = [...use.distinct.values()].filter((glyph) => glyph.own === null).reduce((sum, glyph) => sum + glyph.count, 0)
  if (unmapped >= 3) return 'unmapped'
  if (words === null) return null
  const own = new Map([...use.distinct].map(([gid, glyph]) => [gid, glyph.own]))
  const runs = fontWords(use, pages)
  const share = wordShare(words, decodedWords(runs, own))
  if (share.words < MIN_WORDS || share.share >= DOUBTFUL_SHARE) return null
  const codes = ownCodes(use)
  const shift = bestShift(new Map([...use.distinct.keys()].map((gid) => [gid, null])), codes, runs, words)
  if (shift === null) return null
  return wordShare(words, decodedWords(runs, shifted(use, codes, shift))).share >= ACCEPTED_SHARE ? 'wrong-mapping' : null
}

/** Each glyph's own code (the code point its font maps it to), where it has one. */
function ownCodes (use: FontUse): Map<number, number> {
  const codes = new Map<number, number>()
  for (const [gid, glyph] of use.distinct) if (glyph.own !== null && [...glyph.own].length === 1) codes.set(gid, glyph.own.codePointAt(0)!)
  return codes
}

function shifted (use: FontUse, codes: ReadonlyMap<number, number>, shift: number): Map<number, string | null> {
  return new Map([...use.distinct.keys()].map((gid) => [gid, shiftedCharacter(codes.get(gid), shift)]))
}

/** A code shifted, when that gives a printable ASCII character (the range a shift is seen to hold in). */
function shiftedCharacter (code: number | undefined, shift: number): string | null {
  if (code === undefined) return null
  const character = code + shift
  return character >= 0x21 && character <= 0x7e ? String.fromCharCode(character) : null
}

/**
 * A font's words as printed: runs of its glyphs on one baseline with no gap between them, each a
 * list of glyph ids. Spaces are glyphs too (a word breaks where one decodes to a space).
 */
function fontWords (use: FontUse, pages: readonly PageMarks[]): number[][] {
  const words: number[][] = []
  let word: number[] = []
  let previous: Glyph | null = null
  for (const [pageAt, glyphAt] of use.printed) {
    const glyph = pages[pageAt]!.glyphs[glyphAt]!
    // A space set over the glyph before it (2021, inside its "fl" ligature) parts no words (text-lines.ts).
    if (previous !== null && glyph.mapped && glyph.text === ' ' && glyph.box.x0 < previous.box.x1 - 0.15 * glyph.size) continue
    const apart = previous === null || Math.abs(glyph.baseline - previous.baseline) > 0.2 * glyph.size ||
      glyph.box.x0 < previous.box.x0 || glyph.box.x0 - previous.box.x1 > 0.15 * glyph.size
    if (apart && word.length > 0) {
      words.push(word)
      word = []
    }
    word.push(glyph.source!.gid)
    previous = glyph
  }
  if (word.length > 0) words.push(word)
  return words
}

/** The words of glyph-id runs read through a table; a word with an unnamed glyph is left out. */
function decodedWords (runs: readonly number[][], table: ReadonlyMap<number, string | null>): string[] {
  const words: string[] = []
  for (const run of runs) {
    for (const word of wordRuns(run, table)) {
      let text = ''
      for (const gid of word) {
        const named = table.get(gid)
        if (named == null) {
          text = ''
          break
        }
        text += named
      }
      if (text !== '') words.push(text)
    }
  }
  return words
}

/** A run cut into words: at every glyph the table names as no letter (a space, punctuation). */
function wordRuns (run: readonly number[], table: ReadonlyMap<number, string | null>): number[][] {
  const words: number[][] = []
  let word: number[] = []
  for (const gid of run) {
    const named = table.get(gid)
    if (named != null && !/^[\p{L}'’-]+$/u.test(named)) {
      if (word.length > 0) words.push(word)
      word = []
    } else {
      word.push(gid)
    }
  }
  if (word.length > 0) words.push(word)
  return words
}

/** A font family's key: `ArialMT`, `Arial-BoldMT`, `ArialMT,Bold` are all `arial`. */
function family (name: string): string {
  return name.replace(/^[A-Z]{6}\+/u, '').split(/[-,]/u)[0]!.toLowerCase().replace(/(ps)?mt$/u, '')
}

/** A mapped glyph, rendered: what it prints, its shape, its font's style. */
interface Reference {
  readonly text: string
  readonly shape: GlyphShape
  readonly style: string
}

/** A font's style from its name: `bold italic`, `bold`, `italic` or `` (Arial-BoldItalicMT, ArialMT,Bold, TimesNewRomanPS-ItalicMT). */
function style (name: string): string {
  return [/bold|black|heavy/iu.test(name) ? 'bold' : '', /italic|oblique/iu.test(name) ? 'italic' : ''].filter((part) => part !== '').join(' ')
}

/** Mapped glyphs of the booklet's sound fonts, rendered when first asked for, by family. */
class References {
  private readonly byFamily = new Map<string, Reference[]>()
  constructor (
    private readonly uses: ReadonlyMap<string, FontUse>,
    private readonly reasons: ReadonlyMap<string, FontDecoding['reason']>,
    private readonly fonts: ReadonlyMap<string, mupdf.Font>
  ) {}

  /** The mapped glyphs of `of`'s family (its own mapped glyphs too, unless its mapping is wrong). */
  of (name: string): Reference[] {
    const key = family(name)
    let found = this.byFamily.get(key)
    if (found === undefined) {
      const wanted: Array<{ font: mupdf.Font, gid: number, text: string, style: string }> = []
      for (const use of this.uses.values()) {
        const font = this.fonts.get(use.name)
        if (font === undefined || family(use.name) !== key || this.reasons.get(use.name) === 'wrong-mapping') continue
        for (const [gid, glyph] of use.distinct) if (glyph.own !== null && glyph.own.trim() !== '') wanted.push({ font, gid, text: glyph.own, style: style(use.name) })
      }
      const shapes = renderGlyphs(wanted)
      found = wanted.map((glyph, at) => ({ text: glyph.text, shape: shapes[at]!, style: glyph.style }))
      this.byFamily.set(key, found)
    }
    return found
  }
}

function decodeFont (use: FontUse, reason: FontDecoding['reason'], font: mupdf.Font, pages: readonly PageMarks[], references: References, options: DecodeOptions): { table: Map<number, string | null>, decoding: FontDecoding } {
  const by = new Map<number, NamingMethod>()
  const table = new Map<number, string | null>()
  const unknown: number[] = []
  for (const [gid, glyph] of use.distinct) {
    if (reason === 'unmapped' && glyph.own !== null) {
      table.set(gid, glyph.own)
      by.set(gid, 'own')
    } else {
      table.set(gid, null)
      unknown.push(gid)
    }
  }

  // 1. By shape.
  const shapes = new Map(renderGlyphs(unknown.map((gid) => ({ font, gid }))).map((shape, at) => [unknown[at]!, shape]))
  const mapped = references.of(use.name)
  for (const gid of unknown) {
    const shape = shapes.get(gid)!
    if (shape.weight === 0) {
      // A glyph that draws nothing but moves the pen is a space.
      if (shape.advance > 0.1) {
        table.set(gid, ' ')
        by.set(gid, 'shape')
      }
      continue
    }
    const same = mapped.find((reference) => Math.abs(reference.shape.advance - shape.advance) < SAME_ADVANCE && likeness(reference.shape, shape) >= SAME_SHAPE)
    if (same !== undefined) {
      table.set(gid, same.text)
      by.set(gid, 'shape')
    }
  }
  // 4. A sign no mapped glyph draws, by the standard font its font follows: once the letters are
  // named (a Latin letter is no Greek one of its shape), or at once where no words name letters.
  const bySign = (): void => {
    const signs = standardSigns(use.name)
    for (const gid of unknown) {
      const shape = shapes.get(gid)!
      if (table.get(gid) !== null || shape.weight === 0 || signs.length === 0) continue
      const sign = standardSign(shape, signs)
      if (sign !== null) {
        table.set(gid, sign)
        by.set(gid, 'standard')
      }
    }
  }

  // Guesses need the word list to check them by.
  const runs = fontWords(use, pages)
  const words = options.words
  if (words === null) {
    bySign()
    return { table, decoding: describe(use, reason, table, by, null, { words: 0, found: 0, share: 0 }, null, named(by).own + named(by).shape + named(by).standard > 0) }
  }

  // 2. By a constant shift.
  // A wrong mapping is shifted from its codes; glyphs with none, from their ids (2010: the TrueType order).
  const codes = reason === 'wrong-mapping' ? ownCodes(use) : new Map(unknown.map((gid) => [gid, gid]))
  const shift = bestShift(table, codes, runs, words)
  if (shift !== null) {
    for (const gid of unknown) {
      if (table.get(gid) !== null) continue
      const character = shiftedCharacter(codes.get(gid), shift)
      if (character !== null) {
        table.set(gid, character)
        by.set(gid, 'shift')
      }
    }
  }

  // 3. By the words a glyph stands in.
  // A text that a mapped glyph of the same family and style prints is no unnamed glyph's: that glyph
  // would have been named by its shape (2021's "fl" ligature is no "l" of "luxo", a Greek Δ no D).
  // Unless the mapped glyph has its advance and nearly its shape: the same letter drawn by another
  // subset's hinting or by the viewer's stand-in for a font not embedded (2018's ArialMT prints é, ã
  // mapped, 0.77–0.94 alike to its unmapped subset's, below SAME_SHAPE).
  const sameStyle = mapped.filter((reference) => reference.style === style(use.name))
  const printedOtherwise = new Set(sameStyle.map((reference) => reference.text))
  const unlike = (gid: number): ReadonlySet<string> => {
    const shape = shapes.get(gid)
    if (shape === undefined) return printedOtherwise
    const alike = new Set(sameStyle.filter((reference) => Math.abs(reference.shape.advance - shape.advance) < SAME_ADVANCE && likeness(reference.shape, shape) >= LOOKALIKE).map((reference) => reference.text))
    return new Set([...printedOtherwise].filter((text) => !alike.has(text)))
  }
  for (const gid of nameByWords(table, runs, words, unlike)) by.set(gid, 'words')
  bySign()

  // 5. By OCR of its shape.
  const left = [...table].filter(([, text]) => text === null).map(([gid]) => gid)
  if (options.nameGlyphs != null && left.length > 0) {
    const read = options.nameGlyphs(left.map((gid) => ({ font, gid })))
    left.forEach((gid, at) => {
      const reading = read[at]
      // A name a mapped glyph prints otherwise may be OCR's reading of its typographic twin: a raised comma
      // is an apostrophe (2021's d’água), a bar a capital I (2025's cover).
      const twin = reading == null ? undefined : OCR_TWINS[reading]
      const excluded = unlike(gid)
      const text = reading != null && excluded.has(reading) && twin !== undefined && !excluded.has(twin) ? twin : reading
      if (text != null && text !== '' && !excluded.has(text)) {
        table.set(gid, text)
        by.set(gid, 'ocr')
      }
    })
  }

  // The check: a shape drawn the same as a mapped glyph's is that glyph, proof enough; guesses are
  // kept only when the decoding's words are Portuguese, and there are enough of them to tell.
  let share = wordShare(words, decodedWords(runs, table))
  const checked = share.words >= MIN_WORDS && share.share >= ACCEPTED_SHARE
  const guessed = [...by].filter(([, method]) => method !== 'own' && method !== 'shape' && method !== 'standard').map(([gid]) => gid)
  const refused = checked ? null : { glyphs: guessed.length, share }
  if (!checked && guessed.length > 0) {
    for (const gid of guessed) {
      table.set(gid, null)
      by.delete(gid)
    }
    share = wordShare(words, decodedWords(runs, table))
  }
  const counts = named(by)
  return { table, decoding: describe(use, reason, table, by, counts.shift > 0 ? shift : null, share, refused !== null && refused.glyphs > 0 ? refused : null, checked || counts.own + counts.shape + counts.standard > 0) }
}

/** The standard font (MuPDF's name of it) whose design a font follows, or null. */
function standardFont (name: string): string | null {
  const key = family(name)
  const found = STANDARD_FONTS.find((standard) => standard.family.test(key))
  return found === undefined ? null : found.name(/bold|black|heavy/iu.test(name), /italic|oblique/iu.test(name))
}

/** Latin letters, accented or not: what a glyph most like one of them is not named as a sign (Õ is no Θ). */
const LATIN_LETTERS = [...Array.from({ length: 0x17f - 0x41 + 1 }, (_, at) => String.fromCodePoint(0x41 + at)).filter((text) => /\p{Script=Latin}/u.test(text) && !SIGNS.includes(text))]

/** The signs and Latin letters of the standard font a font follows (none when it follows none). */
function standardSigns (name: string): ReturnType<typeof standardReferences> {
  const standard = standardFont(name)
  return standard === null ? [] : standardReferences(standard, [...SIGNS.map((text) => ({ text, sign: true })), ...LATIN_LETTERS.map((text) => ({ text, sign: false }))])
}

function named (by: ReadonlyMap<number, NamingMethod>): Record<NamingMethod, number> {
  const counts: Record<NamingMethod, number> = { own: 0, shape: 0, standard: 0, shift: 0, words: 0, ocr: 0 }
  for (const method of by.values()) counts[method]++
  return counts
}

function describe (use: FontUse, reason: FontDecoding['reason'], table: ReadonlyMap<number, string | null>, by: ReadonlyMap<number, NamingMethod>, shift: number | null,
  share: WordShare, guessesRefused: FontDecoding['guessesRefused'], accepted: boolean): FontDecoding {
  const unnamed = [...table].filter(([, text]) => text === null)
  return {
    font: use.name,
    reason,
    glyphs: new Map([...by].map(([gid, method]) => [gid, { text: table.get(gid)!, by: method }])),
    named: named(by),
    shift,
    unnamed: { glyphs: unnamed.length, printed: unnamed.reduce((sum, [gid]) => sum + use.distinct.get(gid)!.count, 0) },
    share,
    guessesRefused,
    accepted
  }
}

/**
 * The shift from code to character that the glyphs already named agree on (at least five, four in
 * five of them), or, with fewer named, the shift whose decoding the word list holds most of (among
 * the SHIFTS_TRIED that make most printed glyphs letters).
 */
function bestShift (table: ReadonlyMap<number, string | null>, codes: ReadonlyMap<number, number>, runs: readonly number[][], words: WordList): number | null {
  const votes = new Map<number, number>()
  let evidence = 0
  for (const [gid, code] of codes) {
    const text = table.get(gid)
    if (text == null || text.length !== 1 || text === ' ') continue
    const character = text.charCodeAt(0)
    if (character < 0x21 || character > 0x7e) continue
    evidence++
    votes.set(character - code, (votes.get(character - code) ?? 0) + 1)
  }
  const open = [...codes].filter(([gid]) => table.get(gid) === null)
  if (open.length === 0) return null
  if (evidence >= 5) {
    const [shift, count] = [...votes].sort((a, b) => b[1] - a[1])[0]!
    return count >= 0.8 * evidence ? shift : null
  }
  const printed = new Map<number, number>()
  for (const run of runs) for (const gid of run) printed.set(gid, (printed.get(gid) ?? 0) + 1)
  const letterish = new Map<number, number>()
  for (let shift = -MAX_SHIFT; shift <= MAX_SHIFT; shift++) {
    let count = 0
    for (const [gid, code] of open) if (/^[A-Za-z]$/u.test(shiftedCharacter(code, shift) ?? '')) count += printed.get(gid) ?? 0
    if (count > 0) letterish.set(shift, count)
  }
  const sample = runs.slice(0, 4000)
  let best: { shift: number, found: number } | null = null
  for (const [shift] of [...letterish].sort((a, b) => b[1] - a[1]).slice(0, SHIFTS_TRIED)) {
    const trial = new Map(table)
    for (const [gid, code] of open) trial.set(gid, shiftedCharacter(code, shift))
    const found = wordShare(words, decodedWords(sample, trial)).found
    if (best === null || found > best.found) best = { shift, found }
  }
  return best !== null && best.found >= MIN_WORDS ? best.shift : null
}

/**
 * Names glyphs still unnamed by the letter that makes most of their words Portuguese: each round
 * takes the words with one unnamed glyph, tries every letter in its place, and keeps a letter
 * with enough words that only it makes Portuguese and more than twice the next's (or, with none,
 * counting a word several letters fit as a share to each). Gives the glyphs it named.
 */
function nameByWords (table: Map<number, string | null>, runs: readonly number[][], words: WordList, unlike: (gid: number) => ReadonlySet<string>): number[] {
  const lettersOf = new Map<number, string[]>()
  const lettersFor = (gid: number): string[] => {
    let letters = lettersOf.get(gid)
    if (letters === undefined) {
      const excluded = unlike(gid)
      letters = LETTERS.filter((letter) => !excluded.has(letter))
      lettersOf.set(gid, letters)
    }
    return letters
  }
  const named: number[] = []
  for (let round = 0; round < 3; round++) {
    /** Per glyph and letter: the words only that letter makes Portuguese, and a share of those several do. */
    const tried = new Map<number, Map<string, { only: number, shared: number }>>()
    for (const word of runs.flatMap((run) => wordRuns(run, table))) {
      const open = new Set(word.filter((gid) => table.get(gid) === null))
      if (open.size !== 1 || word.length < 2) continue
      const [gid] = open as unknown as [number]
      const counts = tried.get(gid) ?? new Map<string, { only: number, shared: number }>()
      tried.set(gid, counts)
      // A word that only one letter makes Portuguese ("re□ete") is evidence; one that several do ("□ores":
      // flores, cores, pores) weighs only where no letter has such words, shared among them.
      const fitting = lettersFor(gid).filter((letter) => {
        const text = word.map((at) => at === gid ? letter : table.get(at)!).join('')
        return isCased(text) && isWord(words, text)
      })
      for (const letter of fitting) {
        const count = counts.get(letter) ?? { only: 0, shared: 0 }
        counts.set(letter, fitting.length === 1 ? { ...count, only: count.only + 1 } : { ...count, shared: count.shared + 1 / fitting.length })
      }
    }
    let progress = false
    for (const [gid, counts] of tried) {
      const best = clearWinner([...counts].map(([letter, count]) => [letter, count.only] as const)) ??
        clearWinner([...counts].map(([letter, count]) => [letter, count.only + count.shared] as const))
      if (best === null) continue
      table.set(gid, best)
      named.push(gid)
      progress = true
    }
    if (!progress) break
  }
  return named
}

/** The letter with MIN_WORD_EVIDENCE or more, more than twice any other's; null when none stands out. */
function clearWinner (scores: ReadonlyArray<readonly [string, number]>): string | null {
  const [first, second] = [...scores].sort((a, b) => b[1] - a[1])
  if (first === undefined || first[1] < MIN_WORD_EVIDENCE || (second !== undefined && first[1] <= 2 * second[1])) return null
  return first[0]
}

/** Whether a word is cased as prose sets words: all small letters, all capitals, or a capital then small letters. */
function isCased (word: string): boolean {
  const letters = word.replace(/[^\p{L}]/gu, '')
  return letters === letters.toLowerCase() || letters === letters.toUpperCase() || letters.slice(1) === letters.slice(1).toLowerCase()
}

/** A page with every glyph of a decoded font given its table's text. */
function readThrough (page: PageMarks, tables: ReadonlyMap<string, ReadonlyMap<number, string | null>>): PageMarks {
  let changed = false
  const glyphs = page.glyphs.map((glyph) => {
    const table = glyph.source === undefined ? undefined : tables.get(glyph.source.font)
    if (table === undefined) return glyph
    const text = table.get(glyph.source!.gid)
    if (text === undefined) return glyph
    changed = true
    return text === null ? { ...glyph, text: '', mapped: false } : { ...glyph, text, mapped: true }
  })
  return changed ? { ...page, glyphs } : page
}

/** How a booklet's fonts are decoded: the word list (Debian's, by default) and OCR of glyphs (none by default). */
export interface BookletDecodeOptions {
  /** The check of every guess; by default Debian's list (word-list.ts), without which shapes alone name glyphs. */
  readonly words?: WordList
  readonly nameGlyphs?: GlyphNamer | null
}

/**
 * Every page's marks, each font that needs it decoded (decodeFonts), and how each was. Without the
 * word list, glyphs are named by their shapes alone, and `warning` says so in one line (as a
 * conversion without Tesseract says what it left unread).
 */
export function decodedMarks (pdf: PdfBooklet, options: BookletDecodeOptions = {}): { marks: PageMarks[], decodings: FontDecoding[], warning: string | null } {
  const printed = Array.from({ length: pdf.pages }, (_, at) => pdf.marks(at + 1))
  let words: WordList | null = options.words ?? null
  let missing: string | null = null
  if (words === null) {
    try {
      words = brazilianWords()
    } catch (error) {
      if (!(error instanceof WordListUnavailable)) throw error
      missing = error.message
    }
  }
  const { pages, decodings } = decodeFonts(printed, pdf.fonts(), { words, nameGlyphs: options.nameGlyphs ?? null })
  const warning = missing === null || decodings.length === 0 ? null : `${missing}: ${decodings.length} font${decodings.length === 1 ? '' : 's'} without a text mapping read by glyph shapes alone, other glyphs left unread`
  return { marks: pages, decodings, warning }
}
