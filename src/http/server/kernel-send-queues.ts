import { existsSync, readFileSync, readlinkSync } from 'node:fs'
import type { ServerSocket } from './server-socket.ts'

/** Linux's table of the TCP connections of this network namespace, one file per address family. */
const TCP_TABLES = { IPv4: '/proc/net/tcp', IPv6: '/proc/net/tcp6' } as const

/**
 * What the kernel still holds of what was written to a connection: bytes sent (or waiting to be)
 * that the client has not acknowledged. Only the client taking bytes makes that number shrink, so
 * it measures a reader's progress where Node's own numbers cannot: once the kernel's send buffer
 * (megabytes, as Linux sizes it) is full, a write completes only when a large part of it has
 * drained, which at a slow steady pace takes longer than any sensible stall timeout.
 *
 * Read from the `tx_queue` column of /proc/net/tcp and /proc/net/tcp6 (Linux, and a container on
 * it), finding each connection by the inode of its descriptor. Elsewhere, `available` is false.
 */
export class KernelSendQueues {
  readonly available: boolean
  readonly #inodes = new WeakMap<ServerSocket, string>()

  constructor (available: boolean = existsSync(TCP_TABLES.IPv4) && existsSync('/proc/self/fd')) {
    this.available = available
  }

  /**
   * Each socket's unacknowledged bytes, for those the kernel's tables list (a socket already
   * closed, or without a descriptor, is left out). Empty when the tables cannot be read.
   * Synchronous: the kernel writes the table out of memory, in about a millisecond for a thousand
   * connections, while an asynchronous read would wait its turn behind the thread pool's
   * compression work, for seconds under load.
   */
  unacknowledgedBytes (sockets: readonly ServerSocket[]): Map<ServerSocket, number> {
    const found = new Map<ServerSocket, number>()
    if (!this.available) return found
    const byInode = new Map<string, ServerSocket>()
    const families = new Set<keyof typeof TCP_TABLES>()
    for (const socket of sockets) {
      const inode = this.#inode(socket)
      if (inode === undefined) continue
      byInode.set(inode, socket)
      families.add(socket.remoteFamily === 'IPv6' ? 'IPv6' : 'IPv4')
    }
    for (const family of families) {
      const table = readTable(TCP_TABLES[family])
      for (const [inode, bytes] of sendQueues(table, byInode)) found.set(byInode.get(inode)!, bytes)
    }
    return found
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

function readTable (path: string): string {
  try {
    return readFileSync(path, 'latin1')
  } catch {
    return ''
  }
}

/**
 * The tx_queue (hexadecimal) of the rows of a /proc/net/tcp table whose inode is wanted. A row:
 * `sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode ...`.
 */
export function * sendQueues (table: string, wanted: ReadonlyMap<string, unknown>): Generator<[inode: string, bytes: number]> {
  for (const line of table.split('\n')) {
    const fields = line.trim().split(/\s+/)
    const inode = fields[9]
    if (inode === undefined || !wanted.has(inode)) continue
    const txQueue = fields[4]?.split(':')[0]
    if (txQueue !== undefined) yield [inode, Number.parseInt(txQueue, 16)]
  }
}
