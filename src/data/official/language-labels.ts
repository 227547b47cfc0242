import { MARKDOWN_IMAGE, type DatasetQuestion } from '../record-schemas.ts'
import type { OfficialPosition } from './official-table.ts'

/*
 * The contract's language-label rule ("Official item data for every exam", "Language labels"): a
 * record without a language at a position where INEP's item data lists both foreign languages is
 * one of the two. Which one: the language its sibling record at that index does not have; with no
 * sibling, the language whose INEP key alone equals the record's key; else the language its text
 * is plainly in. A language a sibling already has is never given.
 */

export type LanguageReason = 'sibling' | 'key' | 'text'

/** The language a null-language record gets, and which rule decided it; null when it gets none. */
export interface LanguageLabel {
  language: string
  reason: LanguageReason
}

/**
 * `record`: a record with `language: null`; `siblings`: the languages of the other records at its
 * index; `entries`: the official table's entries at its position.
 */
export function languageLabelFor (record: DatasetQuestion, siblings: readonly (string | null)[], entries: readonly OfficialPosition[]): LanguageLabel | null {
  if (record.language !== null) return null
  const listed = [...new Set(entries.map((entry) => entry.language).filter((language) => language !== null))]
  if (listed.length < 2) return null
  const taken = new Set(siblings.filter((language) => language !== null))
  const open = listed.filter((language) => !taken.has(language))
  if (taken.size > 0) return open.length === 1 ? { language: open[0]!, reason: 'sibling' } : null
  const byKey = entries.filter((entry) => entry.language !== null && entry.key === record.correctAlternative)
  if (byKey.length === 1) return { language: byKey[0]!.language!, reason: 'key' }
  const written = textLanguage(record)
  return written !== null && open.includes(written) ? { language: written, reason: 'text' } : null
}

/*
 * Words frequent in one of the two languages and absent from the other and from Portuguese (the
 * language of the rest of a question): enough to tell an English text from a Spanish one.
 */
const ENGLISH = new Set(['the', 'and', 'of', 'to', 'is', 'in', 'that', 'it', 'with', 'you', 'are', 'this', 'was', 'for', 'on', 'be', 'have', 'he', 'she', 'they', 'we', 'not', 'by', 'at', 'from', 'or', 'an', 'which', 'their', 'has', 'will', 'can', 'but', 'all', 'been', 'more', 'what', 'there', 'about', 'when', 'who', 'would', 'your', 'our', 'its', 'were', 'my'])
const SPANISH = new Set(['el', 'los', 'las', 'y', 'del', 'con', 'su', 'sus', 'es', 'muy', 'pero', 'lo', 'al', 'una', 'unos', 'unas', 'está', 'están', 'son', 'también', 'hay', 'como', 'ese', 'esa', 'este', 'esta', 'eso', 'yo', 'tú', 'usted', 'ellos', 'nos', 'fue', 'había', 'puede', 'cuando', 'donde', 'porque', 'sin', 'sobre', 'entre', 'hasta', 'desde', 'mientras', 'años', 'ciudad', 'mundo'])

/** The language the record's own text (context, introduction, alternatives) is plainly in, or null. */
export function textLanguage (record: Pick<DatasetQuestion, 'context' | 'alternativesIntroduction' | 'alternatives'>): 'ingles' | 'espanhol' | null {
  const text = [record.context, record.alternativesIntroduction, ...record.alternatives.map((alternative) => alternative.text)]
    .filter((part) => part !== null).join(' ')
    .replace(MARKDOWN_IMAGE, ' ').replace(/https?:\/\/\S+/g, ' ')
  const words = text.toLowerCase().match(/[\p{L}]+/gu) ?? []
  let english = 0
  let spanish = 0
  for (const word of words) {
    if (ENGLISH.has(word)) english++
    else if (SPANISH.has(word)) spanish++
  }
  // Plainly: a handful of marker words, and three times as many of one language as of the other.
  if (english >= 5 && english >= 3 * spanish) return 'ingles'
  if (spanish >= 5 && spanish >= 3 * english) return 'espanhol'
  return null
}
