import { viewOf, type View } from './addresses.ts'

/*
 * Moving between views without reloading: a new address goes on the history (so back and reload
 * work), then the page shows the view it names. Links inside the page are ordinary `<a href>`s
 * (open in a new tab, copy, middle-click all work); a plain click on one is handled here.
 */

export type ShowView = (view: View, how: { restoring: boolean }) => void

let showView: ShowView = () => {}

/** Goes to an address of the page (relative to it), adding it to the history. */
export function navigate (address: string, { replace = false } = {}): void {
  const url = new URL(address, location.href)
  if (replace) history.replaceState(null, '', url)
  else history.pushState(null, '', url)
  showView(viewOf(url.search), { restoring: false })
}

function isPageAddress (link: HTMLAnchorElement): boolean {
  const url = new URL(link.href, location.href)
  return url.origin === location.origin && url.pathname === location.pathname && link.target === '' && !link.hasAttribute('download')
}

/** Shows the current address now, and every later one (a followed link, back, forward). */
export function startNavigation (show: ShowView): void {
  showView = show
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
