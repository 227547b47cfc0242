import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { LRUCache } from 'lru-cache'
import { decodePath } from '../../data/dataset/file-addresses.ts'
import { PreparedBody } from './prepared-body.ts'

/*
 * The dataset's files as /files serves them, and as the MCP tools carry them (a figure as an image
 * block): one bounded cache of whole files read from disk once, for both, so a figure an assistant
 * sees is the very bytes /files answers, and neither reader keeps a copy of its own.
 */

/** Bytes of files kept in memory. The whole image set is ~100 MB; the popular part fits in this. */
const FILE_CACHE_BYTES = 32 * 1024 * 1024

/** The dataset's file types; anything else is served as bytes, never sniffed (nosniff is on). */
const CONTENT_TYPES: Readonly<Record<string, { type: string, compress: boolean }>> = {
  png: { type: 'image/png', compress: false },
  jpg: { type: 'image/jpeg', compress: false },
  jpeg: { type: 'image/jpeg', compress: false },
  gif: { type: 'image/gif', compress: false },
  webp: { type: 'image/webp', compress: false },
  bmp: { type: 'image/bmp', compress: true },
  svg: { type: 'image/svg+xml', compress: true }
}
const UNKNOWN_TYPE = { type: 'application/octet-stream', compress: false }

export class ServedFiles {
  readonly #servable: ReadonlyMap<string, string>
  readonly #filesBaseUrl: string | undefined
  readonly #files: LRUCache<string, PreparedBody>

  /**
   * `servable`: the relative paths that may be served, each with the dataset folder holding it.
   * `filesBaseUrl`: the address under which records name them (`<PUBLIC_URL>/files`), to find a
   * record's figure by its address.
   */
  constructor (servable: ReadonlyMap<string, string>, filesBaseUrl?: string) {
    this.#servable = servable
    this.#filesBaseUrl = filesBaseUrl
    this.#files = new LRUCache<string, PreparedBody>({
      maxSize: FILE_CACHE_BYTES,
      sizeCalculation: (body) => body.raw.length,
      fetchMethod: async (relative) => {
        const kind = CONTENT_TYPES[path.extname(relative).slice(1).toLowerCase()] ?? UNKNOWN_TYPE
        return new PreparedBody(await readFile(path.resolve(this.#servable.get(relative)!, relative)), { contentType: kind.type, compress: kind.compress, effort: 'fast' })
      }
    })
  }

  /** The folders the files are in. */
  get roots (): string[] {
    return [...new Set(this.#servable.values())].map((dir) => path.resolve(dir))
  }

  /** The dataset folder of a servable file, or undefined: anything else is never read. */
  folderOf (relative: string): string | undefined {
    return this.#servable.get(relative)
  }

  /** A servable file's answer, read once and kept while the cache has room. */
  async body (relative: string): Promise<PreparedBody> {
    if (!this.#servable.has(relative)) throw new Error(`${relative} is not a servable file`)
    return (await this.#files.fetch(relative))!
  }

  /** The file a record's address names (`<PUBLIC_URL>/files/<escaped path>`), when it is one this server serves. */
  relativeOf (address: string): string | undefined {
    const base = this.#filesBaseUrl
    if (base === undefined || !address.startsWith(`${base}/`)) return undefined
    const escaped = address.slice(base.length + 1).replace(/[?#].*$/, '')
    const relative = decodePath(escaped)
    return relative !== null && this.#servable.has(relative) ? relative : undefined
  }
}
