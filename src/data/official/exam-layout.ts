import type { Area } from '../record-schemas.ts'

/*
 * How an exam's 180 positions are laid out in our numbering, which every exam 2009–2023 of the
 * dataset shares with INEP's blue booklets (the AZUL booklet of each area): four blocks
 * of 45 positions, one per area, in an order that changed twice; in linguagens from 2010 on, the
 * block's first five positions are the foreign-language ones, one question per language.
 */

/** Positions per area block. */
export const AREA_BLOCK = 45
/** Foreign-language positions at the start of the linguagens block (from 2010 on). */
export const LANGUAGE_POSITIONS = 5

/**
 * The order of the four areas in the exam of `year`: 2009 CN, CH, LC, MT; 2010–2016 CH, CN, LC, MT;
 * from 2017 on LC, CH, CN, MT (the answer-key PDFs show it from 2015 on, and the import checks them against it).
 */
export function areaOrder (year: number): readonly Area[] {
  if (year <= 2009) return ORDER_2009
  if (year <= 2016) return ORDER_2010_TO_2016
  return ORDER_FROM_2017
}

// Made once: a score asks for the order of every position it reads.
const ORDER_2009: readonly Area[] = Object.freeze(['CN', 'CH', 'LC', 'MT'])
const ORDER_2010_TO_2016: readonly Area[] = Object.freeze(['CH', 'CN', 'LC', 'MT'])
const ORDER_FROM_2017: readonly Area[] = Object.freeze(['LC', 'CH', 'CN', 'MT'])

/** The exam position (1–180) of the `slot`-th question (1–45) of `area`'s block in the exam of `year`. */
export function examIndexOf (year: number, area: Area, slot: number): number {
  return areaOrder(year).indexOf(area) * AREA_BLOCK + slot
}

/** The area of an exam position (1–180) by the year's order, or null outside the exam. */
export function areaOfIndex (year: number, index: number): Area | null {
  if (!Number.isInteger(index) || index < 1 || index > 4 * AREA_BLOCK) return null
  return areaOrder(year)[Math.floor((index - 1) / AREA_BLOCK)]!
}

/** The foreign-language positions of the exam of `year` (none in 2009, which had no foreign language). */
export function languagePositions (year: number): readonly number[] {
  if (year <= 2009) return []
  const first = examIndexOf(year, 'LC', 1)
  return Array.from({ length: LANGUAGE_POSITIONS }, (_, offset) => first + offset)
}
