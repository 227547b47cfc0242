import type { TObject } from 'typebox'
import Type from 'typebox'
import { AlternativeSchema, InepSchema, LetterSchema, QuestionSchema, type Question } from '../data/record-schemas.ts'
import { FoundQuestionPageSchema, PracticeDrawSchema, RandomDrawSchema } from '../http/schemas/finding.ts'
import { ExamListSchema } from '../http/schemas/responses.ts'
import { descriptionOf } from './argument-kinds.ts'

/*
 * What the tools answer, as the `outputSchema` each declares: the endpoints' own TypeBox answer
 * schemas, with the key optional in every question record (a tool withholds it unless asked), and
 * list_exams' `{ exams }` wrapper (a structured result must be an object). Clients validate
 * `structuredContent` against it (the official SDK's client does): the tests check every tool's
 * result against it through that client.
 */

/** A question record as a tool gives it: the endpoint's record, its key left out unless the call asked for it. */
export const ToolQuestionSchema = Type.Object({
  ...QuestionSchema.properties,
  correctAlternative: Type.Optional(QuestionSchema.properties.correctAlternative),
  alternatives: Type.Array(Type.Object({
    ...AlternativeSchema.properties,
    isCorrect: Type.Optional(AlternativeSchema.properties.isCorrect)
  }, { title: 'ToolAlternative', description: 'One alternative; `isCorrect` only when the key was asked for' }), { description: descriptionOf(QuestionSchema.properties.alternatives) }),
  inep: Type.Union([Type.Object({
    ...InepSchema.properties,
    key: Type.Optional(InepSchema.properties.key)
  }, { title: 'ToolInep', description: 'INEP\'s official facts about the question; `key` only when the key was asked for' }), Type.Null()], { description: descriptionOf(QuestionSchema.properties.inep) })
}, { title: 'ToolQuestion', description: 'A question record: without its key (`correctAlternative`, each alternative\'s `isCorrect`, `inep.key`) unless the call set `reveal_answer`' })

export type ToolQuestion = Type.Static<typeof ToolQuestionSchema>

/** A record without its answer: no `correctAlternative`, no alternative's `isCorrect`, no `inep.key`. */
export function withoutKey (question: Question): ToolQuestion {
  const { correctAlternative: _key, alternatives, inep, ...rest } = question
  const inepWithoutKey = inep === null ? null : (({ key: _official, ...facts }) => facts)(inep)
  return { ...rest, alternatives: alternatives.map(({ isCorrect: _isCorrect, ...alternative }) => alternative), inep: inepWithoutKey }
}

/** The records as a tool gives them: whole when the call asked for the key, else without it. */
export function shownQuestions (questions: readonly Question[], reveal: boolean): ToolQuestion[] {
  return reveal ? [...questions] : questions.map(withoutKey)
}

/**
 * A question record in a list: as get_question's, its `inep` facts checked as an object (or null)
 * without their members' schemas, which get_question's output schema holds: three lists carrying
 * them again were 2.4 KB of tools/list (bound: 24 KB, issue 60).
 */
const ListedQuestionSchema = Type.Object({
  ...ToolQuestionSchema.properties,
  inep: Type.Union([Type.Object({}), Type.Null()], { description: descriptionOf(QuestionSchema.properties.inep) })
}, { title: 'ToolListedQuestion', description: descriptionOf(ToolQuestionSchema) })

/** An endpoint's answer schema with its `questions` as a tool gives them. */
function withToolQuestions (schema: TObject, title: string): TObject {
  return Type.Object({
    ...schema.properties,
    questions: Type.Array(ListedQuestionSchema, { description: descriptionOf(schema.properties.questions) })
  }, { title, description: descriptionOf(schema) })
}

export const ExamListOutputSchema = Type.Object({ exams: ExamListSchema }, { title: 'ExamList', description: 'Every exam the service holds, newest year first' })
export const QuestionPageOutputSchema = withToolQuestions(FoundQuestionPageSchema, 'ToolQuestionPage')
export const RandomDrawOutputSchema = withToolQuestions(RandomDrawSchema, 'ToolRandomDraw')
export const PracticeDrawOutputSchema = withToolQuestions(PracticeDrawSchema, 'ToolPracticeDraw')

/** check_answer's result. */
export const AnswerCheckSchema = Type.Object({
  year: QuestionSchema.properties.year,
  application: QuestionSchema.properties.application,
  index: QuestionSchema.properties.index,
  language: QuestionSchema.properties.language,
  answer: Type.Enum(LetterSchema.enum, { description: 'The letter checked' }),
  correct: Type.Boolean({ description: 'Whether it is the key' }),
  correctAlternative: Type.Enum(LetterSchema.enum, { description: 'The key (INEP\'s official one, where it corrects the dataset)' }),
  annulled: Type.Boolean({ description: 'Whether INEP annulled the question: it counts for no one' })
}, { title: 'AnswerCheck', description: 'Whether a letter is the right answer to a question' })

export type AnswerCheck = Type.Static<typeof AnswerCheckSchema>
