import type { FastifyInstance } from 'fastify'
import { ApiError, describeValue } from '../errors.ts'

/*
 * The predecessor (enem.dev) served its dataset folder as static files, and clients that point
 * at a self-hosted server by swapping the host still ask for those addresses. Each one is
 * redirected (308, so a client keeps its method) to where this API serves the same thing:
 *
 *   /exams.json                                   → /v1/exams
 *   /<year>/details.json                          → /v1/exams/<year>
 *   /<year>/questions/<index>/details.json        → /v1/exams/<year>/questions/<index>
 *   /<year>/questions/<index>-<lang>/details.json → /v1/exams/<year>/questions/<index>?language=<lang>
 *   /<year>/questions/<dir>/<file>                → /files/<year>/questions/<dir>/<file>
 *
 * Only well-formed paths are redirected, and the new address is built from the checked parts
 * alone: nothing here touches the disk, and the target decides (404 or not) as it would for
 * anyone. Anything else is the usual 404.
 */

const YEAR = /^\d{4}$/
const QUESTION_DIR = /^(\d{1,3})(?:-([a-z]{1,30}))?$/
/** The dataset's image names: `<uuid>.<ext>`; a single dot, so never `..`. */
const FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,99}\.[A-Za-z0-9]{1,10}$/

/** 308: permanent, and a client resends the same method (HEAD stays HEAD). */
const PERMANENT_REDIRECT = 308

function notFound (url: string): ApiError {
  return new ApiError(404, `No resource at ${describeValue(url.split('?')[0]!)}`)
}

/**
 * The predecessor's static addresses, as redirects to their counterparts here. Not in the OpenAPI
 * document: new clients use /v1 and /files.
 */
export async function predecessorPaths (app: FastifyInstance): Promise<void> {
  const hidden = { schema: { hide: true } }

  app.get('/exams.json', hidden, async (_request, reply) => reply.redirect('/v1/exams', PERMANENT_REDIRECT))

  app.get<{ Params: { year: string } }>('/:year/details.json', hidden, async (request, reply) => {
    const { year } = request.params
    if (!YEAR.test(year)) throw notFound(request.url)
    return reply.redirect(`/v1/exams/${year}`, PERMANENT_REDIRECT)
  })

  app.get<{ Params: { year: string, dir: string, file: string } }>('/:year/questions/:dir/:file', hidden, async (request, reply) => {
    const { year, dir, file } = request.params
    const question = QUESTION_DIR.exec(dir)
    if (!YEAR.test(year) || question === null) throw notFound(request.url)
    if (file === 'details.json') {
      const [, index, language] = question
      const query = language === undefined ? '' : `?language=${language}`
      return reply.redirect(`/v1/exams/${year}/questions/${Number(index)}${query}`, PERMANENT_REDIRECT)
    }
    if (!FILE_NAME.test(file)) throw notFound(request.url)
    return reply.redirect(`/files/${year}/questions/${dir}/${file}`, PERMANENT_REDIRECT)
  })
}
