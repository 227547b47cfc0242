import type { CallToolResult } from '@modelcontextprotocol/server'
import type { Listing } from '../http/answers/prepared-body.ts'
import type { Question } from '../data/record-schemas.ts'
import { figureContent, type CallFigures } from './question-figures.ts'
import { questionListText, questionText, type Labels } from './question-text.ts'
import { shownQuestions, withoutKey } from './tool-output.ts'

/*
 * What a tool answers, before it is written: as the result object the SDK serializes (stdio, and
 * every call the prepared path leaves to the SDK), or as bytes prepared from each question's own
 * (./prepared-results.ts, POST /mcp). Both are written from this one value, and
 * test/mcp/prepared-results.test.ts holds the bytes to what the SDK writes of the object.
 */

/** A result whose data is a plain value (the exam list, the skills, a check, a score): serialized as it is. */
export interface DataAnswer {
  readonly kind: 'data'
  readonly structured: Record<string, unknown>
  readonly text: string
}

/** One question record (get_question), its key withheld unless `reveal`; its figures as images when `figures`. */
export interface QuestionAnswer {
  readonly kind: 'question'
  readonly question: Question
  readonly reveal: boolean
  readonly figures: boolean
}

/**
 * A list of questions (a search's page, a draw): the endpoint's own head and records (its body's
 * Listing), the records' keys withheld unless `reveal`, under a heading for people.
 */
export interface ListAnswer {
  readonly kind: 'list'
  readonly listing: Listing
  readonly heading: string
  readonly reveal: boolean
  /** Whether the questions' figures go along as images. */
  readonly figures: boolean
}

/** A call refused: a bad argument (the message naming it), or the endpoint's 404 or 422, or a fault (the API's 500 message). */
export interface RefusalAnswer {
  readonly kind: 'refusal'
  readonly message: string
}

export type ToolAnswer = (DataAnswer | QuestionAnswer | ListAnswer | RefusalAnswer) & {
  /** Whether the same arguments always get the same answer (not an unseeded draw): it may be kept. */
  readonly reusable: boolean
}

/** The questions whose figures an answer carries (none unless it asked for them). */
export function figuredQuestions (answer: ToolAnswer): readonly Question[] {
  if (answer.kind === 'question' && answer.figures) return [answer.question]
  if (answer.kind === 'list' && answer.figures) return answer.listing.items
  return []
}

/** The result object of an answer, as the tool's handler gives it to the SDK; `figures`, those its questions carry. */
export function callToolResult (answer: ToolAnswer, labels: Labels, figures?: CallFigures): CallToolResult {
  switch (answer.kind) {
    case 'refusal':
      return { isError: true, content: [{ type: 'text', text: answer.message }] }
    case 'data':
      return { content: [{ type: 'text', text: answer.text }], structuredContent: answer.structured }
    case 'question': {
      const { question, reveal } = answer
      return { content: [{ type: 'text', text: questionText(question, labels, reveal) }, ...figureContent(figures)], structuredContent: reveal ? question : withoutKey(question) }
    }
    case 'list': {
      const { listing: { head, items }, heading, reveal } = answer
      // The head's members (`metadata`, `seed`, `target`), and `questions` last, as the endpoint writes them.
      const structured = JSON.parse(`${head}]}`) as Record<string, unknown>
      structured.questions = shownQuestions(items, reveal)
      return { content: [{ type: 'text', text: questionListText(heading, items, labels, reveal) }, ...figureContent(figures)], structuredContent: structured }
    }
  }
}
