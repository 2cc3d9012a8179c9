/**
 * The swap from the server's summary of a page to the portal's drawing of it, in one step (issue #18, CLS).
 * React draws the first page into a hidden element beside the summary; the summary stays on screen until
 * that drawing is complete — no page spinner left in it, every lazy layout and screen arrived — and is then
 * replaced whole. Before, React replaced the summary at once and the page came in stages (a spinner, the
 * frame with an empty main, the page), each stage moving what the one before had drawn.
 */

/** What a page still on its way shows (runtime/routing/RouteGate.tsx PageSpinner). */
const LOADING = '[role="progressbar"][aria-busy="true"]'

/** The longest the summary stays: after that the drawing is shown as it is. */
export const REVEAL_WAIT_MS = 10_000

/**
 * Where React should draw: `root` itself when it has no server summary, else a hidden element appended to
 * it, shown (and the summary removed) once it holds a complete page.
 */
export function drawingTarget(root: HTMLElement): HTMLElement {
  const summary = root.querySelector(':scope > [data-server-page]')
  if (!summary) return root
  const target = document.createElement('div')
  target.style.display = 'none'
  target.dataset.portal = ''
  root.append(target)
  const complete = () => target.childElementCount > 0 && !target.querySelector(LOADING)
  let done = false
  const reveal = () => {
    if (done) return
    done = true
    observer.disconnect()
    window.clearTimeout(timer)
    summary.remove()
    // `contents`: the element adds no box of its own, so the page lays out as if drawn into the root.
    target.style.display = 'contents'
  }
  const observer = new MutationObserver(() => {
    if (complete()) reveal()
  })
  observer.observe(target, { childList: true, subtree: true, attributes: true, attributeFilter: ['aria-busy'] })
  const timer = window.setTimeout(reveal, REVEAL_WAIT_MS)
  return target
}
