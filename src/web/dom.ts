/*
 * Building the page's elements. Text from the data always goes in as text nodes; the only HTML the
 * page inserts is markdown.ts's output (see setRenderedHtml).
 */

type Child = Node | string | number | null | undefined | false
type Attributes = Record<string, string | number | boolean | undefined>

/**
 * An element with attributes (false and undefined leave one out, true sets it empty) and children.
 * @example h('a', { href: '?prova=2020', class: 'exam' }, 'ENEM 2020')
 */
export function h<K extends keyof HTMLElementTagNameMap> (tag: K, attributes: Attributes = {}, ...children: Array<Child | Child[]>): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag)
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue
    element.setAttribute(name, value === true ? '' : String(value))
  }
  append(element, children)
  return element
}

export function append (parent: Node, children: Array<Child | Child[]>): void {
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue
    parent.appendChild(typeof child === 'object' ? child : document.createTextNode(String(child)))
  }
}

/** An element holding HTML made by markdown.ts from the data (raw HTML off, links validated). */
export function setRenderedHtml<E extends HTMLElement> (element: E, html: string): E {
  element.innerHTML = html
  return element
}

/** Replaces everything inside an element. */
export function replaceChildren (parent: Element, ...children: Array<Child | Child[]>): void {
  parent.replaceChildren()
  append(parent, children)
}
