/*
 * An output schema as tools/list carries it: what a client needs to validate a structured result
 * (types, bounds, choices, required members), without the words for people (`description`,
 * `title`, `examples`). A model reads the tool's description and its result's text; the output
 * schema's words were 61 % of tools/list (48.6 KB, issue 60), the same record's descriptions four
 * times over. The REST schemas keep their words (the OpenAPI document).
 */

/** Keywords that speak to people and change no validation. */
const WORDS = new Set(['description', 'title', 'examples', '$comment'])

/** A copy of `schema` without the keywords for people, at every depth (a property named `title` stays: it is a name, not a keyword). */
export function validationOnly (schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(validationOnly)
  if (typeof schema !== 'object' || schema === null) return schema
  const copy: Record<string, unknown> = {}
  for (const [keyword, value] of Object.entries(schema)) {
    if (WORDS.has(keyword)) continue
    copy[keyword] = keyword === 'properties' || keyword === '$defs' || keyword === 'patternProperties'
      ? Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([name, member]) => [name, validationOnly(member)]))
      : validationOnly(value)
  }
  return copy
}
