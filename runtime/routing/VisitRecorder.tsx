import { useEffect } from 'react'
import { useLocation } from 'react-router'
import { createClient, type Envelope, type Transport } from '../../generated/client.ts'
import type { RouteEntry } from '../../generated/routes.ts'
import { buildUrl } from '../api.ts'
import { quietClient } from '../quietClient.ts'
import { VisitQueue, type VisitSink } from './visits.ts'

/**
 * The beacon's transport: the generated client names the call's path, `navigator.sendBeacon` carries the body past
 * the page's end. It cannot send the portal's header, so the server believes its session cookie only when the
 * browser says the beacon is same-origin (server/http/csrf.ts).
 */
const beaconTransport: Transport = async <C,>(call: Parameters<Transport>[0]): Promise<Envelope<C>> => {
  const body = new Blob([JSON.stringify(call.body)], { type: 'application/json' })
  navigator.sendBeacon(buildUrl(call.path, call.query), body)
  return { code: '0000', message: 'queued', content: null as C }
}

const beaconClient = createClient(beaconTransport)

const sink: VisitSink = {
  post: (visits) => quietClient.b2b.behaviorRecordAdd({ visits }),
  beacon: (visits) => void beaconClient.b2b.behaviorRecordAdd({ visits }),
}

/** One queue for the page's life. */
export const visitQueue = new VisitQueue(sink)

/**
 * Rendered once inside the router (runtime/App.tsx); shows nothing. Each new page of the route table (a pathname
 * change — a list's filters in the query are the same page) is queued after the page committed, by an effect, so
 * the navigation never waits for it.
 */
export function VisitRecorder({ pageAt }: { pageAt: (pathname: string) => RouteEntry | undefined }) {
  const { pathname } = useLocation()

  useEffect(() => {
    const route = pageAt(pathname)
    // A redirecting route (/ → the home mode's page) is recorded as the page it lands on.
    if (!route || route.redirect) return
    visitQueue.record({ pageName: route.name, pageRoute: route.path })
  }, [pathname, pageAt])

  useEffect(() => {
    const onHidden = () => {
      if (document.visibilityState === 'hidden') visitQueue.leave()
    }
    const onLeave = () => visitQueue.leave()
    document.addEventListener('visibilitychange', onHidden)
    window.addEventListener('pagehide', onLeave)
    return () => {
      document.removeEventListener('visibilitychange', onHidden)
      window.removeEventListener('pagehide', onLeave)
    }
  }, [])

  return null
}
