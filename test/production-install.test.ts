import { test, type TestContext } from 'node:test'
import assert from 'node:assert/strict'
import { execFileSync, spawn, spawnSync } from 'node:child_process'
import { once } from 'node:events'
import { cp, mkdir, mkdtemp, rm } from 'node:fs/promises'
import { existsSync, readFileSync, statSync, utimesSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'

/*
 * A production install as docs/operations.md describes it: the repository's files, `npm ci --omit=dev`
 * (no tsx, no esbuild) and the dist/ built once elsewhere. `npm start` and `npm run check-data`
 * must work there; without dist/, `npm start` must say in one line what to do.
 */

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url))

function npm (cwd: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  return spawnSync('npm', args, { cwd, encoding: 'utf8', env: { ...process.env, ...env }, timeout: 240_000 })
}

async function productionCopy (t: TestContext): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'enem-production-'))
  t.after(() => rm(dir, { recursive: true, force: true }))
  // The repository's own files, as a clone would have them (no node_modules, no dist).
  const files = execFileSync('git', ['ls-files', '-z'], { cwd: REPO_ROOT, encoding: 'utf8' }).split('\0').filter((file) => file !== '' && existsSync(path.join(REPO_ROOT, file)))
  for (const file of files) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true })
    await cp(path.join(REPO_ROOT, file), path.join(dir, file))
  }
  const installed = npm(dir, ['ci', '--omit=dev', '--prefer-offline', '--no-audit', '--no-fund'])
  assert.equal(installed.status, 0, installed.stderr)
  return dir
}

test('a production install (npm ci --omit=dev) runs the built server and the data check with no dev tool', { timeout: 300_000 }, async (t) => {
  const built = spawnSync(process.execPath, ['scripts/ensure-build.js'], { cwd: REPO_ROOT, encoding: 'utf8' })
  assert.equal(built.status, 0, built.stderr)
  const dir = await productionCopy(t)
  for (const devTool of ['tsx', 'esbuild', 'typescript']) assert.ok(!existsSync(path.join(dir, 'node_modules', devTool)), `${devTool} is not installed`)

  await t.test('without dist/, npm start stops with one line saying how to build', () => {
    const started = npm(dir, ['start', '--silent'])
    assert.equal(started.status, 1)
    const lines = started.stderr.split('\n').filter((line) => line !== '' && !line.startsWith('npm '))
    assert.equal(lines.length, 1, started.stderr)
    assert.match(lines[0]!, /dist\/server\.js.*missing.*npm run build/)
  })

  // Copied after the sources, so it is newer than they are, as after a build.
  await cp(path.join(REPO_ROOT, 'dist'), path.join(dir, 'dist'), { recursive: true })

  await t.test('npm run check-data runs dist/check-data.js', () => {
    // The copy's own sample: an ENEM_DATA_DIR given to the test run may be relative to the repository.
    const checked = npm(dir, ['run', 'check-data', '--silent'], { ENEM_DATA_DIR: '' })
    assert.equal(checked.status, 0, checked.stderr)
    assert.match(checked.stdout, /^Summary: 0 errors/m)
  })

  await t.test('dist/dataset.js loads the booklets\' reader (MuPDF, the package as published, not bundled) with no dev dependency', () => {
    assert.ok(existsSync(path.join(dir, 'node_modules', 'mupdf', 'dist', 'mupdf-wasm.wasm')), 'mupdf is a production dependency, installed whole')
    assert.ok(!readFileSync(path.join(dir, 'dist', 'dataset.js'), 'utf8').includes('libmupdf'), 'no bundle of ours holds MuPDF\'s code')
    const usage = spawnSync(process.execPath, ['dist/dataset.js', '--help'], { cwd: dir, encoding: 'utf8' })
    assert.equal(usage.status, 0, usage.stderr)
    assert.match(usage.stdout, /booklets/)
  })

  await t.test('npm start serves, without building', async () => {
    const child = spawn('npm', ['start', '--silent'], {
      cwd: dir,
      detached: true,
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ENEM_DATA_DIR: '', LOG_LEVEL: 'info', WEB_CONCURRENCY: '1' },
      stdio: ['ignore', 'pipe', 'pipe']
    })
    // npm runs the server as its child: end the whole group, whatever happens.
    const exited = once(child, 'exit')
    t.after(() => { if (child.exitCode === null) process.kill(-child.pid!, 'SIGKILL') })
    let stderr = ''
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => { stderr += chunk })
    const port = await new Promise<number>((resolve, reject) => {
      createInterface({ input: child.stdout }).on('line', (line) => {
        try {
          const entry = JSON.parse(line) as { msg: string, port?: number }
          if (entry.msg === 'ready') resolve(entry.port!)
        } catch {}
      })
      exited.then(() => reject(new Error(`npm start exited before it was ready: ${stderr}`)), reject)
    })
    const exams = await fetch(`http://127.0.0.1:${port}/v1/exams`)
    assert.equal(exams.status, 200)
    assert.ok((await exams.json() as unknown[]).length > 0)
    assert.doesNotMatch(stderr, /Building/, 'no build on start')
    process.kill(-child.pid!, 'SIGTERM')
    await exited
  })
})

test('in a development install, npm start builds dist/ only when it is missing or older than the sources', () => {
  const ensure = () => spawnSync(process.execPath, ['scripts/ensure-build.js'], { cwd: REPO_ROOT, encoding: 'utf8' })
  assert.equal(ensure().status, 0)
  const builtAt = statSync(path.join(REPO_ROOT, 'dist/server.js')).mtimeMs
  const again = ensure()
  assert.equal(again.status, 0)
  assert.equal(again.stderr, '', 'up to date: nothing said, nothing built')
  assert.equal(statSync(path.join(REPO_ROOT, 'dist/server.js')).mtimeMs, builtAt)

  // A source newer than the build: rebuilt.
  const source = path.join(REPO_ROOT, 'src/server.ts')
  const { atime, mtime } = statSync(source)
  utimesSync(source, atime, new Date(builtAt + 1000))
  try {
    const rebuilt = ensure()
    assert.equal(rebuilt.status, 0, rebuilt.stderr)
    assert.match(rebuilt.stderr, /^Building dist\//)
    assert.ok(statSync(path.join(REPO_ROOT, 'dist/server.js')).mtimeMs > builtAt)
  } finally {
    utimesSync(source, atime, mtime)
  }
})
