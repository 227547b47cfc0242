import { type Box, height, union, width } from './boxes.ts'
import type { Glyph, PathMark } from './page-marks.ts'
import { inScript } from './scripts.ts'

/*
 * Fractions set as in print: a numerator above a short rule and a denominator below it, beside
 * text on the rule's height (`30` over `100`, a letter's alternative). Read as lines, they would
 * fall apart into a line above and a line below; so, before lines are made, the glyphs over and
 * under each such rule become one glyph `30/100` standing on the rule, in the line around it.
 * Parentheses keep a numerator or denominator of several terms whole: `(t + 1)/2`.
 */

/** A rule no longer than this (points) can be a fraction's. */
const MAX_BAR = 120

function isBar (path: PathMark): boolean {
  return height(path.box) <= 1.3 && width(path.box) >= 3 && width(path.box) <= MAX_BAR
}

function term (glyphs: readonly Glyph[]): string {
  const sorted = [...glyphs].sort((a, b) => a.box.x0 - b.box.x0)
  const size = Math.max(...glyphs.map((glyph) => glyph.size))
  const baseline = glyphs.find((glyph) => glyph.size === size)!.baseline
  const script = (glyph: Glyph) => (glyph.size >= 0.85 * size ? 'normal' : glyph.baseline < baseline - 0.15 * size ? 'sup' : glyph.baseline > baseline + 0.08 * size ? 'sub' : 'normal')
  let text = ''
  let previous: Glyph | null = null
  for (const glyph of sorted) {
    if (!glyph.mapped) continue
    if (glyph.text.trim() === '') {
      if (text !== '' && !text.endsWith(' ')) text += ' '
    } else {
      if (previous !== null && !text.endsWith(' ') && glyph.box.x0 - previous.box.x1 > 0.15 * glyph.size) text += ' '
      text += inScript(glyph.text, script(glyph))
    }
    previous = glyph
  }
  text = text.trim()
  return /^[\p{L}\p{N},.]+( \d{3}\p{L}*)*$/u.test(text) ? text : `(${text})`
}

/** A fraction's rule stands on the maths axis, about this share of the size above the baseline (where no text beside it tells). */
const AXIS_HEIGHT = 0.25

/**
 * The baseline of the text set beside a fraction on its rule's height (an alternative's letter, the
 * full stop after it), within a few sizes of the rule: the fraction stands on that line, whatever
 * height the font sets its maths axis at. Null when no text stands beside it.
 */
function besideBaseline (glyphs: readonly Glyph[], bar: Box, size: number): number | null {
  const barY = (bar.y0 + bar.y1) / 2
  const reach = 4 * size
  const beside = glyphs.filter((glyph) => glyph.text.trim() !== '' && glyph.box.y0 < barY && glyph.box.y1 > barY &&
    ((glyph.box.x1 <= bar.x0 + 1 && bar.x0 - glyph.box.x1 < reach) || (glyph.box.x0 >= bar.x1 - 1 && glyph.box.x0 - bar.x1 < reach)))
  if (beside.length === 0) return null
  const baselines = beside.map((glyph) => glyph.baseline).sort((a, b) => a - b)
  return baselines[Math.floor((baselines.length - 1) / 2)]!
}

/** The glyphs with every printed fraction made one glyph, and the paths left when their rules are taken. */
export function joinFractions (glyphs: readonly Glyph[], paths: readonly PathMark[]): { glyphs: Glyph[], paths: PathMark[] } {
  const removed = new Set<Glyph>()
  const added: Glyph[] = []
  const bars = new Set<PathMark>()
  for (const path of paths.filter(isBar)) {
    const bar = path.box
    const barY = (bar.y0 + bar.y1) / 2
    const within = (glyph: Glyph) => !removed.has(glyph) && glyph.box.x0 >= bar.x0 - 1.5 && glyph.box.x1 <= bar.x1 + 1.5
    // Measured by the terms' size, so that an exponent set smaller (x² over 4) stays in its term.
    const termSize = Math.max(0, ...glyphs.filter((glyph) => within(glyph) && Math.abs(glyph.baseline - barY) < 1.4 * glyph.size).map((glyph) => glyph.size))
    const near = glyphs.filter((glyph) => within(glyph) && Math.abs(glyph.baseline - barY) < 1.4 * Math.max(glyph.size, termSize))
    const size = Math.max(0, ...near.map((glyph) => glyph.size))
    const over = near.filter((glyph) => glyph.baseline < barY && barY - glyph.baseline < 0.95 * size)
    const under = near.filter((glyph) => glyph.baseline > barY && glyph.baseline - 0.72 * glyph.size > barY - 0.2 * size && glyph.baseline - barY < 1.35 * size)
    if (!over.some((glyph) => glyph.text.trim() !== '') || !under.some((glyph) => glyph.text.trim() !== '')) continue
    // Not a rule under a line of text, over a table's row or a box's edge: both terms are centred on
    // the rule and no wider, and no other line meets its ends.
    const termBox = (part: readonly Glyph[]): Box => union(part.filter((glyph) => glyph.text.trim() !== '').map((glyph) => glyph.box))
    const centred = (box: Box) => width(box) <= width(bar) + 3 && Math.abs((box.x0 + box.x1) / 2 - (bar.x0 + bar.x1) / 2) < 0.25 * width(bar) + 1
    if (!centred(termBox(over)) || !centred(termBox(under))) continue
    if (paths.some((other) => other !== path && width(other.box) < 2 && other.box.y0 - 1 <= barY && other.box.y1 + 1 >= barY &&
      (Math.abs(other.box.x0 - bar.x0) < 2 || Math.abs(other.box.x1 - bar.x1) < 2))) continue
    for (const glyph of [...over, ...under]) removed.add(glyph)
    bars.add(path)
    added.push({
      text: `${term(over)}/${term(under)}`,
      box: { x0: bar.x0, y0: barY - 0.55 * size, x1: bar.x1, y1: barY + 0.45 * size },
      baseline: besideBaseline(glyphs.filter((glyph) => !removed.has(glyph)), bar, size) ?? barY + AXIS_HEIGHT * size,
      size,
      font: over[0]!.font,
      bold: false,
      italic: false,
      mapped: true
    })
  }
  return {
    glyphs: removed.size === 0 ? [...glyphs] : [...glyphs.filter((glyph) => !removed.has(glyph)), ...added],
    paths: paths.filter((path) => !bars.has(path))
  }
}
