import { fileURLToPath } from 'node:url'
import { recordFigures } from '../../src/data/record-figures.ts'
import type { Question } from '../../src/data/record-schemas.ts'
import { TEST_PUBLIC_URL } from '../helper.ts'

/*
 * What the agent-framework tests (./langchain.test.ts, ./openai-agents.test.ts) share: every tool
 * called as an assistant calls it, with ordinary arguments (a numeric score, a 45-letter sheet,
 * years as a list), and where a result shows an answer key.
 */

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url))

/** `npm run mcp` as a desktop assistant starts it: the sample dataset, the addresses of the test's HTTP server. */
export const STDIO_SERVER = {
  command: 'npm',
  args: ['run', '--silent', 'mcp'],
  cwd: REPO_ROOT,
  env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ENEM_DATA_DIR: '', PUBLIC_URL: TEST_PUBLIC_URL, LOG_LEVEL: 'warn' }
}

/** 2023's blue CH booklet (code 1191): its 45 letters, `*` for the blanks. */
export const SHEET_2023_CH = 'CABBAEDCEB*ADCBEEDACABCDEABDCBEAEDCBABCDEAB*C'

/** Each tool with the arguments an assistant would give it; every tool at least once. */
export const ORDINARY_CALLS: ReadonlyArray<readonly [tool: string, args: Record<string, unknown>]> = [
  ['list_exams', {}],
  ['search_questions', { q: 'energia', limit: 3 }],
  ['search_questions', { year: [2020], discipline: 'matematica', limit: 2 }],
  ['get_question', { year: 2020, index: 16 }],
  ['check_answer', { year: 2020, index: 16, answer: 'C' }],
  ['random_questions', { count: 3, seed: 42 }],
  ['practice_questions', { discipline: 'matematica', score: 650, count: 3 }],
  ['list_skills', { discipline: 'matematica' }],
  ['score_answers', { year: 2023, booklet: 1191, sheet: SHEET_2023_CH }],
  ['score_answers', { year: 2020, language: 'ingles', answers: [{ index: 1, answer: 'A' }, { index: 12, answer: 'B' }, { index: 46, answer: 'C' }] }]
]

/** The tools whose purpose is to tell a key (check_answer): every other one withholds it unless asked. */
export const TELLS_THE_KEY = new Set(['check_answer'])

/**
 * Where what a model is shown holds an answer key, as paths: a `correctAlternative`, an
 * alternative's `isCorrect`, an `inep` object's `key`, or a text's "Gabarito" line (the Markdown
 * of a result with its key). A string that is JSON (a framework's tool message) is read as JSON.
 */
export function keyShownIn (value: unknown, path = '$'): string[] {
  if (typeof value === 'string') {
    const parsed = jsonOf(value)
    if (typeof parsed === 'object' && parsed !== null) return keyShownIn(parsed, path)
    return /Gabarito/.test(value) ? [`${path} (Gabarito)`] : []
  }
  if (Array.isArray(value)) return value.flatMap((item, at) => keyShownIn(item, `${path}[${at}]`))
  if (typeof value !== 'object' || value === null) return []
  const found: string[] = []
  for (const [name, field] of Object.entries(value)) {
    if (name === 'correctAlternative' || name === 'isCorrect' || (name === 'key' && path.endsWith('.inep'))) found.push(`${path}.${name}`)
    found.push(...keyShownIn(field, `${path}.${name}`))
  }
  return found
}

function jsonOf (text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** A figure-bearing question of the served data (most figures first among a search's page) and its figures' addresses, in the order its text names them. */
export async function figureQuestion (request: (url: string) => Promise<{ json: <T>() => T }>): Promise<{ args: Record<string, unknown>, addresses: string[] }> {
  const { questions } = (await request('/v1/questions?hasImages=true&limit=50')).json<{ questions: Question[] }>()
  const question = [...questions].sort((a, b) => recordFigures(b).length - recordFigures(a).length)[0]!
  const args = { year: question.year, index: question.index, ...(question.application === 'regular' ? {} : { application: question.application }), ...(question.language === null ? {} : { language: question.language }) }
  return { args, addresses: recordFigures(question).map((figure) => figure.address) }
}
