import net from 'node:net'

/** One HTTP/1.1 answer read off a raw socket. `status` 0: the connection closed without one. */
export interface RawResponse {
  status: number
  headers: Record<string, string>
  body: Buffer
  /** Whether the server closed the connection after answering (or without answering). */
  closed: boolean
}

/**
 * Sends bytes exactly as given (no client-side validation or normalisation, unlike fetch, inject
 * or http.request) and reads the first final answer. Resolves once the answer is complete, or
 * with `untilClosed`, once the server has closed the connection (within the timeout).
 * @example const { status } = await rawRequest(port, 'GET /v1/exams HTTP/1.1\r\nHost: x\r\n\r\n')
 */
export function rawRequest (port: number, request: string | Buffer, { timeoutMs = 10_000, untilClosed = false, localAddress = undefined as string | undefined } = {}): Promise<RawResponse> {
  const bytes = typeof request === 'string' ? Buffer.from(request, 'latin1') : request
  const isHead = bytes.subarray(0, 5).toString('latin1') === 'HEAD '
  return new Promise((resolve, reject) => {
    // From another loopback address (127.0.0.2, ...) when a test needs a second client.
    const socket = net.connect({ port, host: '127.0.0.1', ...(localAddress === undefined ? {} : { localAddress }) })
    const chunks: Buffer[] = []
    let settled = false
    const finish = (response: RawResponse) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      socket.destroy()
      resolve(response)
    }
    const timer = setTimeout(() => {
      settled = true
      socket.destroy()
      reject(new Error(`no complete answer within ${timeoutMs} ms to ${JSON.stringify(bytes.subarray(0, 120).toString('latin1'))}`))
    }, timeoutMs)
    socket.on('connect', () => socket.write(bytes))
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk)
      if (untilClosed) return
      const response = parseResponse(Buffer.concat(chunks), isHead, false)
      if (response !== undefined) finish(response)
    })
    // A reset after the answer was read is the server dropping the rest of a request it refused.
    socket.on('error', () => {})
    socket.on('close', () => finish(parseResponse(Buffer.concat(chunks), isHead, true) ?? { status: 0, headers: {}, body: Buffer.alloc(0), closed: true }))
  })
}

/** Parses the first final (non-1xx) answer in `data`, or undefined while it is incomplete. */
export function parseResponse (data: Buffer, isHead: boolean, closed: boolean): RawResponse | undefined {
  let start = 0
  for (;;) {
    const headEnd = data.indexOf('\r\n\r\n', start)
    if (headEnd === -1) return closed && data.length > start ? malformed(closed) : undefined
    const lines = data.subarray(start, headEnd).toString('latin1').split('\r\n')
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '')?.[1] ?? NaN)
    if (Number.isNaN(status)) return malformed(closed)
    const headers: Record<string, string> = {}
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':')
      const name = line.slice(0, colon).trim().toLowerCase()
      const value = line.slice(colon + 1).trim()
      headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`
    }
    const bodyStart = headEnd + 4
    if (status >= 100 && status < 200) {
      start = bodyStart
      continue
    }
    if (isHead || status === 204 || status === 304) return { status, headers, body: Buffer.alloc(0), closed }
    if (headers['transfer-encoding']?.toLowerCase().includes('chunked')) {
      const body = dechunk(data.subarray(bodyStart))
      return body === undefined ? (closed ? malformed(closed) : undefined) : { status, headers, body, closed }
    }
    if (headers['content-length'] !== undefined) {
      const end = bodyStart + Number(headers['content-length'])
      if (data.length < end) return closed ? malformed(closed) : undefined
      return { status, headers, body: data.subarray(bodyStart, end), closed }
    }
    return closed ? { status, headers, body: data.subarray(bodyStart), closed } : undefined
  }
}

function dechunk (data: Buffer): Buffer | undefined {
  const parts: Buffer[] = []
  let offset = 0
  for (;;) {
    const lineEnd = data.indexOf('\r\n', offset)
    if (lineEnd === -1) return undefined
    const size = parseInt(data.subarray(offset, lineEnd).toString('latin1'), 16)
    if (Number.isNaN(size)) return undefined
    if (size === 0) return Buffer.concat(parts)
    if (data.length < lineEnd + 2 + size + 2) return undefined
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size))
    offset = lineEnd + 2 + size + 2
  }
}

/** An answer that is not HTTP: reported as status -1 so a test can show what came back. */
function malformed (closed: boolean): RawResponse {
  return { status: -1, headers: {}, body: Buffer.alloc(0), closed }
}
