import type { Catalog } from '../data/catalog.ts'
import type { EndpointAnswers } from './endpoints.ts'
import { ExamAnswers } from './answers/exam-answers.ts'
import { PreparedCatalog } from './answers/prepared-catalog.ts'
import { QuestionFinderAnswers } from './answers/question-finder-answers.ts'
import { ScoreAnswers } from './answers/score-answers.ts'
import { SkillAnswers } from './answers/skill-answers.ts'

/**
 * What the endpoints answer from, over one catalog: the HTTP server's routes and fast path, and the
 * MCP tools (over HTTP or stdio), ask the same objects. `prepared` is the bodies' cache, which the
 * server prepares in the background once it listens.
 */
export function endpointAnswers (catalog: Catalog): { prepared: PreparedCatalog, answers: EndpointAnswers } {
  const prepared = new PreparedCatalog(catalog)
  return { prepared, answers: { exams: new ExamAnswers(catalog, prepared), finding: new QuestionFinderAnswers(catalog, prepared), scores: new ScoreAnswers(catalog), skills: new SkillAnswers(catalog) } }
}
