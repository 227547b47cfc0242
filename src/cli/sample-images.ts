/**
 * The sample dataset's tiny images (src/cli/write-sample-dataset.ts), written byte by byte with
 * node:zlib alone: one colour each, a few pixels, so the sample needs no image library and its
 * bytes never change.
 */
import { crc32, deflateSync } from 'node:zlib'

export type Rgb = [number, number, number]

function pngChunk (type: string, body: Buffer): Buffer {
  const length = Buffer.alloc(4)
  length.writeUInt32BE(body.length)
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), body])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(typed))
  return Buffer.concat([length, typed, crc])
}

/** A 4x4 opaque RGBA PNG of one colour. */
export function solidPng ([r, g, b]: Rgb): Buffer {
  const size = 4
  const header = Buffer.alloc(13)
  header.writeUInt32BE(size, 0)
  header.writeUInt32BE(size, 4)
  header.writeUInt8(8, 8) // bit depth
  header.writeUInt8(6, 9) // colour type RGBA; compression, filter, interlace stay 0
  // Each scanline starts with filter type 0 (none).
  const row = [0, ...Array.from({ length: size }, () => [r, g, b, 255]).flat()]
  const pixels = Buffer.from(Array.from({ length: size }, () => row).flat())
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(pixels)),
    pngChunk('IEND', Buffer.alloc(0)),
  ])
}

/** A 2x2 24-bit BMP of one colour (rows padded to 4 bytes, pixels stored BGR). */
export function solidBmp ([r, g, b]: Rgb): Buffer {
  const rowBytes = 8 // 2 pixels * 3 bytes, padded to a multiple of 4
  const pixelBytes = rowBytes * 2
  const offset = 14 + 40
  const bmp = Buffer.alloc(offset + pixelBytes)
  bmp.write('BM', 0, 'latin1')
  bmp.writeUInt32LE(bmp.length, 2)
  bmp.writeUInt32LE(offset, 10)
  bmp.writeUInt32LE(40, 14) // BITMAPINFOHEADER size
  bmp.writeInt32LE(2, 18) // width
  bmp.writeInt32LE(2, 22) // height (positive: bottom-up)
  bmp.writeUInt16LE(1, 26) // planes
  bmp.writeUInt16LE(24, 28) // bits per pixel
  bmp.writeUInt32LE(pixelBytes, 34)
  bmp.writeInt32LE(2835, 38) // 72 dpi, horizontal
  bmp.writeInt32LE(2835, 42) // 72 dpi, vertical
  for (let y = 0; y < 2; y++) {
    for (let x = 0; x < 2; x++) bmp.set([b, g, r], offset + y * rowBytes + x * 3)
  }
  return bmp
}

export function tinySvg (): Buffer {
  return Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8" fill="#3a7"/></svg>\n')
}

/** Big-endian marker segment: FF <marker> <length incl. itself> <body>. */
function jpegSegment (marker: number, body: number[]): Buffer {
  const length = body.length + 2
  return Buffer.from([0xff, marker, length >> 8, length & 0xff, ...body])
}

/**
 * An 8x8 grey baseline JPEG. A flat block has only a DC coefficient, so one
 * Huffman code per table is enough: DC = its size category, AC = end of block.
 */
export function solidJpeg (grey: number): Buffer {
  // With an all-ones quantisation table the DC of a flat block is 8 * (level - 128).
  const dc = 8 * (grey - 128)
  const category = dc === 0 ? 0 : Math.floor(Math.log2(Math.abs(dc))) + 1
  const extra = dc >= 0 ? dc : dc + (1 << category) - 1 // JPEG's one's-complement for negatives
  // Bits: DC code "0", `category` extra bits, AC end-of-block code "0"; pad with 1s.
  let bits = '0' + (category > 0 ? extra.toString(2).padStart(category, '0') : '') + '0'
  bits = bits.padEnd(Math.ceil(bits.length / 8) * 8, '1')
  const scan: number[] = []
  for (let i = 0; i < bits.length; i += 8) {
    const byte = parseInt(bits.slice(i, i + 8), 2)
    scan.push(...(byte === 0xff ? [0xff, 0x00] : [byte])) // byte stuffing
  }
  const oneCodeOfLengthOne = [1, ...Array<number>(15).fill(0)]
  return Buffer.concat([
    Buffer.from([0xff, 0xd8]), // SOI
    jpegSegment(0xe0, [0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0]), // APP0 JFIF 1.1
    jpegSegment(0xdb, [0x00, ...Array<number>(64).fill(1)]), // DQT table 0, all ones
    jpegSegment(0xc0, [8, 0, 8, 0, 8, 1, 1, 0x11, 0]), // SOF0 8x8, one component
    jpegSegment(0xc4, [0x00, ...oneCodeOfLengthOne, category]), // DHT DC table 0
    jpegSegment(0xc4, [0x10, ...oneCodeOfLengthOne, 0x00]), // DHT AC table 0 (EOB only)
    jpegSegment(0xda, [1, 1, 0x00, 0, 63, 0]), // SOS
    Buffer.from(scan),
    Buffer.from([0xff, 0xd9]), // EOI
  ])
}
