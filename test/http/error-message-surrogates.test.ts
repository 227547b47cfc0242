import { after, test } from 'node:test'
import assert from 'node:assert/strict'
import { describeValue } from '../../src/http/errors.ts'
import { build, type ErrorResponseBody } from '../helper.ts'

/**
 * Issue 26, item 4: an error message quotes the request's value cut short, and the cut fell at 60
 * UTF-16 units, so six family emoji (11 units each) ended in half a surrogate pair (`\ud83d`),
 * which strict JSON parsers and UTF-8 encoders refuse.
 */
const FAMILY = '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}\u200D\u{1F466}'
const SIX_FAMILIES = FAMILY.repeat(6)

const server = await build({ after })
const strictUtf8 = new TextDecoder('utf-8', { fatal: true })

/** No lone surrogate: in a `u` regular expression a pair is one code point, so \p{Cs} matches only halves. */
function isWellFormed (text: string): boolean {
  return !/\p{Cs}/u.test(text)
}

/** Decodes a body as strict UTF-8 and JSON, and checks no string in it holds a lone surrogate. */
function assertWellFormedErrorBody (raw: Buffer, url: string): ErrorResponseBody {
  const text = strictUtf8.decode(raw)
  // JSON.stringify writes a lone surrogate as a \udXXX escape: valid UTF-8 bytes, refused by strict parsers.
  assert.doesNotMatch(text, /\\ud[89a-f][0-9a-f]{2}/i, `${url}: the body escapes a surrogate: ${text}`)
  const body = JSON.parse(text) as ErrorResponseBody
  assert.ok(isWellFormed(body.error.message), `${url}: the message holds a lone surrogate: ${JSON.stringify(body.error.message)}`)
  return body
}

test('a 422 quoting six family emoji cuts the query between whole characters (issue 26)', async () => {
  const url = `/v1/questions?q=${encodeURIComponent(SIX_FAMILIES)}`
  const res = await server.request(url)
  assert.equal(res.statusCode, 422)
  const body = assertWellFormedErrorBody(res.rawPayload, url)
  assert.match(body.error.message, /^q must hold at least one word/)
  assert.ok(body.error.message.includes(FAMILY), 'the message still quotes the start of the query')
})

test('every error answer quoting an emoji-laden value is valid UTF-8 and strict JSON', async () => {
  // Each quotes the value at a different offset, so some cut falls inside a pair whatever the limit.
  for (let prefix = 0; prefix < 12; prefix++) {
    const value = 'a'.repeat(prefix) + SIX_FAMILIES
    const encoded = encodeURIComponent(value)
    for (const url of [
      `/v1/questions?q=${encodeURIComponent('+' + value.replaceAll('a', '+'))}`,
      `/v1/questions?discipline=${encoded}`,
      `/v1/questions?language=${encoded}`,
      `/v1/exams/2020/questions?language=${encoded}`,
      `/v1/exams/2020/questions?limit=${encoded}`,
      `/v1/questions/random?count=${encoded}`,
      `/v1/export/questions.jsonl?year=${encoded}`,
      `/files/${encoded}.png`,
      `/nowhere/${encoded}`
    ]) {
      const res = await server.request(url)
      assert.ok(res.statusCode >= 400 && res.statusCode < 500, `${url}: ${res.statusCode}`)
      assertWellFormedErrorBody(res.rawPayload, url)
    }
  }
})

test('describeValue never ends in half a surrogate pair, and stays short', () => {
  for (let prefix = 0; prefix < 70; prefix++) {
    for (const tail of [SIX_FAMILIES, '\u{1F600}'.repeat(40), 'e\u0301'.repeat(40)]) {
      const described = describeValue('x'.repeat(prefix) + tail)
      assert.ok(isWellFormed(described), `${prefix}: ${JSON.stringify(described)}`)
      assert.ok(described.length <= 60, `${prefix}: ${described.length} units`)
    }
  }
  // One grapheme longer than the whole budget (a letter under hundreds of accents) is cut by code points.
  const described = describeValue('a' + '\u0301'.repeat(500))
  assert.ok(isWellFormed(described) && described.length <= 60 && described.startsWith('"a\u0301'))
})
