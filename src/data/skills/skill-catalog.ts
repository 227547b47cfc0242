import type { Catalog } from '../catalog.ts'
import { AREAS, DISCIPLINE_OF_AREA, type Area } from '../record-schemas.ts'
import { referenceMatrix, type MatrizFile } from './matriz.ts'
import { recordSkill, skillCode } from './skill-code.ts'

/*
 * What GET /v1/skills answers (and an assistant's list_skills tool): the Matriz's areas,
 * competências and habilidades with INEP's text, and per habilidade how many served questions
 * have it, counted over every exam's default view (the records /v1/questions lists without
 * `language`), so the count is what `/v1/questions?skill=CN-H17` totals.
 */

export interface SkillEntry {
  /** `CN-H17`. */
  readonly code: string
  readonly number: number
  /** The number of the competência of the area it sits under. */
  readonly competency: number
  readonly text: string
  /** Records of this skill in every exam's default view. */
  readonly questions: number
}

export interface SkillArea {
  readonly area: Area
  readonly discipline: string
  readonly name: string
  readonly competencies: ReadonlyArray<{ readonly number: number, readonly text: string }>
  readonly skills: readonly SkillEntry[]
}

export interface SkillCatalog {
  /** LC, CH, CN, MT. */
  readonly areas: readonly SkillArea[]
}

/** Records of each skill code in every exam's default view. */
export function skillCounts (catalog: Catalog): ReadonlyMap<string, number> {
  const counts = new Map<string, number>()
  for (const exam of catalog.listExams()) {
    for (const question of catalog.languageView(exam, exam.defaultLanguage, null)) {
      const code = recordSkill(question)
      if (code !== null) counts.set(code, (counts.get(code) ?? 0) + 1)
    }
  }
  return counts
}

/**
 * The skills catalog of the served records: the Matriz (the committed one unless `matriz` is
 * given), areas in the order LC, CH, CN, MT, each skill with its question count.
 * @example skillCatalog(catalog).areas[2].skills[16].code === 'CN-H17'
 */
export function skillCatalog (catalog: Catalog, matriz: MatrizFile = referenceMatrix()): SkillCatalog {
  const counts = skillCounts(catalog)
  const byArea = new Map(matriz.areas.map((entry) => [entry.area, entry]))
  return {
    areas: AREAS.map((area) => {
      const entry = byArea.get(area)!
      return {
        area,
        discipline: DISCIPLINE_OF_AREA[area],
        name: entry.name,
        competencies: entry.competencies.map(({ number, text }) => ({ number, text })),
        skills: entry.skills.map(({ number, competency, text }) => {
          const code = skillCode(area, number)
          return { code, number, competency, text, questions: counts.get(code) ?? 0 }
        })
      }
    })
  }
}
