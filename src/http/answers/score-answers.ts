import type { Catalog } from '../../data/catalog.ts'
import { isPracticeProblem, PracticeScorer } from '../../data/scores/exam-scores.ts'
import { isSheetProblem, SheetScorer } from '../../data/scores/sheet-scores.ts'
import { ApiError } from '../errors.ts'
import { NO_STORE } from '../response-headers.ts'
import type { ScoreRequest } from '../schemas/scores.ts'
import { PreparedBody } from './prepared-body.ts'
import type { AreaScore } from '../../data/scores/area-scoring.ts'
import { SCORE_MAX, SCORE_MIN } from '../../data/scores/practice-draw.ts'

/** The address of the practice draw of a discipline at a score; the endpoint table writes it (endpoints.ts, below the answers' floor). */
export type PracticeAddress = (discipline: string, score: number) => string

/**
 * An area's score with the address of the practice draw at that score (every exam, each exam's
 * default language view): what to practise next.
 */
export function withPractice (area: AreaScore, practiceAddress: PracticeAddress): AreaScore & { practice: string } {
  // The scale's ends bound what a practice draw takes; a score below 0 (possible in MT, k·θ + d for θ near −4) practises at 0.
  const score = Math.min(SCORE_MAX, Math.max(SCORE_MIN, area.score))
  return { ...area, practice: practiceAddress(area.discipline, score) }
}

/** The answers of POST /v1/scores: the data layer's scores as the contract's body, its problems as 422s. */
export class ScoreAnswers {
  readonly practice: PracticeScorer
  readonly sheets: SheetScorer

  constructor (catalog: Catalog, sheets: SheetScorer = new SheetScorer()) {
    this.practice = new PracticeScorer(catalog)
    this.sheets = sheets
  }

  /** The body of the answer to a request already checked against ScoreRequestSchema; throws the 422s. */
  score (request: ScoreRequest, practiceAddress: PracticeAddress): PreparedBody {
    let answer: Record<string, unknown>
    if (typeof request.answers === 'string') {
      const sheet = request as Extract<ScoreRequest, { answers: string }>
      const result = this.sheets.score(sheet)
      if (isSheetProblem(result)) throw new ApiError(422, result.message)
      answer = { year: sheet.year, application: null, booklet: result.booklet, method: 'inep-3pl-eap', areas: result.area === null ? [] : [withPractice(result.area, practiceAddress)] }
    } else {
      const run = request as Extract<ScoreRequest, { answers: Record<string, string> }>
      const result = this.practice.score(run)
      if (isPracticeProblem(result)) throw new ApiError(422, result.message)
      answer = { year: result.year, application: result.application, method: 'inep-3pl-eap', areas: result.areas.map((area) => withPractice(area, practiceAddress)) }
    }
    return new PreparedBody(Buffer.from(JSON.stringify(answer)), { effort: 'fast', cacheControl: NO_STORE })
  }
}
