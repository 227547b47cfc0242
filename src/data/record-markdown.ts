import markdownIt from 'markdown-it'
import type { MarkdownIt, Token } from 'markdown-it'

/*
 * The records' Markdown as the question browser reads it. Statements are written by people outside
 * this project, so they are data, never markup: raw HTML off (a `<script>` in a statement is text),
 * link validation on and narrowed to http(s) and relative addresses (no `javascript:`, `data:` or
 * `vbscript:` link or image ever becomes one). The page renders with a parser made here
 * (src/web/markdown.ts), and what a record's figures are is read with one (./record-figures.ts), so
 * both see the same images.
 */

const SCHEME = /^([a-z][a-z0-9+.-]*):/i

/** A markdown-it parser of record Markdown, configured as the page renders it; the page adds its renderer rules. */
export function recordMarkdown (): MarkdownIt {
  const markdown = markdownIt({ html: false, linkify: false, typographer: false })
  const defaultValidateLink = markdown.validateLink.bind(markdown)
  markdown.validateLink = (url: string) => {
    if (!defaultValidateLink(url)) return false
    const scheme = SCHEME.exec(url.trim())
    return scheme === null || ['http', 'https'].includes(scheme[1]!.toLowerCase())
  }
  return markdown
}

const parser = recordMarkdown()

/**
 * The addresses of the images a Markdown text shows, as the rendered page has them.
 * @example markdownImages('a ![](x.png) b') // ['x.png']
 */
export function markdownImages (source: string): string[] {
  const found: string[] = []
  const collect = (tokens: Token[]) => {
    for (const token of tokens) {
      if (token.type === 'image') found.push(String(token.attrGet('src') ?? ''))
      collect(token.children ?? [])
    }
  }
  collect(parser.parse(source, {}))
  return found
}

/** An address as a Markdown image of it would have it, to compare with markdownImages. */
export function normalizedAddress (address: string): string {
  return parser.normalizeLink(address)
}
