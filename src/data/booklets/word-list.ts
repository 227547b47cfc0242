import { readFileSync } from 'node:fs'

/*
 * The check of every reading that is not the PDF's own text (a font decoded glyph by glyph, a line
 * read by OCR): the share of its words that are Portuguese words. The list is Debian's `wbrazilian`
 * (/usr/share/dict/brazilian, 275,000 words, inflections included; docs/data.md says why). Only a
 * conversion of booklets needs it, never the server.
 */

export const BRAZILIAN_WORDS = '/usr/share/dict/brazilian'

/** The error a conversion gives when the list is missing: one line, saying what to install. */
export class WordListUnavailable extends Error {}

/** A set of words, compared without case. */
export interface WordList {
  has (word: string): boolean
}

/** How many of a text's words a list holds. */
export interface WordShare {
  readonly words: number
  readonly found: number
  /** found / words; 0 for a text without words. */
  readonly share: number
}

/** A word: a run of letters, with the apostrophe or hyphen inside it (d'água, guarda-chuva). */
const WORD = /\p{L}+(?:['’-]\p{L}+)*/gu

/** The list of a file of one word a line. */
export function wordListOf (lines: string): WordList {
  const words = new Set<string>()
  for (const line of lines.split('\n')) {
    const word = line.trim()
    if (word !== '') words.add(word.toLowerCase())
  }
  return { has: (word) => words.has(word.toLowerCase()) }
}

let loaded: WordList | null = null

/** Debian's Brazilian Portuguese list, read once. Throws WordListUnavailable when it is not installed. */
export function brazilianWords (file = BRAZILIAN_WORDS): WordList {
  if (file === BRAZILIAN_WORDS && loaded !== null) return loaded
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch {
    throw new WordListUnavailable(`no Portuguese word list at ${file} (Debian package wbrazilian)`)
  }
  const list = wordListOf(text)
  if (file === BRAZILIAN_WORDS) loaded = list
  return list
}

/** The words of a text, as WORD finds them. */
export function wordsOf (text: string): string[] {
  return text.match(WORD) ?? []
}

/**
 * Whether the list holds a word: as it is, or each part of a hyphenated word (guarda-chuva,
 * fazê-lo), or without an elided article (d'água).
 */
export function isWord (list: WordList, word: string): boolean {
  if (list.has(word)) return true
  const parts = word.split(/['’-]/u).filter((part) => part.length > 1)
  return parts.length > 1 && parts.every((part) => list.has(part))
}

/** The share of a text's words (those of two letters or more: a lone letter is an item's label) that the list holds. */
export function wordShare (list: WordList, text: string | readonly string[]): WordShare {
  const words = (typeof text === 'string' ? wordsOf(text) : text.flatMap(wordsOf)).filter((word) => word.length > 1)
  const found = words.filter((word) => isWord(list, word)).length
  return { words: words.length, found, share: words.length === 0 ? 0 : found / words.length }
}

/** Debian's list where it is installed, else null (a conversion then checks nothing by it, and says so where it matters). */
export function brazilianWordsIfInstalled (): WordList | null {
  try {
    return brazilianWords()
  } catch (error) {
    if (error instanceof WordListUnavailable) return null
    throw error
  }
}
