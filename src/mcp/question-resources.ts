import {
  ProtocolError, ProtocolErrorCode, ResourceNotFoundError, ResourceTemplate, type BlobResourceContents, type McpServer,
  type ReadResourceResult, type Resource, type TextResourceContents
} from '@modelcontextprotocol/server'
import type { Catalog, Exam } from '../data/catalog.ts'
import { DEFAULT_APPLICATION } from '../data/exam-key.ts'
import { decodePath, escapePath } from '../data/dataset/file-addresses.ts'
import type { Question } from '../data/record-schemas.ts'
import type { ServedFiles } from '../http/answers/served-files.ts'
import type { EndpointAnswers } from '../http/endpoints.ts'
import { ApiError } from '../http/errors.ts'
import { carriedFigures, figureIndexText, figuresOf, type CallFigures } from './question-figures.ts'
import { questionText, type Labels } from './question-text.ts'
import { labels, questionRecord } from './tools.ts'

/*
 * The exams and questions as MCP resources, for a client that browses them (the Inspector, a desktop
 * assistant attaching a question to a conversation): a question is `enem://{year}/{index}`, with
 * `application` and `language` as the REST path takes them (`?application=ppl&language=ingles`), its
 * exam `enem://{year}` (`?application=ppl`), a figure `enem://figure/{path}` (its path under /files).
 * Reading a question gives its text (Markdown, the key withheld: get_question's text) and each of its
 * figures as a blob, the bytes /files serves; reading an exam lists its questions' addresses.
 * resources/list pages through every exam and every record (each language's record of a position).
 */

/** Entries of resources/list per page. */
export const RESOURCES_PER_PAGE = 200

const MARKDOWN = 'text/markdown'
/** The figure template first: `enem://figure/x.png` would otherwise read as year `figure`, index `x.png`. */
const FIGURE_TEMPLATE = 'enem://figure/{+path}'
const QUESTION_TEMPLATE = 'enem://{year}/{index}{?application,language}'
const EXAM_TEMPLATE = 'enem://{year}{?application}'

/** A record's resource address: its application and language named only when they are not the default ones. */
export function questionUri (question: Pick<Question, 'year' | 'index' | 'application' | 'language'>): string {
  const query = new URLSearchParams()
  if (question.application !== DEFAULT_APPLICATION) query.set('application', question.application)
  if (question.language !== null) query.set('language', question.language)
  const search = query.toString()
  return `enem://${question.year}/${question.index}${search === '' ? '' : `?${search}`}`
}

function examUri (exam: Exam): string {
  const { year, application } = exam.summary
  return `enem://${year}${application === DEFAULT_APPLICATION ? '' : `?application=${application}`}`
}

/** A figure's resource address, by its path under /files. */
function figureUri (relative: string): string {
  return `enem://figure/${escapePath(relative)}`
}

/** Every resource, exams first, made once per catalog. */
const listed = new WeakMap<Catalog, Resource[]>()
function everyResource (catalog: Catalog, labels: Labels): Resource[] {
  let all = listed.get(catalog)
  if (all === undefined) {
    const exams = catalog.listExams()
    all = [
      ...exams.map((exam): Resource => ({ uri: examUri(exam), name: exam.summary.title, mimeType: MARKDOWN })),
      ...exams.flatMap((exam) => exam.questions.map((question): Resource => ({
        uri: questionUri(question),
        name: question.language === null ? question.title : `${question.title} (${labels.get(question.language) ?? question.language})`,
        mimeType: MARKDOWN
      })))
    ]
    listed.set(catalog, all)
  }
  return all
}

/** A template variable as one string (a list, as URI templates allow, is refused). */
function single (value: string | string[] | undefined, name: string): string | undefined {
  if (Array.isArray(value)) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `${name} must be one value`)
  return value === undefined || value === '' ? undefined : value
}

function positiveInteger (value: string | undefined, name: string): string {
  if (value === undefined || !/^[1-9][0-9]{0,8}$/.test(value)) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `${name} must be a positive integer, got ${JSON.stringify(value ?? '')}`)
  return value
}

/** The contents of a question's resource: its text, then its figures as blobs (capped as a tool's), those left out named in the text. */
function questionContents (uri: string, question: Question, labels: Labels, figures: CallFigures): ReadResourceResult {
  const index = figures.left.length > 0 ? `\n\n${figureIndexText({ carried: [], left: figures.left })}` : ''
  const text: TextResourceContents = { uri, mimeType: MARKDOWN, text: `${questionText(question, labels, false)}${index}` }
  const blobs = figures.carried.map(({ figure, body }): BlobResourceContents => ({ uri: figureUri(figure.relative!), mimeType: body.contentType, blob: body.raw.toString('base64') }))
  return { contents: [text, ...blobs] }
}

/** What a resource address names: the parts of `enem://…` each template reads. */
type ResourceParts = Readonly<Record<string, string | undefined>>

/**
 * The parts of an `enem://` address, or undefined for another one. Read here rather than by the
 * SDK's template matcher, which matches `{?application,language}` only when every one is present.
 */
function partsOf (uri: string): { kind: 'figure' | 'question' | 'exam', parts: ResourceParts } | undefined {
  let url: URL
  try {
    url = new URL(uri)
  } catch {
    return undefined
  }
  if (url.protocol !== 'enem:' || url.hash !== '') return undefined
  const query = Object.fromEntries(url.searchParams)
  if (url.host === 'figure') return url.search === '' ? { kind: 'figure', parts: { path: url.pathname.slice(1) } } : undefined
  const segments = url.pathname === '' || url.pathname === '/' ? [] : url.pathname.slice(1).split('/')
  if (segments.length === 0) return { kind: 'exam', parts: { year: url.host, ...query } }
  if (segments.length === 1) return { kind: 'question', parts: { year: url.host, index: segments[0], ...query } }
  return undefined
}

/** Refuses a query part the template does not name (a misspelt `lang=` is not silently ignored). */
function onlyKnown (parts: ResourceParts, known: readonly string[], uri: string): void {
  const unknown = Object.keys(parts).find((name) => !known.includes(name))
  if (unknown !== undefined) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `${uri}: ${unknown} is not a part of this address; it takes ${known.filter((name) => name !== 'year' && name !== 'index' && name !== 'path').join(', ')}`)
}

/** Registers the resource templates, their reads, and a paged resources/list on one server. */
export function registerQuestionResources (server: McpServer, answers: EndpointAnswers, catalog: Catalog, files: ServedFiles): void {
  const readFigure = async (uri: string, parts: ResourceParts): Promise<ReadResourceResult> => {
    const relative = parts.path === undefined ? null : decodePath(parts.path)
    if (relative === null || files.folderOf(relative) === undefined) throw new ResourceNotFoundError(uri, `No figure at ${uri}`)
    const body = await files.body(relative)
    return { contents: [{ uri, mimeType: body.contentType, blob: body.raw.toString('base64') }] }
  }
  const readQuestion = async (uri: string, parts: ResourceParts): Promise<ReadResourceResult> => {
    onlyKnown(parts, ['year', 'index', 'application', 'language'], uri)
    const args = {
      year: Number(positiveInteger(parts.year, 'year')),
      index: Number(positiveInteger(parts.index, 'index')),
      application: single(parts.application, 'application'),
      language: single(parts.language, 'language')
    }
    const question = inResourceWords(uri, () => questionRecord(answers, args))
    return questionContents(uri, question, labels(answers), await carriedFigures(figuresOf([question], files), files))
  }
  const readExam = (uri: string, parts: ResourceParts): ReadResourceResult => {
    onlyKnown(parts, ['year', 'application'], uri)
    const year = Number(positiveInteger(parts.year, 'year'))
    const application = single(parts.application, 'application') ?? DEFAULT_APPLICATION
    const exam = catalog.getExam(year, application as Exam['summary']['application'])
    if (exam === undefined) throw new ResourceNotFoundError(uri, catalog.missingExam(year, application)?.message ?? `No exam at ${uri}`)
    return { contents: [{ uri, mimeType: MARKDOWN, text: examText(exam, labels(answers)) }] }
  }
  const readers = { figure: readFigure, question: readQuestion, exam: readExam }
  const flat = (variables: Record<string, string | string[]>): ResourceParts => Object.fromEntries(Object.entries(variables).map(([name, value]) => [name, single(value, name)]))

  // Registered for resources/templates/list (and read as the handler below reads them).
  server.registerResource('figure', new ResourceTemplate(FIGURE_TEMPLATE, { list: undefined }), {
    title: 'A figure of a question',
    description: 'A figure of a question, as /files serves it; a question\'s resource carries its figures already'
  }, async (uri, variables) => await readFigure(uri.href, flat(variables)))
  server.registerResource('question', new ResourceTemplate(QUESTION_TEMPLATE, { list: undefined }), {
    title: 'An ENEM question',
    description: 'One question (its text, without the key) and its figures; `application` (`regular`, `ppl`) and `language` as get_question takes them',
    mimeType: MARKDOWN
  }, async (uri, variables) => await readQuestion(uri.href, flat(variables)))
  server.registerResource('exam', new ResourceTemplate(EXAM_TEMPLATE, { list: undefined }), {
    title: 'An ENEM exam',
    description: 'One exam: its questions, each with its resource address',
    mimeType: MARKDOWN
  }, (uri, variables) => readExam(uri.href, flat(variables)))

  server.server.setRequestHandler('resources/read', async (request) => {
    const { uri } = request.params
    const found = partsOf(uri)
    if (found === undefined) throw new ResourceNotFoundError(uri, `${uri} is not an address of this server: enem://{year}, enem://{year}/{index}, enem://figure/{path}`)
    return await readers[found.kind](uri, found.parts)
  })
  // The SDK's own resources/list gathers every template's list at once, without a cursor: 4,500 records would be one answer.
  server.server.setRequestHandler('resources/list', (request) => {
    const all = everyResource(catalog, labels(answers))
    const cursor = request.params?.cursor
    const from = cursor === undefined ? 0 : Number(cursor)
    if (cursor !== undefined && (String(from) !== cursor || from <= 0 || from >= all.length)) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `cursor ${JSON.stringify(cursor)} is not one resources/list gave`)
    }
    const to = from + RESOURCES_PER_PAGE
    return { resources: all.slice(from, to), ...(to < all.length ? { nextCursor: String(to) } : {}) }
  })
}

/** An exam's questions, each with its address. */
function examText (exam: Exam, labels: Labels): string {
  const lines = [`## ${exam.summary.title}`, '']
  for (const question of exam.questions) {
    const language = question.language === null ? '' : ` (${labels.get(question.language) ?? question.language})`
    lines.push(`- ${question.title}${language}: ${questionUri(question)}`)
  }
  return lines.join('\n')
}

/** A question's lookup, its refusals as the protocol's: not found (404), or a bad value. */
function inResourceWords<T> (uri: string, read: () => T): T {
  try {
    return read()
  } catch (error) {
    if (!(error instanceof ApiError)) throw error
    if (error.statusCode === 404) throw new ResourceNotFoundError(uri, error.message)
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, error.message)
  }
}
