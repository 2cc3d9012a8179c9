import { Badge, Button, Field, Input, Spinner, Textarea } from '@fluentui/react-components'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useSearchParams } from 'react-router'
import { useClient } from '../../client.tsx'
import { formatDateTime } from '../../dates.ts'
import { useEffects } from '../../effects.tsx'
import type { ScreenProps } from '../../registry.ts'
import { useStates } from '../../screens/useStateMachine.ts'
import { priceProblem } from './price.ts'
import { Fact } from './SpecialRateApplication.tsx'
import { BOOK_PATHS } from './state.ts'
import { useRateStyles } from './styles.ts'
import { CONTAINER_LABELS, money, useRateTexts } from './texts.ts'
import type { SpaDetailAnswer } from './types.ts'

/**
 * One special-rate application (/spaDetails?id= for the customer, /spaDetailsOperater?id= for the operator,
 * and the LCL / air pages of each): the rate, the prices asked and offered, the bargaining thread (every
 * offer, counter-offer and decision with who and when) and the actions getSpaById says the caller may take
 * now, each confirmed first. The server checks every one again (permission, state, version).
 */

/** The transitions this page fires (schemas/spaApplication.yaml), each through its own call below. */
const SPA_ACTIONS = ['counterOffer', 'approve', 'reject', 'accept', 'reapply', 'withdraw'] as const
type SpaAction = (typeof SPA_ACTIONS)[number]
const isSpaAction = (name: string): name is SpaAction => (SPA_ACTIONS as readonly string[]).includes(name)

export default function SpaDetail({ route }: ScreenProps) {
  useRateTexts()
  const styles = useRateStyles()
  const { t, i18n } = useTranslation()
  /** A moment in the reader's language and time zone (runtime/dates.ts). */
  const localTime = (iso: string) => formatDateTime(iso, i18n.language)
  const client = useClient()
  const effects = useEffects()
  const queryClient = useQueryClient()
  const [params] = useSearchParams()
  const id = Number(params.get('id'))
  const operator = route.permissions.includes('spaReview')
  const [price, setPrice] = useState('')
  const [remark, setRemark] = useState('')
  const [problem, setProblem] = useState<string | null>(null)
  const [open, setOpen] = useState<'counterOffer' | 'reapply' | null>(null)
  // Labels, colours, confirm texts and who fires what: the state machine's YAML, not a copy of it.
  const machine = useStates('spaApplication')
  const actionLabel = (action: string) => machine.transition(action)?.label ?? action

  const key = ['spaDetail', id]
  const detail = useQuery({
    queryKey: key,
    enabled: Number.isInteger(id) && id > 0,
    retry: false,
    queryFn: async ({ signal }) => (await client.booking.getSpaById({ id: String(id) }, signal)).content,
  })

  const act = useMutation({
    mutationFn: async ({ action, row }: { action: SpaAction; row: SpaDetailAnswer }) => {
      const base = { id: row.id, version: row.version, ...(remark.trim() ? { remark: remark.trim() } : {}) }
      if (action === 'counterOffer')
        return client.booking.spaAudit({ ...base, decision: 'counterOffer', price: price.trim() })
      if (action === 'approve') return client.booking.spaAudit({ ...base, decision: 'approve' })
      if (action === 'reject') return client.booking.spaAudit({ ...base, decision: 'reject' })
      if (action === 'accept') return client.booking.spaAccept(base)
      if (action === 'withdraw') return client.booking.spaCancel(base)
      return client.booking.spaReapply({ ...base, targetPrice: price.trim() })
    },
    onSuccess: (_, { action }) => {
      effects.toast(t('spa.done', { action: t(actionLabel(action)) }), { intent: 'success' })
      setOpen(null)
      setPrice('')
      setRemark('')
    },
    // A refusal (a stale version, a state moved on) was toasted by the client: show the record as it is now.
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  })

  const back = operator ? '/spaReview' : '/spaApplyList'
  if (!Number.isInteger(id) || id < 1) {
    return (
      <section className={styles.page}>
        <p className={styles.empty}>{t('spa.noneChosen')}</p>
      </section>
    )
  }
  if (detail.isPending) return <Spinner style={{ margin: '64px auto' }} />
  if (detail.isError || !detail.data) {
    return (
      <section className={styles.page}>
        <p className={styles.alert} role="alert">
          {detail.error?.message ?? t('ui.hasError')}
        </p>
        <Link className={styles.link} to={back}>
          {t(operator ? 'route.spaReview' : 'route.spaApplyList')}
        </Link>
      </section>
    )
  }

  const row = detail.data
  // The side's transitions are those of this page's permission (spaReview or spaApplyList); the server
  // says which the record allows now (its computed states included).
  const allowed = machine
    .allowed(row.state, route.permissions)
    .map((transition) => transition.name)
    .filter((name): name is SpaAction => isSpaAction(name) && row.transitions.includes(name))
  const state = machine.state(row.state)

  async function fire(action: SpaAction) {
    if (action === 'counterOffer' || action === 'reapply') {
      if (open !== action) {
        setOpen(action)
        setProblem(null)
        return
      }
      const found = priceProblem(price, action === 'counterOffer' ? null : row.listPrice)
      if (found) {
        setProblem(t(`rate.price_${found}`, { price: money(row.listPrice, row.currency) }))
        return
      }
      if (action === 'reapply') {
        const check = (await client.booking.validSpaReapply({ id: String(row.id) })).content
        if (!check.allowed) {
          effects.toast(check.reason ? t(check.reason) : t('ui.hasError'), { intent: 'warning' })
          return
        }
      }
    }
    const ok = await effects.confirm({
      title: t(actionLabel(action)),
      body: t(machine.transition(action)?.confirm ?? actionLabel(action), {
        price: money(price.trim() || null, row.currency),
      }),
      confirmLabel: t(actionLabel(action)),
      cancelLabel: t('ui.cancel'),
    })
    if (ok) act.mutate({ action, row })
  }

  return (
    <section className={styles.page} data-testid="spa-detail" data-state={row.state}>
      <div className={styles.titleRow}>
        <h1 className={styles.title}>
          {row.applicationNo}{' '}
          <Badge appearance="tint" color={state.color} size="large" data-testid="spa-state">
            {t(state.label)}
          </Badge>
        </h1>
        <Link className={styles.link} to={back}>
          {t('spa.backTo', { list: t(operator ? 'route.spaReview' : 'route.spaApplyList') })}
        </Link>
      </div>
      {row.usable && (
        <p className={styles.success} role="status">
          {t('spa.usableUntil', { price: money(row.approvedPrice, row.currency), date: row.validTo })}{' '}
          {!operator && (
            <Link className={styles.link} to={`${BOOK_PATHS[row.mode]}?rateId=${row.rate}&spaId=${row.id}`}>
              {t('rate.book')}
            </Link>
          )}
        </p>
      )}
      <div className={styles.facts} data-testid="spa-facts">
        <Fact label={t('rate.rateNo')} value={row.rateNo} />
        <Fact label={t('rate.mode')} value={t(`enum.containerLoadType.${row.mode}`)} />
        <Fact label={t('field.carrier')} value={row.carrier} />
        <Fact label={t('rate.lane')} value={`${row.origin} → ${row.destination}`} />
        {row.containerType && (
          <Fact label={t('rate.containerType')} value={CONTAINER_LABELS[row.containerType] ?? row.containerType} />
        )}
        <Fact label={t('rate.validTo')} value={row.validTo} />
        <Fact label={t('spa.listPrice')} value={money(row.listPrice, row.currency)} />
        <Fact label={t('spa.targetPrice')} value={money(row.targetPrice, row.currency)} testId="spa-target-price" />
        <Fact label={t('spa.counterPrice')} value={money(row.counterPrice, row.currency)} testId="spa-counter-price" />
        <Fact
          label={t('spa.approvedPrice')}
          value={money(row.approvedPrice, row.currency)}
          testId="spa-approved-price"
        />
        {operator && <Fact label={t('field.customerCompany')} value={row.customerCompanyName ?? '—'} />}
        <Fact label={t('field.createdBy')} value={`${row.createdByName ?? '—'} · ${localTime(row.createdAt)}`} />
      </div>

      <div className={styles.panel}>
        <h2 style={{ margin: 0 }}>{t('spa.thread')}</h2>
        <ol className={styles.thread} data-testid="spa-thread">
          {row.thread.map((entry) => (
            <li
              key={entry.id}
              className={`${styles.entry} ${entry.side === 'operator' ? styles.entryOperator : styles.entryCustomer}`}
              data-testid="spa-thread-entry"
              data-action={entry.action}
              data-side={entry.side}
            >
              <span className={styles.strong}>
                {t(entry.action === 'apply' ? 'spa.apply' : actionLabel(entry.action))}
                {entry.price ? ` · ${money(entry.price, entry.currency)}` : ''}
              </span>
              <span className={styles.hint}>
                {t(`spa.side_${entry.side}`)} · {entry.userName ?? '—'} · {localTime(entry.at)}
              </span>
              {entry.remark && <span>{entry.remark}</span>}
            </li>
          ))}
        </ol>
      </div>

      {allowed.length > 0 && (
        <div className={styles.panel} data-testid="spa-actions">
          {open && (
            <Field
              label={t(open === 'counterOffer' ? 'spa.counterPriceIn' : 'spa.targetPriceIn', {
                currency: row.currency,
              })}
              required
              validationMessage={problem ?? undefined}
              hint={t('spa.targetHint')}
            >
              <Input
                inputMode="decimal"
                value={price}
                onChange={(_, d) => {
                  setPrice(d.value)
                  setProblem(null)
                }}
                data-testid="spa-price"
              />
            </Field>
          )}
          <Field label={t('spa.remark')}>
            <Textarea
              value={remark}
              maxLength={500}
              onChange={(_, d) => setRemark(d.value)}
              data-testid="spa-action-remark"
            />
          </Field>
          <div className={styles.row}>
            {allowed.map((action, index) => (
              <Button
                key={action}
                appearance={index === 0 ? 'primary' : 'secondary'}
                disabled={act.isPending}
                onClick={() => void fire(action)}
                data-testid={`spa-action-${action}`}
              >
                {open === action ? t('spa.send', { action: t(actionLabel(action)) }) : t(actionLabel(action))}
              </Button>
            ))}
          </div>
        </div>
      )}
    </section>
  )
}
