import * as mupdf from 'mupdf'

/*
 * A glyph's drawn shape, rendered alone by MuPDF with its own font, always at the same size and
 * origin: two fonts built from the same outlines (2010's Arial with no text mapping and its
 * mapped Arial; 2021's ArialMT, which maps a letter once and leaves a copy of it unmapped) draw
 * the very same pixels, so a glyph is known by the mapped glyph it draws the same as.
 */

/** Pixels per em of a rendered glyph. */
const EM = 40
/** A cell: room for the widest glyph and an accent over a capital, and the descender. */
const CELL_WIDTH = 64
const CELL_HEIGHT = 56
const ORIGIN_X = 8
const BASELINE_Y = 44
const COLUMNS = 32

/** A glyph of a font: what is rendered. */
export interface GlyphRef {
  readonly font: mupdf.Font
  readonly gid: number
}

/** A rendered glyph: ink 0–255 per pixel, CELL_WIDTH × CELL_HEIGHT, and its advance in ems. */
export interface GlyphShape {
  readonly ink: Uint8Array
  readonly advance: number
  /** The ink's total, 0 for a glyph that draws nothing (a space). */
  readonly weight: number
}

/** Renders glyphs, many to one pixmap (a pixmap and a device each are far costlier than a glyph). */
export function renderGlyphs (glyphs: readonly GlyphRef[]): GlyphShape[] {
  const shapes: GlyphShape[] = []
  for (let start = 0; start < glyphs.length; start += COLUMNS * COLUMNS) {
    shapes.push(...renderBatch(glyphs.slice(start, start + COLUMNS * COLUMNS)))
  }
  return shapes
}

function renderBatch (glyphs: readonly GlyphRef[]): GlyphShape[] {
  const rows = Math.ceil(glyphs.length / COLUMNS)
  const width = COLUMNS * CELL_WIDTH
  const pixmap = new mupdf.Pixmap(mupdf.ColorSpace.DeviceGray, [0, 0, width, rows * CELL_HEIGHT], false)
  const text = new mupdf.Text()
  try {
    pixmap.clear(255)
    glyphs.forEach(({ font, gid }, at) => {
      const x = (at % COLUMNS) * CELL_WIDTH + ORIGIN_X
      const y = Math.floor(at / COLUMNS) * CELL_HEIGHT + BASELINE_Y
      text.showGlyph(font, [EM, 0, 0, -EM, x, y], gid, 0)
    })
    fillBlack(pixmap, text)
    const pixels = pixmap.getPixels()
    const stride = pixmap.getStride()
    return glyphs.map(({ font, gid }, at) => {
      const left = (at % COLUMNS) * CELL_WIDTH
      const top = Math.floor(at / COLUMNS) * CELL_HEIGHT
      const ink = new Uint8Array(CELL_WIDTH * CELL_HEIGHT)
      let weight = 0
      for (let y = 0; y < CELL_HEIGHT; y++) {
        for (let x = 0; x < CELL_WIDTH; x++) {
          const value = 255 - pixels[(top + y) * stride + left + x]!
          ink[y * CELL_WIDTH + x] = value
          weight += value
        }
      }
      return { ink, advance: font.advanceGlyph(gid, 0), weight }
    })
  } finally {
    text.destroy()
    pixmap.destroy()
  }
}

/**
 * How alike two shapes are, 0–1: the ink both share over the ink either has. The same outlines
 * give 1; a letter and its accented form about 0.85–0.9; two different letters less.
 */
export function likeness (a: GlyphShape, b: GlyphShape): number {
  if (a.weight === 0 || b.weight === 0) return a.weight === b.weight ? 1 : 0
  let shared = 0
  let either = 0
  for (let at = 0; at < a.ink.length; at++) {
    const x = a.ink[at]!
    const y = b.ink[at]!
    if (x < y) {
      shared += x
      either += y
    } else {
      shared += y
      either += x
    }
  }
  return shared / either
}

/**
 * Shapes side by side in one grey PNG, a space of an em between them, at `em` pixels an em: what
 * OCR reads to name glyphs no mapped glyph matches. Gives each glyph's x extent in the picture.
 */
export function glyphStrip (glyphs: readonly GlyphRef[], em = 64): { png: Uint8Array, spans: Array<{ x0: number, x1: number }> } {
  const margin = em
  const step = 2 * em
  const width = margin * 2 + glyphs.length * step
  const height = Math.round(em * 2)
  const pixmap = new mupdf.Pixmap(mupdf.ColorSpace.DeviceGray, [0, 0, width, height], false)
  const text = new mupdf.Text()
  try {
    pixmap.clear(255)
    pixmap.setResolution(300, 300)
    const spans = glyphs.map(({ font, gid }, at) => {
      const x = margin + at * step
      text.showGlyph(font, [em, 0, 0, -em, x, Math.round(em * 1.35)], gid, 0)
      return { x0: x - em / 2, x1: x + em * 1.5 }
    })
    fillBlack(pixmap, text)
    return { png: pixmap.asPNG(), spans }
  } finally {
    text.destroy()
    pixmap.destroy()
  }
}

/** Draws a text in black on a pixmap (MuPDF's draw device, closed and freed whatever happens). */
function fillBlack (pixmap: mupdf.Pixmap, text: mupdf.Text): void {
  const device = new mupdf.DrawDevice(mupdf.Matrix.identity, pixmap)
  try {
    device.fillText(text, mupdf.Matrix.identity, mupdf.ColorSpace.DeviceGray, [0], 1)
    device.close()
  } finally {
    device.destroy()
  }
}
