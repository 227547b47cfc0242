import type { Catalog } from '../../data/catalog.ts'
import type { AnswerSources } from '../endpoints.ts'
import { ExamAnswers } from './exam-answers.ts'
import { PreparedCatalog } from './prepared-catalog.ts'
import { QuestionFinderAnswers } from './question-finder-answers.ts'
import { ScoreAnswers } from './score-answers.ts'

/**
 * What the endpoints answer from, over one catalog: the HTTP server's routes and fast path, and the
 * MCP tools (over HTTP or stdio), ask the same objects. `prepared` is the bodies' cache, which the
 * server prepares in the background once it listens.
 */
export function answerSources (catalog: Catalog): { prepared: PreparedCatalog, sources: AnswerSources } {
  const prepared = new PreparedCatalog(catalog)
  return { prepared, sources: { exams: new ExamAnswers(catalog, prepared), finding: new QuestionFinderAnswers(catalog, prepared), scores: new ScoreAnswers(catalog) } }
}
