import { test } from 'node:test'
import assert from 'node:assert/strict'
import { RecentKeys } from '../../src/http/answers/recent-keys.ts'

test('a key is seen before from its second request on; other keys are not', () => {
  const repeats = new RecentKeys()
  assert.equal(repeats.seenBefore('/v1/questions?q=agua'), false)
  assert.equal(repeats.seenBefore('/v1/questions?q=agua'), true)
  assert.equal(repeats.seenBefore('/v1/questions?q=agua'), true)
  assert.equal(repeats.seenBefore('/v1/questions?q=Agua'), false)
  assert.equal(repeats.seenBefore(''), false)
  assert.equal(repeats.seenBefore(''), true)
})

test('its table never grows: once every slot has been overwritten, an old key counts as new again', () => {
  const repeats = new RecentKeys(16)
  repeats.seenBefore('first')
  // Many more keys than slots: the slot of `first` is taken by another key at some point.
  for (let i = 0; i < 10_000; i++) repeats.seenBefore(`key ${i}`)
  assert.equal(repeats.seenBefore('first'), false)
  assert.throws(() => new RecentKeys(100), /power of two/)
})
