import { after, test } from 'node:test'
import assert from 'node:assert/strict'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { build } from '../helper.ts'

const server = await build({ after })

const JSON_URLS = ['/v1/exams', '/v1/exams/2020', '/v1/exams/2020/questions?limit=50', '/v1/exams/2020/questions/12']

test('every JSON answer has a strong ETag, public Cache-Control and Vary: Accept-Encoding', async () => {
  for (const url of JSON_URLS) {
    const response = await server.request(url)
    assert.match(String(response.headers.etag), /^"[A-Za-z0-9_-]+"$/, url)
    assert.equal(response.headers['cache-control'], 'public, max-age=3600')
    assert.equal(response.headers.vary, 'Accept-Encoding')
  }
})

test('the ETag is a function of the body: equal bodies, equal tags; different bodies, different tags', async () => {
  const first = await server.request('/v1/exams/2020/questions?limit=5')
  const again = await server.request('/v1/exams/2020/questions?limit=5&cachebuster=1')
  const other = await server.request('/v1/exams/2020/questions?limit=5&offset=1')
  assert.equal(first.headers.etag, again.headers.etag)
  assert.equal(first.body, again.body)
  assert.notEqual(first.headers.etag, other.headers.etag)
})

test('If-None-Match with the current tag answers 304 with no body; a stale tag gets the body', async () => {
  for (const url of JSON_URLS) {
    const { headers } = await server.request(url)
    const etag = String(headers.etag)
    for (const ifNoneMatch of [etag, `W/${etag}`, `"stale", ${etag}`, '*']) {
      const cached = await server.request({ url, headers: { 'if-none-match': ifNoneMatch } })
      assert.equal(cached.statusCode, 304, `${url} ${ifNoneMatch}`)
      assert.equal(cached.body, '')
      assert.equal(cached.headers.etag, etag)
    }
    const stale = await server.request({ url, headers: { 'if-none-match': '"stale"' } })
    assert.equal(stale.statusCode, 200)
    assert.ok(stale.body.length > 0)
  }
})

test('br and gzip by Accept-Encoding decode to the identity body; identity otherwise', async () => {
  for (const url of JSON_URLS) {
    const identity = await server.request(url)
    assert.equal(identity.headers['content-encoding'], undefined)
    const br = await server.request({ url, headers: { 'accept-encoding': 'gzip, deflate, br' } })
    assert.equal(br.headers['content-encoding'], 'br')
    assert.deepEqual(brotliDecompressSync(br.rawPayload), identity.rawPayload)
    assert.ok(br.rawPayload.length < identity.rawPayload.length)
    const gzip = await server.request({ url, headers: { 'accept-encoding': 'gzip' } })
    assert.equal(gzip.headers['content-encoding'], 'gzip')
    assert.deepEqual(gunzipSync(gzip.rawPayload), identity.rawPayload)
    const refused = await server.request({ url, headers: { 'accept-encoding': 'br;q=0, gzip;q=0' } })
    assert.equal(refused.headers['content-encoding'], undefined)
    assert.deepEqual(refused.rawPayload, identity.rawPayload)
    assert.equal(br.headers.etag, identity.headers.etag)
  }
})

test('errors are not cacheable', async () => {
  for (const url of ['/v1/exams/1999', '/v1/exams/2020/questions?limit=0', '/v1/exams/abc']) {
    const response = await server.request(url)
    assert.equal(response.headers['cache-control'], 'no-store', url)
  }
})
