import type { DatasetQuestion } from '../record-schemas.ts'

/*
 * How well a booklet was read, measured against an independent reading of the same questions: another
 * transcription (the predecessor's dataset), or another colour of the same booklet (the same item,
 * printed elsewhere on other pages). Differences of form are forgiven — white space, hyphenation,
 * quote and dash shapes, capitals, a final full stop, Markdown's marks and images — and the rest
 * compared: each alternative equal (where the other shows a figure, ours must show one or its text);
 * the other reading's statement found in order in ours (nothing
 * missing), and ours in the other's (nothing from elsewhere on the page), each to RATIO of its
 * words, so that a typo of one side does not fail a whole statement.
 */

/** The share of a statement's words that must be found, in order, in the other. */
export const RATIO = 0.9

/** Text with the differences of form removed. */
export function normalText (text: string | null): string {
  return (text ?? '')
    // NFKC writes CO₂ as CO2 and 10³ as 103, as transcriptions without scripts do.
    .normalize('NFKC')
    .replace(/!\[[^\]]*\]\([^)]*\)/gu, ' ')
    .replace(/\\([\\`*_[\]<>|#+\-.)])/gu, '$1')
    .replace(/[“”„«»"'‘’`´]/gu, '"')
    .replace(/[–—−‐]/gu, '-')
    // A multiplication dot is typed as a full stop (x . y . z for x ⋅ y ⋅ z), a multiplication sign as x.
    .replace(/[⋅·∙]/gu, '.')
    .replace(/×/gu, 'x')
    .replace(/(\p{L})-\s+(\p{L})/gu, '$1$2')
    // Digit groups: 1 198,8 as printed, 1.198,8 or 1198,8 as typed.
    .replace(/(\d)[\s.\u00a0\u2009\u202f](?=\d{3}(?!\d))/gu, '$1')
    .replace(/[*_#>|]/gu, ' ')
    .toLowerCase()
    .replace(/\s+/gu, ' ')
    .trim()
    .replace(/[.;:]$/u, '')
    .trim()
}

/** The words of a text, its punctuation dropped. */
export function words (text: string | null): string[] {
  return normalText(text).replace(/[^\p{L}\p{N}]+/gu, ' ').trim().split(' ').filter((word) => word !== '')
}

/** The share of `needle`'s words found in order in `haystack` (their longest common subsequence); 1 for none. */
export function inOrderShare (needle: readonly string[], haystack: readonly string[]): number {
  if (needle.length === 0) return 1
  let previous = new Array<number>(haystack.length + 1).fill(0)
  for (const word of needle) {
    const current = new Array<number>(haystack.length + 1).fill(0)
    for (let at = 1; at <= haystack.length; at++) {
      current[at] = haystack[at - 1] === word ? previous[at - 1]! + 1 : Math.max(previous[at]!, current[at - 1]!)
    }
    previous = current
  }
  return previous[haystack.length]! / needle.length
}

/** A record's statement: its context and the sentence that asks, as words. */
export function statementWords (record: Pick<DatasetQuestion, 'context' | 'alternativesIntroduction'>): string[] {
  return words(`${record.context ?? ''} ${record.alternativesIntroduction ?? ''}`)
}

export interface RecordComparison {
  /** Every alternative equal (one that is a figure on both sides counts as equal). */
  readonly alternatives: boolean
  /** The other's statement found in ours, in order. */
  readonly theirsInOurs: number
  /**
   * Ours found in the other's, in order; null where the other cannot tell: it holds less than half
   * our words (its statement missing: the predecessor's 71 records without one), or fewer words
   * than ours beside a picture in its statement (part of its text is that picture).
   */
  readonly oursInTheirs: number | null
  /** Whether the other shows a figure; whether ours does. */
  readonly figures: { readonly theirs: boolean, readonly ours: boolean }
}

function hasFigure (record: Pick<DatasetQuestion, 'context' | 'files' | 'alternatives'>): boolean {
  return record.files.length > 0 || /!\[/u.test(record.context ?? '') || record.alternatives.some((alternative) => alternative.file !== null)
}

/** Our reading of an alternative against another's (one that is a figure there is equal to a figure or any text here). */
export function sameAlternative (own: DatasetQuestion['alternatives'][number], theirs: DatasetQuestion['alternatives'][number]): boolean {
  // A figure cannot be compared with text: where the other shows a formula as a picture, ours may read it.
  if (theirs.file !== null && (theirs.text ?? '') === '') return own.file !== null || normalText(own.text) !== ''
  // White space is form wherever it stands: a space typed or not beside punctuation, a sign or between
  // digits (2021's "a,e,o e s" for the print's "A, E, O e S."; 2018's "=16", "R$512000,00").
  return normalText(theirs.text).replace(/\s+/gu, '') === normalText(own.text).replace(/\s+/gu, '')
}

/** Our record against another reading of the same question. */
export function compareRecords (ours: DatasetQuestion, theirs: DatasetQuestion): RecordComparison {
  const alternatives = theirs.alternatives.length === ours.alternatives.length && theirs.alternatives.every((alternative, at) => sameAlternative(ours.alternatives[at]!, alternative))
  const oursWords = statementWords(ours)
  const theirWords = statementWords(theirs)
  return {
    alternatives,
    theirsInOurs: inOrderShare(theirWords, oursWords),
    oursInTheirs: theirWords.length * 2 < oursWords.length || (theirWords.length < oursWords.length && /!\[/u.test(theirs.context ?? ''))
      ? null
      : inOrderShare(oursWords, theirWords),
    figures: { theirs: hasFigure(theirs), ours: hasFigure(ours) }
  }
}
