import { useEffect, useLayoutEffect, useRef } from 'react'
import { type Location, type NavigationType, useLocation, useNavigationType } from 'react-router'

/**
 * Where the window stands after a navigation, for the whole portal (issue #16): a new page opens at its
 * top, Back and Forward come back to where the reader was.
 *
 * The portal runs on react-router's declarative `BrowserRouter` (runtime/main.tsx), and react-router's
 * `<ScrollRestoration>` works only under a data router (createBrowserRouter), so this is the same idea
 * for the declarative router: positions kept per history entry (in sessionStorage, so a reload finds
 * them too), the browser's own restoration turned off, and one decision per committed location.
 */

export type ScrollAction = 'top' | 'restore' | 'hash' | 'keep'

type Place = Pick<Location, 'pathname' | 'hash'>

/**
 * What a navigation does to the scroll position:
 * - Back/Forward (POP), and the first render of a reload: back to the entry's saved position (`restore`);
 * - a push or replace to another pathname: the top of the new page, or its `#anchor` (`top`, `hash`);
 * - a push or replace that changes only the query (a list's filters, sort or page) or the hash: the
 *   position stays, but a new `#anchor` is scrolled to (`keep`, `hash`).
 */
export function scrollAction(previous: Place | null, next: Place, type: `${NavigationType}`): ScrollAction {
  if (type === 'POP') return 'restore'
  if (previous && previous.pathname === next.pathname) return next.hash && next.hash !== previous.hash ? 'hash' : 'keep'
  return next.hash ? 'hash' : 'top'
}

const STORAGE_KEY = 'waybill:scroll'
/** Entries kept: a long session's history should not fill sessionStorage. */
const MAX_ENTRIES = 100

/** A history entry's key: react-router's entry key, with the address, since a fresh load's key is always "default". */
export const entryKey = (location: Pick<Location, 'key' | 'pathname' | 'search'>) =>
  `${location.key}|${location.pathname}${location.search}`

function readSaved(): Map<string, number> {
  try {
    const saved = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? '[]') as unknown
    return new Map(Array.isArray(saved) ? (saved as [string, number][]) : [])
  } catch {
    return new Map()
  }
}

function writeSaved(positions: Map<string, number>) {
  try {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify([...positions].slice(-MAX_ENTRIES)))
  } catch {
    // Storage full or refused (private mode): positions then last as long as the page.
  }
}

/** The element a `#hash` names, if the page has it. */
function anchor(hash: string): Element | null {
  const id = decodeURIComponent(hash.slice(1))
  return id ? document.getElementById(id) : null
}

/**
 * Goes to `top` once the page is tall enough: a page coming back from Back may still be loading its
 * data, so the position is tried on each frame for a moment, and given up as soon as the reader scrolls,
 * types or taps themselves. Answers a function that stops trying.
 */
function scrollWhenReady(top: number): () => void {
  const deadline = performance.now() + 1500
  let frame = 0
  const events = ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const
  const stop = () => {
    cancelAnimationFrame(frame)
    for (const event of events) window.removeEventListener(event, stop)
  }
  for (const event of events) window.addEventListener(event, stop, { passive: true })
  const attempt = () => {
    const room = document.documentElement.scrollHeight - window.innerHeight
    window.scrollTo(0, Math.min(top, Math.max(room, 0)))
    if (room >= top || performance.now() > deadline) stop()
    else frame = requestAnimationFrame(attempt)
  }
  attempt()
  return stop
}

/** Rendered once inside the router (runtime/App.tsx); shows nothing. */
export function ScrollManager() {
  const location = useLocation()
  const type = useNavigationType()
  const positions = useRef<Map<string, number> | null>(null)
  const current = useRef<string | null>(null)
  const previous = useRef<Place | null>(null)

  // The browser's own restoration runs at popstate, before the page it goes back to has rendered.
  useEffect(() => {
    if (!('scrollRestoration' in window.history)) return
    const before = window.history.scrollRestoration
    window.history.scrollRestoration = 'manual'
    return () => {
      window.history.scrollRestoration = before
    }
  }, [])

  // The reader's position on the entry they are on, as they scroll; kept across a reload.
  useEffect(() => {
    const saved = positions.current ?? readSaved()
    positions.current = saved
    const onScroll = () => {
      const key = current.current
      if (!key) return
      // Most recent last, so the oldest entries are the ones dropped (MAX_ENTRIES).
      saved.delete(key)
      saved.set(key, window.scrollY)
    }
    const onHide = () => writeSaved(saved)
    window.addEventListener('scroll', onScroll, { passive: true })
    window.addEventListener('pagehide', onHide)
    return () => {
      window.removeEventListener('scroll', onScroll)
      window.removeEventListener('pagehide', onHide)
      writeSaved(saved)
    }
  }, [])

  // On the commit that shows the new location, before the browser paints it.
  useLayoutEffect(() => {
    positions.current ??= readSaved()
    const key = entryKey(location)
    const before = previous.current
    const action = scrollAction(before, location, type)
    previous.current = { pathname: location.pathname, hash: location.hash }
    current.current = key
    const newPage = before !== null && before.pathname !== location.pathname
    let stop: (() => void) | undefined
    if (action === 'restore') {
      const saved = positions.current.get(key)
      if (saved !== undefined) stop = scrollWhenReady(saved)
      // An entry with nothing saved (no position recorded for it): the top of the page it shows.
      else if (newPage) window.scrollTo(0, 0)
    } else if (action === 'hash') {
      const target = anchor(location.hash)
      if (target) target.scrollIntoView()
      else if (newPage) window.scrollTo(0, 0)
    } else if (action === 'top') {
      window.scrollTo(0, 0)
    }
    return stop
    // The location object changes with every navigation, even to the same address.
  }, [location, type])

  return null
}
