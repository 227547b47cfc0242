/*
 * Boxes on a page, in PDF points, y downwards: what every stage of reading a booklet measures with.
 */

export interface Box {
  readonly x0: number
  readonly y0: number
  readonly x1: number
  readonly y1: number
}

export const EMPTY_BOX: Box = { x0: Infinity, y0: Infinity, x1: -Infinity, y1: -Infinity }

export function isEmpty (box: Box): boolean {
  return !(box.x1 > box.x0 && box.y1 > box.y0)
}

/** The smallest box holding every point. */
export function boxOf (points: ReadonlyArray<readonly [number, number]>): Box {
  let x0 = Infinity; let y0 = Infinity; let x1 = -Infinity; let y1 = -Infinity
  for (const [x, y] of points) {
    if (x < x0) x0 = x
    if (x > x1) x1 = x
    if (y < y0) y0 = y
    if (y > y1) y1 = y
  }
  return { x0, y0, x1, y1 }
}

/** The smallest box holding every box (EMPTY_BOX for none). */
export function union (boxes: Iterable<Box>): Box {
  let x0 = Infinity; let y0 = Infinity; let x1 = -Infinity; let y1 = -Infinity
  for (const box of boxes) {
    if (box.x0 < x0) x0 = box.x0
    if (box.y0 < y0) y0 = box.y0
    if (box.x1 > x1) x1 = box.x1
    if (box.y1 > y1) y1 = box.y1
  }
  return { x0, y0, x1, y1 }
}

export function intersect (a: Box, b: Box): Box {
  return { x0: Math.max(a.x0, b.x0), y0: Math.max(a.y0, b.y0), x1: Math.min(a.x1, b.x1), y1: Math.min(a.y1, b.y1) }
}

export function width (box: Box): number {
  return box.x1 - box.x0
}

export function height (box: Box): number {
  return box.y1 - box.y0
}

export function area (box: Box): number {
  return isEmpty(box) ? 0 : width(box) * height(box)
}

/** The share of `inner`'s area that lies in `outer` (0 for an empty `inner`). */
export function coveredShare (inner: Box, outer: Box): number {
  const whole = area(inner)
  return whole === 0 ? 0 : area(intersect(inner, outer)) / whole
}

/** Whether two boxes, each grown by `margin`, touch. */
export function near (a: Box, b: Box, margin: number): boolean {
  return a.x0 - margin <= b.x1 && b.x0 - margin <= a.x1 && a.y0 - margin <= b.y1 && b.y0 - margin <= a.y1
}

export function grow (box: Box, margin: number): Box {
  return { x0: box.x0 - margin, y0: box.y0 - margin, x1: box.x1 + margin, y1: box.y1 + margin }
}

/** The overlap of two boxes' vertical extents, in points (negative when apart). */
export function verticalOverlap (a: Box, b: Box): number {
  return Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0)
}

/** Indices of boxes grouped by nearness (union-find over pairs within `gap`, unless `apart`). */
export function cluster (boxes: readonly Box[], gap: number, apart: (a: Box, b: Box) => boolean = () => false): number[][] {
  const parent = boxes.map((_, at) => at)
  const find = (at: number): number => {
    while (parent[at] !== at) {
      parent[at] = parent[parent[at]!]!
      at = parent[at]!
    }
    return at
  }
  const order = boxes.map((_, at) => at).sort((a, b) => boxes[a]!.x0 - boxes[b]!.x0)
  for (let i = 0; i < order.length; i++) {
    const a = boxes[order[i]!]!
    for (let j = i + 1; j < order.length; j++) {
      const b = boxes[order[j]!]!
      if (b.x0 - gap > a.x1) break
      if (near(a, b, gap) && !apart(a, b)) parent[find(order[i]!)] = find(order[j]!)
    }
  }
  const groups = new Map<number, number[]>()
  boxes.forEach((_, at) => {
    const root = find(at)
    groups.set(root, [...(groups.get(root) ?? []), at])
  })
  return [...groups.values()]
}
