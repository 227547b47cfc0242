import { test } from 'node:test'
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { cloneSource, fetchPinnedFiles } from '../../../src/data/sources/fetch-source.ts'
import { blobHash, fileHashes, treeHash } from '../../../src/data/sources/git-hashes.ts'
import type { FilesPin, PinnedFile, SourcePin } from '../../../src/data/sources/source-pins.ts'

/*
 * The git hashes `npm run dataset` checks sources against, computed without git
 * (src/data/sources/git-hashes.ts), compared with what git itself says of the same folder; and a
 * clone of a folder read whole (src/data/sources/fetch-source.ts) on a small local repository, and
 * single files pinned each by its own repository and commit (INEP's booklets) fetched from two.
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
  const pin: SourcePin = { kind: 'repository', name: 'dataset', title: 'test', repository: `file://${dir}`, ref: 'refs/heads/main', commit: first, licence: 'MIT', read: [{ path: 'public/', local: '.', kind: 'tree', hash }], localCopy: '' }
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

test('single files pinned each by its own repository and commit are fetched at those commits, laid out as a local copy, their hashes those of git; a commit the repository lacks is refused; the cache is reused', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'pinned-files-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  /** A repository whose first commit holds `files` (path → bytes) beside a file not pinned, and a second commit that changes them. */
  const repository = async (name: string, files: Record<string, string>): Promise<{ url: string, commit: string }> => {
    const at = path.join(dir, name)
    mkdirSync(at)
    await git(at, 'init', '--quiet')
    for (const [file, text] of Object.entries({ ...files, 'other/large.bin': 'not fetched' })) {
      mkdirSync(path.dirname(path.join(at, file)), { recursive: true })
      writeFileSync(path.join(at, file), text)
    }
    await git(at, 'add', '--all')
    await git(at, 'commit', '--quiet', '-m', 'first')
    const commit = await git(at, 'rev-parse', 'HEAD')
    for (const file of Object.keys(files)) writeFileSync(path.join(at, file), 'changed later')
    await git(at, 'commit', '--quiet', '--all', '-m', 'second')
    return { url: `file://${at}`, commit }
  }
  const one = await repository('one', { 'src/provas/2025_PV_impresso_D1_CD1.pdf': '%PDF booklet', 'src/gabaritos/2025_GB_impresso_D1_CD1.pdf': '%PDF key' })
  const two = await repository('two', { 'downloads/2023/2023_PV_impresso_D2_CD7.pdf': '%PDF 2023' })
  const file = (local: string, from: { url: string, commit: string }, at: string, text: string): PinnedFile => {
    writeFileSync(path.join(dir, 'expected'), text)
    return { local, origin: `https://inep.example/${path.basename(local)}`, repository: from.url, commit: from.commit, path: at, ...fileHashes(path.join(dir, 'expected')) }
  }
  const pin: FilesPin = {
    kind: 'files',
    name: 'booklets',
    title: 'test',
    publisher: 'INEP',
    address: 'https://inep.example/',
    files: [
      file('2025/2025_PV_impresso_D1_CD1.pdf', one, 'src/provas/2025_PV_impresso_D1_CD1.pdf', '%PDF booklet'),
      file('2025/2025_GB_impresso_D1_CD1.pdf', one, 'src/gabaritos/2025_GB_impresso_D1_CD1.pdf', '%PDF key'),
      file('2023/2023_PV_impresso_D2_CD7.pdf', two, 'downloads/2023/2023_PV_impresso_D2_CD7.pdf', '%PDF 2023')
    ],
    localCopy: ''
  }
  const cache = path.join(dir, 'cache')
  const fetched = await fetchPinnedFiles(cache, pin)
  assert.deepEqual([...fetched.keys()], pin.files.map((entry) => entry.local))
  for (const entry of pin.files) {
    assert.deepEqual(fileHashes(fetched.get(entry.local)!), { blob: entry.blob, sha256: entry.sha256 }, entry.local)
    assert.equal(entry.blob, await git(path.join(dir, entry.repository === one.url ? 'one' : 'two'), 'rev-parse', `${entry.commit}:${entry.path}`), 'the blob hash is git\'s')
  }
  // A local copy lays them out the same way: <year>/<name> under one folder.
  assert.ok(pin.files.every((entry) => fetched.get(entry.local)!.endsWith(entry.local)))

  const wrong: FilesPin = { ...pin, files: [{ ...pin.files[2]!, commit: 'f'.repeat(40) }] }
  await assert.rejects(fetchPinnedFiles(path.join(dir, 'cache-2'), wrong), (error: Error) => {
    assert.match(error.message, /^booklets: cloning file:\/\/.*two failed: /)
    assert.equal(error.message.includes('\n'), false)
    return true
  })

  // With the repositories gone, the files the first fetch left in the cache are found again.
  rmSync(path.join(dir, 'one'), { recursive: true, force: true })
  rmSync(path.join(dir, 'two'), { recursive: true, force: true })
  const again = await fetchPinnedFiles(cache, pin)
  assert.deepEqual([...again].map(([local, at]) => [local, readFileSync(at, 'utf8')]), [['2025/2025_PV_impresso_D1_CD1.pdf', '%PDF booklet'], ['2025/2025_GB_impresso_D1_CD1.pdf', '%PDF key'], ['2023/2023_PV_impresso_D2_CD7.pdf', '%PDF 2023']])
})
