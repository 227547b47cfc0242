import type { Token } from 'markdown-it'
import { recordMarkdown } from '../data/record-markdown.ts'

/*
 * Statements are Markdown written by people outside this project, so they are data, never markup:
 * the records' parser (src/data/record-markdown.ts: raw HTML off, links narrowed to http(s) and
 * relative addresses, so no `javascript:`, `data:` or `vbscript:` link or image ever becomes live),
 * and nothing that would need an inline style, which the page's Content-Security-Policy refuses anyway.
 */

const markdown = recordMarkdown()

/** What a render needs to know: how to name an image that has no description of its own. */
interface RenderEnv {
  imageLabel: string
  imageCount: number
}

function renderEnv (imageLabel: string): Record<string, unknown> {
  return { imageLabel, imageCount: 0 } satisfies RenderEnv
}

markdown.renderer.rules.image = (tokens, index, options, env, renderer) => {
  const token = tokens[index]!
  const description = renderer.renderInlineAsText(token.children ?? [], options, env).trim()
  const images = (env ?? {}) as Partial<RenderEnv>
  images.imageCount = (images.imageCount ?? 0) + 1
  token.attrSet('alt', description !== '' ? description : `${images.imageLabel ?? 'Imagem'} ${images.imageCount}`)
  token.attrSet('loading', 'lazy')
  token.attrSet('decoding', 'async')
  return renderer.renderToken(tokens, index, options)
}

const defaultLinkOpen = markdown.renderer.rules.link_open
markdown.renderer.rules.link_open = (tokens, index, options, env, renderer) => {
  tokens[index]!.attrSet('rel', 'nofollow noopener noreferrer')
  return defaultLinkOpen === undefined ? renderer.renderToken(tokens, index, options) : defaultLinkOpen(tokens, index, options, env, renderer)
}

// A table wider than the page scrolls in its own box (styles.css); a keyboard reaches that box too.
markdown.renderer.rules.table_open = (tokens, index, options, _env, renderer) => {
  tokens[index]!.attrSet('tabindex', '0')
  return renderer.renderToken(tokens, index, options)
}

// Table cells carry their alignment as a style attribute; a class does the same under the CSP.
markdown.core.ruler.push('alignment_classes', (state) => {
  for (const token of state.tokens) {
    if (token.type !== 'th_open' && token.type !== 'td_open') continue
    const alignment = /text-align:(left|center|right)/.exec(String(token.attrGet('style') ?? ''))
    if (token.attrs !== null) token.attrs = token.attrs.filter(([name]) => name !== 'style')
    if (alignment !== null) token.attrJoin('class', `align-${alignment[1]}`)
  }
})

/**
 * HTML of a block of Markdown (a statement), safe to insert: every tag in it comes from the renderer.
 * @example renderMarkdown('**a** <b>', 'Imagem') === '<p><strong>a</strong> &lt;b&gt;</p>\n'
 */
export function renderMarkdown (source: string, imageLabel: string): string {
  return markdown.render(source, renderEnv(imageLabel))
}

/** HTML of one line of Markdown (an alternative), without the surrounding paragraph. */
export function renderInlineMarkdown (source: string, imageLabel: string): string {
  return markdown.renderInline(source, renderEnv(imageLabel))
}

/**
 * The words of a Markdown text without its markup or images, for excerpts and titles.
 * @example plainText('**Dão** ![](x.png)\n\nLalalão') === 'Dão Lalalão'
 */
export function plainText (source: string): string {
  const parts: string[] = []
  const collect = (tokens: Token[]) => {
    for (const token of tokens) {
      if (token.type === 'inline') collect(token.children ?? [])
      else if (token.type === 'text' || token.type === 'code_inline' || token.type === 'code_block' || token.type === 'fence') parts.push(token.content)
      else if (token.type === 'softbreak' || token.type === 'hardbreak' || token.block) parts.push(' ')
    }
  }
  collect(markdown.parse(source, {}))
  return parts.join('').replace(/\s+/g, ' ').trim()
}
