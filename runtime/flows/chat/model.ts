import type { ImMessageRow } from '../../../generated/content.ts'
import { type FileLimits, fileLimits } from '../../../rules/fileLimits.ts'
import { entityDef } from '../../screens/manifest.ts'

/**
 * What the chat reads of the manifest (schemas/imMessage.yaml, imQueueQuery.yaml, imOpen.yaml): the sides,
 * states and contexts with their labels, and the message's length bound — never a copy of them.
 */
export const CUSTOMER_SIDE = 1
export const OPERATOR_SIDE = 2
export const SYSTEM_SIDE = 3
export const CLOSED_STATE = 3

function enumLabel(entity: string, field: string, value: string | number): string {
  const values = entityDef(entity)?.fields[field]?.values ?? []
  return values.find((v) => String(v.value) === String(value))?.label ?? String(value)
}

/** A message side's label ("Automatic reply" for the system's). */
export const sideLabel = (side: number): string => enumLabel('imMessage', 'side', side)
/** A conversation state's label (Waiting, In service, Closed). */
export const stateLabel = (state: number): string => enumLabel('imQueueQuery', 'state', state)
/** What a conversation is about (Order, Quote, Special rate, General). */
export const contextLabel = (contextType: string): string => enumLabel('imOpen', 'contextType', contextType)

/** The longest message the send call takes (imMessage.text's maxLength). */
export function textMaxLength(): number | undefined {
  return entityDef('imMessage')?.fields.text?.maxLength
}

/** Where a message's attachment is uploaded: the message's own file field, whose limits the server holds it to. */
export const ATTACHMENT_TARGET = { entity: 'imMessage', field: 'attachment' } as const

/** The attachment's limits (imMessage.attachment's accept and maxSizeKb), checked before a byte is sent. */
export function attachmentLimits(): FileLimits {
  return fileLimits(entityDef(ATTACHMENT_TARGET.entity)?.fields[ATTACHMENT_TARGET.field] ?? {})
}

/** Messages by id, oldest first, each once (the send's answer and the socket's copy of it are one message). */
export function mergeMessages(current: readonly ImMessageRow[], incoming: readonly ImMessageRow[]): ImMessageRow[] {
  const byId = new Map(current.map((message) => [message.id, message]))
  for (const message of incoming) {
    const known = byId.get(message.id)
    // A later copy may carry marks the first did not; marks are never taken back.
    byId.set(message.id, {
      ...message,
      deliveredAt: message.deliveredAt ?? known?.deliveredAt ?? null,
      readAt: message.readAt ?? known?.readAt ?? null,
    })
  }
  return [...byId.values()].sort((a, b) => a.id - b.id)
}
