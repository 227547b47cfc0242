import { AREAS, type Area, type Question } from '../record-schemas.ts'

/*
 * A skill of INEP's Matriz is known by its area and its number within the area (a record's
 * `inep.area` and `inep.skill`; ITENS_PROVA's `SG_AREA` and `CO_HABILIDADE`), written `CN-H17`.
 */

/**
 * The code of a skill: its area, `-H`, its number.
 * @example skillCode('CN', 17) === 'CN-H17'
 */
export function skillCode (area: Area, number: number): string {
  return `${area}-H${number}`
}

/**
 * The code of a record's skill, or null when it has none (no `inep`, or INEP gave no skill).
 * @example recordSkill(question) === 'MT-H21'
 */
export function recordSkill (question: Question): string | null {
  const inep = question.inep
  return inep === null || inep.skill === null ? null : skillCode(inep.area, inep.skill)
}

/**
 * Orders skill codes as the Matriz does: by area (LC, CH, CN, MT), then by number.
 * @example ['MT-H2', 'CN-H10', 'MT-H10'].sort(compareSkillCodes) // ['CN-H10', 'MT-H2', 'MT-H10']
 */
export function compareSkillCodes (a: string, b: string): number {
  const [areaA, numberA] = a.split('-H') as [Area, string]
  const [areaB, numberB] = b.split('-H') as [Area, string]
  return AREAS.indexOf(areaA) - AREAS.indexOf(areaB) || Number(numberA) - Number(numberB)
}
