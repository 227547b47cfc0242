import { loadDataset } from '../src/data/dataset/load-dataset.ts'
import { endpointAnswers } from '../src/http/endpoint-answers.ts'
import type { PracticeQuery } from '../src/http/schemas/finding.ts'
import { payloadLength, type PreparedBody } from '../src/http/answers/prepared-body.ts'

/*
 * CPU of GET /v1/questions/practice in process, without HTTP: `npm run bench`'s seeded row (1,000
 * distinct draws, four areas, scores 400–799, a seed each, walked in a cycle) and an unseeded draw,
 * each answer as the fast path asks it (`answers.finding.practice`) and its identity payload taken, as a
 * response would send them. The same catalog and answers as the server's (src/http/endpoint-answers.ts).
 */

const dataDir = process.env.ENEM_DATA_DIR ?? 'data/sample'
const { catalog } = await loadDataset(dataDir, { filesBaseUrl: 'http://localhost/files' })
if (catalog === null) throw new Error(`${dataDir} has errors: npm run check-data`)
const { answers } = endpointAnswers(catalog)
const areas = ['linguagens', 'ciencias-humanas', 'ciencias-natureza', 'matematica']
const seeded: PracticeQuery[] = Array.from({ length: 1_000 }, (_, seed) => ({ discipline: areas[seed % areas.length]!, score: String(400 + ((seed * 7) % 400)), seed: String(seed) }))
const unseeded: PracticeQuery = { discipline: 'matematica', score: '620' }

let bytes = 0
/** What a response sends of a body as it comes: its identity answer's payload (a draw's parts, not joined). */
const sent = (body: PreparedBody) => payloadLength(body.answer('identity').payload!)
const measure = (name: string, rounds: number, once: (round: number) => void) => {
  for (let i = 0; i < rounds; i++) once(i)
  const before = process.cpuUsage()
  for (let i = 0; i < rounds; i++) once(i)
  const used = process.cpuUsage(before)
  console.log(`${name}: ${((used.user + used.system) / rounds).toFixed(1)} µs of CPU per call (${rounds} calls)`)
}
measure('practice seeded (1000 draws, cyclic)', 20_000, (round) => { bytes += sent(answers.finding.practice(seeded[round % seeded.length]!)) })
measure('practice unseeded', 20_000, () => { bytes += sent(answers.finding.practice(unseeded)) })
console.log(`(${bytes} bytes answered)`)
