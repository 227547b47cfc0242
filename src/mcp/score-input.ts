import type { TObject } from 'typebox'
import { AREA_BLOCK } from '../data/official/exam-layout.ts'
import { AREAS, LETTERS } from '../data/record-schemas.ts'
import { ApiError, describeValue } from '../http/errors.ts'
import { AnswerSheetSchema, PracticeRunSchema, type ScoreRequest } from '../http/schemas/scores.ts'
import { argumentError, descriptionOf, choiceKind, integerKind, listKind, readArgument, textKind, type ArgumentKind, type ToolArguments } from './argument-kinds.ts'
import { APPLICATION_KIND, closedObject, LANGUAGE_KIND } from './tool-input.ts'

/*
 * score_answers' input: the two forms of POST /v1/scores' body as one closed object with one
 * property per form, `sheet` (an answer sheet: one string of letters, with its `booklet`) or
 * `answers` (a practice run: a list of `{ index, answer }`), exactly one of them, rather than the
 * body's one `answers` that is either a string or a map keyed by index (an `anyOf` and a map, which
 * agent frameworks drop or refuse). Read back into the body, which the endpoint then scores.
 */

/** The sheet's lengths: an area's 45 letters, or 50 for linguagens in INEP's microdata form. */
const SHEET_LENGTHS = [45, 50]
/** An exam's questions, four areas of 45: every index a practice run can answer. */
const EXAM_QUESTIONS = AREAS.length * AREA_BLOCK

const yearKind = integerKind({ minimum: 1 })
const bookletKind = integerKind({ minimum: 1 })
const SHEET_GRAMMAR = `the booklet's letters in its order, ${SHEET_LENGTHS.join(' or ')} characters`
const sheetText = textKind({ minLength: Math.min(...SHEET_LENGTHS), maxLength: Math.max(...SHEET_LENGTHS), grammar: SHEET_GRAMMAR })
/** A sheet: a text of one of SHEET_LENGTHS (its schema says the shortest and the longest). */
const sheetKind: ArgumentKind<string> = {
  schema: sheetText.schema,
  read: (name, value) => {
    const sheet = sheetText.read(name, value)
    if (!SHEET_LENGTHS.includes([...sheet].length)) throw argumentError(name, SHEET_GRAMMAR, value)
    return sheet
  }
}
const indexKind = integerKind({ minimum: 1, maximum: EXAM_QUESTIONS })
const letterKind = choiceKind(LETTERS)

interface Answer { index: number, answer: typeof LETTERS[number] }

/** One answer of a practice run: `{ index, answer }` and nothing else. */
const answerKind: ArgumentKind<Answer> = {
  schema: (annotations) => closedObject({
    index: indexKind.schema({ description: `The question's index in the exam (1–${EXAM_QUESTIONS}), as get_question and search_questions give it` }),
    answer: letterKind.schema({ description: 'The letter marked, A to E' })
  }, ['index', 'answer'], annotations),
  read: (name, value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw argumentError(name, 'an object { index, answer }', value)
    const entry = value as ToolArguments
    const other = Object.keys(entry).find((key) => key !== 'index' && key !== 'answer')
    if (other !== undefined) throw new ApiError(400, `${name} has ${describeValue(other)}: an answer is { index, answer }`)
    return { index: readArgument(entry, 'index', indexKind, true, `${name}.index`)!, answer: readArgument(entry, 'answer', letterKind, true, `${name}.answer`)! }
  }
}

const answersKind = listKind(answerKind, { maxItems: EXAM_QUESTIONS, items: 'answers { index, answer }', itemSchema: { description: 'One answer' } })

export const SCORE_INPUT: TObject = closedObject({
  year: yearKind.schema({ description: 'Year of the exam (a practice run) or of the booklet (an answer sheet)' }),
  sheet: sheetKind.schema({ description: 'An answer sheet: the letters marked in the booklet\'s order, 45 (50 for linguagens from 2010: English five, Spanish five, then the forty common); any other character is a blank. With `booklet`' }),
  booklet: bookletKind.schema({ description: `${descriptionOf(AnswerSheetSchema.properties.booklet)}: required with \`sheet\`` }),
  answers: answersKind.schema({ description: 'A practice run: the letters marked, by question index. An area with one answer is scored, its unanswered questions counted wrong' }),
  application: APPLICATION_KIND.schema({ description: 'With `answers`: `regular` (default) or `ppl` (the second application)' }),
  language: LANGUAGE_KIND.schema({ description: descriptionOf(PracticeRunSchema.properties.language) })
}, ['year'])

/** Which form a request of score_answers is: the sheet's messages say `sheet` where the body's say `answers`. */
export type ScoreForm = 'sheet' | 'answers'

/**
 * POST /v1/scores' body from score_answers' arguments, and its form; throws ApiError 400 naming the
 * argument for what the input schema does not allow, or a form without what it needs.
 */
export function readScoreRequest (args: ToolArguments): { body: ScoreRequest, form: ScoreForm } {
  const year = readArgument(args, 'year', yearKind, true)!
  const sheet = readArgument(args, 'sheet', sheetKind)
  const answers = readArgument(args, 'answers', answersKind)
  const language = readArgument(args, 'language', LANGUAGE_KIND)
  const withLanguage = language === undefined ? {} : { language }
  // null is left out, as readArgument has it.
  const given = (name: string) => args[name] !== undefined && args[name] !== null
  if (sheet !== undefined && answers !== undefined) throw new ApiError(400, 'sheet and answers are two forms of score_answers: give one of them')
  if (sheet !== undefined) {
    if (given('application')) throw new ApiError(400, 'application is taken with answers only: with sheet, the booklet says which exam it is')
    const booklet = readArgument(args, 'booklet', bookletKind)
    if (booklet === undefined) throw new ApiError(400, 'booklet is required with sheet')
    return { body: { year, booklet, ...withLanguage, answers: sheet }, form: 'sheet' }
  }
  if (answers === undefined) throw new ApiError(400, 'sheet or answers is required: an answer sheet (sheet, with booklet) or a practice run (answers: [{ index, answer }, …])')
  if (given('booklet')) throw new ApiError(400, 'booklet is taken with sheet only: a practice run names its exam by year and application')
  const application = readArgument(args, 'application', APPLICATION_KIND)
  const letters: Record<string, Answer['answer']> = {}
  for (const { index, answer } of answers) {
    if (Object.hasOwn(letters, index)) throw new ApiError(400, `answers has index ${index} twice`)
    letters[index] = answer
  }
  return { body: { year, ...(application === undefined ? {} : { application }), ...withLanguage, answers: letters }, form: 'answers' }
}

/** A refusal of the scores' answer in the tool's words: what the body calls `answers` is `sheet` for an answer sheet. */
export function inFormWords (error: unknown, form: ScoreForm): unknown {
  if (form === 'sheet' && error instanceof ApiError && error.message.startsWith('answers ')) return new ApiError(error.statusCode, `sheet ${error.message.slice('answers '.length)}`)
  return error
}
