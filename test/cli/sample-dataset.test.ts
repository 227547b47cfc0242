import { test } from 'node:test'
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { fileURLToPath } from 'node:url'

/*
 * data/sample is exactly what `npm run sample-data` writes: the facts its header lists (and the
 * tests rely on) cannot drift from the files by hand.
 */

const REPO = fileURLToPath(new URL('../..', import.meta.url))
const SAMPLE_DIR = path.join(REPO, 'data', 'sample')

async function filesUnder (dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true })
  return entries.filter((entry) => entry.isFile()).map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name))).sort()
}

test('data/sample is byte for byte what the sample writer writes', async (t) => {
  const out = await mkdtemp(path.join(tmpdir(), 'enem-sample-'))
  t.after(() => rm(out, { recursive: true, force: true }))
  await promisify(execFile)(process.execPath, ['--import', 'tsx', path.join(REPO, 'src', 'cli', 'write-sample-dataset.ts'), out], { cwd: REPO })
  const written = await filesUnder(out)
  assert.deepEqual(written, await filesUnder(SAMPLE_DIR))
  assert.ok(written.some((name) => name.endsWith('.png')) && written.some((name) => name.endsWith('.jpg')) && written.some((name) => name.endsWith('.bmp')))
  for (const name of written) assert.ok((await readFile(path.join(out, name))).equals(await readFile(path.join(SAMPLE_DIR, name))), name)
})
