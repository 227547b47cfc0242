import Type from 'typebox'
import { APPLICATIONS } from './exam-key.ts'

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

export const ApplicationSchema = Type.Enum(APPLICATIONS, {
  description: 'Which application of the year: `regular`, or `ppl`, the second application (reaplicação/PPL)',
  examples: ['regular']
})

const examTitle = Type.String({ description: 'Title of the exam, "<exam name> <year>"', examples: ['ENEM 2020'] })
const examYear = Type.Integer({ minimum: 1, description: 'Year the exam was applied', examples: [2020] })
const examDisciplines = Type.Array(OptionSchema, { description: 'Disciplines of the exam' })
const examLanguages = Type.Array(OptionSchema, { description: 'Foreign languages of the exam; the first is the default language view' })

/** An exam as exams.json (and its details.json) lists it: no `application` means regular. */
export const DatasetExamSummarySchema = Type.Object({
  title: examTitle,
  year: examYear,
  application: Type.Optional(ApplicationSchema),
  disciplines: examDisciplines,
  languages: examLanguages
}, { title: 'DatasetExamSummary', description: 'An exam as the dataset files list it' })

export const ExamSummarySchema = Type.Object({
  title: examTitle,
  year: examYear,
  application: ApplicationSchema,
  disciplines: examDisciplines,
  languages: examLanguages
}, { title: 'ExamSummary', description: 'An exam (one per year and application)' })

export const QuestionSummarySchema = Type.Object({
  title: Type.String({ description: 'Title of the question, "Questão <index> - <exam name> <year>"', examples: ['Questão 1 - ENEM 2020'] }),
  index: Type.Integer({ minimum: 1, description: 'Position of the question in the exam', examples: [1] }),
  discipline: NullableString('Discipline slug'),
  language: NullableString('Language slug; null for a question common to every language')
}, { title: 'QuestionSummary', description: 'A question entry of an exam' })

/**
 * Why a served record is left out of every draw (src/data/record-statement.ts): `no-statement`, it shows
 * nothing before its asking sentence, neither `context` nor a figure in `files`.
 */
export const IncompleteSchema = Type.Union([
  Type.Object({
    reason: Type.Literal('no-statement', {
      description: '`no-statement`: no `context` and no figure in `files`, so the record shows only its asking sentence (`alternativesIntroduction`): the text or figure the question asks about is missing, or was run into the asking sentence. Images of the alternatives are answers, not a statement'
    })
  }, { title: 'Incomplete', description: 'Why the record is incomplete' }),
  Type.Null()
], { description: 'Null for a whole record; otherwise why it is incomplete. An incomplete record is served but never drawn (random, practice, the Simulado)' })

/** A question entry of an exam as the service serves it: the file's entry, and whether the record is incomplete. */
export const ServedQuestionSummarySchema = Type.Object({
  ...QuestionSummarySchema.properties,
  incomplete: IncompleteSchema
}, { title: 'QuestionSummary', description: 'A question entry of an exam' })

export const ExamDetailsFileSchema = Type.Object({
  ...DatasetExamSummarySchema.properties,
  questions: Type.Array(QuestionSummarySchema)
})

export const AlternativeSchema = Type.Object({
  letter: LetterSchema,
  text: NullableString('Text of the alternative (Markdown)'),
  file: NullableString('Address of an image that is (part of) the alternative'),
  isCorrect: Type.Boolean({ description: 'True when this alternative is the correct one' })
}, { title: 'Alternative', description: 'One alternative of a question' })

/** The question record as a dataset file holds it: what the loader validates, before corrections. */
export const DatasetQuestionSchema = Type.Object({
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
}, { title: 'DatasetQuestion', description: 'A question record as the dataset files hold it' })

/**
 * A Markdown image in a record's text (`context`, an alternative's `text`): its alternative text
 * (group 1) and its address (group 2). Global: use it with `replace` or `matchAll`.
 */
export const MARKDOWN_IMAGE = /!\[([^\]]*)\]\(([^)]*)\)/g

export const AREAS = ['LC', 'CH', 'CN', 'MT'] as const
export const AreaSchema = Type.Enum(AREAS, {
  description: 'INEP area: LC linguagens, CH ciencias-humanas, CN ciencias-natureza, MT matematica'
})
/** The discipline slug the service serves for each INEP area. */
export const DISCIPLINE_OF_AREA = {
  LC: 'linguagens', CH: 'ciencias-humanas', CN: 'ciencias-natureza', MT: 'matematica'
} as const satisfies Record<typeof AREAS[number], string>

export const OfficialKeySchema = Type.Enum([...LETTERS, 'X'], {
  description: 'The official key: A–E, or X when INEP annulled the question'
})

export const IrtSchema = Type.Object({
  a: Type.Number({ description: 'Discrimination' }),
  b: Type.Number({ description: 'Difficulty' }),
  c: Type.Number({ description: 'Guessing' })
}, { title: 'Irt', description: "INEP's item response theory parameters of the item" })

export const BookletSchema = Type.Object({
  code: Type.Integer({ description: "INEP's booklet code (CO_PROVA) of the question's area" }),
  colour: Type.String({ description: 'The booklet colour (TX_COR), lower-cased as INEP writes it: azul, laranja - braile, leitor tela…' })
}, { title: 'Booklet', description: "The INEP booklet whose order our numbering follows for this question's area" })

export const InepSchema = Type.Object({
  item: Type.Union([Type.Integer(), Type.Null()], { description: 'INEP item code (CO_ITEM); null when no source gives it' }),
  area: AreaSchema,
  skill: Type.Union([Type.Integer({ minimum: 1, maximum: 30 }), Type.Null()], { description: "The skill (habilidade) number in the area's matrix; null when no source gives it" }),
  key: OfficialKeySchema,
  annulled: Type.Boolean({ description: 'True when INEP annulled the question (key X); the record keeps its letter' }),
  excludedFromScoring: Type.Union([Type.Boolean(), Type.Null()], { description: "True when INEP left the item out of the score; null when no source states it (years without INEP's item data)" }),
  irt: Type.Union([IrtSchema, Type.Null()], { description: 'IRT parameters; null when INEP dropped the item or no source gives them' }),
  difficulty: Type.Union([Type.Number(), Type.Null()], {
    description: "The item's `b` on its area's score scale, round(k·b + d, 1) with the constants of the scores (a candidate of that score answers it right with a chance halfway between the item's guessing chance `c` and certainty); null without parameters",
    examples: [624.7]
  }),
  booklet: Type.Union([BookletSchema, Type.Null()], { description: "The booklet the item was found in (INEP's item data); null when the facts come from answer-key PDFs alone" }),
  sources: Type.Array(Type.String(), { description: 'The official files these facts come from (INEP answer-key PDFs, INEP item data)' })
}, { title: 'Inep', description: "INEP's official facts about the question; the service's answer key and discipline follow them" })

const { context, files, correctAlternative, alternativesIntroduction, alternatives, ...identity } = DatasetQuestionSchema.properties

/**
 * A question record as the service serves it: the dataset's record with corrections applied, plus
 * `application` (from its exam: record files do not carry it) and `inep`.
 */
export const QuestionSchema = Type.Object({
  ...identity,
  application: Type.Enum(APPLICATIONS, { description: 'The application of the exam the question belongs to: `regular` or `ppl` (second application)' }),
  context,
  files,
  correctAlternative,
  alternativesIntroduction,
  alternatives,
  inep: Type.Union([InepSchema, Type.Null()], { description: "INEP's official facts about the question; null where none is known" }),
  incomplete: IncompleteSchema
}, { title: 'Question', description: 'A full question record' })

export type Option = Type.Static<typeof OptionSchema>
export type ExamSummary = Type.Static<typeof ExamSummarySchema>
export type DatasetExamSummary = Type.Static<typeof DatasetExamSummarySchema>
export type QuestionSummary = Type.Static<typeof QuestionSummarySchema>
export type ServedQuestionSummary = Type.Static<typeof ServedQuestionSummarySchema>
export type Incomplete = Type.Static<typeof IncompleteSchema>
export type ExamDetailsFile = Type.Static<typeof ExamDetailsFileSchema>
export type Alternative = Type.Static<typeof AlternativeSchema>
export type DatasetQuestion = Type.Static<typeof DatasetQuestionSchema>
export type Question = Type.Static<typeof QuestionSchema>
export type Inep = Type.Static<typeof InepSchema>
export type Area = typeof AREAS[number]
export type OfficialKey = Type.Static<typeof OfficialKeySchema>
export type Letter = typeof LETTERS[number]
