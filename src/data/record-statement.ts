import type { Incomplete } from './record-schemas.ts'

/**
 * Whether a record shows its statement: the text or figure its asking sentence is about.
 *
 * The rule, read from the records (docs/data.md, "Records without their statement"): a record has
 * no statement when its `context` is null or blank and its `files` is empty. Such a record shows
 * only its asking sentence (`alternativesIntroduction`) and its alternatives. On the predecessor's
 * transcription this finds two kinds, told apart by a reader and not by this rule: an asking
 * sentence alone ("O filtro descartado é o", 2016/179: the text and figure it asks about were
 * never transcribed), and a whole statement run into the asking sentence (2019/14: a poem, its
 * credit and the question in one field). Both are left out of every draw: the first asks about
 * what it does not show, the second shows the statement as the question, with whatever figure or
 * layout it had lost.
 *
 * What it does not look at: an alternative's image (2012/156 draws its five graphs as the
 * alternatives; they answer "o gráfico que melhor representa…", and the data they represent is
 * the missing statement), and the asking sentence's length (the two kinds above overlap in
 * length nowhere on the data, but a length names nothing a record holds).
 * @example incompletenessOf({ context: null, files: [] }) // { reason: 'no-statement' }
 */
export function incompletenessOf (record: { readonly context: string | null, readonly files: readonly string[] }): Incomplete {
  if (record.files.length > 0) return null
  if (record.context !== null && record.context.trim() !== '') return null
  return NO_STATEMENT
}

/** One object for every such record: records are read, never changed. */
const NO_STATEMENT: Incomplete = Object.freeze({ reason: 'no-statement' as const })
