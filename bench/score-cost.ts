import { Compile } from 'typebox/compile'
import { loadDataset } from '../src/data/dataset/load-dataset.ts'
import { ScoreAnswers } from '../src/http/answers/score-answers.ts'
import { practiceAddress } from '../src/http/endpoints.ts'
import { SCORES_BODY_LIMIT, ScoreRequestSchema, type ScoreRequest } from '../src/http/schemas/scores.ts'

/*
 * CPU of one POST /v1/scores at the body size limit with every answer given, in process: the
 * JSON parse, the schema check and the score, without HTTP. `npm run bench` measures the endpoint
 * through the server; this isolates what a hostile body of the largest size can cost.
 */

const dataDir = process.env.ENEM_DATA_DIR ?? 'data/sample'
const { catalog } = await loadDataset(dataDir, { filesBaseUrl: 'http://localhost/files' })
if (catalog === null) throw new Error(`${dataDir} has errors: npm run check-data`)
const exam = catalog.listExams().find((candidate) => candidate.questions.some((question) => question.inep?.irt != null))
if (exam === undefined) throw new Error('no exam with IRT parameters')
const language = exam.defaultLanguage
const answers: Record<string, string> = {}
for (const question of exam.questions) {
  if (question.language === null || question.language === language) answers[String(question.index)] = 'ABCDE'[question.index % 5]!
}
const json = JSON.stringify({ year: exam.summary.year, ...(language === null ? {} : { language }), answers })
// Whitespace up to the limit: the largest body the endpoint reads.
const body = json.slice(0, -1) + ' '.repeat(SCORES_BODY_LIMIT - Buffer.byteLength(json)) + '}'
const check = Compile(ScoreRequestSchema)
const scores = new ScoreAnswers(catalog)

const once = () => {
  const parsed: unknown = JSON.parse(body)
  if (!check.Check(parsed)) throw new Error('the body fails the schema')
  return scores.score(parsed as ScoreRequest, practiceAddress)
}
for (let i = 0; i < 2_000; i++) once()
const rounds = 10_000
const before = process.cpuUsage()
for (let i = 0; i < rounds; i++) once()
const used = process.cpuUsage(before)
console.log(`POST /v1/scores body of ${Buffer.byteLength(body)} bytes, ${Object.keys(answers).length} answers (ENEM ${exam.summary.year}): ${((used.user + used.system) / rounds).toFixed(1)} µs of CPU per body (parse, schema check, score; ${rounds} rounds)`)
