import type { Area } from './record-schemas.ts'

/*
 * INEP's score of one area, as INEP's own R package computes it (inepoficial/microEnem,
 * `R/calc.nota.R` and `R/constantes.R`; /work/shared/inep/tri-cases/SOURCE.md, beside the
 * repository, quotes it): the three-parameter logistic model with no scaling constant (D = 1),
 *   P(right | θ) = c + (1 − c) / (1 + exp(−a(θ − b))),
 * θ as the expected a posteriori (EAP) under a standard normal prior over 40 evenly spaced points
 * on [−4, 4], and the score round(k·θ + d, 1) with each area's k and d (the 2009 reference scale).
 * Which items count is the caller's business (src/data/scores/sheet-scores.ts, exam-scores.ts).
 *
 * Each item's curve is worked out once, as log(1 − P) at the 40 points and what a right answer
 * adds to it, and each set of items' log posterior with every answer wrong once (an area's form,
 * src/data/scores/area-scoring.ts): scoring a sheet is then adding 40 numbers per right answer and
 * one pass over the points, no exp per answer.
 */

/** The quadrature points: 40 evenly spaced on [−4, 4]. */
export const QUADRATURE_POINTS: Float64Array = Float64Array.from({ length: 40 }, (_, at) => -4 + (8 * at) / 39)
const POINTS = QUADRATURE_POINTS.length
/** log of the standard normal density at each point (its constant cancels out of the EAP). */
const LOG_PRIOR: Float64Array = QUADRATURE_POINTS.map((theta) => -(theta * theta) / 2)

/** k and d of score = round(k·θ + d, 1), per area (microEnem's `R/constantes.R`). */
export const SCALE: Readonly<Record<Area, { readonly k: number, readonly d: number }>> = {
  CH: { k: 112.31, d: 501.489 },
  CN: { k: 113.102, d: 501.144 },
  LC: { k: 108.086, d: 499.978 },
  MT: { k: 129.646, d: 500.02 }
}

export interface ItemParameters {
  readonly a: number
  readonly b: number
  readonly c: number
}

/** One item's response curve at the quadrature points. */
export interface ItemCurve {
  /** log P(wrong) at each point. */
  readonly wrong: Float64Array
  /** log P(right) − log P(wrong) at each point: what answering the item right adds to the log posterior. */
  readonly gain: Float64Array
}

/**
 * Curves made so far, by the parameters object they were made from: a year's items are shared by
 * all its booklets (src/data/scores/booklet-table.ts) and a record's by its exam views, so each
 * item's curve is made once, however many booklets or views hold it. Weak: parameters nothing
 * holds any more take their curve with them.
 */
const curves = new WeakMap<ItemParameters, ItemCurve>()

/** The item's curve, made once per parameters object. */
export function curveOf (parameters: ItemParameters): ItemCurve {
  let curve = curves.get(parameters)
  if (curve === undefined) {
    curve = itemCurve(parameters)
    curves.set(parameters, curve)
  }
  return curve
}

export function itemCurve ({ a, b, c }: ItemParameters): ItemCurve {
  const wrong = new Float64Array(POINTS)
  const gain = new Float64Array(POINTS)
  for (let at = 0; at < POINTS; at++) {
    const p = probabilityRight({ a, b, c }, QUADRATURE_POINTS[at]!)
    wrong[at] = Math.log(1 - p)
    gain[at] = Math.log(p) - wrong[at]!
  }
  return { wrong, gain }
}

/**
 * P(right | θ) under the 3PL with D = 1.
 * @example probabilityRight({ a: 1, b: 0, c: 0.2 }, 0) === 0.6
 */
export function probabilityRight ({ a, b, c }: ItemParameters, theta: number): number {
  return c + (1 - c) / (1 + Math.exp(-a * (theta - b)))
}

/**
 * The Fisher information of an item at θ under the 3PL with D = 1 (Lord's formula):
 *   I(θ) = a² · (1 − P)/P · ((P − c)/(1 − c))²,
 * what an answer to the item tells of a candidate of that θ: largest a little above θ = b, for items that discriminate (large a) and are hard to guess (small c).
 * @example fisherInformation({ a: 1, b: 0, c: 0 }, 0) === 0.25
 */
export function fisherInformation (item: ItemParameters, theta: number): number {
  const p = probabilityRight(item, theta)
  const { a, c } = item
  const lifted = (p - c) / (1 - c)
  return a * a * ((1 - p) / p) * lifted * lifted
}

export interface AbilityEstimate {
  /** The EAP of θ. */
  readonly theta: number
  /** The posterior standard deviation of θ. */
  readonly standardError: number
}

/**
 * The log posterior of a set of items all answered wrong, at each point: the log prior plus each
 * item's log P(wrong). Made once per set of items that is scored again and again (a form).
 */
export function allWrongPosterior (curves: readonly ItemCurve[]): Float64Array {
  const sum = Float64Array.from(LOG_PRIOR)
  for (const curve of curves) for (let at = 0; at < POINTS; at++) sum[at]! += curve.wrong[at]!
  return sum
}

/** The log posterior being summed: one for the process, since an estimate never waits in the middle. */
const logPosterior = new Float64Array(POINTS)

/**
 * θ's EAP and posterior standard deviation from the curves of the scored items and whether each
 * was answered right (true or 1); `allWrong` is allWrongPosterior(curves), when the caller keeps it.
 */
export function estimateAbility (curves: readonly ItemCurve[], right: ArrayLike<boolean | number>, allWrong: Float64Array = allWrongPosterior(curves)): AbilityEstimate {
  logPosterior.set(allWrong)
  for (let item = 0; item < curves.length; item++) {
    const answer = right[item]
    if (answer !== true && answer !== 1) continue
    const gain = curves[item]!.gain
    for (let at = 0; at < POINTS; at++) logPosterior[at]! += gain[at]!
  }
  // Shifted by the largest term so that exp never underflows to zero everywhere.
  let largest = -Infinity
  for (let at = 0; at < POINTS; at++) if (logPosterior[at]! > largest) largest = logPosterior[at]!
  let mass = 0
  let first = 0
  let second = 0
  for (let at = 0; at < POINTS; at++) {
    const weight = Math.exp(logPosterior[at]! - largest)
    const theta = QUADRATURE_POINTS[at]!
    mass += weight
    first += weight * theta
    second += weight * theta * theta
  }
  const theta = first / mass
  return { theta, standardError: Math.sqrt(Math.max(0, second / mass - theta * theta)) }
}

/**
 * An item's difficulty on its area's score scale: its `b` scaled as a θ is, round(k·b + d, 1). At
 * θ = b the 3PL gives P = c + (1 − c)/2, halfway between the guessing chance and certainty.
 * @example itemDifficulty('MT', { a: 2, b: 1, c: 0.2 }) === 629.7
 */
export function itemDifficulty (area: Area, irt: ItemParameters | null): number | null {
  return irt === null ? null : scaledScore(area, irt.b)
}

/** The θ of a score of an area: (score − d)/k, the inverse of scaledScore before its rounding. */
export function thetaOfScore (area: Area, score: number): number {
  const { k, d } = SCALE[area]
  return (score - d) / k
}

/** The score INEP publishes for an area's θ: round(k·θ + d, 1). */
export function scaledScore (area: Area, theta: number): number {
  const { k, d } = SCALE[area]
  return Math.round((k * theta + d) * 10) / 10
}
