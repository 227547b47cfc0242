import { test } from 'node:test'
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'

/*
 * `npm run dataset` where the sources cannot be cloned (offline): one line that says why and the two
 * ways round it, `--source` (a local copy) and `--git` (a mirror); exit 1, nothing written. Git is
 * kept from the network by GIT_ALLOW_PROTOCOL (only file:// allowed), so the test sends nothing out.
 */

const REPO = fileURLToPath(new URL('../..', import.meta.url))

test('a source that cannot be cloned: one line naming it, --source and --git; exit 1; nothing written', async (t) => {
  const work = mkdtempSync(path.join(tmpdir(), 'enem-offline-'))
  t.after(() => rmSync(work, { recursive: true, force: true }))
  const out = path.join(work, 'full')
  const failed = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/cli/dataset.ts', out, '--cache', path.join(work, 'cache')], { cwd: REPO, env: { ...process.env, GIT_ALLOW_PROTOCOL: 'file' } })
    .then(() => undefined, (error: { code: number, stdout: string, stderr: string }) => error)
  assert.ok(failed !== undefined, 'the build failed')
  assert.equal(failed.code, 1)
  assert.equal(failed.stdout, '')
  const lines = failed.stderr.trim().split('\n')
  assert.equal(lines.length, 1, failed.stderr)
  assert.match(lines[0]!, /^dataset: source dataset: cloning https:\/\/\S+ failed: .+; without the network, read a local copy of it instead \(--source dataset=PATH; --help says what PATH holds\) or clone a mirror \(--git dataset=URL#COMMIT\)$/)
  assert.equal(existsSync(out), false)
})
