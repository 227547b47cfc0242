import Type from 'typebox'
import { AreaSchema } from '../../data/record-schemas.ts'

/* The answer of GET /v1/skills: INEP's Matriz de Referência with the served questions of each skill (src/data/skills/skill-catalog.ts). */

export const SkillSchema = Type.Object({
  code: Type.String({ description: 'The skill\'s code: area, `-H`, number. What the `skill` filter takes', examples: ['CN-H17'] }),
  number: Type.Integer({ minimum: 1, maximum: 30, description: 'The habilidade number within its area (a record\'s `inep.skill`)', examples: [17] }),
  competency: Type.Integer({ minimum: 1, description: 'The number of the area\'s competência it sits under', examples: [5] }),
  text: Type.String({ description: 'INEP\'s text of the habilidade' }),
  questions: Type.Integer({ minimum: 0, description: 'Records of this skill in every exam\'s default view (what `/v1/questions?skill=` totals)', examples: [41] })
}, { title: 'Skill', description: 'A habilidade of the Matriz' })

export const SkillAreaSchema = Type.Object({
  area: AreaSchema,
  discipline: Type.String({ description: 'The discipline slug of the area', examples: ['ciencias-natureza'] }),
  name: Type.String({ description: 'The area\'s name as INEP writes it', examples: ['Ciências da Natureza e suas Tecnologias'] }),
  competencies: Type.Array(Type.Object({
    number: Type.Integer({ minimum: 1 }),
    text: Type.String({ description: 'INEP\'s text of the competência de área' })
  }, { title: 'Competency' }), { description: 'The area\'s competências, by number' }),
  skills: Type.Array(SkillSchema, { description: 'H1–H30' })
}, { title: 'SkillArea', description: 'One area of the Matriz' })

export const SkillCatalogSchema = Type.Object({
  areas: Type.Array(SkillAreaSchema, { description: 'LC, CH, CN, MT' })
}, { title: 'SkillCatalog', description: 'INEP\'s Matriz de Referência do ENEM: areas, competências and habilidades with INEP\'s text, and how many served questions each habilidade has' })
