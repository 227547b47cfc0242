/*
 * A source credit: the reference INEP prints under a text it quotes ("RIBEIRO, A. E. Disponível em:
 * https://rascunho.com.br. Acesso em: 16 jan. 2024 (adaptado).", "LINS, O. A partida. Melhores
 * contos. São Paulo: Global, 2003."). It belongs to the statement it closes: never the asking
 * sentence, and one paragraph however many lines it is printed on. Told by what a reference is made
 * of (an author's surname in capitals before a comma or a full stop, "Disponível em", "Acesso em",
 * "In:", "apud", "(adaptado)", an edition's city, volume, number or year), and, where the page sets
 * it smaller than the text, by that too.
 */

/** An author's name in capitals opening a reference ("RIBEIRO, A. E.", "FREITAS FILHO, A.", "LOBÃO.", "IBGE."). */
const AUTHOR = /^(?:[A-ZÀ-Ý][A-ZÀ-Ý'’-]+(?:\s+(?:[A-ZÀ-Ý][A-ZÀ-Ý'’-]+|D[AEO]S?|E))*(?:,\s+[A-ZÀ-Ý]|\.(?:\s|$)|;\s)|[A-Z]{2,}\s*\(|Dispon[ií]vel\s+em|Fonte:)/u
/** What only a reference holds. */
const REFERENCE = /Dispon[ií]vel\s+em|Acesso\s+em|\bIn:|\bapud\b|\((?:adaptad[oa]|fragmento|trecho)\)|\bet\s+al\.|\b(?:p|v|n|ed|org|trad)\.\s*\d|\b[12]\d{3}\.?\s*$/u
/** A reference's first words: a credit starts a paragraph of its own where they open a line. */
export function opensReference (text: string): boolean {
  return AUTHOR.test(text.trim())
}

/**
 * Whether a paragraph is a source credit: a reference's opening and something only a reference
 * holds; or, set smaller than the text (`small`), either.
 */
export function isCredit (text: string, small: boolean): boolean {
  const trimmed = text.trim()
  const opens = AUTHOR.test(trimmed)
  const holds = REFERENCE.test(trimmed)
  return small ? opens || holds : (opens && holds) || /^Dispon[ií]vel\s+em/u.test(trimmed)
}
