import * as mupdf from 'mupdf'
import type { Box } from './boxes.ts'

/*
 * Pictures of a booklet's pages, rendered by MuPDF: a figure cropped from its page (PNG, at a
 * resolution of the caller's choosing, at least FIGURE_DPI for records), and a whole page with
 * boxes drawn on it (what `--pages` writes: the way to see why a rule is wrong).
 */

/** Figures are cropped at this resolution: the contract asks for 150 dpi or more. */
export const FIGURE_DPI = 200
/** Page pictures for review. */
export const PAGE_DPI = 110

/** A box to draw on a page picture, in an RGB colour (0–1). */
export interface Outline {
  readonly box: Box
  readonly colour: readonly [number, number, number]
  /** Drawn thicker, for what matters most. */
  readonly strong?: boolean
}

function pageTransform (page: mupdf.Page, dpi: number): mupdf.Matrix {
  const [x0, y0] = page.getBounds()
  const scale = dpi / 72
  return mupdf.Matrix.concat(mupdf.Matrix.translate(-x0, -y0), mupdf.Matrix.scale(scale, scale))
}

/**
 * A region of page `number` (1-based) rendered on white at `dpi`, given to `use` with the pixel rect
 * it covers; the pixmap is freed after.
 */
function withRegion<T> (document: mupdf.Document, number: number, box: Box, dpi: number, colours: mupdf.ColorSpace, use: (pixmap: mupdf.Pixmap, pixels: mupdf.Rect) => T): T {
  const page = document.loadPage(number - 1)
  const scale = dpi / 72
  const pixels: mupdf.Rect = [Math.floor(box.x0 * scale), Math.floor(box.y0 * scale), Math.ceil(box.x1 * scale), Math.ceil(box.y1 * scale)]
  const pixmap = new mupdf.Pixmap(colours, pixels, false)
  try {
    pixmap.clear(255)
    pixmap.setResolution(dpi, dpi)
    const device = new mupdf.DrawDevice(pageTransform(page, dpi), pixmap)
    try {
      page.run(device, mupdf.Matrix.identity)
      device.close()
    } finally {
      device.destroy()
    }
    return use(pixmap, pixels)
  } finally {
    pixmap.destroy()
    page.destroy()
  }
}

/** A region of page `number` (1-based) as PNG bytes, white where the page prints nothing. */
export function cropRegion (document: mupdf.Document, number: number, box: Box, dpi = FIGURE_DPI): Uint8Array {
  return withRegion(document, number, box, dpi, mupdf.ColorSpace.DeviceRGB, (pixmap) => pixmap.asPNG())
}

/** Where a region prints nothing: the runs of its rows, and of its columns, with no pixel darker than this (0–255) at INK_DPI. */
const INK = 192
const INK_DPI = 144

/** The runs of rows and of columns of a region of page `number` in which the page prints nothing (as page coordinates, top to bottom and left to right). */
export function blankRuns (document: mupdf.Document, number: number, box: Box): { rows: Array<[number, number]>, columns: Array<[number, number]> } {
  const scale = INK_DPI / 72
  return withRegion(document, number, box, INK_DPI, mupdf.ColorSpace.DeviceGray, (pixmap, pixels) => {
    const [wide, high, stride] = [pixmap.getWidth(), pixmap.getHeight(), pixmap.getStride()]
    const samples = pixmap.getPixels()
    const inkedRows = new Array<boolean>(high).fill(false)
    const inkedColumns = new Array<boolean>(wide).fill(false)
    for (let y = 0; y < high; y++) {
      for (let x = 0; x < wide; x++) {
        if (samples[y * stride + x]! < INK) inkedRows[y] = inkedColumns[x] = true
      }
    }
    const runs = (inked: boolean[], from: number) => {
      const found: Array<[number, number]> = []
      let start = -1
      inked.forEach((ink, at) => {
        if (!ink && start < 0) start = at
        if ((ink || at === inked.length - 1) && start >= 0) {
          found.push([(from + start) / scale, (from + (ink ? at : at + 1)) / scale])
          start = -1
        }
      })
      return found
    }
    return { rows: runs(inkedRows, pixels[1]), columns: runs(inkedColumns, pixels[0]) }
  })
}

/** Page `number` as PNG bytes with each outline drawn on it. */
export function annotatedPage (document: mupdf.Document, number: number, outlines: readonly Outline[], dpi = PAGE_DPI): Uint8Array {
  const page = document.loadPage(number - 1)
  const transform = pageTransform(page, dpi)
  const pixmap = page.toPixmap(transform, mupdf.ColorSpace.DeviceRGB, false)
  const device = new mupdf.DrawDevice(mupdf.Matrix.identity, pixmap)
  try {
    for (const outline of outlines) {
      const path = new mupdf.Path()
      path.rect(outline.box.x0, outline.box.y0, outline.box.x1, outline.box.y1)
      const stroke = new mupdf.StrokeState({ lineCap: 'Butt', lineJoin: 'Miter', lineWidth: outline.strong === true ? 1.6 : 0.8, miterLimit: 10 })
      // Outlines are in the reader's coordinates, already from the crop box's corner: only scaled.
      device.strokePath(path, stroke, mupdf.Matrix.scale(dpi / 72, dpi / 72), mupdf.ColorSpace.DeviceRGB, [...outline.colour], 0.9)
      path.destroy()
      stroke.destroy()
    }
    device.close()
    return pixmap.asPNG()
  } finally {
    device.destroy()
    pixmap.destroy()
    page.destroy()
  }
}
