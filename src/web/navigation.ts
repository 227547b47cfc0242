import { viewOf, type View } from './addresses.ts'

/*
 * Moving between views without reloading: a new address goes on the history (so back and reload
 * work), then the page shows the view it names. Links inside the page are ordinary `<a href>`s
 * (open in a new tab, copy, middle-click all work); a plain click on one is handled here.
 */

/** What the page keeps in a history entry. */
interface HistoryEntry {
  scrollY: number
}

/** Where the reader was on the current history entry's view (0 if it was never left). */
export function savedScrollPosition (): number {
  const entry = history.state as Partial<HistoryEntry> | null
  return typeof entry?.scrollY === 'number' ? entry.scrollY : 0
}

export type ShowView = (view: View, how: { restoring: boolean }) => void

let showView: ShowView = () => {}

/** Goes to an address of the page (relative to it), adding it to the history. */
export function navigate (address: string, { replace = false } = {}): void {
  const url = new URL(address, location.href)
  if (replace) {
    history.replaceState(null, '', url)
  } else {
    // Remember where the reader was on the view being left, for when back brings it again.
    history.replaceState({ scrollY: window.scrollY } satisfies HistoryEntry, '')
    history.pushState(null, '', url)
  }
  showView(viewOf(url.search), { restoring: false })
}

/** Puts `address` in place of the current one without showing another view: a view that completes its own address (a drawn seed). */
export function replaceAddress (address: string): void {
  history.replaceState(history.state, '', new URL(address, location.href))
}

function isPageAddress (link: HTMLAnchorElement): boolean {
  const url = new URL(link.href, location.href)
  return url.origin === location.origin && url.pathname === location.pathname && link.target === '' && !link.hasAttribute('download')
}

/** Shows the current address now, and every later one (a followed link, back, forward). */
export function startNavigation (show: ShowView): void {
  showView = show
  // Views arrive after their data, so the browser's own restoration would scroll a page not yet drawn.
  history.scrollRestoration = 'manual'
  document.addEventListener('click', (event) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
    const link = (event.target as Element | null)?.closest('a')
    if (link === null || link === undefined || !isPageAddress(link)) return
    const url = new URL(link.href)
    // A link to an anchor of the view on screen (the skip link) keeps the browser's behaviour.
    if (url.search === location.search && url.hash !== '') return
    event.preventDefault()
    navigate(url.search === '' ? './' : url.search)
  })
  window.addEventListener('popstate', () => showView(viewOf(location.search), { restoring: true }))
  showView(viewOf(location.search), { restoring: true })
}
