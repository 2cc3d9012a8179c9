import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Kysely } from 'kysely'
import type { WebSocket } from 'ws'
import type { EndpointId, EndpointTypes } from '../../generated/handlers.ts'
import type { ManifestEndpoint, ManifestEntity } from '../../model/resolve.ts'
import type { DB } from '../db/schema.ts'
import { withoutRuleIgnored } from '../engine/uiRules.ts'
import type { Manifest } from '../manifest.ts'
import {
  checkOverlayRules,
  type EndpointOverlay,
  endpointOverlay,
  knownOverlay,
  lockedFields,
} from '../overlays/enforce.ts'
import { withTenant } from '../tenancy/scope.ts'
import { bodyLimitOf } from './bounds.ts'
import { type HandlerContext, handlerContext } from './context.ts'
import { ok } from './envelope.ts'
import { checkAccess } from './guard.ts'
import { entityInput, queryInput } from './routeSchema.ts'
import { responseSchemaOf } from './serialise.ts'

/**
 * A hand-written endpoint takes the fields it is sent; an optional field a tenant's overlay hides or
 * locks is dropped, so it keeps its stored value. (Required fields stay: the form sends them unchanged,
 * and an overlay may not lock a required field of a screen saved through a hand-written endpoint.)
 */
function withoutLockedOptionals(entity: ManifestEntity, overlay: EndpointOverlay | undefined, body: unknown): unknown {
  const locked = lockedFields(overlay)
  if (!locked.size || !body || typeof body !== 'object' || Array.isArray(body)) return body
  return Object.fromEntries(
    Object.entries(body).filter(([name]) => !locked.has(name) || entity.fields[name]?.required === true),
  )
}

/**
 * What a request's preValidation kept: the overlay it read, for the checks the handler makes on the validated
 * input, and the input as it was sent, which the request carries again for the handler (a null sent tells
 * "clear it" from a field left out, and the check drops both).
 */
const before = new WeakMap<FastifyRequest, { overlay: EndpointOverlay | undefined; sent: unknown }>()

/**
 * A hand-written endpoint: gets the validated input and answers the envelope's content. (A method's type, so
 * a registry of TypedHandlers, each taking its own input, is one of these.)
 */
export type Handler = {
  handle(context: HandlerContext & { input: unknown; endpoint: ManifestEndpoint }): Promise<unknown>
}['handle']

/** A handler written against its endpoint's generated types (generated/handlers.ts): its input, its content. */
export type TypedHandler<K extends EndpointId> = (
  context: HandlerContext & { input: EndpointTypes[K]['input']; endpoint: ManifestEndpoint },
) => Promise<EndpointTypes[K]['content']>

/** What a registry of typed handlers satisfies: `export const newsHandlers = { … } satisfies Handlers`. */
export type Handlers = { [K in EndpointId]?: TypedHandler<K> }

/** Handlers by the name screens/*.yaml gives their endpoint (`endpoints: - name: login`). */
export type HandlerRegistry = Record<string, Handler>

/**
 * A GET endpoint that is also a WebSocket (@fastify/websocket): an upgrade request, once the route's hooks and
 * access check passed, is handed to this; a plain GET still goes to the endpoint's handler.
 */
export type SocketHandler = (socket: WebSocket, request: FastifyRequest) => void

/**
 * Registers every custom endpoint of the manifest with its handler. The manifest and the registry must
 * name the same endpoints: a declared endpoint with no handler, or a handler nobody declared, stops the
 * server at boot rather than answering 404 at run time.
 */
export function registerCustomEndpoints(
  api: FastifyInstance,
  manifest: Manifest,
  db: Kysely<DB>,
  handlers: HandlerRegistry,
  sockets: Record<string, SocketHandler> = {},
) {
  const declared = manifest.endpoints.filter((e) => e.kind === 'custom')
  // Another method or path of an endpoint (`servedAs:`) is served by that endpoint's handler.
  const handlerOf = (e: ManifestEndpoint) => handlers[e.servedAs ?? e.id]
  const missing = declared.filter((e) => !handlerOf(e))
  if (missing.length) {
    throw new Error(
      `No handler for ${missing.map((e) => `${e.id} (${e.method} ${e.path})`).join(', ')}: add it to a handler registry under server/`,
    )
  }
  const undeclared = Object.keys(handlers).filter((name) => !declared.some((e) => e.id === name))
  if (undeclared.length) throw new Error(`Handlers not declared in screens/*.yaml endpoints: ${undeclared.join(', ')}`)

  const strays = Object.keys(sockets).filter((name) => !declared.some((e) => e.id === name && e.method === 'GET'))
  if (strays.length)
    throw new Error(`Socket handlers not declared as GET endpoints in screens/*.yaml: ${strays.join(', ')}`)

  for (const endpoint of declared) {
    const handler = handlerOf(endpoint) as Handler
    const socket = sockets[endpoint.id]
    const bodyEntity = endpoint.entity ? manifest.entities[endpoint.entity] : undefined
    const response = responseSchemaOf(manifest, endpoint)
    // A GET or DELETE takes its input from the query string, anything else from the body.
    const part = endpoint.method === 'GET' || endpoint.method === 'DELETE' ? 'query' : 'body'
    const input = bodyEntity ? (part === 'query' ? queryInput(bodyEntity) : entityInput(bodyEntity)) : undefined
    api.route({
      method: endpoint.method,
      url: endpoint.path,
      ...(socket ? { wsHandler: socket } : {}),
      // No bigger than the largest body the endpoint's schema accepts (./bounds.ts).
      bodyLimit: bodyLimitOf(bodyEntity),
      // Who may call is known from the headers: a caller who may not is refused before the body is read.
      preParsing: async (request) => checkAccess(endpoint, request.session),
      // The input is checked by the entity's generated validator as the route's schema (./routeSchema.ts); the
      // answer written from the YAML's response, for the endpoints a test has shown unchanged (./serialise.ts).
      schema: {
        ...(input ? { [part === 'query' ? 'querystring' : 'body']: input } : {}),
        ...(response ? { response } : {}),
      },
      ...(response
        ? {
            // A refusal is not the content: the app's error handler answers it, written as it is.
            errorHandler: (error: Error, _request: FastifyRequest, reply: FastifyReply) => {
              reply.serializer(JSON.stringify)
              throw error
            },
          }
        : {}),
      // What a tenant overlay locks, or the YAML's UI rules turn off for this input, is not taken: dropped
      // before the schema's check runs, so a locked field's value is neither checked nor stored.
      ...(bodyEntity
        ? {
            preValidation: async (request: FastifyRequest) => {
              const stamp = request.session?.overlayStamp
              const hit = knownOverlay(db, request.tenant.id, endpoint, stamp)
              const overlay = hit
                ? hit.overlay
                : await withTenant(db, request.tenant.id, (trx) =>
                    endpointOverlay(db, trx, request.tenant.id, endpoint, stamp),
                  )
              const sent = request[part]
              before.set(request, { overlay, sent })
              request[part] = withoutRuleIgnored(
                manifest,
                endpoint,
                withoutLockedOptionals(bodyEntity, overlay, sent ?? {}),
                {},
                { settings: request.tenant.settings, refuseFeatureOff: true },
              )
            },
          }
        : {}),
      handler: async (request, reply) => {
        const input = request[part]
        const kept = before.get(request)
        if (bodyEntity && kept) {
          checkOverlayRules(kept.overlay, input as Record<string, unknown>, bodyEntity)
          request[part] = kept.sent
        }
        const content = await handler({ ...handlerContext(db, request, reply), input, endpoint })
        if (reply.sent) return reply
        return ok(content ?? null)
      },
    })
  }
}
