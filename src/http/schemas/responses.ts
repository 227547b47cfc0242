import Type from 'typebox'
import { ExamSummarySchema, QuestionSchema, ServedQuestionSummarySchema } from '../../data/record-schemas.ts'
import { ERROR_CODES } from '../error-codes.ts'
import { LIMIT_MAX } from './parameters.ts'

export const ExamListSchema = Type.Array(ExamSummarySchema, { description: 'Every exam, newest year first' })

export const ExamDetailSchema = Type.Object({
  ...ExamSummarySchema.properties,
  questions: Type.Array(ServedQuestionSummarySchema, {
    description: 'Every question entry of the exam (one per language variant), by index, then null language, then in the order of `languages`; `incomplete` marks a record without its statement, which no draw picks'
  })
}, { title: 'ExamDetail', description: 'An exam with the list of its question entries' })

export const PaginationMetadataSchema = Type.Object({
  limit: Type.Integer({ minimum: 1, description: 'Maximum number of questions returned, as applied' }),
  offset: Type.Integer({ minimum: 0, description: 'Questions of the view skipped before this page, as applied' }),
  total: Type.Integer({ minimum: 0, description: 'Number of questions in the view' }),
  hasMore: Type.Boolean({ description: 'Whether questions remain after this page (offset + returned < total)' })
}, { title: 'PaginationMetadata' })

export const QuestionPageSchema = Type.Object({
  metadata: PaginationMetadataSchema,
  questions: Type.Array(QuestionSchema)
}, { title: 'QuestionPage', description: 'One page of a language view of an exam' })

export const ErrorSchema = Type.Object({
  error: Type.Object({
    code: Type.Enum(Object.values(ERROR_CODES), { description: 'Short machine code; each has an entry in the reference page\'s Errors section' }),
    message: Type.String({ description: 'What was wrong, in English, naming the value', examples: [`limit must be between 1 and ${LIMIT_MAX}, got 0`] }),
    docUrl: Type.String({ description: 'Link to the description of the code in the API reference' })
  })
}, { title: 'Error' })
