import { readFileSync } from 'node:fs'
import path from 'node:path'
import Type from 'typebox'
import { Compile } from 'typebox/compile'
import { projectRoot } from '../official/official-table.ts'
import { AREAS } from '../record-schemas.ts'
import { skillCode } from './skill-code.ts'

/*
 * INEP's Matriz de Referência do ENEM as data: per area its competências and its habilidades
 * H1–H30 with INEP's text, read from the committed copy `data/matriz/matriz-referencia.json` (its
 * SOURCE.md says where it comes from and how it was checked). A record's `inep.skill` is the number
 * of a habilidade within its `inep.area`, so a skill is known by the pair, written `CN-H17`.
 */

export const MATRIZ_FILE = path.join(projectRoot(), 'data', 'matriz', 'matriz-referencia.json')

/** Habilidades per area: H1–H30. */
export const SKILLS_PER_AREA = 30

const CompetencySchema = Type.Object({
  number: Type.Integer({ minimum: 1 }),
  text: Type.String({ minLength: 1 })
}, { additionalProperties: false })

const MatrixSkillSchema = Type.Object({
  number: Type.Integer({ minimum: 1, maximum: SKILLS_PER_AREA }),
  competency: Type.Integer({ minimum: 1 }),
  text: Type.String({ minLength: 1 })
}, { additionalProperties: false })

const MatrizFileSchema = Type.Object({
  source: Type.String(),
  areas: Type.Array(Type.Object({
    area: Type.Enum(AREAS),
    name: Type.String({ minLength: 1 }),
    competencies: Type.Array(CompetencySchema),
    skills: Type.Array(MatrixSkillSchema)
  }, { additionalProperties: false })),
  cognitiveAxes: Type.Array(Type.Object({
    number: Type.Integer(), roman: Type.String(), code: Type.String(), name: Type.String(), text: Type.String()
  }, { additionalProperties: false }))
}, { additionalProperties: false })
const MATRIZ_FILE_CHECK = Compile(MatrizFileSchema)

export type MatrizFile = Type.Static<typeof MatrizFileSchema>
export type MatrizArea = MatrizFile['areas'][number]

/**
 * The Matriz as read from `file`, checked: the shape, the areas in the order LC, CH, CN, MT, each
 * with the skills H1–H30 in order and every skill's competência one of its area's. Throws, naming
 * what is wrong, on a file that is not that.
 */
export function readMatriz (file: string = MATRIZ_FILE): MatrizFile {
  const value = JSON.parse(readFileSync(file, 'utf8')) as unknown
  if (!MATRIZ_FILE_CHECK.Check(value)) {
    const [first] = MATRIZ_FILE_CHECK.Errors(value)
    throw new Error(`${file}: ${first?.instancePath ?? ''} ${first?.message ?? 'is not the Matriz'}`)
  }
  const areas = value.areas.map((entry) => entry.area)
  if (areas.join() !== AREAS.join()) throw new Error(`${file}: areas must be ${AREAS.join(', ')}, got ${areas.join(', ')}`)
  for (const entry of value.areas) {
    const numbers = entry.skills.map((skill) => skill.number)
    if (numbers.length !== SKILLS_PER_AREA || numbers.some((number, at) => number !== at + 1)) throw new Error(`${file}: ${entry.area} must list H1–H${SKILLS_PER_AREA} in order`)
    const competencies = new Set(entry.competencies.map((competency) => competency.number))
    const stray = entry.skills.find((skill) => !competencies.has(skill.competency))
    if (stray !== undefined) throw new Error(`${file}: ${skillCode(entry.area, stray.number)} names competência ${stray.competency}, which ${entry.area} does not have`)
  }
  return value
}

let committed: MatrizFile | undefined

/** The committed Matriz (data/matriz/), read once. */
export function referenceMatrix (): MatrizFile {
  committed ??= readMatriz()
  return committed
}
