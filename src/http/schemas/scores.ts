import Type from 'typebox'
import { AreaSchema, LETTERS, LetterSchema } from '../../data/record-schemas.ts'
import { isSheetProblem, SheetScorer } from '../../data/scores/sheet-scores.ts'
import { AREA_BLOCK } from '../../data/official/exam-layout.ts'
import type { AreaScore } from '../../data/scores/area-scoring.ts'
import { describeValue } from '../errors.ts'
import { firstError } from './first-error.ts'

/*
 * The body and the answer of POST /v1/scores (the contract's "Scores the way INEP computes them"):
 * two forms of request, told apart by `answers` (an object in our numbering, a string for an
 * answer sheet), each with its example for the document.
 */

/** Largest body accepted, in bytes. */
export const SCORES_BODY_LIMIT = 16 * 1024

const PRACTICE_EXAMPLE = { year: 2023, application: 'regular', language: 'ingles', answers: { 1: 'A', 2: 'C', 46: 'C', 136: 'B', 161: 'D' } }
/** 2023's blue CH booklet: 45 letters, `*` for the blanks. */
const SHEET_EXAMPLE = { year: 2023, booklet: 1191, answers: 'CABBAEDCEB*ADCBEEDACABCDEABDCBEAEDCBABCDEAB*C' }
/** 2019's blue LC booklet in the microdata's 50-character form: the English five, the Spanish five (`99999`: not taken), the forty common. */
const WIDE_SHEET_EXAMPLE = { year: 2019, booklet: 511, language: 'ingles', answers: 'ABDCE99999BCADEEBCDAACBDEDBCAEBCDEABCDEABDCEABCDEA' }

/** Most answers a practice run holds: an exam has four areas of 45 questions, one answer each. */
const MAX_ANSWERS = 4 * AREA_BLOCK

/** A question index as a key of `answers`: a decimal integer, no leading zero (0 is well formed, and outside every exam: 422). */
const INDEX_KEY = /^(?:0|[1-9][0-9]{0,5})$/

/** The request body's examples for the document, by name. */
export const SCORE_REQUEST_EXAMPLES = {
  practiceRun: { summary: 'A practice run in our numbering (2023, English)', value: PRACTICE_EXAMPLE },
  answerSheet: { summary: "An answer sheet: 2023's blue CH booklet", value: SHEET_EXAMPLE },
  answerSheetWide: { summary: "A linguagens sheet in the microdata's 50-character form (2019's blue LC booklet)", value: WIDE_SHEET_EXAMPLE }
}

/**
 * The answers to the answer-sheet examples, computed from the committed booklets (the practice run's
 * needs the dataset); `answerOfArea` writes an area's score as the answer does (with its practice address).
 */
export function scoreAnswerExamples (answerOfArea: (area: AreaScore) => unknown): Record<string, { summary: string, value: unknown }> {
  const sheets = new SheetScorer()
  const answerOf = (request: typeof SHEET_EXAMPLE & { language?: string }) => {
    const result = sheets.score(request)
    if (isSheetProblem(result)) throw new Error(`the example sheet cannot be scored: ${result.message}`)
    return { year: request.year, application: null, booklet: result.booklet, method: 'inep-3pl-eap', areas: result.area === null ? [] : [answerOfArea(result.area)] }
  }
  return {
    answerSheet: { summary: SCORE_REQUEST_EXAMPLES.answerSheet.summary, value: answerOf(SHEET_EXAMPLE) },
    answerSheetWide: { summary: SCORE_REQUEST_EXAMPLES.answerSheetWide.summary, value: answerOf(WIDE_SHEET_EXAMPLE) }
  }
}

/** The bounds of a score request's text fields and year, for the schemas and for bodyProblem's quick check of a plain run. */
const TEXT_FIELD_LENGTH = { minLength: 1, maxLength: 40 }
const YEAR_MINIMUM = 1

const LanguageField = Type.String({ ...TEXT_FIELD_LENGTH, description: 'Foreign language slug (`ingles`, `espanhol`): required when linguagens is answered' })

export const PracticeRunSchema = Type.Object({
  year: Type.Integer({ minimum: YEAR_MINIMUM, description: 'Year of an exam the service serves' }),
  application: Type.Optional(Type.String({ ...TEXT_FIELD_LENGTH, description: 'Which application of that year: `regular` (the default) or `ppl` (the second application), an exam the service serves' })),
  language: Type.Optional(LanguageField),
  answers: Type.Record(Type.String({ pattern: INDEX_KEY.source }), LetterSchema, {
    additionalProperties: false,
    // Checked before the entries, so that a body of thousands of answers is refused at once.
    maxProperties: MAX_ANSWERS,
    description: `Letters (\`A\`–\`E\`) by question index of the exam (\`"1"\`–\`"180"\`), at most ${MAX_ANSWERS}. An area is scored when one of its questions is answered; its other questions count as wrong`
  })
}, { additionalProperties: false, title: 'PracticeRun', description: 'A practice run on our questions: answers by question index of an exam we serve', examples: [PRACTICE_EXAMPLE] })

export const AnswerSheetSchema = Type.Object({
  year: Type.Integer({ minimum: 1, description: 'Year of the booklet (every year with INEP item data, 2009–2025)' }),
  booklet: Type.Integer({ minimum: 1, description: "INEP's booklet code (`CO_PROVA`) of one area" }),
  language: Type.Optional(LanguageField),
  answers: Type.String({ description: "The letters marked, in the booklet's order: 45 characters (50 for linguagens from 2010 on, as INEP's microdata write them: the English five, the Spanish five, the forty common items). Any character other than `A`–`E` is a blank" })
}, { additionalProperties: false, title: 'AnswerSheet', description: "An answer sheet: one area of one INEP booklet, in that booklet's order", examples: [SHEET_EXAMPLE, WIDE_SHEET_EXAMPLE] })

export const ScoreRequestSchema = Type.Union([PracticeRunSchema, AnswerSheetSchema], {
  title: 'ScoreRequest',
  examples: [PRACTICE_EXAMPLE, SHEET_EXAMPLE, WIDE_SHEET_EXAMPLE]
})

export type PracticeRun = Type.Static<typeof PracticeRunSchema>
export type AnswerSheet = Type.Static<typeof AnswerSheetSchema>
export type ScoreRequest = Type.Static<typeof ScoreRequestSchema>

export const LeftOutSchema = Type.Object({
  index: Type.Integer({ minimum: 1, description: 'Question index in our numbering; for an answer sheet, the position on the sheet as sent (1–45, or 1–50)' }),
  reason: Type.Enum(['annulled', 'not-taken-language', 'no-parameters', 'missing'], { description: '`annulled` (INEP annulled the item), `not-taken-language` (the other language\'s item), `no-parameters` (INEP published no IRT parameters: it left the item out), `missing` (the dataset lacks the question)' })
}, { title: 'LeftOut', description: 'A position that does not count' })

export const AreaScoreSchema = Type.Object({
  area: AreaSchema,
  discipline: Type.String({ description: 'Discipline slug of the area' }),
  score: Type.Number({ description: 'round(k·θ + d, 1) with INEP\'s constants for the area' }),
  theta: Type.Number({ description: 'θ: the expected a posteriori ability, to 4 decimals' }),
  standardError: Type.Number({ description: 'Posterior standard deviation of θ, to 4 decimals' }),
  correct: Type.Integer({ minimum: 0, description: 'Counted items answered right' }),
  scored: Type.Integer({ minimum: 0, description: 'Items counted' }),
  leftOut: Type.Array(LeftOutSchema, { description: 'Positions that do not count, by index' }),
  skills: Type.Array(Type.Object({
    code: Type.String({ description: 'The skill (habilidade of INEP\'s Matriz; `/skills` gives its text)', examples: ['MT-H21'] }),
    scored: Type.Integer({ minimum: 1, description: 'Counted items of this skill' }),
    correct: Type.Integer({ minimum: 0, description: 'Of those, answered right' })
  }, { title: 'SkillOutcome' }), { description: 'Each skill of the area\'s counted items, by number (items without a skill are in none)' }),
  practice: Type.String({ description: 'The address of the practice draw at this score (`/questions/practice`): questions that best measure a candidate of this score in this area', examples: ['/v1/questions/practice?discipline=matematica&score=612'] })
}, { title: 'AreaScore', description: 'The score of one area' })

export const ScoreAnswerSchema = Type.Object({
  year: Type.Integer(),
  application: Type.Union([Type.String(), Type.Null()], { description: 'The exam\'s application; null for an answer sheet (INEP\'s item file does not say which application a booklet belongs to)' }),
  booklet: Type.Optional(Type.Object({
    code: Type.Integer(),
    area: AreaSchema,
    colour: Type.String({ description: 'Colour as INEP writes it (`azul`, `laranja - braile`, …)' })
  }, { description: 'For an answer sheet: the booklet scored' })),
  method: Type.Literal('inep-3pl-eap', { description: 'Three-parameter logistic model (D = 1), EAP under a standard normal prior over 40 points on [−4, 4], as INEP\'s microEnem computes it' }),
  areas: Type.Array(AreaScoreSchema, { description: 'Scored areas, in the exam\'s order; an area left wholly blank is absent' })
}, { title: 'ScoreAnswer', description: 'Scores computed the way INEP computes them' })

export type ScoreAnswer = Type.Static<typeof ScoreAnswerSchema>

/**
 * The check of a body against ScoreRequestSchema: undefined when it is one of the two forms, or
 * why not, naming the field. The form is told by `answers` (a string is a sheet) or by `booklet`,
 * and that form's first error is reported. Its cost is that of reaching the first error
 * (src/http/schemas/first-error.ts), and the value is described by a bounded prefix.
 */
export function bodyProblem (body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return `The body must be a JSON object, got ${describeValue(body)}`
  const fields = body as Record<string, unknown>
  const sheet = typeof fields.answers === 'string' || 'booklet' in fields
  const form = sheet ? 'an answer sheet' : 'a practice run'
  const schema = sheet ? AnswerSheetSchema : PracticeRunSchema
  const required = sheet ? ['year', 'booklet', 'answers'] : ['year', 'answers']
  const absent = required.find((name) => !(name in fields))
  if (absent !== undefined) return `body field ${absent} is required for ${form}`
  const known = sheet ? SHEET_FIELDS : PRACTICE_FIELDS
  for (const name of Object.keys(fields)) if (!known.includes(name)) return `body field ${describeValue(name)} is not a field of ${form} (${known.join(', ')})`
  const answers = fields.answers
  if (!sheet && typeof answers === 'object' && answers !== null && !Array.isArray(answers)) {
    const keys = Object.keys(answers)
    if (keys.length > MAX_ANSWERS) return `body field answers has ${keys.length} answers; an exam has ${MAX_ANSWERS} questions`
    if (isPlainPracticeRun(fields, answers as Record<string, unknown>, keys.length)) return undefined
    const bad = keys.find((key) => !INDEX_KEY.test(key))
    if (bad !== undefined) return `body field answers has key ${describeValue(bad)}; keys are question indexes (decimal integers)`
  }
  const first = firstError(schema, body)
  if (first === undefined) return undefined
  const pathNames = first.instancePath.split('/').slice(1).map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
  const value = pathNames.reduce<unknown>((node, name) => (node as Record<string, unknown> | undefined)?.[name], body)
  const what = pathNames[0] === 'answers' && pathNames.length === 2 ? 'must be one of A, B, C, D, E' : first.message
  return `body field ${pathNames.join('.') || '(root)'} ${what}, got ${describeValue(value)}`
}

const LETTER_SET: ReadonlySet<unknown> = new Set(LETTERS)
const PRACTICE_FIELDS: readonly string[] = Object.keys(PracticeRunSchema.properties)
const SHEET_FIELDS: readonly string[] = Object.keys(AnswerSheetSchema.properties)

/** A field of PracticeRunSchema's strings (application, language): absent, or within their lengths. */
function isShortText (value: unknown): boolean {
  // Within the bounds in UTF-16 units is within them however the schema counts characters; anything else goes to the full check.
  return value === undefined || (typeof value === 'string' && value.length >= TEXT_FIELD_LENGTH.minLength && value.length <= TEXT_FIELD_LENGTH.maxLength)
}

/**
 * Whether a practice run whose field names bodyProblem has already checked, with `keyCount` answers,
 * passes the rest of PracticeRunSchema: an integer year of at least 1, short texts, every key an
 * index of the exam (1–180, the number's own spelling) and every answer a letter. Only ever says
 * yes to a body the schema accepts; a no goes to the full checks, which name the error. The keys
 * are read by number, and their count tells that no other key is there: no string per key, no
 * pattern run on each (TypeBox's compiled check of the answers' record, the key pattern twice and
 * an array per entry, cost more than scoring them: bench/results.md).
 */
function isPlainPracticeRun (fields: Record<string, unknown>, answers: Record<string, unknown>, keyCount: number): boolean {
  const { year } = fields
  if (!Number.isInteger(year) || (year as number) < YEAR_MINIMUM || !isShortText(fields.application) || !isShortText(fields.language)) return false
  let letters = 0
  for (let index = 1; index <= MAX_ANSWERS; index++) {
    const answer = answers[index]
    if (answer === undefined) continue
    if (!LETTER_SET.has(answer)) return false
    letters++
  }
  return letters === keyCount
}
