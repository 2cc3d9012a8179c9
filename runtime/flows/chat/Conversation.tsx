import { Button, Textarea } from '@fluentui/react-components'
import { type KeyboardEvent, useCallback, useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { ImConversationRow, ImMessageRow, StoredFile } from '../../../generated/content.ts'
import { RequestError } from '../../api.ts'
import { useClient } from '../../client.tsx'
import { formatDateTime } from '../../dates.ts'
import { AttachmentPicker, MessageAttachment } from './Attachment.tsx'
import { mergeMessages, SYSTEM_SIDE, sideLabel, textMaxLength } from './model.ts'
import { chatSocket } from './socket.ts'
import { useChatStyles } from './styles.ts'

/** Refusals the conversation shows under its messages (closed 381001, filtered 381003, too fast 381005). */
const CHAT_REFUSALS = ['381001', '381003', '381005']
const shownHere = (error: RequestError) => CHAT_REFUSALS.includes(error.code) || error.fieldErrors.length > 0
const PAGE_SIZE = 30

/**
 * One conversation: its messages (the caller's side on the right, the other on the left, the automatic
 * replies apart), older ones on scrolling up, new ones and read marks live over the socket, resumed from the
 * last one seen after a reconnect, and the send box. Every text is a React text node: nothing is markup.
 */
export function Conversation({ conversation, side }: { conversation: ImConversationRow; side: number }) {
  const styles = useChatStyles()
  const { t, i18n } = useTranslation()
  const client = useClient(shownHere)
  const id = conversation.id
  const [messages, setMessages] = useState<ImMessageRow[]>([])
  const [hasMore, setHasMore] = useState(false)
  const [loadingOlder, setLoadingOlder] = useState(false)
  const [text, setText] = useState('')
  const [attachment, setAttachment] = useState<StoredFile | null>(null)
  const [refusal, setRefusal] = useState<string | null>(null)
  const [sending, setSending] = useState(false)
  const list = useRef<HTMLOListElement>(null)
  const lastId = useRef(0)
  const stickToBottom = useRef(true)
  const maxLength = textMaxLength()

  const add = useCallback((incoming: readonly ImMessageRow[]) => {
    if (!incoming.length) return
    setMessages((current) => {
      const merged = mergeMessages(current, incoming)
      lastId.current = merged.at(-1)?.id ?? 0
      return merged
    })
  }, [])

  /** Marks the other side's messages read while the tab is in view (the server answers the unread count left). */
  const markRead = useCallback(() => {
    if (document.visibilityState === 'visible') void client.b2b.imRead({ id }).catch(() => undefined)
  }, [client, id])

  // The newest page first; then whatever the socket brings.
  useEffect(() => {
    const controller = new AbortController()
    setMessages([])
    lastId.current = 0
    stickToBottom.current = true
    client.b2b
      .imHistory({ conversationId: id, pageSize: PAGE_SIZE }, controller.signal)
      .then(({ content }) => {
        add(content.list)
        setHasMore(content.hasMore)
        markRead()
      })
      .catch(() => undefined)
    return () => controller.abort()
  }, [client, id, add, markRead])

  useEffect(() => {
    const resume = () => {
      if (lastId.current > 0) chatSocket.send({ type: 'resume', conversationId: id, after: lastId.current })
    }
    const unsubscribe = chatSocket.subscribe((frame) => {
      if (frame.type === 'message' && frame.message.conversation === id) {
        add([frame.message])
        if (frame.message.side !== side) markRead()
      } else if (frame.type === 'resume' && frame.conversationId === id) {
        add(frame.list)
        if (frame.list.some((message) => message.side !== side)) markRead()
      } else if (frame.type === 'delivered' && frame.conversationId === id) {
        setMessages((current) =>
          current.map((m) => (m.id <= frame.messageId && !m.deliveredAt ? { ...m, deliveredAt: 'now' } : m)),
        )
      } else if (frame.type === 'read' && frame.conversationId === id && frame.side !== side) {
        setMessages((current) =>
          current.map((m) =>
            m.id <= frame.upTo && m.side !== frame.side && !m.readAt
              ? { ...m, readAt: 'now', deliveredAt: m.deliveredAt ?? 'now' }
              : m,
          ),
        )
      }
    }, resume)
    window.addEventListener('focus', markRead)
    return () => {
      unsubscribe()
      window.removeEventListener('focus', markRead)
    }
  }, [id, side, add, markRead])

  // New messages keep the view at the bottom unless the reader has scrolled up to read older ones.
  useEffect(() => {
    const element = list.current
    if (element && stickToBottom.current && messages.length) element.scrollTop = element.scrollHeight
  }, [messages])

  const loadOlder = useCallback(async () => {
    const oldest = messages[0]
    if (!oldest || !hasMore || loadingOlder) return
    const element = list.current
    const fromBottom = element ? element.scrollHeight - element.scrollTop : 0
    setLoadingOlder(true)
    try {
      const { content } = await client.b2b.imHistory({ conversationId: id, before: oldest.id, pageSize: PAGE_SIZE })
      stickToBottom.current = false
      add(content.list)
      setHasMore(content.hasMore)
      // Keep the message the reader was looking at where it was.
      requestAnimationFrame(() => {
        if (element) element.scrollTop = element.scrollHeight - fromBottom
      })
    } catch {
      // The client has said why.
    } finally {
      setLoadingOlder(false)
    }
  }, [messages, hasMore, loadingOlder, client, id, add])

  const onScroll = () => {
    const element = list.current
    if (!element) return
    stickToBottom.current = element.scrollHeight - element.scrollTop - element.clientHeight < 40
    if (element.scrollTop < 40) void loadOlder()
  }

  const closed = conversation.state === 3
  async function send() {
    const body = text.trim()
    if ((!body && !attachment) || sending) return
    setSending(true)
    setRefusal(null)
    try {
      const { content } = await client.b2b.imSend({
        conversation: id,
        ...(body ? { text: body } : {}),
        ...(attachment ? { attachment: attachment.uuid } : {}),
      })
      stickToBottom.current = true
      add([content])
      setText('')
      setAttachment(null)
    } catch (error) {
      if (error instanceof RequestError && shownHere(error))
        setRefusal(error.fieldErrors.map((e) => e.message).join(' ') || error.message)
    } finally {
      setSending(false)
    }
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    // Enter sends; Shift+Enter (and Enter while an input method composes) makes a new line.
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault()
      void send()
    }
  }

  return (
    <section className={styles.conversation} aria-label={t('chat.conversation')}>
      <ol className={styles.messages} ref={list} onScroll={onScroll} aria-live="polite">
        {hasMore && (
          <li className={styles.system}>
            <Button size="small" appearance="subtle" disabled={loadingOlder} onClick={() => void loadOlder()}>
              {t('chat.older')}
            </Button>
          </li>
        )}
        {!messages.length && <li className={styles.empty}>{t('chat.empty')}</li>}
        {messages.map((message) => {
          const mine = message.side === side
          const system = message.side === SYSTEM_SIDE
          const place = system ? styles.system : mine ? styles.mine : styles.theirs
          const bubble = system ? styles.bubbleSystem : mine ? styles.bubbleMine : undefined
          return (
            <li key={message.id} className={`${styles.message} ${place}`} data-side={message.side}>
              <span className={styles.meta}>
                <span>{system ? t(sideLabel(message.side)) : message.senderName}</span>
                <time dateTime={message.createdAt}>{formatDateTime(message.createdAt, i18n.language)}</time>
              </span>
              {(message.text || !message.attachment) && (
                <span className={`${styles.bubble} ${bubble ?? ''}`}>{message.text}</span>
              )}
              <MessageAttachment message={message} />
              {mine && !system && (
                <span
                  className={styles.meta}
                  data-mark={message.readAt ? 'read' : message.deliveredAt ? 'delivered' : 'sent'}
                  title={t(message.readAt ? 'chat.readAt' : message.deliveredAt ? 'chat.deliveredAt' : 'chat.sent')}
                >
                  {message.readAt ? '✓✓' : message.deliveredAt ? '✓' : ''}
                </span>
              )}
            </li>
          )
        })}
      </ol>
      {refusal && (
        <p className={styles.alert} role="alert">
          {refusal}
        </p>
      )}
      <div className={styles.composer}>
        <div className={styles.composerBox}>
          <Textarea
            className={styles.input}
            aria-label={t('chat.text')}
            placeholder={t(closed ? 'chat.closedNotice' : 'chat.typeHere')}
            value={text}
            maxLength={maxLength}
            disabled={closed}
            resize="vertical"
            onChange={(_, data) => setText(data.value.slice(0, maxLength))}
            onKeyDown={onKeyDown}
          />
          <AttachmentPicker value={attachment} onChange={setAttachment} onRefusal={setRefusal} disabled={closed} />
        </div>
        <Button
          appearance="primary"
          disabled={closed || sending || (!text.trim() && !attachment)}
          onClick={() => void send()}
        >
          {t('chat.send')}
        </Button>
      </div>
    </section>
  )
}
