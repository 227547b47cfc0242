import { test } from 'node:test'
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { existsSync, readdirSync } from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'

/*
 * `npm run dataset` on a target in a file system that makes no folders (/proc: mkdir answers ENOENT
 * under a parent that exists, where Node's recursive mkdirSync loops forever, deaf to SIGTERM):
 * one line and exit 1 at once, as any other target it cannot write, and nothing left there.
 * The child is killed past a bound far above what the refusal takes, so a spin fails the test
 * rather than hanging it.
 */

const REPO = path.resolve(import.meta.dirname, '../..')
const PROC = '/proc'
const skip = existsSync(path.join(PROC, 'self')) ? false : 'no /proc on this machine'

test('a target under /proc is refused in one line, with a non-zero exit, nothing written', { skip }, async () => {
  const out = path.join(PROC, `enem-dataset-${process.pid}`)
  const answer = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/cli/dataset.ts', out], { cwd: REPO, timeout: 60_000, killSignal: 'SIGKILL' }).then(
    ({ stdout, stderr }) => ({ code: 0, signal: null, stdout, stderr }),
    (error: { code: number | null, signal: string | null, stdout: string, stderr: string }) => ({ code: error.code, signal: error.signal, stdout: error.stdout, stderr: error.stderr }))
  assert.equal(answer.signal, null, 'the command ended by itself, not killed past the bound')
  assert.equal(answer.code, 1)
  assert.equal(answer.stdout, '')
  const lines = answer.stderr.trim().split('\n')
  assert.equal(lines.length, 1, answer.stderr)
  assert.match(lines[0]!, new RegExp(`^dataset: cannot write ${out}: a folder of the path does not exist \\(ENOENT at ${PROC}/\\.enem-dataset-${process.pid}\\.partial-\\d+\\); nothing was written$`))
  assert.equal(existsSync(out), false)
  assert.deepEqual(readdirSync(PROC).filter((name) => name.includes('enem-dataset')), [])
})
