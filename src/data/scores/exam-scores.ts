import { DEFAULT_APPLICATION, type Application } from '../exam-key.ts'
import type { Catalog, Exam } from '../catalog.ts'
import { AREA_BLOCK, areaOfIndex, areaOrder, examIndexOf } from '../official/exam-layout.ts'
import type { Area, Question } from '../record-schemas.ts'
import { recordSkill } from '../skills/skill-code.ts'
import { areaForm, scoreArea, type AreaForm, type AreaScore, type ItemFacts, type LeftOut } from './area-scoring.ts'

/*
 * The scores of a practice run on our questions: answers by question index of an exam we serve.
 * What counts is what the served records say (corrections applied): each record of the exam's
 * language view gives its served key and INEP's facts (`inep`: annulled, excludedFromScoring,
 * irt). A position of an area that the view lacks is left out as `missing`. A record that does not
 * show its statement (`incomplete`) still counts: a Simulado does not ask it, and a blank is wrong,
 * as on INEP's sheet, so that a run scores as the booklet with the same letters does. An exam none of whose
 * records carries INEP's parameters cannot be scored at all.
 */

export interface PracticeRequest {
  readonly year: number
  readonly application?: string | undefined
  readonly language?: string | undefined
  /** Letters by question index (as the JSON body's keys: decimal strings). */
  readonly answers: Readonly<Record<string, string>>
}

export interface PracticeScore {
  readonly year: number
  readonly application: string
  /** Scored areas in the exam's order; an area none of whose questions is answered is absent. */
  readonly areas: readonly AreaScore[]
}

export interface PracticeProblem {
  readonly field: 'year' | 'application' | 'language' | 'answers'
  readonly message: string
}

export class PracticeScorer {
  readonly #catalog: Catalog
  /** Forms by exam (year and application) and language view, worked out on first use. */
  readonly #forms = new Map<string, readonly AreaForm[]>()

  constructor (catalog: Catalog) {
    this.#catalog = catalog
  }

  score (request: PracticeRequest): PracticeScore | PracticeProblem {
    const application = request.application ?? DEFAULT_APPLICATION
    const missing = this.#catalog.missingExam(request.year, application)
    if (missing !== undefined) return missing
    const exam = this.#catalog.getExam(request.year, application as Application)!
    const letters = lettersByIndex(request)
    if (typeof letters === 'string') return { field: 'answers', message: `answers index ${letters} is outside the exam (1–${4 * AREA_BLOCK})` }
    const linguagensFrom = examIndexOf(request.year, 'LC', 1)
    const linguagensAnswered = letters.slice(linguagensFrom, linguagensFrom + AREA_BLOCK).some((letter) => letter !== undefined)
    if (request.language !== undefined && !exam.languageSlugs.includes(request.language)) {
      return { field: 'language', message: `language ${JSON.stringify(request.language)} is not one the ${request.year} exam offers; it offers ${exam.languageSlugs.join(', ') || 'none'}` }
    }
    if (linguagensAnswered && request.language === undefined && exam.languageSlugs.length > 0) {
      return { field: 'language', message: `language is required when linguagens is answered; the ${request.year} exam offers ${exam.languageSlugs.join(', ')}` }
    }
    const forms = this.#formsOf(exam, request.language ?? exam.defaultLanguage)
    if (forms === null) return { field: 'year', message: `year ${request.year} has no item parameters in our records yet, so it cannot be scored` }
    const areas: AreaScore[] = []
    for (const form of forms) {
      const score = scoreArea(form, (index) => letters[index])
      if (score !== null) areas.push(score)
    }
    return { year: request.year, application, areas }
  }

  /** The exam's area forms for a language view, or null when no record of it has INEP's parameters. */
  #formsOf (exam: Exam, language: string | null): readonly AreaForm[] | null {
    const key = `${exam.key}|${language}`
    let forms = this.#forms.get(key)
    if (forms === undefined) {
      const view = this.#catalog.languageView(exam, language, null)
      forms = view.some((record) => record.inep?.irt != null) ? areaForms(exam.summary.year, view) : []
      this.#forms.set(key, forms)
    }
    return forms.length === 0 ? null : forms
  }
}

/**
 * The answers by exam index in an array (each area reads every one of its positions, and a lookup
 * by number in an object of string keys converts the number each time), or the first key outside
 * the exam. A key counts as `answers[index]` reads it: only the number's own spelling ("7", not
 * "07"), yet any key that is not an index of the exam is refused.
 */
function lettersByIndex ({ year, answers }: PracticeRequest): Array<string | undefined> | string {
  const letters = new Array<string | undefined>(4 * AREA_BLOCK + 1)
  let found = 0
  for (let index = 1; index <= 4 * AREA_BLOCK; index++) {
    const letter = answers[index]
    if (letter !== undefined) found++
    letters[index] = letter
  }
  // Every key found by its number: nothing else to look at (the usual body, told without a string per key).
  const keys = Object.keys(answers)
  if (keys.length === found) return letters
  for (const key of keys) if (areaOfIndex(year, Number(key)) === null) return key
  // Keys such as "07" name an index of the exam yet are not read.
  return letters
}

function areaForms (year: number, view: readonly Question[]): AreaForm[] {
  const byIndex = new Map<number, Question>()
  // A language record wins over a null-language one at the same index, as the question endpoint does.
  for (const record of view) if (!byIndex.has(record.index) || record.language !== null) byIndex.set(record.index, record)
  return areaOrder(year).map((area: Area) => {
    const positions: Array<{ index: number, facts: ItemFacts } | LeftOut> = []
    for (let slot = 1; slot <= AREA_BLOCK; slot++) {
      const index = examIndexOf(year, area, slot)
      const record = byIndex.get(index)
      positions.push(record === undefined ? { index, reason: 'missing' } : { index, facts: factsOf(record) })
    }
    return areaForm(area, positions)
  })
}

/** What the served record says of its item: the served key, unless INEP annulled it. */
function factsOf (record: Question): ItemFacts {
  const inep = record.inep
  if (inep === null) return { item: null, key: record.correctAlternative, excluded: false, irt: null, skill: null }
  return {
    item: inep.item,
    key: inep.annulled ? 'X' : record.correctAlternative,
    excluded: inep.excludedFromScoring === true,
    irt: inep.irt,
    skill: recordSkill(record)
  }
}

export function isPracticeProblem (value: PracticeScore | PracticeProblem): value is PracticeProblem {
  return 'field' in value
}
