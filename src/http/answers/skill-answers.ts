import type { Catalog } from '../../data/catalog.ts'
import { skillCatalog } from '../../data/skills/skill-catalog.ts'
import { PreparedBody } from './prepared-body.ts'

/** GET /v1/skills: the skills catalog of the served records, serialized once at start-up, like the exam list. */
export class SkillAnswers {
  readonly skillList: PreparedBody

  constructor (catalog: Catalog) {
    this.skillList = PreparedBody.json(skillCatalog(catalog))
  }
}
