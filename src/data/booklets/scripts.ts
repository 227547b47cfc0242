/*
 * Superscripts and subscripts as Unicode writes them (docs/data.md, "Reading INEP's printed
 * booklets"): CO₂, 10³, mol⁻¹. A character Unicode gives no such form is written as it is.
 */

/** How a glyph sits against its line's baseline. */
export type Script = 'normal' | 'sup' | 'sub'

const SUPERSCRIPTS: Record<string, string> = {
  0: '⁰', 1: '¹', 2: '²', 3: '³', 4: '⁴', 5: '⁵', 6: '⁶', 7: '⁷', 8: '⁸', 9: '⁹', '+': '⁺', '-': '⁻', '−': '⁻', '–': '⁻', '=': '⁼', '(': '⁽', ')': '⁾', n: 'ⁿ', i: 'ⁱ', o: 'º', a: 'ª', x: 'ˣ', y: 'ʸ', '*': '*', '°': '°', º: 'º'
}
const SUBSCRIPTS: Record<string, string> = {
  0: '₀', 1: '₁', 2: '₂', 3: '₃', 4: '₄', 5: '₅', 6: '₆', 7: '₇', 8: '₈', 9: '₉', '+': '₊', '-': '₋', '−': '₋', '=': '₌', '(': '₍', ')': '₎', a: 'ₐ', e: 'ₑ', o: 'ₒ', x: 'ₓ', h: 'ₕ', k: 'ₖ', l: 'ₗ', m: 'ₘ', n: 'ₙ', p: 'ₚ', s: 'ₛ', t: 'ₜ', i: 'ᵢ', r: 'ᵣ', u: 'ᵤ', v: 'ᵥ'
}

/** A character as its script prints it: Unicode's form where there is one, else the character. */
export function inScript (text: string, script: Script): string {
  if (script === 'sup') return SUPERSCRIPTS[text] ?? text
  if (script === 'sub') return SUBSCRIPTS[text] ?? text
  return text
}
