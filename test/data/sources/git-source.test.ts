import { test } from 'node:test'
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { cloneSource } from '../../../src/data/sources/fetch-source.ts'
import { blobHash, treeHash } from '../../../src/data/sources/git-hashes.ts'
import type { SourcePin } from '../../../src/data/sources/source-pins.ts'

/*
 * The git hashes `npm run dataset` checks sources against, computed without git
 * (src/data/sources/git-hashes.ts), compared with what git itself says of the same folder; and a
 * clone of a folder read whole (src/data/sources/fetch-source.ts) on a small local repository.
 */

const run = promisify(execFile)
const git = (cwd: string, ...args: string[]) => run('git', ['-c', 'user.name=test', '-c', 'user.email=test@example.org', '-c', 'commit.gpgsign=false', ...args], { cwd }).then(({ stdout }) => stdout.trim())

/** A folder with what git's tree order and modes make tricky: `a` beside `a.b` and `a-b`, a script, an empty folder, accents and a `%`. */
function makeFolder (t: { after: (fn: () => void) => void }): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'git-hashes-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  const write = (relative: string, text: string) => {
    mkdirSync(path.dirname(path.join(dir, relative)), { recursive: true })
    writeFileSync(path.join(dir, relative), text)
  }
  write('public/a/inner.txt', 'inside a\n')
  write('public/a.b', 'a dot b\n')
  write('public/a-b', 'a dash b\n')
  write('public/questão%C3%A3o 1.png', 'bytes\u0000\u0001')
  write('public/run.sh', '#!/bin/sh\n')
  chmodSync(path.join(dir, 'public/run.sh'), 0o755)
  mkdirSync(path.join(dir, 'public/empty'))
  write('other/ignored.txt', 'not read\n')
  return dir
}

test('the hashes of a file and of a folder are the ones git gives them (hash-object, write-tree)', async (t) => {
  const dir = makeFolder(t)
  await git(dir, 'init', '--quiet')
  await git(dir, 'add', '--all')
  assert.equal(treeHash(path.join(dir, 'public')), await git(dir, 'write-tree', '--prefix=public/'))
  assert.equal(blobHash(path.join(dir, 'public/a.b')), await git(dir, 'hash-object', 'public/a.b'))
  // One byte changed: another hash.
  writeFileSync(path.join(dir, 'public/a/inner.txt'), 'inside A\n')
  assert.notEqual(treeHash(path.join(dir, 'public')), await git(dir, 'write-tree', '--prefix=public/'))
})

test('a folder read whole is cloned at the commit given, laid out as a local copy of it, and a commit other than the one given is refused', async (t) => {
  const dir = makeFolder(t)
  const hash = treeHash(path.join(dir, 'public'))
  await git(dir, 'init', '--quiet')
  await git(dir, 'add', '--all')
  await git(dir, 'commit', '--quiet', '-m', 'first')
  const first = await git(dir, 'rev-parse', 'HEAD')
  writeFileSync(path.join(dir, 'other/ignored.txt'), 'changed\n')
  await git(dir, 'commit', '--quiet', '--all', '-m', 'second')
  const pin: SourcePin = { name: 'dataset', title: 'test', repository: `file://${dir}`, ref: 'refs/heads/main', commit: first, licence: 'MIT', read: [{ path: 'public/', local: '.', kind: 'tree', hash }], localCopy: '' }
  const cache = path.join(dir, 'cache')
  const cloned = await cloneSource(cache, pin, { url: `file://${dir}`, commit: first, ref: first })
  assert.equal(cloned.commit, first)
  assert.equal(treeHash(cloned.root), hash)
  assert.equal(readFileSync(path.join(cloned.root, 'a/inner.txt'), 'utf8'), 'inside a\n')

  const wrong = '0'.repeat(40)
  await assert.rejects(cloneSource(path.join(dir, 'cache-2'), pin, { url: `file://${dir}`, commit: wrong, ref: 'refs/heads/nothing' }), (error: Error) => {
    assert.match(error.message, /^dataset: cloning file:\/\/.* failed: /)
    assert.equal(error.message.includes('\n'), false)
    return true
  })
  // The server refuses the commit by hash (it has none such), the ref gives another: refused.
  const second = await git(dir, 'rev-parse', 'HEAD')
  await assert.rejects(cloneSource(path.join(dir, 'cache-3'), pin, { url: `file://${dir}`, commit: wrong, ref: 'HEAD' }), (error: Error) => {
    assert.equal(error.message, `dataset: file://${dir} gave commit ${second} for HEAD, the pin is ${wrong}`)
    return true
  })
  assert.deepEqual(readdirSync(path.join(dir, 'cache-3')), [], 'nothing is left in the cache')
})
