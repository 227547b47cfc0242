/*
 * Words broken at a line's end, joined again: a hyphen before a lower-case continuation is the
 * break's and goes ("prin-" / "cipalmente"); a compound broken at its own hyphen prints it again at
 * the next line's start ("editores-" / "-chefes"), one hyphen; a pronoun after its verb's hyphen
 * ("ajudá-" / "la") keeps the hyphen and takes no space.
 */

/** A compound broken at its hyphen prints the hyphen again at the next line's start. */
export const REPEATED_HYPHEN = /^-\p{L}/u
/** A pronoun set after a verb's hyphen. */
export const CLITIC = /^(se|lo|la|los|las|me|te|nos|vos|lhe|lhes|o|a|os|as|no|na|nos|nas)\b/u

/** Lines of one paragraph (an alternative, a table's cell) joined with spaces, words broken at a line's end made whole. */
export function joinHyphenated (texts: readonly string[]): string {
  let out = ''
  for (const text of texts.map((value) => value.trim()).filter((value) => value !== '')) {
    if (out === '') out = text
    else if (/\p{L}-$/u.test(out) && ((/^\p{Ll}/u.test(text) && !CLITIC.test(text)) || REPEATED_HYPHEN.test(text))) out = out.slice(0, -1) + text
    else if (/\p{L}-$/u.test(out) && CLITIC.test(text)) out += text
    else out += ` ${text}`
  }
  return out
}
