import { stemmer } from '@orama/stemmers/portuguese'

/*
 * How text becomes search terms, for the index and for queries alike (the two must agree).
 *
 * Words are maximal runs of letters and digits of the folded text (lower case, accents removed),
 * so `fotossintese` finds `fotossíntese` and `ÁGUA` finds `água`. Each word is then reduced to a
 * key that other forms of the same word share:
 *
 * - Verb forms: the Snowball Portuguese stemmer (@orama/stemmers), but only where what it cut is
 *   a verb ending from the list below and the stem keeps at least four letters. The key records
 *   the conjugation the ending belongs to (`sent~a` for sentar, `sent~i` for sentir) and can never
 *   equal a plain word's key. Used as it is, the stemmer merges unrelated words of this dataset:
 *   it drops any final a/o/e (casa and caso, porta and porto, bolsa and bolso, conta and conto all
 *   become one stem), derivational suffixes (finalidade with final, embaixador with embaixo,
 *   livraria with livrar) and the infinitive vowel (sentar with sentir; tremer with the noun
 *   trem). test/data/search-words.test.ts pins those pairs down.
 * - Everything else: its singular (and the singular's verb key, where it has one) by the regular Portuguese plural endings (ões/ães → ão,
 *   ais → al, eis → el, ns → m, res/zes/les → r/z/l, else a final s), on words long enough that
 *   the rule is a plural (mais, seis, três and pois stay as they are).
 *
 * Gender forms (bonito, bonita) and derived words are not merged: they are different words as
 * often as not.
 */

const CONJUGATION_BY_ENDING = new Map<string, 'a' | 'e' | 'i'>()
for (const ending of ['ar', 'ando', 'ou', 'aram', 'avam', 'ava', 'arem', 'ariam', 'arao', 'asse', 'assem', 'arei', 'amos', 'am']) CONJUGATION_BY_ENDING.set(ending, 'a')
for (const ending of ['er', 'endo', 'eu', 'eram', 'erem', 'eriam', 'erao', 'esse', 'essem', 'erei', 'emos', 'em', 'iam']) CONJUGATION_BY_ENDING.set(ending, 'e')
for (const ending of ['ir', 'indo', 'iu', 'iram', 'irem', 'iriam', 'irao', 'isse', 'issem', 'irei', 'imos']) CONJUGATION_BY_ENDING.set(ending, 'i')

/** Shorter stems are where unrelated verbs meet (ser, estar, ler, ver, dar). */
const MIN_VERB_STEM_LENGTH = 4
/** Below this length a final s or -is is as often part of the word as a plural. */
const MIN_PLURAL_LENGTH = 5

const WORD = /[\p{L}\p{N}]+/gu
const COMBINING_MARKS = /\p{M}+/gu

/**
 * Lower case without accents (NFKD: compatibility forms such as ª and ² become a and 2; combining marks removed).
 * @example foldText('Fotossíntese ÁGUA') === 'fotossintese agua'
 */
export function foldText (text: string): string {
  return text.normalize('NFKD').replace(COMBINING_MARKS, '').toLowerCase()
}

/**
 * The folded words of a text, in order.
 * @example foldedWords('Água-viva, 2ª') // ['agua', 'viva', '2a']
 */
export function foldedWords (text: string): string[] {
  return foldText(text).match(WORD) ?? []
}

/**
 * The key of a folded word: what every form of it shares, and no unrelated word.
 * @example wordKey('fotossinteses') === wordKey('fotossintese')
 */
export function wordKey (word: string): string {
  const plain = singular(word)
  // The singular too: imagens → imagem must meet imagem, whose -em reads as a verb ending.
  return verbKey(word) ?? (plain === word ? undefined : verbKey(plain)) ?? plain
}

function verbKey (word: string): string | undefined {
  const stem = stemmer(word)
  if (stem.length < MIN_VERB_STEM_LENGTH || !word.startsWith(stem)) return undefined
  const conjugation = CONJUGATION_BY_ENDING.get(word.slice(stem.length))
  return conjugation === undefined ? undefined : `${stem}~${conjugation}`
}

function singular (word: string): string {
  if (word.length < 4 || !word.endsWith('s') || word.endsWith('ss') || word.endsWith('us')) return word
  if (word.length >= MIN_PLURAL_LENGTH) {
    if (word.endsWith('oes') || word.endsWith('aes')) return `${word.slice(0, -3)}ao`
    if (word.endsWith('ais')) return `${word.slice(0, -2)}l`
    if (word.endsWith('eis')) return `${word.slice(0, -3)}el`
    if (word.endsWith('ns')) return `${word.slice(0, -2)}m`
    if (word.endsWith('res') || word.endsWith('zes') || word.endsWith('les')) return word.slice(0, -2)
  }
  // lápis, ônibus, depois: an -is or -us ending is part of the word.
  if (word.endsWith('is')) return word
  return word.slice(0, -1)
}
