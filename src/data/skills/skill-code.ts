import type { Area, Question } from '../record-schemas.ts'

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
