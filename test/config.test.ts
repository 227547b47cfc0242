import { test } from 'node:test'
import assert from 'node:assert/strict'
import path from 'node:path'
import { ConfigError, loadConfig, SAMPLE_DATA_DIR } from '../src/config.ts'

test('defaults: port 3000, the sample dataset, 600 requests a minute, no Redis, no trusted proxy', () => {
  const config = loadConfig({})
  assert.equal(config.port, 3000)
  assert.equal(config.publicUrl, 'http://localhost:3000')
  assert.equal(config.dataDir, SAMPLE_DATA_DIR)
  assert.equal(config.usingSampleData, true)
  assert.deepEqual(config.rateLimit, { max: 600, windowMs: 60_000 })
  assert.equal(config.redisUrl, undefined)
  assert.equal(config.trustProxy, false)
  assert.equal(config.logLevel, 'info')
})

test('reads every variable', () => {
  const config = loadConfig({
    PORT: '8080',
    HOST: '127.0.0.1',
    PUBLIC_URL: 'https://enem.example.org/',
    ENEM_DATA_DIR: 'some/dir',
    RATE_LIMIT_MAX: '0',
    RATE_LIMIT_WINDOW: '30s',
    REDIS_URL: 'redis://127.0.0.1:6379',
    TRUST_PROXY: '10.0.0.0/8, 127.0.0.1',
    LOG_LEVEL: 'warn'
  })
  assert.equal(config.port, 8080)
  assert.equal(config.host, '127.0.0.1')
  assert.equal(config.publicUrl, 'https://enem.example.org')
  assert.equal(config.dataDir, path.resolve('some/dir'))
  assert.equal(config.usingSampleData, false)
  assert.deepEqual(config.rateLimit, { max: 0, windowMs: 30_000 })
  assert.equal(config.redisUrl, 'redis://127.0.0.1:6379')
  assert.equal(config.trustProxy, '10.0.0.0/8, 127.0.0.1')
  assert.equal(config.logLevel, 'warn')
  assert.equal(loadConfig({ TRUST_PROXY: '2' }).trustProxy, 2)
  assert.equal(loadConfig({ RATE_LIMIT_WINDOW: '1m' }).rateLimit.windowMs, 60_000)
  assert.equal(loadConfig({ RATE_LIMIT_WINDOW: '1500' }).rateLimit.windowMs, 1500)
})

test('an invalid value is one clear error naming the variable and what it expects', () => {
  const cases: Array<[Record<string, string>, RegExp]> = [
    [{ PORT: 'abc' }, /^Invalid PORT="abc": expected an integer from 0 to 65535$/],
    [{ PORT: '70000' }, /PORT/],
    [{ PUBLIC_URL: 'not a url' }, /PUBLIC_URL.*absolute URL/],
    [{ PUBLIC_URL: 'ftp://x' }, /PUBLIC_URL/],
    [{ RATE_LIMIT_MAX: '-1' }, /RATE_LIMIT_MAX/],
    [{ RATE_LIMIT_WINDOW: 'soon' }, /RATE_LIMIT_WINDOW.*duration/],
    [{ REDIS_URL: 'http://x' }, /REDIS_URL/],
    [{ TRUST_PROXY: 'maybe' }, /TRUST_PROXY/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL.*one of/],
    [{ WEB_CONCURRENCY: '0' }, /WEB_CONCURRENCY/]
  ]
  for (const [env, message] of cases) {
    assert.throws(() => loadConfig(env), (error: unknown) => error instanceof ConfigError && message.test(error.message), JSON.stringify(env))
  }
})
