import Type from 'typebox'

/*
 * The seed's field tables (sections 2.1–2.6) as TypeBox schemas. They are the one source for
 * validating the dataset at load time, for the TypeScript types, and (through src/http/schemas)
 * for response validation and the OpenAPI document.
 */

export const LETTERS = ['A', 'B', 'C', 'D', 'E'] as const
export const LetterSchema = Type.Enum(LETTERS, {
  description: 'One of A, B, C, D, E'
})

const NullableString = (description: string) => Type.Union([Type.String(), Type.Null()], { description })

export const OptionSchema = Type.Object({
  label: Type.String({ description: 'Human-readable name', examples: ['Linguagens, Códigos e suas Tecnologias'] }),
  value: Type.String({ description: 'Lower-case slug; what question records carry in `discipline` and `language`', examples: ['linguagens'] })
}, { title: 'Option', description: 'A discipline or a foreign language of an exam' })

export const ExamSummarySchema = Type.Object({
  title: Type.String({ description: 'Title of the exam, "<exam name> <year>"', examples: ['ENEM 2020'] }),
  year: Type.Integer({ minimum: 1, description: 'Year the exam was applied', examples: [2020] }),
  disciplines: Type.Array(OptionSchema, { description: 'Disciplines of the exam' }),
  languages: Type.Array(OptionSchema, { description: 'Foreign languages of the exam; the first is the default language view' })
}, { title: 'ExamSummary', description: 'An exam (one per year of application)' })

export const QuestionSummarySchema = Type.Object({
  title: Type.String({ description: 'Title of the question, "Questão <index> - <exam name> <year>"', examples: ['Questão 1 - ENEM 2020'] }),
  index: Type.Integer({ minimum: 1, description: 'Position of the question in the exam', examples: [1] }),
  discipline: NullableString('Discipline slug'),
  language: NullableString('Language slug; null for a question common to every language')
}, { title: 'QuestionSummary', description: 'A question entry of an exam' })

export const ExamDetailsFileSchema = Type.Object({
  ...ExamSummarySchema.properties,
  questions: Type.Array(QuestionSummarySchema)
})

export const AlternativeSchema = Type.Object({
  letter: LetterSchema,
  text: NullableString('Text of the alternative (Markdown)'),
  file: NullableString('Address of an image that is (part of) the alternative'),
  isCorrect: Type.Boolean({ description: 'True when this alternative is the correct one' })
}, { title: 'Alternative', description: 'One alternative of a question' })

export const QuestionSchema = Type.Object({
  title: Type.String({ description: 'Title of the question', examples: ['Questão 1 - ENEM 2020'] }),
  index: Type.Integer({ minimum: 1, description: 'Number of the question in the exam', examples: [1] }),
  discipline: NullableString('Discipline slug'),
  language: NullableString('Language slug; null for a question common to every language'),
  year: Type.Integer({ minimum: 1, description: 'Year of the exam', examples: [2020] }),
  context: NullableString('Context of the question, in Markdown; images are Markdown images pointing at /files'),
  files: Type.Array(Type.String(), { description: 'Addresses of the images of the question' }),
  correctAlternative: LetterSchema,
  alternativesIntroduction: NullableString('Text shown before the alternatives'),
  alternatives: Type.Array(AlternativeSchema, { description: 'The alternatives of the question' })
}, { title: 'Question', description: 'A full question record' })

export type Option = Type.Static<typeof OptionSchema>
export type ExamSummary = Type.Static<typeof ExamSummarySchema>
export type QuestionSummary = Type.Static<typeof QuestionSummarySchema>
export type ExamDetailsFile = Type.Static<typeof ExamDetailsFileSchema>
export type Alternative = Type.Static<typeof AlternativeSchema>
export type Question = Type.Static<typeof QuestionSchema>
export type Letter = typeof LETTERS[number]
