import { Agent, request as httpRequest } from 'node:http'
import { uniformInt } from 'pure-rand/distribution/uniformInt'
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus'
import { committedBooklets } from '../src/data/scores/booklet-table.ts'
import { costlyRequests } from './costly-requests.ts'

/*
 * The soak's mixed traffic (issue 32): what many clients ask of one server over a long run, every
 * kind of request in turn, searches always new: exam pages of every exam (2024 and the second
 * applications too, when served), distinct searches, exports of one year, of several and of all,
 * practice runs and answer sheets scored, draws with and without a seed. `walk` is the fixed
 * sequence the contract's memory bound names (every exam's pages, the whole export, eight searches,
 * one sheet per booklet); `runMix` sends the mix from a few connections for a while.
 */

interface Request { method: 'GET' | 'POST', path: string, body?: string }

interface ExamSummary { year: number, application: string, languages: Array<{ value: string }> }

export interface MixSource {
  readonly exams: readonly ExamSummary[]
  /** A new request each call, the kinds in turn. */
  next: () => Request
  /** The walk, in order. */
  walk: readonly Request[]
}

const LETTERS = 'ABCDE'
const PAGE = 50
const EXAM_QUESTIONS = 180

/** The mix for the server at `base`, made from what it serves (its exam list and its export), with a fixed seed. */
export async function mixSource (base: string): Promise<MixSource> {
  const exams = await fetch(`${base}/v1/exams`).then((response) => response.json()) as ExamSummary[]
  const exported = await fetch(`${base}/v1/export/questions.jsonl`).then((response) => response.text())
  const years = [...new Set(exams.map((exam) => exam.year))]
  const costly = costlyRequests(exported, years, 20_000)
  const vocabulary = [...new Set(exported.toLowerCase().match(/\p{L}{4,}/gu) ?? [])]
  const rng = xoroshiro128plus(32)
  const pick = <T>(list: readonly T[]): T => list[uniformInt(rng, 0, list.length - 1)]!
  const query = (application: string) => application === 'regular' ? '' : `application=${application}&`

  const pages: Request[] = exams.flatMap((exam) => Array.from({ length: Math.ceil(EXAM_QUESTIONS / PAGE) + 1 }, (_, page) =>
    ({ method: 'GET' as const, path: `/v1/exams/${exam.year}/questions?${query(exam.application)}limit=${PAGE}&offset=${page * PAGE}` })))
  const practice = (exam: ExamSummary): Request => {
    const answers = Object.fromEntries(Array.from({ length: EXAM_QUESTIONS }, (_, at) => [String(at + 1), LETTERS[uniformInt(rng, 0, 4)]!]))
    const language = exam.languages[0]?.value
    return { method: 'POST', path: '/v1/scores', body: JSON.stringify({ year: exam.year, application: exam.application, ...(language === undefined ? {} : { language }), answers }) }
  }
  const sheets: Request[] = []
  for (const booklets of committedBooklets().values()) {
    for (const booklet of booklets.values()) {
      if (booklet.unordered !== null) continue
      const hasLanguages = booklet.slots.some((slot) => 'ingles' in slot)
      const language = booklet.slots.some((slot) => 'ingles' in slot && slot.ingles !== null) ? 'ingles' : 'espanhol'
      const answers = Array.from(booklet.slots, () => LETTERS[uniformInt(rng, 0, 4)]!).join('')
      sheets.push({ method: 'POST', path: '/v1/scores', body: JSON.stringify({ year: booklet.year, booklet: booklet.code, ...(hasLanguages ? { language } : {}), answers }) })
    }
  }
  const search = (): Request => {
    const words = Array.from({ length: uniformInt(rng, 1, 3) }, () => pick(vocabulary))
    return { method: 'GET', path: `/v1/questions?q=${encodeURIComponent(words.join(' '))}&limit=${pick([10, 50])}` }
  }
  const walk: Request[] = [
    ...pages,
    { method: 'GET', path: '/v1/export/questions.jsonl' },
    ...Array.from({ length: 8 }, search),
    ...sheets
  ]

  let turn = 0
  let costlyTurn = 0
  const kinds: Array<() => Request> = [
    () => pick(pages),
    search,
    () => pick(pages),
    () => ({ method: 'GET', path: costly.commonWordSearches[costlyTurn++ % costly.commonWordSearches.length]! }),
    () => practice(pick(exams)),
    () => pick(sheets),
    () => ({ method: 'GET', path: `/v1/questions/random?count=${pick([1, 10, 50])}&seed=${uniformInt(rng, 0, 1_000_000)}` }),
    () => ({ method: 'GET', path: '/v1/questions/random?count=10' }),
    () => ({ method: 'GET', path: `/v1/export/questions.jsonl?year=${pick(years)}` }),
    () => ({ method: 'GET', path: costly.multiYearExports[costlyTurn++ % costly.multiYearExports.length]! }),
    search
  ]
  return { exams, walk, next: () => kinds[turn++ % kinds.length]!() }
}

/** Sends one request and reads its answer to the end; resolves with its status (0 when it failed). */
export function send (port: number, agent: Agent, request: Request, acceptEncoding = 'gzip, deflate, br'): Promise<number> {
  return new Promise((resolve) => {
    const headers: Record<string, string> = { 'accept-encoding': acceptEncoding }
    if (request.body !== undefined) headers['content-type'] = 'application/json'
    const outgoing = httpRequest({ host: '127.0.0.1', port, method: request.method, path: request.path, agent, headers }, (response) => {
      response.resume()
      response.on('end', () => resolve(response.statusCode ?? 0))
      response.on('error', () => resolve(0))
    })
    outgoing.on('error', () => resolve(0))
    outgoing.end(request.body)
  })
}

/** Statuses seen, by status. */
export type Tally = Map<number, number>

export function describeTally (tally: Tally): string {
  return [...tally].sort((a, b) => a[0] - b[0]).map(([status, count]) => `${count} × ${status === 0 ? 'failed' : status}`).join(', ')
}

/**
 * Sends the mix from `connections` connections until `until()` says stop; `port()` is asked before
 * each request, so the load can move to another server (a restart).
 */
export async function runMix (port: () => number, source: MixSource, connections: number, until: () => boolean): Promise<Tally> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections })
  const tally: Tally = new Map()
  await Promise.all(Array.from({ length: connections }, async () => {
    while (!until()) {
      const status = await send(port(), agent, source.next())
      tally.set(status, (tally.get(status) ?? 0) + 1)
    }
  }))
  agent.destroy()
  return tally
}

/** Sends the walk, one request after another. */
export async function runWalk (port: number, source: MixSource): Promise<Tally> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  const tally: Tally = new Map()
  for (const request of source.walk) {
    const status = await send(port, agent, request)
    tally.set(status, (tally.get(status) ?? 0) + 1)
  }
  agent.destroy()
  return tally
}
