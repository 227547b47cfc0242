import * as mupdf from 'mupdf'
import { type Box, boxOf, intersect, isEmpty, union } from './boxes.ts'

/*
 * The first stage of reading a booklet: what a PDF page prints, as plain data. MuPDF (the `mupdf`
 * package, docs/data.md says why) runs the page's content through a device of ours, which keeps
 * every glyph with its box, font and size, every image and every drawn path with its box, each
 * clipped as the page clips it. Nothing here knows what a question is.
 *
 * Coordinates are PDF points from the top left of the page's crop box, y downwards (MuPDF's).
 */

/** One printed character. */
export interface Glyph {
  /** What it shows: the font's text mapping, `''` when it has none (see `mapped`). */
  readonly text: string
  readonly box: Box
  /** The baseline's y. */
  readonly baseline: number
  /** The font size in points (the text matrix's vertical scale). */
  readonly size: number
  /** The font's name without its subset prefix (`Calibri-Bold`, not `BIXBIR+Calibri-Bold`). */
  readonly font: string
  readonly bold: boolean
  readonly italic: boolean
  /**
   * False when the font gives this glyph no usable character (none, U+FFFD, a control
   * character, the private-use area): the 2025 cover's title, some 2025 formulas, whole
   * paragraphs of 2021's booklets. Such text is read by OCR, never written as it extracts.
   */
  readonly mapped: boolean
  /**
   * Which glyph of which embedded font printed it (the font's name with its subset prefix, which
   * tells two subsets apart): what a font's decoding (font-decoding.ts) maps from. Absent on a
   * glyph the reader makes (a fraction).
   */
  readonly source?: { readonly font: string, readonly gid: number }
}

/** A drawn path: a rule, a box, a shape of a chart. */
export interface PathMark {
  readonly box: Box
  readonly stroked: boolean
  /** Fill or stroke colour as MuPDF gives it in its colour space, 0–1. */
  readonly colour: readonly number[]
  /** Whether the colour is ink (CMYK, a separation: 1 is full ink) rather than light (grey, RGB: 1 is white). */
  readonly subtractive: boolean
}

/** An embedded image's box, with its size in pixels: what tells one image from another of the same box. */
export interface ImageMark extends Box {
  readonly pixels: string
}

export interface PageMarks {
  /** 1-based. */
  readonly number: number
  readonly width: number
  readonly height: number
  readonly glyphs: readonly Glyph[]
  readonly images: readonly ImageMark[]
  readonly paths: readonly PathMark[]
  /** Boxes of glyphs set at an angle (an axis title): no text of a statement, part of a figure. */
  readonly rotated: readonly Box[]
}

/** An open PDF; `close` frees MuPDF's memory. */
export interface PdfBooklet {
  readonly pages: number
  readonly document: mupdf.Document
  marks (number: number): PageMarks
  /** Every font whose glyphs `marks` has given, by the name in their `source`: what renders a glyph alone. */
  fonts (): ReadonlyMap<string, mupdf.Font>
  /** What MuPDF said while reading it (a font without cmaps, an odd JPEG 2000), for the conversion's warnings. */
  notes (): readonly string[]
  close (): void
}

/*
 * MuPDF's warnings would go to stderr, mixed into a command's one-line errors and its summary: they
 * are kept instead, the last few hundred, for each booklet to report as its own.
 */
const MAX_NOTES = 500
let noted: string[] = []
let notedCount = 0
mupdf.setLog({
  warning: (message: string) => { note(message) },
  error: (message: string) => { note(message) }
})
function note (message: string): void {
  notedCount++
  noted.push(message)
  if (noted.length > MAX_NOTES) noted = noted.slice(-MAX_NOTES)
}

/** Opens a PDF from its bytes. Throws a one-line error when MuPDF cannot read it. */
export function openPdf (bytes: Uint8Array, name: string): PdfBooklet {
  let document: mupdf.Document
  try {
    document = mupdf.Document.openDocument(bytes, 'application/pdf')
  } catch (error) {
    throw new Error(`${name}: not a PDF MuPDF can read (${(error as Error).message.split('\n')[0]})`)
  }
  const from = notedCount
  const fonts = new Map<string, mupdf.Font>()
  return {
    pages: document.countPages(),
    document,
    marks: (number) => pageMarks(document, number, fonts),
    fonts: () => fonts,
    notes: () => noted.slice(Math.max(0, noted.length - (notedCount - from))),
    close: () => document.destroy()
  }
}

const SUBSET_PREFIX = /^[A-Z]{6}\+/

/** Whether a code point is a character a reader can use. */
export function isUsableCharacter (code: number): boolean {
  if (code <= 0x1f || (code >= 0x7f && code <= 0x9f)) return false
  if (code === 0xfffd) return false
  if (code >= 0xe000 && code <= 0xf8ff) return false
  return true
}

/** The marks of page `number` (1-based); each glyph's font is kept in `fonts` by its name. */
export function pageMarks (document: mupdf.Document, number: number, fonts?: Map<string, mupdf.Font>): PageMarks {
  const page = document.loadPage(number - 1)
  const [x0, y0, x1, y1] = page.getBounds()
  const pageBox: Box = { x0: 0, y0: 0, x1: x1 - x0, y1: y1 - y0 }
  const glyphs: Glyph[] = []
  const images: ImageMark[] = []
  const paths: PathMark[] = []
  const rotated: Box[] = []
  const clips: Box[] = [pageBox]
  const clip = () => clips[clips.length - 1]!
  const keep = (box: Box): Box | null => {
    const kept = intersect(box, clip())
    return isEmpty(kept) ? null : kept
  }

  // Every object MuPDF hands a callback is a reference the callback owns: each is released before
  // the callback returns, so that none is left to the garbage collector's finalizers (which, left
  // to run after the document is gone, were seen to crash the WebAssembly heap).
  const device = new mupdf.Device({
    fillText (text, ctm, colourspace) {
      try {
        text.walk({
          showGlyph (font, trm, glyph, unicode) {
            const matrix = mupdf.Matrix.concat(trm, ctm)
            const glyphMark = glyphOf(font, matrix, glyph, unicode)
            if (fonts !== undefined && glyphMark !== null && !fonts.has(glyphMark.source!.font)) fonts.set(glyphMark.source!.font, font)
            if (glyphMark === null) {
              const box = keep(transformBox({ x0: 0, y0: -0.2, x1: Math.max(font.advanceGlyph(glyph, 0), 0.1), y1: 0.8 }, matrix))
              if (box !== null) rotated.push(box)
              return
            }
            const box = keep(glyphMark.box)
            if (box !== null) glyphs.push({ ...glyphMark, box })
          }
        })
      } finally {
        release(text, colourspace)
      }
    },
    ignoreText (text) { release(text) },
    // A path may draw several shapes apart (two fractions' rules at once): each subpath is a mark of its own.
    fillPath (path, _evenOdd, ctm, colourspace, colour) {
      const subtractive = colourspace.isSubtractive()
      for (const shape of subpathBoxes(path, ctm)) {
        const box = keep(shape)
        if (box !== null) paths.push({ box, stroked: false, colour: [...colour], subtractive })
      }
      release(path, colourspace)
    },
    strokePath (path, stroke, ctm, colourspace, colour) {
      const half = stroke.getLineWidth() / 2 * Math.hypot(ctm[0], ctm[1])
      const subtractive = colourspace.isSubtractive()
      for (const line of subpathBoxes(path, ctm)) {
        const box = keep({ x0: line.x0 - half, y0: line.y0 - half, x1: line.x1 + half, y1: line.y1 + half })
        if (box !== null) paths.push({ box, stroked: true, colour: [...colour], subtractive })
      }
      release(path, stroke, colourspace)
    },
    fillImage (image, ctm) {
      const pixels = pixelSize(image)
      release(image)
      const box = keep(unitSquare(ctm))
      if (box !== null) images.push({ ...box, pixels })
    },
    fillImageMask (image, ctm, colourspace) {
      const pixels = pixelSize(image)
      release(image, colourspace)
      const box = keep(unitSquare(ctm))
      if (box !== null) images.push({ ...box, pixels })
    },
    fillShade (shade, ctm) {
      const [sx0, sy0, sx1, sy1] = shade.getBounds()
      disown(shade)
      const box = keep(transformBox({ x0: sx0, y0: sy0, x1: sx1, y1: sy1 }, ctm))
      if (box !== null) paths.push({ box, stroked: false, colour: [], subtractive: false })
    },
    clipPath (path, _evenOdd, ctm) {
      clips.push(intersect(clip(), pathBox(path, ctm)))
      release(path)
    },
    clipStrokePath (path, stroke, ctm) {
      clips.push(intersect(clip(), pathBox(path, ctm)))
      release(path, stroke)
    },
    clipText (text) {
      clips.push(clip())
      release(text)
    },
    clipStrokeText (text, stroke) {
      clips.push(clip())
      release(text, stroke)
    },
    clipImageMask (image, ctm) {
      clips.push(intersect(clip(), unitSquare(ctm)))
      release(image)
    },
    popClip () { if (clips.length > 1) clips.pop() }
  })
  try {
    page.run(device, mupdf.Matrix.translate(-x0, -y0))
  } finally {
    device.close()
    device.destroy()
    page.destroy()
  }
  return { number, width: pageBox.x1, height: pageBox.y1, glyphs, images, paths, rotated }
}

/**
 * MuPDF.js (1.28) wraps the shade it hands `fillShade` without taking a reference of its own, yet
 * registers the wrapper for release when collected: that release would free what the page still
 * holds. The wrapper is taken off the collector's list instead.
 */
function disown (shade: mupdf.Shade): void {
  (shade.constructor as unknown as { _finalizer?: FinalizationRegistry<unknown> })._finalizer?.unregister(shade)
}

function release (...objects: Array<{ destroy (): void }>): void {
  for (const object of objects) object.destroy()
}

/** A glyph from its font and its matrix on the page, or null when it is not upright. */
function glyphOf (font: mupdf.Font, [a, b, c, d, e, f]: mupdf.Matrix, glyph: number, unicode: number): Glyph | null {
  // Only upright text is read; rotated marks (an axis title, a vertical note) are a figure's, or furniture.
  if (Math.abs(b) > 0.01 || Math.abs(c) > 0.01 || a <= 0) return null
  const size = Math.abs(d)
  const advance = font.advanceGlyph(glyph, 0) * a
  const name = font.getName()
  const mapped = unicode > 0 && isUsableCharacter(unicode)
  return {
    text: mapped ? String.fromCodePoint(unicode) : '',
    box: { x0: e, y0: f - size * 0.78, x1: e + Math.max(advance, size * 0.1), y1: f + size * 0.22 },
    baseline: f,
    size,
    font: name.replace(SUBSET_PREFIX, ''),
    bold: font.isBold() || /bold|black|heavy|semibold/i.test(name),
    italic: font.isItalic() || /italic|oblique/i.test(name),
    mapped,
    source: { font: name, gid: glyph }
  }
}

function pathBox (path: mupdf.Path, ctm: mupdf.Matrix): Box {
  return union(subpathBoxes(path, ctm))
}

/** The box of each subpath (each run from a moveTo), on the page. */
function subpathBoxes (path: mupdf.Path, ctm: mupdf.Matrix): Box[] {
  const shapes: Array<Array<[number, number]>> = []
  const at = (x: number, y: number) => { shapes[shapes.length - 1]?.push([ctm[0] * x + ctm[2] * y + ctm[4], ctm[1] * x + ctm[3] * y + ctm[5]]) }
  path.walk({
    moveTo: (x: number, y: number) => { shapes.push([]); at(x, y) },
    lineTo: at,
    curveTo: (ax: number, ay: number, bx: number, by: number, cx: number, cy: number) => { at(ax, ay); at(bx, by); at(cx, cy) },
    closePath: () => {}
  })
  return shapes.filter((points) => points.length > 0).map(boxOf)
}

function pixelSize (image: mupdf.Image): string {
  return `${image.getWidth()}x${image.getHeight()}${image.getImageMask() ? ' mask' : ''}`
}

function unitSquare (ctm: mupdf.Matrix): Box {
  return transformBox({ x0: 0, y0: 0, x1: 1, y1: 1 }, ctm)
}

function transformBox (box: Box, ctm: mupdf.Matrix): Box {
  const corners: Array<[number, number]> = [[box.x0, box.y0], [box.x1, box.y0], [box.x0, box.y1], [box.x1, box.y1]]
  return boxOf(corners.map(([x, y]) => [ctm[0] * x + ctm[2] * y + ctm[4], ctm[1] * x + ctm[3] * y + ctm[5]]))
}
