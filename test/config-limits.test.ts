import { test } from 'node:test'
import assert from 'node:assert/strict'
import { ConfigError, loadConfig } from '../src/config.ts'

test('connection and shutdown settings: defaults, durations with units, and a zero drain delay', () => {
  const defaults = loadConfig({})
  assert.deepEqual(defaults.connections, { max: 1_000, maxPerClient: 100, stallTimeoutMs: 10_000 })
  assert.equal(defaults.shutdownDrainMs, 5_000)

  const set = loadConfig({ MAX_CONNECTIONS: '250', RESPONSE_STALL_TIMEOUT: '30s', SHUTDOWN_DRAIN_DELAY: '1500ms' })
  assert.deepEqual(set.connections, { max: 250, maxPerClient: 25, stallTimeoutMs: 30_000 })
  assert.equal(set.shutdownDrainMs, 1_500)
  assert.equal(loadConfig({ SHUTDOWN_DRAIN_DELAY: '0' }).shutdownDrainMs, 0)
})

test('a bad connection or shutdown setting is refused with a one-line message naming it', () => {
  const cases: Array<[string, string]> = [
    ['MAX_CONNECTIONS_PER_CLIENT', '0'],
    ['MAX_CONNECTIONS_PER_CLIENT', 'half'],
    ['MAX_CONNECTIONS_PER_CLIENT', '1001'],
    ['MAX_CONNECTIONS', '0'],
    ['MAX_CONNECTIONS', 'lots'],
    ['MAX_CONNECTIONS', '-5'],
    ['RESPONSE_STALL_TIMEOUT', '0'],
    ['RESPONSE_STALL_TIMEOUT', '10 seconds'],
    ['SHUTDOWN_DRAIN_DELAY', '-1s'],
    ['SHUTDOWN_DRAIN_DELAY', 'soon']
  ]
  for (const [name, value] of cases) {
    assert.throws(() => loadConfig({ [name]: value }), (error: unknown) => {
      assert.ok(error instanceof ConfigError)
      assert.ok(error.message.startsWith(`Invalid ${name}=${JSON.stringify(value)}: expected `), error.message)
      assert.ok(!error.message.includes('\n'))
      return true
    }, `${name}=${value}`)
  }
})

test('connections per client: a tenth of MAX_CONNECTIONS by default (at least one), at most MAX_CONNECTIONS', () => {
  assert.equal(loadConfig({ MAX_CONNECTIONS: '3' }).connections.maxPerClient, 1)
  assert.equal(loadConfig({ MAX_CONNECTIONS: '1' }).connections.maxPerClient, 1)
  assert.equal(loadConfig({ MAX_CONNECTIONS: '25' }).connections.maxPerClient, 3)
  // Every slot to one address is allowed (a private setup), one more is not.
  assert.equal(loadConfig({ MAX_CONNECTIONS: '50', MAX_CONNECTIONS_PER_CLIENT: '50' }).connections.maxPerClient, 50)
  assert.throws(() => loadConfig({ MAX_CONNECTIONS: '50', MAX_CONNECTIONS_PER_CLIENT: '51' }),
    { message: 'Invalid MAX_CONNECTIONS_PER_CLIENT="51": expected an integer from 1 to MAX_CONNECTIONS (50)' })
})
