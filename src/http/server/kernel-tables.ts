import { readFileSync } from 'node:fs'

/*
 * Linux's tables of the TCP connections of this network namespace, as KernelSendQueues reads them
 * (in its worker thread, ./kernel-tables-worker.ts): what is asked of them, and how a row is read.
 */

/** Linux's table of the TCP connections of this network namespace, one file per address family. */
export const TCP_TABLES = { IPv4: '/proc/net/tcp', IPv6: '/proc/net/tcp6' } as const

/** What the worker is asked: the tables to read, and the inodes of the connections wanted from them. */
export interface TableRequest {
  readonly id: number
  readonly tables: readonly string[]
  readonly inodes: readonly string[]
}

/** What it answers: each wanted connection the tables list, with its unacknowledged bytes. */
export interface TableAnswer {
  readonly id: number
  readonly found: ReadonlyArray<readonly [inode: string, bytes: number]>
}

/** The answer to a request: every table read, every wanted row found (a table that cannot be read lists nothing). */
export function answerOf ({ id, tables, inodes }: TableRequest): TableAnswer {
  const wanted = new Set(inodes)
  const found: Array<[string, number]> = []
  for (const table of tables) found.push(...sendQueues(readTable(table), wanted))
  return { id, found }
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
export function * sendQueues (table: string, wanted: ReadonlySet<string>): Generator<[inode: string, bytes: number]> {
  for (const line of table.split('\n')) {
    const fields = line.trim().split(/\s+/)
    const inode = fields[9]
    if (inode === undefined || !wanted.has(inode)) continue
    const txQueue = fields[4]?.split(':')[0]
    if (txQueue !== undefined) yield [inode, Number.parseInt(txQueue, 16)]
  }
}
