import type { Application } from '../../exam-key.ts'

/*
 * The colour of an ENEM booklet (caderno) from its number, as INEP's ITENS_PROVA writes it
 * (`TX_COR`, lower-cased as src/data/official/itens-prova.ts reads it), so that a booklet file
 * (`…_D2_CD7.pdf`) finds its area booklets (`CO_PROVA`) in the item data.
 *
 *   bookletColour(year, application, day, cd): string   e.g. (2025, 'regular', 2, 7) → 'azul'
 *   sameColour(a, b): boolean                              'Amarelo' and 'amarela' are one colour
 *
 * What the map rests on (test/data/sources/booklet-colours.test.ts checks each against the files):
 * - INEP's printed booklets and keys name their caderno and colour: blue is day 1 CD1 and day 2 CD7
 *   in every year here (2009–2025 booklets' footers, the answer keys of 2015–2025), day 2 CD5 is
 *   yellow (keys 2015–2025, booklets 2021, 2023, 2025), day 1 CD3 white (2025), day 2 CD6 grey
 *   (2023, and both second-application booklets, 2020 and 2023), day 2 CD8 pink (2023). The 2025
 *   covers print their template's legend: 1 Azul, 2 Amarelo, 3 Branco, 4 Verde; 5 Amarelo,
 *   6 Cinza, 7 Azul, 8 Verde.
 * - ITENS_PROVA lists each year's four colours per day: azul, amarelo, branco and rosa on day 1,
 *   azul, amarelo, cinza and rosa on day 2, until 2023; verde where rosa was from 2024 (2024 lists
 *   no rosa at all). CD2 and CD4 of the years before 2025 are placed as the 2025 legend places them.
 * - The spelling is the year's: masculine (`amarelo`, `branco`) in 2009–2011 and 2013–2015,
 *   feminine (`amarela`, `branca`) in 2012 and from 2016.
 * The second applications (PPL) print the same colours (their grey booklet is CD6).
 * A year outside 2009–2025 is refused: its colours are not known until its files are.
 */

/** The years whose colours INEP's files here show. */
export const FIRST_COLOUR_YEAR = 2009
export const LAST_COLOUR_YEAR = 2025

/** Per day, the colours of its four booklets in caderno order (day 1: CD1–CD4, day 2: CD5–CD8); `*` ends in -o/-a by year. */
const DAY_COLOURS: Record<1 | 2, readonly string[]> = {
  1: ['azul', 'amarel*', 'branc*', 'fourth'],
  2: ['amarel*', 'cinza', 'azul', 'fourth']
}

const FEMININE_YEARS = (year: number) => year === 2012 || year >= 2016

/**
 * The colour of booklet `cd` of `day` in the exam of `year`, lower-cased as that year's ITENS_PROVA
 * writes it. Throws for a day other than 1 and 2, a caderno outside the day's four, or a year whose
 * colours are not known.
 * @example bookletColour(2025, 'regular', 1, 3) === 'branca'; bookletColour(2009, 'regular', 1, 3) === 'branco'
 */
export function bookletColour (year: number, application: Application, day: number, cd: number): string {
  if (day !== 1 && day !== 2) throw new Error(`ENEM has no day ${day}`)
  const first = day === 1 ? 1 : 5
  const colour = DAY_COLOURS[day][cd - first]
  if (!Number.isInteger(cd) || colour === undefined) throw new Error(`ENEM ${year}${application === 'ppl' ? ' (second application)' : ''}: day ${day} has booklets CD${first}–CD${first + 3}, not CD${cd}`)
  if (!Number.isInteger(year) || year < FIRST_COLOUR_YEAR || year > LAST_COLOUR_YEAR) {
    throw new Error(`ENEM ${year}: the colour of day ${day} CD${cd} is not known (INEP's booklets, keys and ITENS_PROVA show ${FIRST_COLOUR_YEAR}–${LAST_COLOUR_YEAR})`)
  }
  if (colour === 'fourth') return year >= 2024 ? 'verde' : 'rosa'
  return colour.endsWith('*') ? colour.slice(0, -1) + (FEMININE_YEARS(year) ? 'a' : 'o') : colour
}

/**
 * Whether two colour names, as INEP prints or lists them, name one colour: case and the -o/-a ending
 * aside (`AMARELO`, `Amarela`).
 * @example sameColour('Amarelo', 'amarela') === true
 */
export function sameColour (a: string, b: string): boolean {
  const stem = (name: string) => name.trim().toLowerCase().replace(/[oa]$/, '')
  return stem(a) === stem(b)
}
