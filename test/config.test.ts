import { test } from 'node:test'
import assert from 'node:assert/strict'
import path from 'node:path'
import { spawn, spawnSync } from 'node:child_process'
import { once } from 'node:events'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { fileURLToPath } from 'node:url'
import { ConfigError, loadConfig, SAMPLE_DATA_DIR } from '../src/config.ts'
import { checkDataDir, StartUpError } from '../src/start-up-checks.ts'

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

test('ENEM_DATA_DIR names one folder or several separated by ":", each resolved, in order', async () => {
  const single = loadConfig({ ENEM_DATA_DIR: 'some/dir' })
  assert.deepEqual(single.dataDirs, [path.resolve('some/dir')])
  const several = loadConfig({ ENEM_DATA_DIR: `some/dir${path.delimiter}/srv/enem-ppl${path.delimiter}` })
  assert.deepEqual(several.dataDirs, [path.resolve('some/dir'), '/srv/enem-ppl'])
  assert.equal(several.dataDir, several.dataDirs.join(path.delimiter))
  assert.equal(several.usingSampleData, false)
  // Of several folders, the one that is not a dataset is named.
  await assert.rejects(checkDataDir({ ...several, dataDirs: [SAMPLE_DATA_DIR, '/srv/enem-ppl'] }),
    (error: Error) => error instanceof StartUpError && error.message.includes('"/srv/enem-ppl" does not exist') && error.message.includes('separated by ":"'))
  await checkDataDir({ ...several, dataDirs: [SAMPLE_DATA_DIR, SAMPLE_DATA_DIR] })
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
    [{ TRUST_PROXY: '10.0.0.0/99' }, /^Invalid TRUST_PROXY="10.0.0.0\/99": expected .*"10.0.0.0\/99" is none of these$/],
    [{ TRUST_PROXY: '300.1.1.1' }, /TRUST_PROXY.*"300.1.1.1" is none/],
    [{ TRUST_PROXY: '127.0.0.1, abc,def' }, /TRUST_PROXY.*"abc" is none/],
    [{ HOST: 'not_a_host' }, /^Invalid HOST="not_a_host": expected an IP address/],
    [{ HOST: 'a b' }, /HOST/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL.*one of/],
    [{ WEB_CONCURRENCY: '0' }, /WEB_CONCURRENCY/]
  ]
  for (const [env, message] of cases) {
    assert.throws(() => loadConfig(env), (error: unknown) => error instanceof ConfigError && message.test(error.message), JSON.stringify(env))
  }
})

test('TRUST_PROXY takes what proxy-addr takes, HOST an IP address or a host name', () => {
  for (const value of ['loopback', 'uniquelocal, linklocal', '::1', 'fe80::/10', '10.0.0.0/255.0.0.0', '192.168.1.10,10.0.0.0/8']) {
    assert.equal(loadConfig({ TRUST_PROXY: value }).trustProxy, value)
  }
  for (const value of ['localhost', '::', '0.0.0.0', 'api.internal', 'fe80::1']) assert.equal(loadConfig({ HOST: value }).host, value)
})

/*
 * The real start command, once per bad value: `node dist/server.js`, the command `npm start`, the
 * container and a production install run (`npm run build` first, as they have it). Each must stop
 * at once with exit code 1 and one short line on stderr naming the variable: nothing on stdout
 * (so no dataset was read and no log line written) and no stack trace.
 */
const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url))
const SERVER_BUNDLE = path.join(REPO_ROOT, 'dist/server.js')

interface Started { code: number | null, stdout: string, stderr: string }

async function startBundle (env: Record<string, string>): Promise<Started> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, PORT: '0', HOST: '127.0.0.1', ENEM_DATA_DIR: '', LOG_LEVEL: 'info', WEB_CONCURRENCY: '1', ...env }
  delete childEnv.NODE_TEST_CONTEXT
  const child = spawn(process.execPath, [SERVER_BUNDLE], { cwd: REPO_ROOT, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] })
  // A value that was wrongly accepted would start a server: end it rather than wait forever.
  const guard = setTimeout(() => child.kill('SIGKILL'), 20_000)
  let stdout = ''
  let stderr = ''
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => { stdout += chunk })
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => { stderr += chunk })
  const [code] = await once(child, 'close') as [number | null]
  clearTimeout(guard)
  return { code, stdout, stderr }
}

/** Runs `work` over `items`, `width` at a time (the machine has two cores). */
async function inBatches<T> (items: T[], width: number, work: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += width) await Promise.all(items.slice(i, i + width).map(work))
}

test('every bad value stops the real server at once with one short line naming its variable, before the dataset is read', { timeout: 180_000 }, async (t) => {
  const built = spawnSync(process.execPath, ['scripts/ensure-build.js'], { cwd: REPO_ROOT, encoding: 'utf8' })
  assert.equal(built.status, 0, built.stderr)

  const scratch = await mkdtemp(path.join(tmpdir(), 'enem-config-'))
  t.after(() => rm(scratch, { recursive: true, force: true }))
  const aFile = path.join(scratch, 'a-file')
  await writeFile(aFile, 'not a folder')
  const emptyFolder = path.join(scratch, 'empty')
  await mkdir(emptyFolder)

  const cases: Array<[string, string]> = [
    ['PORT', 'abc'], ['PORT', '70000'], ['PORT', '-1'], ['PORT', '80.5'],
    ['HOST', 'not_a_host'], ['HOST', 'bad host'], ['HOST', '-leading.hyphen'],
    // Well-formed, but not an address of this machine: found by binding it, which sends nothing.
    ['HOST', '192.0.2.1'],
    ['PUBLIC_URL', 'not a url'], ['PUBLIC_URL', 'ftp://example.org'], ['PUBLIC_URL', 'https://example.org/?a=1'], ['PUBLIC_URL', 'https://user:pw@example.org'],
    ['ENEM_DATA_DIR', path.join(scratch, 'does-not-exist')], ['ENEM_DATA_DIR', aFile], ['ENEM_DATA_DIR', emptyFolder],
    ['RATE_LIMIT_MAX', '-1'], ['RATE_LIMIT_MAX', 'abc'], ['RATE_LIMIT_MAX', '1.5'], ['RATE_LIMIT_MAX', '10000000000'],
    ['RATE_LIMIT_WINDOW', 'soon'], ['RATE_LIMIT_WINDOW', '0'], ['RATE_LIMIT_WINDOW', '1d'], ['RATE_LIMIT_WINDOW', '-5s'],
    ['REDIS_URL', 'http://localhost:6379'], ['REDIS_URL', 'not a url'],
    ['TRUST_PROXY', '10.0.0.0/99'], ['TRUST_PROXY', '300.1.1.1'], ['TRUST_PROXY', 'abc,def'], ['TRUST_PROXY', 'maybe'],
    ['TRUST_PROXY', '1.2.3.4/33'], ['TRUST_PROXY', '10.0.0.1,'], ['TRUST_PROXY', '::1/129'], ['TRUST_PROXY', '-1'],
    ['LOG_LEVEL', 'loud'], ['LOG_LEVEL', 'INFO'],
    ['WEB_CONCURRENCY', '0'], ['WEB_CONCURRENCY', 'two'], ['WEB_CONCURRENCY', '65'],
    ['TRUST_PROXY', 'x'.repeat(10_000)]
  ]
  await inBatches(cases, 2, async ([variable, value]) => {
    const label = `${variable}=${JSON.stringify(value.slice(0, 40))}`
    const { code, stdout, stderr } = await startBundle({ [variable]: value })
    assert.equal(code, 1, `${label}: exit code 1 (stderr: ${stderr.slice(0, 300)})`)
    assert.equal(stdout, '', `${label}: nothing on stdout, so no dataset read and no log line (got ${stdout.slice(0, 300)})`)
    const lines = stderr.split('\n').filter((line) => line !== '')
    assert.equal(lines.length, 1, `${label}: one line, got ${lines.length}: ${stderr.slice(0, 500)}`)
    const [line] = lines as [string]
    assert.ok(line.length <= 300, `${label}: a short line (${line.length} characters)`)
    assert.ok(line.includes(`${variable}=`), `${label}: the line names ${variable}: ${line}`)
    assert.match(line, /expected|set PORT/, `${label}: the line says what is expected: ${line}`)
  })
})

test('a dataset with errors refuses the start and names ENEM_DATA_DIR', async (t) => {
  const dir = await mkdtemp(path.join(tmpdir(), 'enem-config-'))
  t.after(() => rm(dir, { recursive: true, force: true }))
  await writeFile(path.join(dir, 'exams.json'), '{ not json')
  const { code, stdout, stderr } = await startBundle({ ENEM_DATA_DIR: dir })
  assert.equal(code, 1)
  assert.equal(stderr, '')
  const lines = stdout.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as { level: number, msg: string })
  const fatal = lines.find((line) => line.level === 60)
  assert.ok(fatal !== undefined, stdout)
  assert.ok(fatal.msg.startsWith(`ENEM_DATA_DIR=${dir} has errors, refusing to start`), fatal.msg)
})

test('the same exam in two folders of ENEM_DATA_DIR refuses the start, naming the exam and the folders', async () => {
  const dirs = `${SAMPLE_DATA_DIR}${path.delimiter}${SAMPLE_DATA_DIR}`
  const { code, stdout } = await startBundle({ ENEM_DATA_DIR: dirs })
  assert.equal(code, 1)
  const lines = stdout.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as { level: number, msg: string, kind?: string })
  const fatal = lines.find((line) => line.level === 60)
  assert.ok(fatal !== undefined, stdout)
  assert.ok(fatal.msg.startsWith(`ENEM_DATA_DIR=${dirs} has errors, refusing to start`), fatal.msg)
  assert.match(fatal.msg, /duplicate_exam/)
  // Each exam the sample holds is named once, held by the first folder too.
  const errors = lines.filter((line) => line.level === 50 && line.kind === 'duplicate_exam')
  assert.ok(errors.length > 0 && errors.every((line) => line.msg.includes(`is held by ${SAMPLE_DATA_DIR} too`)), stdout)
})

test('CACHE_DIR: a folder of the system\'s temporary one by default, `off` for none, any other value the folder', () => {
  assert.equal(loadConfig({}).cacheDir, path.join(tmpdir(), 'enem-api-cache'))
  assert.equal(loadConfig({ CACHE_DIR: '' }).cacheDir, path.join(tmpdir(), 'enem-api-cache'))
  assert.equal(loadConfig({ CACHE_DIR: 'off' }).cacheDir, null)
  assert.equal(loadConfig({ CACHE_DIR: 'var/cache' }).cacheDir, path.resolve('var/cache'))
})
