/*
 * A set of record positions (0 to size - 1) as a bit per position: position p is bit p & 31 of
 * word p >>> 5. The finder's filters and views, and the search index's dense keys, are such sets,
 * so that a search ANDs a few hundred words where it called a test for each of thousands of
 * holders (bench/results.md, issue 45).
 */
export type PositionSet = Uint32Array

/** How many 32-bit words a bit per position of `size` positions takes. */
export function bitWordsFor (size: number): number {
  return Math.ceil(size / 32)
}

/** An empty set of `size` positions. */
export function emptyPositionSet (size: number): PositionSet {
  return new Uint32Array(bitWordsFor(size))
}

/** The set of the positions `holds` answers true for, of `size`. */
export function positionSetWhere (size: number, holds: (position: number) => boolean): PositionSet {
  const set = emptyPositionSet(size)
  for (let position = 0; position < size; position++) if (holds(position)) addPosition(set, position)
  return set
}

export function addPosition (set: PositionSet, position: number): void {
  set[position >>> 5]! |= 1 << (position & 31)
}

export function hasPosition (set: PositionSet, position: number): boolean {
  return (set[position >>> 5]! & (1 << (position & 31))) !== 0
}

/** Keeps in `target` only the positions `other` holds too. */
export function intersectInto (target: PositionSet, other: PositionSet): void {
  for (let word = 0; word < target.length; word++) target[word]! &= other[word]!
}

/** Adds to `target` every position `other` holds. */
export function uniteInto (target: PositionSet, other: PositionSet): void {
  for (let word = 0; word < target.length; word++) target[word]! |= other[word]!
}
