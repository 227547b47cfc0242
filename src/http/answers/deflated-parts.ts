import { promisify } from 'node:util'
import { constants as zlibConstants, crc32, deflateRaw, deflateRawSync, type ZlibOptions } from 'node:zlib'
import { ownedBuffer, ownedBytes } from '../../data/dataset/owned-bytes.ts'

/*
 * A gzip body assembled from parts compressed beforehand, so that an answer made for one request
 * (a search page, a random draw, a multi-year export) is compressed at the cost of a copy, not of
 * a compression pass over its bytes.
 *
 * Each part is raw deflate data that ends on a byte boundary without a final block (a sync flush)
 * and refers to nothing before its own start, so parts placed one after another are one valid
 * deflate stream (RFC 1951: back-references only reach into the window, and every block is
 * decoded on its own). A gzip member (RFC 1952) is that stream between a fixed header and a
 * trailer of the CRC-32 and the length of what it inflates to; the CRC-32 of the whole follows
 * from each part's own (zlib's crc32_combine), without reading the bytes again.
 */

/** Raw deflate data of some bytes, and what the gzip trailer needs of them. */
export interface DeflatedPart {
  readonly deflated: Buffer
  /** CRC-32 of the bytes it inflates to. */
  readonly crc: number
  /** How many bytes it inflates to. */
  readonly length: number
  /**
   * x^(8 * length) modulo the CRC-32 polynomial: what combining a CRC with this part's multiplies it
   * by. A number in the part itself, not a table of its own: a page reads a hundred parts that no
   * request has touched for a while, and a table was one more object to fetch from memory per part.
   */
  readonly shift: number
}

/** Deflate level of parts: they are made once and kept, so the best ratio (megabytes of a year's export: a faster one). */
const PART_LEVEL = 9
export const LARGE_PART_LEVEL = 6
/** The longest stored block (RFC 1951, 3.2.4). */
const STORED_BLOCK_MAX = 0xffff

/** Bytes compressed on their own: made once per part and kept by its owner. */
export function deflatePart (raw: Buffer, level = PART_LEVEL): DeflatedPart {
  return partOfDeflated(raw, ownedBytes(deflatedAlone(raw, level)))
}

/** Raw deflate of bytes on their own, ended on a byte boundary (a sync flush) so that another part can follow. */
function deflatedAlone (raw: Buffer, level: number): Buffer {
  return deflateRawSync(raw, partOptions(raw, level))
}

/** How a part is deflated, on the event loop or off it: ended by a sync flush, with the state its length needs (deflateStateFor). */
function partOptions (raw: Buffer, level: number): ZlibOptions {
  return { level, finishFlush: zlibConstants.Z_SYNC_FLUSH, ...deflateStateFor(raw.length) }
}

/** A part, and the same part followed by a separator's stored block (`{"a":1}` and `{"a":1},`). */
export interface FollowedParts {
  readonly part: DeflatedPart
  readonly followed: DeflatedPart
}

/**
 * Bytes compressed on their own as deflatePart does, and the same followed by a separator, in one
 * buffer: the part is a view of its start. A page of 50 questions was 104 buffers to send, each
 * question's and a comma's, and each buffer written costs about a quarter of a microsecond in
 * Node's streams and the kernel (bench/results.md); the followed form halves the count at 6 bytes a part.
 */
export function deflatePartFollowedBy (raw: Buffer, separator: DeflatedPart, level = PART_LEVEL): FollowedParts {
  const deflated = deflatedAlone(raw, level)
  const both = ownedBuffer(deflated.length + separator.deflated.length)
  deflated.copy(both, 0)
  separator.deflated.copy(both, deflated.length)
  const part = partOfDeflated(raw, both.subarray(0, deflated.length))
  const length = raw.length + separator.length
  return { part, followed: { deflated: both, crc: crcFollowedBy(part.crc, separator), length, shift: crcShift(length) } }
}

/**
 * Lists `items` into `parts`: every item but the last as its part followed by the separator (one
 * buffer, deflatePartFollowedBy), the last as its part alone.
 */
export function pushListed<T> (parts: DeflatedPart[], items: readonly T[], followed: (item: T) => DeflatedPart, alone: (item: T) => DeflatedPart): void {
  const last = items.length - 1
  for (let at = 0; at < last; at++) parts.push(followed(items[at]!))
  if (last >= 0) parts.push(alone(items[last]!))
}

/** What deflate looks back past the end of its input (zlib's MIN_LOOKAHEAD): a window this much larger than the input finds every match a full one does. */
const LOOKAHEAD = 262
const LARGEST_WINDOW_BITS = 15
const LARGEST_MEM_LEVEL = 8
/** What node:zlib writes a sync output into when not told (bench/results.md). */
const LARGEST_CHUNK = 64 * 1024

/**
 * The deflate state and output chunk `length` bytes need (a part, or a small body's gzip). zlib's defaults (a 32 KB
 * window, 64 KB hash and 64 KB chunk, over 256 KB per call) are sized for streams of any length;
 * a question is a few kilobytes, and allocating and freeing a quarter megabyte for each of
 * thousands of parts left the allocator's heap fragmented (bench/results.md). A window that holds
 * the whole input, and a symbol buffer as long as the input (memLevel: so no block ends sooner
 * than it would), compress alike.
 */
export function deflateStateFor (length: number): { windowBits: number, memLevel: number, chunkSize: number } {
  const bits = Math.ceil(Math.log2(length + LOOKAHEAD))
  return {
    windowBits: Math.min(LARGEST_WINDOW_BITS, Math.max(9, bits)),
    // lit_bufsize is 1 << (memLevel + 6) symbols.
    memLevel: Math.min(LARGEST_MEM_LEVEL, Math.max(1, bits - 6)),
    chunkSize: outputChunkFor(length)
  }
}

/** The chunk node:zlib writes the compressed form of `length` bytes into: one that compresses fits in it, one that does not takes a second. */
export function outputChunkFor (length: number): number {
  return Math.min(LARGEST_CHUNK, Math.max(zlibConstants.Z_MIN_CHUNK, length + 64))
}

const deflateRawInPool = promisify(deflateRaw)

/** deflatePart in libuv's thread pool: the same part, the event loop free meanwhile (for parts of megabytes). */
export async function deflatePartOffLoop (raw: Buffer, level = PART_LEVEL): Promise<DeflatedPart> {
  return partOfDeflated(raw, await deflatedOffLoop(raw, level))
}

/** A part's deflate data alone, made in libuv's thread pool (partOfDeflated makes the part of it). */
export async function deflatedOffLoop (raw: Buffer, level = PART_LEVEL): Promise<Buffer> {
  return ownedBytes(await deflateRawInPool(raw, partOptions(raw, level)))
}

/** The part of `raw` whose deflate data is `deflated` (made now, or earlier and kept). */
export function partOfDeflated (raw: Buffer, deflated: Buffer): DeflatedPart {
  return { deflated, crc: crc32(raw), length: raw.length, shift: crcShift(raw.length) }
}

/**
 * Bytes as stored (uncompressed) deflate blocks: for the few bytes of a part made per request (a
 * page's metadata), where compressing would cost more than it saves.
 */
export function storedPart (raw: Buffer): DeflatedPart {
  const blocks = Math.max(1, Math.ceil(raw.length / STORED_BLOCK_MAX))
  const deflated = ownedBuffer(raw.length + blocks * 5)
  let at = 0
  for (let start = 0; start === 0 || start < raw.length; start += STORED_BLOCK_MAX) {
    const length = Math.min(STORED_BLOCK_MAX, raw.length - start)
    // BFINAL 0, BTYPE 00 (stored), padded to the byte; then LEN and its complement NLEN, little-endian.
    deflated[at++] = 0
    deflated.writeUInt16LE(length, at)
    deflated.writeUInt16LE(~length & 0xffff, at + 2)
    at += 4
    raw.copy(deflated, at, start, start + length)
    at += length
  }
  return partOfDeflated(raw, deflated)
}

/** gzip header: magic, deflate, no flags, no time, no extra flags, unknown OS. */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff])
/** An empty final stored block: ends the deflate stream after the parts. */
const FINAL_BLOCK = Buffer.from([1, 0, 0, 0xff, 0xff])

/**
 * One gzip member whose content is the parts' bytes one after another, as the buffers to send one
 * after another: the parts' own buffers between a header and a trailer, nothing copied (joining
 * them was a fresh megabyte per multi-year export, most of its cost: bench/results.md).
 * @example gunzipSync(Buffer.concat(gzipChunksOfParts([deflatePart(a), storedPart(b)]))) equals Buffer.concat([a, b])
 */
export function gzipChunksOfParts (parts: readonly DeflatedPart[]): Buffer[] {
  const chunks: Buffer[] = [GZIP_HEADER]
  let crc = 0
  let length = 0
  for (const part of parts) {
    chunks.push(part.deflated)
    crc = crcFollowedBy(crc, part)
    length += part.length
  }
  // Its own buffer, as the stored parts': the chunks of a kept answer are kept (src/data/dataset/owned-bytes.ts).
  const trailer = ownedBuffer(FINAL_BLOCK.length + 8)
  FINAL_BLOCK.copy(trailer, 0)
  trailer.writeUInt32LE(crc, FINAL_BLOCK.length)
  // ISIZE is the length modulo 2^32.
  trailer.writeUInt32LE(length % 0x1_0000_0000, FINAL_BLOCK.length + 4)
  chunks.push(trailer)
  return chunks
}

/** The same gzip member in one buffer. */
export function gzipOfParts (parts: readonly DeflatedPart[]): Buffer {
  return Buffer.concat(gzipChunksOfParts(parts))
}

/*
 * CRC-32 arithmetic, as zlib's crc32.c does it (multmodp, x2nmodp): polynomials over GF(2) in
 * reflected bit order, so x^0 is the top bit.
 */
const POLY = 0xedb88320
const X0 = 0x80000000

/** a * b modulo the CRC-32 polynomial. */
function multiplyModP (a: number, b: number): number {
  let m = X0
  let product = 0
  for (;;) {
    if ((a & m) !== 0) {
      product ^= b
      if ((a & (m - 1)) === 0) break
    }
    m >>>= 1
    b = timesX(b)
  }
  return product >>> 0
}

/** v * x modulo the polynomial. */
function timesX (v: number): number {
  return (v & 1) !== 0 ? (v >>> 1) ^ POLY : v >>> 1
}

/**
 * What multiplying by x^4 shifts out of a value (its coefficients of x^28 to x^31, its low 4 bits),
 * folded back in, by those 4 bits.
 */
const OVERFLOW_OF_X4 = Uint32Array.from({ length: 16 }, (_, low) => timesX(timesX(timesX(timesX(low)))))

/**
 * A polynomial `a` as the table multiplyBy reads: its products with each polynomial of degree
 * below 4, by the 4 bits that write it as a value does (x^0 in the top bit). multiplyModP takes a
 * step per bit of `a`, each a branch; with the table, a multiplication takes 8 reads. The powers
 * crcShift multiplies by are kept as tables; a part's multiplier is made into one as it is used
 * (multiplyByValue).
 */
function multiplierOf (a: number): Uint32Array {
  const times = [a, timesX(a), timesX(timesX(a)), timesX(timesX(timesX(a)))]
  return Uint32Array.from({ length: 16 }, (_, bits) =>
    ((bits & 8) !== 0 ? times[0]! : 0) ^ ((bits & 4) !== 0 ? times[1]! : 0) ^ ((bits & 2) !== 0 ? times[2]! : 0) ^ ((bits & 1) !== 0 ? times[3]! : 0))
}

/**
 * b times the polynomial of `multiplier` (multiplierOf), modulo the polynomial: Horner's rule over
 * b's 4-bit digits, from the one of x^28 to x^31 (its low bits) to that of x^0 to x^3. Written out,
 * not as a loop, which ran slower (bench/results.md).
 */
function multiplyBy (multiplier: Uint32Array, b: number): number {
  const m = multiplier
  const o = OVERFLOW_OF_X4
  let p = m[b & 0xf]!
  p = (p >>> 4) ^ o[p & 0xf]! ^ m[(b >>> 4) & 0xf]!
  p = (p >>> 4) ^ o[p & 0xf]! ^ m[(b >>> 8) & 0xf]!
  p = (p >>> 4) ^ o[p & 0xf]! ^ m[(b >>> 12) & 0xf]!
  p = (p >>> 4) ^ o[p & 0xf]! ^ m[(b >>> 16) & 0xf]!
  p = (p >>> 4) ^ o[p & 0xf]! ^ m[(b >>> 20) & 0xf]!
  p = (p >>> 4) ^ o[p & 0xf]! ^ m[(b >>> 24) & 0xf]!
  p = (p >>> 4) ^ o[p & 0xf]! ^ m[(b >>> 28) & 0xf]!
  return p >>> 0
}

/**
 * b times `a` modulo the polynomial, as multiplyBy computes it, each entry of a's table made as it is
 * read from a's products with 1, x, x^2 and x^3: a few operations on values at hand, where a table
 * kept per multiplier is memory to fetch.
 */
function multiplyByValue (a: number, b: number): number {
  const a1 = timesX(a)
  const a2 = timesX(a1)
  const a3 = timesX(a2)
  const m = SCRATCH_MULTIPLIER
  // Indexed as multiplierOf's table: bit 8 is a's product with x^0, bit 1 with x^3.
  m[0] = 0
  m[1] = a3
  m[2] = a2
  m[3] = a2 ^ a3
  m[4] = a1
  m[5] = a1 ^ a3
  m[6] = a1 ^ a2
  m[7] = a1 ^ a2 ^ a3
  for (let bits = 8; bits < 16; bits++) m[bits] = a ^ m[bits - 8]!
  return multiplyBy(m, b)
}

/** The table multiplyByValue fills for each multiplication (one for the process: a multiplication never waits). */
const SCRATCH_MULTIPLIER = new Uint32Array(16)

/** x^(2^k) modulo the polynomial, for k in 0..31. */
const X2N: number[] = []
for (let k = 0, p = X0 >>> 1; k < 32; k++) {
  X2N.push(p)
  p = multiplyModP(p, p)
}

/** The same powers as multiplyBy reads them: crcShift runs for every part, the head of each page made for a request among them. */
const X2N_MULTIPLIERS = X2N.map(multiplierOf)

/** The CRC-32 of some bytes followed by a part's, from theirs (zlib's crc32_combine). */
function crcFollowedBy (crc: number, part: DeflatedPart): number {
  return (multiplyByValue(part.shift, crc) ^ part.crc) >>> 0
}

/** x^(8 * bytes) modulo the polynomial: combining a CRC with that of `bytes` more bytes multiplies it by this. */
export function crcShift (bytes: number): number {
  let p = X0
  // 8 * bytes as a bit count: its binary digits name which powers x^(2^k) multiply in; k starts at 3.
  for (let n = bytes, k = 3; n > 0; n = Math.floor(n / 2), k++) {
    if (n % 2 === 1) p = multiplyBy(X2N_MULTIPLIERS[k % 32]!, p)
  }
  return p
}
