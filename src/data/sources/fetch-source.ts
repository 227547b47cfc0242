import { execFile } from 'node:child_process'
import { existsSync, mkdirSync, rmSync, symlinkSync } from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import type { FilesPin, SourcePin } from './source-pins.ts'

/*
 * A source's repository, shallow-cloned at its commit into a cache folder (one per source and
 * commit, reused by the next build), with the paths it is read from laid out as a local copy of it
 * is (`local` of each pinned path: symbolic links into the clone), so that what follows reads a
 * clone and a local copy alike. Only git's own client is used: `git fetch --depth 1` of the
 * commit (or, where a server refuses a commit by hash, of the pinned ref), then a checkout of
 * the pinned paths alone. A source of single files (INEP's booklets) is fetched the same way, one
 * repository and commit at a time, each with its pinned files alone (`--filter=blob:none`: no other
 * file's bytes are downloaded).
 */

const run = promisify(execFile)

/** Where a source is cloned from: its pinned repository and commit, or a mirror's (`--git NAME=URL#COMMIT`). */
export interface CloneOrigin {
  readonly url: string
  readonly commit: string
  /** The ref to fetch when the server refuses the commit by hash. */
  readonly ref: string
}

export interface ClonedSource {
  /** The folder laid out as a local copy of the source. */
  readonly root: string
  /** The commit checked out. */
  readonly commit: string
}

async function git (cwd: string, ...args: string[]): Promise<string> {
  const { stdout } = await run('git', args, { cwd, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' } })
  return stdout.trim()
}

/** The cache folder of one source at one commit. */
export function cloneFolder (cacheDir: string, pin: SourcePin, origin: CloneOrigin): string {
  return path.join(cacheDir, `${pin.name}-${origin.commit.slice(0, 12)}`)
}

/**
 * Clones `pin`'s paths from `origin` into the cache (or reuses the clone a previous build left
 * there). Throws one line when git fails or the commit checked out is not `origin.commit`.
 */
export async function cloneSource (cacheDir: string, pin: SourcePin, origin: CloneOrigin): Promise<ClonedSource> {
  const folder = cloneFolder(cacheDir, pin, origin)
  const repo = path.join(folder, 'repository')
  const view = path.join(folder, 'copy')
  if (!existsSync(path.join(folder, 'complete'))) {
    rmSync(folder, { recursive: true, force: true })
    try {
      mkdirSync(repo, { recursive: true })
      await git(repo, 'init', '--quiet')
      await git(repo, 'remote', 'add', 'origin', origin.url)
      await git(repo, 'sparse-checkout', 'set', '--no-cone', ...pin.read.map((entry) => `/${entry.path}`))
      try {
        await git(repo, 'fetch', '--quiet', '--depth', '1', '--filter=blob:none', 'origin', origin.commit)
      } catch {
        await git(repo, 'fetch', '--quiet', '--depth', '1', '--filter=blob:none', 'origin', origin.ref)
      }
      await git(repo, 'checkout', '--quiet', '--detach', 'FETCH_HEAD')
    } catch (error) {
      rmSync(folder, { recursive: true, force: true })
      const message = ((error as { stderr?: string }).stderr ?? (error as Error).message).trim().split('\n').pop()
      throw new Error(`${pin.name}: cloning ${origin.url} failed: ${message}`)
    }
    const fetched = await git(repo, 'rev-parse', 'HEAD')
    if (fetched !== origin.commit) {
      rmSync(folder, { recursive: true, force: true })
      throw new Error(`${pin.name}: ${origin.url} gave commit ${fetched} for ${origin.ref}, the pin is ${origin.commit}`)
    }
    layOut(repo, view, pin)
    mkdirSync(path.join(folder, 'complete'))
  }
  // A clone of an earlier build: its files are checked against their hashes all the same.
  return { root: view, commit: await git(repo, 'rev-parse', 'HEAD') }
}

/** Links every pinned path of the clone where a local copy holds it. */
function layOut (repo: string, view: string, pin: SourcePin): void {
  mkdirSync(view, { recursive: true })
  for (const entry of pin.read) {
    const target = path.join(repo, entry.path)
    if (entry.local === '.') {
      rmSync(view, { recursive: true })
      symlinkSync(target, view)
      continue
    }
    const link = path.join(view, entry.local)
    mkdirSync(path.dirname(link), { recursive: true })
    symlinkSync(path.relative(path.dirname(link), target), link)
  }
}

/**
 * Fetches every file of a source of single files from the repository and commit it is pinned to
 * (or reuses what a previous build left in the cache); returns where each stands, by its `local`
 * path. Throws one line when git fails or a commit is not the pinned one. The files' hashes are
 * the caller's to check.
 */
export async function fetchPinnedFiles (cacheDir: string, pin: FilesPin): Promise<ReadonlyMap<string, string>> {
  const groups = new Map<string, FilesPin['files'][number][]>()
  for (const file of pin.files) {
    const key = `${file.repository} ${file.commit}`
    groups.set(key, [...(groups.get(key) ?? []), file])
  }
  const found = new Map<string, string>()
  for (const files of groups.values()) {
    const { repository, commit } = files[0]!
    const repositoryPin: SourcePin = {
      kind: 'repository',
      name: pin.name,
      title: pin.title,
      repository,
      ref: commit,
      commit,
      licence: '',
      read: files.map((file) => ({ path: file.path, local: file.local, kind: 'blob', hash: file.blob })),
      localCopy: ''
    }
    const { root } = await cloneSource(cacheDir, repositoryPin, { url: repository, commit, ref: commit })
    for (const file of files) found.set(file.local, path.join(root, file.local))
  }
  return found
}
