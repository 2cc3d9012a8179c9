import { Badge, Button, Select, Spinner } from '@fluentui/react-components'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useSearchParams } from 'react-router'
import type { ImConversationRow } from '../../../generated/content.ts'
import type { ImQueueQuery, ImTagging } from '../../../generated/types.ts'
import { useClient } from '../../client.tsx'
import { isLanguage, switchLanguage } from '../../i18n.ts'
import type { ScreenProps } from '../../registry.ts'
import { useSession } from '../../session.ts'
import { Conversation } from './Conversation.tsx'
import { CLOSED_STATE, CUSTOMER_SIDE, contextLabel, OPERATOR_SIDE, stateLabel } from './model.ts'
import { chatSocket } from './socket.ts'
import { useChatStyles } from './styles.ts'

/**
 * The chat tab (/im, issue #27), opened in a new tab with SPEC §2's query parameters: a customer's conversation
 * (the cacheKey of the open call spent once with imEnter; an unread-messages letter's `conversation` id; else
 * their latest), or, for holders of the service desk, the queue beside the conversation chosen.
 */
export default function ImChat(_: ScreenProps) {
  const styles = useChatStyles()
  const { t } = useTranslation()
  const session = useSession()
  const [params] = useSearchParams()
  const [connected, setConnected] = useState(chatSocket.connected)
  const language = params.get('language')

  useEffect(() => {
    if (isLanguage(language)) void switchLanguage(language)
  }, [language])
  useEffect(
    () =>
      chatSocket.subscribe(
        () => setConnected(chatSocket.connected),
        () => setConnected(true),
      ),
    [],
  )
  useEffect(() => {
    const down = () => setConnected(chatSocket.connected)
    const timer = setInterval(down, 1000)
    return () => clearInterval(timer)
  }, [])

  const operator = session.permissions.has('imServiceDesk')
  return (
    <main className={styles.page}>
      <header className={styles.header}>
        <h1 className={styles.title}>{t('chat.title')}</h1>
        <span className={styles.status} role="status">
          {t(connected ? 'chat.connected' : 'chat.reconnecting')}
        </span>
      </header>
      <div className={styles.body}>
        {operator ? (
          <OperatorDesk />
        ) : (
          <CustomerChat cacheKey={params.get('cacheKey')} conversationId={idParam(params.get('conversation'))} />
        )}
      </div>
    </main>
  )
}

/** A positive integer id from the address, or null. */
function idParam(value: string | null): number | null {
  const id = Number(value)
  return value && Number.isSafeInteger(id) && id > 0 ? id : null
}

function CustomerChat({ cacheKey, conversationId }: { cacheKey: string | null; conversationId: number | null }) {
  const styles = useChatStyles()
  const { t } = useTranslation()
  const client = useClient()
  const conversation = useQuery({
    queryKey: ['imChat', cacheKey, conversationId],
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
    // The key is good once: spent here, and the tab keeps the conversation it answered.
    queryFn: async ({ signal }): Promise<ImConversationRow | null> =>
      cacheKey
        ? (await client.b2b.imEnter({ cacheKey }, signal)).content
        : conversationId
          ? (await client.b2b.imConversation({ id: conversationId }, signal)).content
          : ((await client.b2b.imMine({ pageNum: 1, pageSize: 1 }, signal)).content.list[0] ?? null),
  })
  if (conversation.isPending) return <Spinner style={{ margin: '64px auto' }} />
  if (!conversation.data)
    return (
      <p className={styles.empty} role="alert">
        {conversation.error?.message ?? t('chat.noConversation')}
      </p>
    )
  return <Conversation conversation={conversation.data} side={CUSTOMER_SIDE} />
}

type QueueFilter = 'open' | 'mine' | 'closed'
const FILTERS: readonly QueueFilter[] = ['open', 'mine', 'closed']

function OperatorDesk() {
  const styles = useChatStyles()
  const { t } = useTranslation()
  const client = useClient()
  const queryClient = useQueryClient()
  const [filter, setFilter] = useState<QueueFilter>('open')
  const [tag, setTag] = useState<number | null>(null)
  const [chosen, setChosen] = useState<number | null>(null)
  const [transferTo, setTransferTo] = useState('')

  const query: ImQueueQuery = {
    ...(filter === 'closed' ? { state: CLOSED_STATE } : {}),
    ...(filter === 'mine' ? { mine: true } : {}),
    ...(tag ? { tag } : {}),
    pageNum: 1,
    pageSize: 50,
  }
  const queueKey = ['imQueue', filter, tag]
  const queue = useQuery({
    queryKey: queueKey,
    queryFn: async ({ signal }) => (await client.b2b.imQueue(query, signal)).content.list,
  })
  // The desk's pick-lists (screens/chat.yaml): the tenant's tags, read only, and the operators who chat.
  const tags = useQuery({
    queryKey: ['imTagOptions'],
    staleTime: 60_000,
    queryFn: async ({ signal }) => (await client.b2b.imTagOptions({ limit: '50' }, signal)).content.list,
  })
  const operators = useQuery({
    queryKey: ['imOperatorOptions'],
    staleTime: 60_000,
    queryFn: async ({ signal }) => (await client.b2b.imOperatorOptions({ limit: '50' }, signal)).content.list,
  })

  // Anything the socket says about a conversation changes the queue: ask for it again.
  useEffect(
    () =>
      chatSocket.subscribe((frame) => {
        if (frame.type === 'message' || frame.type === 'assigned' || frame.type === 'closed')
          void queryClient.invalidateQueries({ queryKey: ['imQueue'] })
      }),
    [queryClient],
  )

  const rows = queue.data ?? []
  const current = rows.find((row) => row.id === chosen) ?? null
  const act = async (call: () => Promise<unknown>) => {
    try {
      await call()
    } catch {
      // The client has said why, in the reader's language.
    }
    await queryClient.invalidateQueries({ queryKey: ['imQueue'] })
  }

  return (
    <>
      <aside className={styles.queue} aria-label={t('chat.queue')}>
        <div className={styles.filters}>
          {FILTERS.map((name) => (
            <Button
              key={name}
              size="small"
              appearance={filter === name ? 'primary' : 'secondary'}
              aria-pressed={filter === name}
              onClick={() => setFilter(name)}
            >
              {t(name === 'open' ? 'chat.allStates' : name === 'mine' ? 'chat.mine' : stateLabel(CLOSED_STATE))}
            </Button>
          ))}
        </div>
        <Select
          aria-label={t('chat.tags')}
          value={tag ? String(tag) : ''}
          onChange={(_, data) => setTag(data.value ? Number(data.value) : null)}
        >
          <option value="">{t('chat.allTags')}</option>
          {(tags.data ?? []).map((option) => (
            <option key={option.value} value={option.value}>
              {option.name}
            </option>
          ))}
        </Select>
        {queue.isPending && <Spinner size="small" />}
        {!queue.isPending && !rows.length && <p className={styles.muted}>{t('chat.noConversation')}</p>}
        <ul className={styles.queueList}>
          {rows.map((row) => (
            <li key={row.id}>
              <button
                type="button"
                className={`${styles.queueItem} ${row.id === chosen ? styles.queueChosen : ''}`}
                aria-current={row.id === chosen ? 'true' : undefined}
                onClick={() => setChosen(row.id)}
              >
                <span className={styles.queueLine}>
                  <strong>{row.customerName}</strong>
                  {row.unread > 0 && (
                    <Badge color="danger" size="small">
                      {row.unread}
                    </Badge>
                  )}
                </span>
                <span className={styles.muted}>
                  {t(contextLabel(row.contextType))} {row.contextRef}
                </span>
                <span className={styles.muted}>
                  {t(stateLabel(row.state))}
                  {row.operatorName ? ` · ${row.operatorName}` : ''}
                </span>
              </button>
            </li>
          ))}
        </ul>
      </aside>
      {current ? (
        <div className={styles.conversation}>
          <div className={styles.tools}>
            <strong>{current.customerName}</strong>
            <span className={styles.muted}>
              {t(contextLabel(current.contextType))} {current.contextRef} · {t(stateLabel(current.state))}
            </span>
            {current.state !== CLOSED_STATE && (
              <>
                <Button size="small" onClick={() => void act(() => client.b2b.imTake({ id: current.id }))}>
                  {t('chat.take')}
                </Button>
                <Select
                  size="small"
                  aria-label={t('chat.operator')}
                  value={transferTo}
                  onChange={(_, data) => setTransferTo(data.value)}
                >
                  <option value="">{t('chat.transferTo')}</option>
                  {(operators.data ?? [])
                    .filter((option) => option.value !== String(current.operator))
                    .map((option) => (
                      <option key={option.value} value={option.value}>
                        {option.label}
                      </option>
                    ))}
                </Select>
                <Button
                  size="small"
                  disabled={!transferTo}
                  onClick={() =>
                    void act(async () => {
                      await client.b2b.imTransfer({ id: current.id, operator: Number(transferTo) })
                      setTransferTo('')
                    })
                  }
                >
                  {t('chat.transfer')}
                </Button>
                <TagPicker
                  options={tags.data ?? []}
                  chosen={current.tags}
                  addLabel={t('chat.addTag')}
                  removeLabel={(name) => t('chat.removeTag', { name })}
                  onChange={(next) => void act(() => client.b2b.imTag({ id: current.id, tags: next }))}
                />
                <TagPicker
                  options={tags.data ?? []}
                  chosen={current.customerTags}
                  addLabel={t('chat.addCustomerTag')}
                  removeLabel={(name) => t('chat.removeCustomerTag', { name })}
                  onChange={(next) => void act(() => client.b2b.imCustomerTag({ id: current.id, tags: next }))}
                />
                <Button size="small" onClick={() => void act(() => client.b2b.imClose({ id: current.id }))}>
                  {t('chat.close')}
                </Button>
              </>
            )}
          </div>
          <Conversation key={current.id} conversation={current} side={OPERATOR_SIDE} />
        </div>
      ) : (
        <p className={styles.empty}>{t('chat.noConversation')}</p>
      )}
    </>
  )
}

type TagOption = { value: string; name?: string }

/**
 * The desk's tags of one thing (the conversation, or its customer): a pick-list of the tenant's tags not yet on it,
 * and a chip per tag on it that takes it off. `onChange` gets every tag at once, as the tag calls take them.
 */
function TagPicker(props: {
  options: readonly TagOption[]
  chosen: readonly number[]
  addLabel: string
  removeLabel: (name: string) => string
  onChange: (tags: ImTagging['tags']) => void
}) {
  const { options, chosen, addLabel, removeLabel, onChange } = props
  const nameOf = (id: number) => options.find((option) => option.value === String(id))?.name
  return (
    <>
      <Select
        size="small"
        aria-label={addLabel}
        value=""
        onChange={(_, data) =>
          data.value && onChange([...new Set([...chosen, Number(data.value)])] as ImTagging['tags'])
        }
      >
        <option value="">{addLabel}</option>
        {options
          .filter((option) => !chosen.includes(Number(option.value)))
          .map((option) => (
            <option key={option.value} value={option.value}>
              {option.name}
            </option>
          ))}
      </Select>
      {chosen.map((id) => {
        const name = nameOf(id)
        if (!name) return null
        return (
          <Button
            key={id}
            size="small"
            appearance="outline"
            aria-label={removeLabel(name)}
            onClick={() => onChange(chosen.filter((tag) => tag !== id) as ImTagging['tags'])}
          >
            {name} ×
          </Button>
        )
      })}
    </>
  )
}
