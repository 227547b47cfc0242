/*
 * Buffers that are kept (a prepared body, its compressed forms, an error answer kept by URL, bytes
 * read from the start-up cache for the life of the process) hold only their own bytes. Two ways a small buffer holds more: node:zlib (sync or not) writes into 64
 * KB chunks and hands back an output that fits in one as a view into its chunk; and Buffer.from,
 * Buffer.concat and Buffer.allocUnsafe cut a small buffer from a shared pool slab, which stays
 * whole as long as any buffer cut from it lives. Kept as they came, a question's deflated part of
 * a few hundred bytes held 64 KB, and so did a kept draw or page, with the per-request buffers cut
 * beside it: a few thousand such were most of what a long run held (bench/results.md). These make
 * a buffer of exactly its length instead; the copy of a few kilobytes costs far less than making
 * what it holds.
 */

/**
 * A buffer of exactly `length` bytes, outside the shared pool.
 * @example ownedBuffer(3).buffer.byteLength === 3
 */
export function ownedBuffer (length: number): Buffer {
  return Buffer.allocUnsafeSlow(length)
}

/**
 * `output` as a buffer that owns its bytes: itself when it does, otherwise a copy.
 * @example ownedBytes(deflateRawSync(Buffer.from('a'))).buffer.byteLength === 3
 */
export function ownedBytes (output: Buffer): Buffer {
  if (output.byteOffset === 0 && output.buffer.byteLength === output.length) return output
  const copy = ownedBuffer(output.length)
  output.copy(copy)
  return copy
}

/** Buffer.concat into a buffer of its own. */
export function ownedConcat (list: readonly Uint8Array[], length: number = list.reduce((sum, part) => sum + part.length, 0)): Buffer {
  const joined = ownedBuffer(length)
  let offset = 0
  for (const part of list) {
    joined.set(part, offset)
    offset += part.length
  }
  return joined
}

/** A string's UTF-8 bytes in a buffer of their own. */
export function ownedText (text: string): Buffer {
  const bytes = ownedBuffer(Buffer.byteLength(text))
  bytes.write(text)
  return bytes
}
