import { brazilianWordsIfInstalled, isWord, type WordList } from './word-list.ts'

/*
 * Words broken at a line's end, joined again: a hyphen before a lower-case continuation is the
 * break's and goes ("prin-" / "cipalmente"); a compound broken at its own hyphen prints it again at
 * the next line's start ("editores-" / "-chefes"), one hyphen; a pronoun after its verb's hyphen
 * ("ajudá-" / "la") keeps the hyphen and takes no space; and so does a compound the print breaks at
 * its own hyphen without repeating it ("cana-" / "de-açúcar", "cartões-" / "postais"), where the
 * Portuguese word list holds the compound and not the word joined without it.
 */

/** A compound broken at its hyphen prints the hyphen again at the next line's start. */
const REPEATED_HYPHEN = /^-\p{L}/u
/** A pronoun set after a verb's hyphen. */
const CLITIC = /^(se|lo|la|los|las|me|te|nos|vos|lhe|lhes|o|a|os|as|no|na|nos|nas)\b/u

/** How a line ending in a hyphen joins the next: the hyphen dropped, kept (no space either way), or no break at all (null). */
export type HyphenJoin = 'drop' | 'keep' | null

export function hyphenJoin (before: string, after: string, words: WordList | null = brazilianWordsIfInstalled()): HyphenJoin {
  if (!/\p{L}-$/u.test(before)) return null
  if (REPEATED_HYPHEN.test(after)) return 'drop'
  if (CLITIC.test(after)) return 'keep'
  if (!/^\p{Ll}/u.test(after)) return null
  if (words !== null) {
    const head = /\p{L}+-$/u.exec(before)![0].slice(0, -1)
    const tail = /^\p{L}+(?:-\p{L}+)*/u.exec(after)![0]
    if (!isWord(words, head + tail) && isWord(words, `${head}-${tail}`)) return 'keep'
  }
  return 'drop'
}

/** Lines of one paragraph (an alternative, a table's cell) joined with spaces, words broken at a line's end made whole. */
export function joinHyphenated (texts: readonly string[], words: WordList | null = brazilianWordsIfInstalled()): string {
  let out = ''
  for (const text of texts.map((value) => value.trim()).filter((value) => value !== '')) {
    const join = out === '' ? null : hyphenJoin(out, text, words)
    if (out === '') out = text
    else if (join === 'drop') out = out.slice(0, -1) + text
    else if (join === 'keep') out += text
    else out += ` ${text}`
  }
  return out
}
