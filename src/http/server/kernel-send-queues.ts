import { existsSync, readlinkSync } from 'node:fs'
import { Worker } from 'node:worker_threads'
import type { ServerSocket } from './server-socket.ts'
import { TCP_TABLES, type TableAnswer, type TableRequest } from './kernel-tables.ts'

/** Where the worker's module is: beside this one in the sources, beside the bundle (dist/server.js) once built. */
const WORKER_URL = new URL(import.meta.url.endsWith('.ts') ? './kernel-tables-worker.ts' : './kernel-tables-worker.js', import.meta.url)

/**
 * What the kernel still holds of what was written to a connection: bytes sent (or waiting to be)
 * that the client has not acknowledged. Only the client taking bytes makes that number shrink, so
 * it measures a reader's progress where Node's own numbers cannot: once the kernel's send buffer
 * (megabytes, as Linux sizes it) is full, a write completes only when a large part of it has
 * drained, which at a slow steady pace takes longer than any sensible stall timeout.
 *
 * Read from the `tx_queue` column of /proc/net/tcp and /proc/net/tcp6 (Linux, and a container on
 * it), finding each connection by the inode of its descriptor. Elsewhere, `available` is false.
 * The tables are read in a worker thread of its own (./kernel-tables-worker.ts): a read costs
 * milliseconds however few connections there are, and the thread pool, where an asynchronous read
 * would go, may be busy compressing for seconds under load.
 */
export class KernelSendQueues {
  #available: boolean
  readonly #inodes = new WeakMap<ServerSocket, string>()
  #worker: Worker | undefined
  #nextId = 0
  readonly #waiting = new Map<number, (answer: TableAnswer | undefined) => void>()

  constructor (available: boolean = existsSync(TCP_TABLES.IPv4) && existsSync('/proc/self/fd')) {
    this.#available = available
  }

  /** Whether the kernel's tables can be read here (false too once the worker has failed). */
  get available (): boolean {
    return this.#available
  }

  /**
   * Each socket's unacknowledged bytes, for those the kernel's tables list (a socket already
   * closed, or without a descriptor, is left out). Empty when the tables cannot be read.
   */
  async unacknowledgedBytes (sockets: readonly ServerSocket[]): Promise<Map<ServerSocket, number>> {
    const found = new Map<ServerSocket, number>()
    if (!this.#available) return found
    const byInode = new Map<string, ServerSocket>()
    const families = new Set<keyof typeof TCP_TABLES>()
    for (const socket of sockets) {
      const inode = this.#inode(socket)
      if (inode === undefined) continue
      byInode.set(inode, socket)
      families.add(socket.remoteFamily === 'IPv6' ? 'IPv6' : 'IPv4')
    }
    if (byInode.size === 0) return found
    const answer = await this.#ask([...families].map((family) => TCP_TABLES[family]), [...byInode.keys()])
    for (const [inode, bytes] of answer?.found ?? []) found.set(byInode.get(inode)!, bytes)
    return found
  }

  /** Ends the worker thread (at close); a later question starts another. */
  close (): void {
    const worker = this.#worker
    this.#worker = undefined
    this.#answerWaiting()
    worker?.terminate().catch(() => {})
  }

  /** Answers every question still waiting with nothing read (the worker is gone). */
  #answerWaiting (): void {
    for (const resolve of this.#waiting.values()) resolve(undefined)
    this.#waiting.clear()
  }

  #ask (tables: string[], inodes: string[]): Promise<TableAnswer | undefined> {
    const worker = this.#started()
    if (worker === undefined) return Promise.resolve(undefined)
    const id = this.#nextId++
    const request: TableRequest = { id, tables, inodes }
    return new Promise((resolve) => {
      this.#waiting.set(id, resolve)
      worker.postMessage(request)
    })
  }

  /** The worker, started on first use; undefined once one has failed (nothing is read from then on). */
  #started (): Worker | undefined {
    if (this.#worker !== undefined || !this.#available) return this.#worker
    const worker = new Worker(WORKER_URL)
    // It holds no process open: a server's close ends it, and a tool's exit does not wait for it.
    worker.unref()
    worker.on('message', (answer: TableAnswer) => {
      const resolve = this.#waiting.get(answer.id)
      this.#waiting.delete(answer.id)
      resolve?.(answer)
    })
    // A worker that fails, or ends though not closed, reads nothing more: the stall check then has Node's own numbers only.
    const gone = () => {
      if (this.#worker !== worker) return
      this.#worker = undefined
      this.#available = false
      this.#answerWaiting()
    }
    worker.once('error', gone)
    worker.once('exit', gone)
    this.#worker = worker
    return worker
  }

  /** The inode of the socket's descriptor (`socket:[12345]`), looked up once per socket. */
  #inode (socket: ServerSocket): string | undefined {
    let inode = this.#inodes.get(socket)
    if (inode !== undefined) return inode
    const fd = socket._handle?.fd
    if (fd === undefined || fd < 0) return undefined
    try {
      inode = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/self/fd/${fd}`))?.[1]
    } catch {
      return undefined
    }
    if (inode !== undefined) this.#inodes.set(socket, inode)
    return inode
  }
}
