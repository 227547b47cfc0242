import { createHash, randomBytes } from 'node:crypto'
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { ownedBytes } from './owned-bytes.ts'

/*
 * What start-up makes from the dataset at a cost (the search index, the export's compressed
 * parts), kept in a folder for the next start with the same data, so that a restart (a deploy, a
 * rolling restart, a crash) is ready in a fraction of the time.
 *
 * A file is named by a hash of everything it was made from: the bytes it derives from and the code
 * or library version that made them (the caller gives them all to `cacheKey`), so a changed record
 * or a new version of the code names another file and nothing stale is ever read. It begins with
 * the SHA-256 of the rest, so a file damaged on disk is not used. A folder other users could write
 * to is not used at all: whoever can write there could hand the server an index or an export of
 * their own. Any failure to read or write is a miss: the server makes the thing itself, as it would
 * without the folder.
 */

/** The hash of a file's contents that heads it. */
const HEADER_BYTES = 32

/** How many files of one kind the folder keeps, the most recently used: a few datasets' worth. */
const KEPT_FILES_OF_A_KIND = 64

/** A file written aside this long ago was abandoned by its writer. */
const ABANDONED_AFTER_MS = 10 * 60_000

/**
 * The name of what was made from `inputs`, in order (each counted by its length, so no two lists
 * of inputs run together into the same bytes).
 * @example cacheKey('search-index', code, ...texts) // 64 hex digits
 */
export function cacheKey (...inputs: ReadonlyArray<string | Uint8Array>): string {
  const hash = createHash('sha256')
  for (const input of inputs) {
    hash.update(`${typeof input === 'string' ? 's' : 'b'}${input.length}:`)
    hash.update(input)
  }
  return hash.digest('hex')
}

export class StartUpCache {
  /** The folder, or null when there is none (CACHE_DIR=off, or a folder that cannot be used). */
  readonly dir: string | null

  private constructor (dir: string | null) {
    this.dir = dir
  }

  /** No folder: every read misses and nothing is written. */
  static readonly NONE = new StartUpCache(null)

  /**
   * The cache in `dir` (made if missing, readable and writable by this user alone), or NONE with
   * the reason when it cannot be used.
   */
  static open (dir: string | null): { cache: StartUpCache, problem?: string } {
    if (dir === null) return { cache: StartUpCache.NONE }
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 })
      const stat = statSync(dir)
      if (!stat.isDirectory()) return { cache: StartUpCache.NONE, problem: `${dir} is not a folder` }
      if (process.getuid !== undefined && stat.uid !== process.getuid()) return { cache: StartUpCache.NONE, problem: `${dir} belongs to another user` }
      if ((stat.mode & 0o022) !== 0) return { cache: StartUpCache.NONE, problem: `${dir} can be written by other users` }
      return { cache: new StartUpCache(dir) }
    } catch (error) {
      return { cache: StartUpCache.NONE, problem: `${dir}: ${(error as Error).message}` }
    }
  }

  /**
   * The bytes kept under `kind` and `key`, or undefined (none kept, damaged, or no folder): a view
   * of the file's bytes, for a caller that reads them into something else (the search index is
   * deserialized into arrays of its own); one that keeps the bytes themselves uses readOrMake.
   */
  read (kind: string, key: string): Buffer | undefined {
    if (this.dir === null) return undefined
    const file = this.#file(kind, key)
    let bytes: Buffer
    try {
      bytes = readFileSync(file)
    } catch {
      return undefined
    }
    const payload = bytes.subarray(HEADER_BYTES)
    if (bytes.length < HEADER_BYTES || !createHash('sha256').update(payload).digest().equals(bytes.subarray(0, HEADER_BYTES))) return undefined
    try {
      // Used now: the last to be pruned.
      const now = new Date()
      utimesSync(file, now, now)
    } catch {}
    return payload
  }

  /**
   * Keeps `payload` under `kind` and `key`, whole or not at all (written aside, then renamed), and
   * prunes the kind's least recently used files past KEPT_FILES_OF_A_KIND. Synchronous: called
   * off the event loop (a worker thread) or for a few small files before the server listens.
   * Never throws: a folder that cannot be written is only a miss next time.
   */
  write (kind: string, key: string, payload: Uint8Array): void {
    if (this.dir === null) return
    const file = this.#file(kind, key)
    const aside = `${file}.${process.pid}-${randomBytes(4).toString('hex')}.partial`
    try {
      writeFileSync(aside, Buffer.concat([createHash('sha256').update(payload).digest(), payload]), { mode: 0o600 })
      renameSync(aside, file)
      this.#prune(kind)
    } catch {
      rmSync(aside, { force: true })
    }
  }

  /**
   * The bytes kept under `kind` and `key`, or else those `make` makes (off the event loop), kept
   * for the next start.
   */
  async readOrMake (kind: string, key: string, make: () => Promise<Buffer>): Promise<Buffer> {
    const kept = this.read(kind, key)
    // A buffer of its own: the caller keeps it for the life of the process, and a view would keep the header's bytes too.
    if (kept !== undefined) return ownedBytes(kept)
    const made = await make()
    this.write(kind, key, made)
    return made
  }

  #file (kind: string, key: string): string {
    return path.join(this.dir!, `${kind}-${key}.bin`)
  }

  #prune (kind: string): void {
    const prefix = `${kind}-`
    const names = readdirSync(this.dir!).filter((name) => name.startsWith(prefix))
    // What a writer that was stopped midway left aside (a process killed while it wrote).
    for (const name of names) {
      if (name.endsWith('.partial') && Date.now() - statSync(path.join(this.dir!, name)).mtimeMs > ABANDONED_AFTER_MS) rmSync(path.join(this.dir!, name), { force: true })
    }
    const files = names.filter((name) => name.endsWith('.bin'))
    if (files.length <= KEPT_FILES_OF_A_KIND) return
    const used = files.map((name) => ({ name, at: statSync(path.join(this.dir!, name)).mtimeMs })).sort((a, b) => b.at - a.at)
    for (const { name } of used.slice(KEPT_FILES_OF_A_KIND)) rmSync(path.join(this.dir!, name), { force: true })
  }
}
