import { createHash } from 'node:crypto'
import { lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs'
import path from 'node:path'

/*
 * Git's object hashes (SHA-1), computed here so that a local copy of a source is checked against
 * the hashes its repository gives it, with no network and no git: `git hash-object FILE` for a
 * file (a blob), and for a folder the hash of the tree git would write for it (`git write-tree`
 * of an index holding the folder): entries sorted by name as git sorts them (a folder's name
 * compared as if it ended in `/`), files with mode 100644 or 100755, folders 40000, symbolic
 * links 120000, empty folders left out (git keeps none).
 */

export type GitObjectKind = 'blob' | 'tree'

function objectHash (kind: GitObjectKind, body: Buffer): Buffer {
  return createHash('sha1').update(`${kind} ${body.length}\0`).update(body).digest()
}

/** `git hash-object FILE`, hex. */
export function blobHash (file: string): string {
  return objectHash('blob', readFileSync(file)).toString('hex')
}

/** A file's git blob hash and SHA-256 (what a single pinned file is checked against), hex, from one read. */
export function fileHashes (file: string): { blob: string, sha256: string } {
  const bytes = readFileSync(file)
  return { blob: objectHash('blob', bytes).toString('hex'), sha256: createHash('sha256').update(bytes).digest('hex') }
}

/** The hash git gives the tree of `dir`, hex. Throws when `dir` is not a folder. */
export function treeHash (dir: string): string {
  const hash = treeObject(dir)
  if (hash === null) return objectHash('tree', Buffer.alloc(0)).toString('hex')
  return hash.toString('hex')
}

/** The hash of `target` as a blob or a tree, by what it is on disk. */
export function gitHash (target: string, kind: GitObjectKind): string {
  return kind === 'blob' ? blobHash(target) : treeHash(target)
}

interface Entry {
  readonly mode: string
  readonly name: string
  /** The name as git orders it: a folder's with `/` after it. */
  readonly order: Buffer
  readonly hash: Buffer
}

/** A folder's tree hash, or null for a folder git would not keep (nothing but empty folders). */
function treeObject (dir: string): Buffer | null {
  const entries: Entry[] = []
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name)
    const stat = lstatSync(full)
    if (stat.isDirectory()) {
      const hash = treeObject(full)
      if (hash !== null) entries.push({ mode: '40000', name, order: Buffer.from(`${name}/`), hash })
    } else if (stat.isSymbolicLink()) {
      entries.push({ mode: '120000', name, order: Buffer.from(name), hash: objectHash('blob', Buffer.from(readlinkSync(full))) })
    } else if (stat.isFile()) {
      entries.push({ mode: (stat.mode & 0o111) === 0 ? '100644' : '100755', name, order: Buffer.from(name), hash: objectHash('blob', readFileSync(full)) })
    }
  }
  if (entries.length === 0) return null
  entries.sort((a, b) => Buffer.compare(a.order, b.order))
  return objectHash('tree', Buffer.concat(entries.flatMap((entry) => [Buffer.from(`${entry.mode} ${entry.name}\0`), entry.hash])))
}
