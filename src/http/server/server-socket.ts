import type { ServerResponse } from 'node:http'
import type { Socket } from 'node:net'

/**
 * A server-side socket as Node's HTTP server keeps it, with the two internals the connection
 * guards read (stalled-answers.ts, parser-error-answers.ts, graceful-close.ts). Node exposes neither publicly.
 */
export interface ServerSocket extends Socket {
  /** The response it is writing, from the moment the request is handed to the app until that response has finished. */
  _httpMessage?: ServerResponse | null
  /**
   * The libuv handle Node writes through: `writeQueueSize` is the bytes it still holds, not yet
   * taken by the kernel. Node's own socket timeout reads the same number (net.js,
   * Socket#_onTimeout) to tell a write in progress from a stalled one. `fd` is its descriptor
   * (POSIX), through which kernel-send-queues.ts finds the connection in the kernel's tables.
   */
  _handle?: { writeQueueSize?: number, fd?: number } | null
}
