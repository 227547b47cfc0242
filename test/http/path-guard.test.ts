import { after, test } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import { build } from '../helper.ts'
import { pathProblem } from '../../src/http/plugins/request-guard.ts'

const port = await (await build({ after })).listen()

/** Sends the path byte for byte, as fetch() and inject() would normalise dot segments first. */
function rawGet (path: string): Promise<{ status: number, body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port, path, method: 'GET' }, (response) => {
      let body = ''
      response.setEncoding('utf8')
      response.on('data', (chunk: string) => { body += chunk })
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }))
    })
    request.on('error', reject)
    request.end()
  })
}

test('dot segments, plain or encoded, are 400 over real HTTP and never reach the file server', async () => {
  for (const path of ['/v1/exams/..', '/v1/exams/2020/questions/%2e%2e', '/files/../package.json', '/files/2020/../../package.json',
    '/files/%2e%2e/%2e%2e/package.json', '/files/..%5C..%5Cpackage.json', '/v1/./exams']) {
    const { status, body } = await rawGet(path)
    assert.equal(status, 400, path)
    assert.equal(JSON.parse(body).error.code, 'bad_request', path)
  }
})

test('files outside the servable set are 404 even when they exist in the dataset folder', async () => {
  for (const path of ['/files/exams.json', '/files/2020/details.json', '/files/2020/questions/1-ingles/details.json']) {
    const { status, body } = await rawGet(path)
    assert.equal(status, 404, path)
    assert.equal(JSON.parse(body).error.code, 'not_found')
  }
})

test('pathProblem accepts ordinary paths and names what is wrong with the others', () => {
  assert.equal(pathProblem('/v1/exams/2020/questions?language=ingles&x=..'), undefined)
  assert.equal(pathProblem('/files/2020/questions/1-ingles/a.b.png'), undefined)
  assert.match(pathProblem('/v1/%E0%A4%A') ?? '', /percent-encoding/)
  assert.match(pathProblem('/v1/a%00b') ?? '', /NUL/)
  assert.match(pathProblem('/v1/%2E%2E/x') ?? '', /"\.\."/)
  assert.match(pathProblem('/v1/a%2Fb') ?? '', /slash/)
})
