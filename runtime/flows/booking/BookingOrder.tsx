import {
  Button,
  Dropdown,
  Field,
  Input,
  MessageBar,
  MessageBarBody,
  makeStyles,
  Option,
  Spinner,
  tokens,
} from '@fluentui/react-components'
import { useQuery } from '@tanstack/react-query'
import { useMemo, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useSearchParams } from 'react-router'
import { routes } from '../../../generated/routes.ts'
import * as validators from '../../../generated/validators.js'
import { useClient } from '../../client.tsx'
import { useEffects } from '../../effects.tsx'
import { EntityForm } from '../../forms/EntityForm.tsx'
import type { ScreenProps } from '../../registry.ts'
import { canOpen } from '../../routing/access.ts'
import { entityDef, mayCall, namedEndpoint, screenDef, screenEndpoint } from '../../screens/manifest.ts'
import { useSession } from '../../session.ts'
import { FLOW_PAGE, FLOW_PANEL } from '../layout.ts'
import { money, quoteMoney } from '../rates/texts.ts'
import { bookingSections, orderServicesOf } from './bookingForm.ts'

/**
 * The booking page (issue #8): one component for the rate and quote bookings (/fclCreateOrder,
 * /lclCreateOrder, /airCreateOrder with ?rateId= or ?quoteId=) and the direct ones (/…CreateOrderDirect,
 * also ?quoteId= for rail and truck quotes, ?draftId= or ?id= for a saved draft). The order's own form
 * (the generated validator, messages at the fields) in the sections a booking is read in; the server
 * (POST /booking/order/add) checks the source again and numbers the order.
 */

type Data = Record<string, unknown>
type Mode = 'FCL' | 'LCL' | 'AIR' | 'RAILWAY'

const MODE_OF_ROUTE: Record<string, Mode> = {
  fclCreateOrder: 'FCL',
  lclCreateOrder: 'LCL',
  airCreateOrder: 'AIR',
  fclCreateOrderDirect: 'FCL',
  lclCreateOrderDirect: 'LCL',
  airCreateOrderDirect: 'AIR',
  railwayCreateOrderDirect: 'RAILWAY',
}
const TRANSPORT_OF: Record<string, number> = { FCL: 1, LCL: 1, AIR: 2, RAILWAY: 3, TRUCK: 4 }
const LOAD_OF_QUOTE: Record<number, Mode> = { 1: 'FCL', 2: 'AIR', 3: 'RAILWAY', 4: 'RAILWAY' }
/** The customer's detail screen of each load type. */
export const DETAIL_OF: Record<string, string> = {
  FCL: '/orderDetails',
  LCL: '/lclOrderDetail',
  AIR: '/airOrderDetail',
  RAILWAY: '/railwayOrderDetail',
  TRUCK: '/railwayOrderDetail',
}
/** What a template carries over into a booking. */
const TEMPLATE_FIELDS = [
  'shipper',
  'consignee',
  'notifyParty',
  'contactName',
  'contactPhone',
  'contactEmail',
  'pol',
  'pod',
  'carrier',
  'containers',
  'cargoType',
  'packageType',
  'goodsDescription',
  'hsCode',
  'remarks',
] as const

const useStyles = makeStyles({
  page: FLOW_PAGE,
  summary: {
    display: 'flex',
    flexWrap: 'wrap',
    gap: '8px 24px',
    alignItems: 'baseline',
    padding: '16px 20px',
    borderRadius: tokens.borderRadiusLarge,
    backgroundColor: tokens.colorBrandBackground2,
    border: `1px solid ${tokens.colorBrandStroke2}`,
  },
  strong: { fontWeight: tokens.fontWeightSemibold },
  panel: FLOW_PANEL,
  tools: { display: 'flex', gap: '12px', alignItems: 'end', flexWrap: 'wrap' },
  buttons: { display: 'flex', gap: '8px', flexWrap: 'wrap' },
})

/** What a submit of the booking form is for. */
type Intent = 'draft' | 'submit' | 'template'

interface Source {
  kind: 'rate' | 'quote' | 'direct'
  /** The rate's or quote's number, lane and price, as the summary shows them. */
  no?: string
  lane?: string
  total?: string
  currency?: string
  validTo?: string
  /** What the booking starts with. */
  record: Data
  /** The saved draft, when editing one. */
  draft?: { id: number; version: number }
}

export default function BookingOrder({ route }: ScreenProps) {
  const styles = useStyles()
  const { t, i18n } = useTranslation()
  const client = useClient()
  const effects = useEffects()
  const [params, setParams] = useSearchParams()
  const entity = entityDef('order')
  const rateId = Number(params.get('rateId')) || null
  const quoteId = Number(params.get('quoteId')) || null
  const draftId = Number(params.get('draftId') ?? params.get('id')) || null
  const routeMode = MODE_OF_ROUTE[route.name] ?? 'FCL'
  const intent = useRef<Intent>('submit')
  const [busy, setBusy] = useState(false)
  const [current, setCurrent] = useState<Data | null>(null)
  const [formKey, setFormKey] = useState(0)
  const [templateName, setTemplateName] = useState('')
  const [saved, setSaved] = useState<{ id: number; version: number } | null>(null)
  // What the caller may do here, from the calls' own permissions in the manifest: the route is open to every
  // signed-in user, the booking and template calls are not (a personal user books nothing: 360002).
  const { permissions } = useSession()
  const mayBook = mayCall(namedEndpoint('orderAdd'), permissions)
  const templateScreen = screenDef('orderTemplateList')
  const mayPickTemplate = mayBook && mayCall(templateScreen && screenEndpoint(templateScreen, 'list'), permissions)
  const maySaveTemplate = mayBook && mayCall(namedEndpoint('orderTemplateSave'), permissions)
  const enterpriseInfo = routes.find((r) => r.name === 'enterpriseInfo')

  const source = useQuery({
    queryKey: ['booking', route.name, rateId, quoteId, draftId, i18n.language],
    retry: false,
    queryFn: async ({ signal }): Promise<Source> => {
      if (draftId !== null) {
        const draft = (await client.orderDraftList.detail({ id: draftId }, signal)).content
        const { history: _history, labels: _labels, ...record } = draft
        return {
          kind: draft.source === 'rate' || draft.source === 'quote' ? draft.source : 'direct',
          record,
          draft: { id: draft.id, version: draft.version },
        }
      }
      const base = { entrustType: 'entrusted' }
      if (rateId !== null) {
        const rate = (await client.price.rateQuote({ id: String(rateId) }, signal)).content
        const mode: Mode = rate.mode
        return {
          kind: 'rate',
          no: String(rate.rateNo),
          lane: `${rate.originName ?? rate.origin} → ${rate.destinationName ?? rate.destination}`,
          total: rate.total,
          currency: rate.currency,
          validTo: rate.validTo,
          record: {
            ...base,
            containerLoadType: mode,
            transportMode: TRANSPORT_OF[mode],
            pol: rate.origin,
            pod: rate.destination,
            carrier: rate.carrier,
            ...(mode === 'FCL' ? { containers: [{ containerType: rate.containerType ?? '45G1', quantity: 1 }] } : {}),
          },
        }
      }
      if (quoteId !== null) {
        const quote = (await client.b2b.quoteItem({ id: String(quoteId) }, signal)).content
        const inquiry = quote.inquiry
        // A quote always has its inquiry; null only when the inquiry is gone.
        if (!inquiry) throw new Error(`quote ${quoteId} has no inquiry`)
        const services = orderServicesOf(
          inquiry.services,
          (entity?.fields.services?.values ?? []).map((v) => v.value),
        )
        const transportMode = quote.transportMode
        const mode = transportMode === 1 ? (routeMode === 'LCL' ? 'LCL' : 'FCL') : LOAD_OF_QUOTE[transportMode]
        const packages = inquiry.packages
        return {
          kind: 'quote',
          no: quote.quoteNo,
          lane: `${inquiry.originName ?? inquiry.origin} → ${inquiry.destinationName ?? inquiry.destination}`,
          total: quote.total,
          currency: quote.currency,
          validTo: quote.validUntil,
          record: {
            ...base,
            transportMode,
            containerLoadType: mode === 'RAILWAY' && transportMode === 4 ? 'TRUCK' : mode,
            pol: inquiry.origin,
            pod: inquiry.destination,
            ...(quote.carrier ? { carrier: quote.carrier } : {}),
            tradeTerm: inquiry.tradeTerm,
            // What the customer asked for in the inquiry is what the booking orders.
            ...(services.length ? { services } : {}),
            ...(mode === 'FCL' || mode === 'RAILWAY' ? { containers: inquiry.containers } : {}),
            ...(packages.length
              ? {
                  boxes: packages.reduce((n, p) => n + p.packageCount, 0),
                  grossWeight: packages.reduce((n, p) => n + p.grossWeight, 0),
                  goodsDescription: packages
                    .map((p) => p.description.slice(0, 35))
                    .slice(0, 6)
                    .join('\n'),
                }
              : {}),
          },
        }
      }
      return {
        kind: 'direct',
        record: {
          ...base,
          containerLoadType: routeMode,
          transportMode: TRANSPORT_OF[routeMode],
          ...(routeMode === 'FCL' ? { containers: [{ containerType: '45G1', quantity: 1 }] } : {}),
        },
      }
    },
  })

  const templates = useQuery({
    queryKey: ['bookingTemplates', i18n.language],
    retry: false,
    enabled: mayPickTemplate,
    queryFn: async ({ signal }): Promise<Data[]> =>
      (await client.orderTemplateList.list({ searchParams: {}, pageNum: 1, pageSize: 200 }, signal)).content.list,
  })

  const mode = String((current ?? source.data?.record)?.containerLoadType ?? routeMode)
  const sections = useMemo(() => bookingSections(mode), [mode])

  if (!entity) return null
  if (source.isPending) return <Spinner style={{ margin: '64px auto' }} label={t('booking.loading')} />
  if (source.isError || !source.data)
    return (
      <div className={styles.page}>
        <MessageBar intent="warning">
          <MessageBarBody>{t('booking.notFound')}</MessageBarBody>
        </MessageBar>
      </div>
    )
  const loaded = source.data
  const record = current ?? loaded.record
  const draft = saved ?? loaded.draft ?? null

  const applyTemplate = (id: string) => {
    const template = templates.data?.find((row) => String(row.id) === id)
    if (!template) return
    const picked = Object.fromEntries(
      TEMPLATE_FIELDS.filter((f) => template[f] !== null && template[f] !== undefined).map((f) => [f, template[f]]),
    )
    // A rate's or quote's lane stays the source's: the template brings the parties and the cargo.
    if (loaded.kind !== 'direct') {
      delete picked.pol
      delete picked.pod
      delete picked.carrier
    }
    setCurrent({ ...record, ...picked })
    setFormKey((k) => k + 1)
  }

  const save = async (values: Data) => {
    const body: Data = {
      ...values,
      ...(loaded.kind === 'rate' && !draft ? { rateId } : {}),
      ...(loaded.kind === 'quote' && !draft ? { quoteId } : {}),
      ...(draft ? { id: draft.id, version: draft.version } : {}),
    }
    if (intent.current === 'template') {
      const name = templateName.trim()
      if (!name) return
      const template = {
        ...Object.fromEntries(TEMPLATE_FIELDS.filter((f) => values[f] !== undefined).map((f) => [f, values[f]])),
        name,
        containerLoadType: mode,
      }
      if (!validators.orderTemplateEdit(template))
        throw new Error(
          `The template validator refuses the form's data: ${JSON.stringify(validators.orderTemplateEdit.errors)}`,
        )
      setBusy(true)
      try {
        await client.booking.orderTemplateSave(template)
        effects.toast(t('booking.templateSaved'), { intent: 'success' })
        setTemplateName('')
        await templates.refetch()
      } finally {
        setBusy(false)
      }
      return
    }
    // The form held the values to the order's validator; the body's (schemas/orderBooking.yaml), which the
    // server runs too, makes them the call's body: the order's fields, null clearing one, plus the source.
    if (!validators.orderBooking(body))
      throw new Error(
        `The booking validator refuses the form's data: ${JSON.stringify(validators.orderBooking.errors)}`,
      )
    if (intent.current === 'submit') {
      const yes = await effects.confirm({ title: t('booking.submit'), body: t('confirm.submitOrder') })
      if (!yes) return
    }
    setBusy(true)
    try {
      if (intent.current === 'draft') {
        // The stored draft: the engine's row, its id and version beside the order's fields.
        const row = (await client.booking.orderDraftSave(body)).content
        setSaved({ id: row.id, version: row.version })
        setCurrent(values)
        setParams(
          (p) => {
            p.set('draftId', String(row.id))
            return p
          },
          { replace: true },
        )
        effects.toast(t('booking.draftSaved'), { intent: 'success' })
        return
      }
      const row = (await client.booking.orderAdd({ ...body, submit: true })).content
      effects.toast(t('booking.submitted', { orderNo: row.orderNo }), { intent: 'success' })
      effects.navigate(`${DETAIL_OF[row.containerLoadType] ?? '/orderDetails'}?id=${row.id}`)
    } finally {
      setBusy(false)
    }
  }

  /** A button that submits the form for one purpose (a draft, the order, a template), which `save` reads. */
  const submitAs = (purpose: Intent, label: string, testId: string, disabled = false, appearance?: 'primary') => (
    <Button
      type="submit"
      form="booking-form"
      appearance={appearance}
      disabled={busy || disabled}
      data-testid={testId}
      onClick={() => {
        intent.current = purpose
      }}
    >
      {t(label)}
    </Button>
  )

  return (
    <div className={styles.page}>
      <h1 style={{ margin: 0 }}>{t(route.title)}</h1>
      <section className={styles.summary} data-testid="booking-source">
        <span className={styles.strong}>
          {t(
            loaded.kind === 'rate'
              ? 'booking.sourceRate'
              : loaded.kind === 'quote'
                ? 'booking.sourceQuote'
                : 'booking.sourceDirect',
          )}
        </span>
        {loaded.no && <span>{loaded.no}</span>}
        {loaded.lane && <span>{loaded.lane}</span>}
        {loaded.total && (
          <span className={styles.strong} data-testid="booking-total">
            {t('booking.total', {
              amount: loaded.kind === 'quote' ? quoteMoney(loaded.total, null) : money(loaded.total, null),
              currency: loaded.currency,
            })}
          </span>
        )}
        {loaded.validTo && <span>{t('booking.validTo', { date: loaded.validTo })}</span>}
      </section>
      {!mayBook && (
        <MessageBar intent="warning" data-testid="booking-no-permission">
          <MessageBarBody>
            {t('booking.noPermission')}{' '}
            {enterpriseInfo && canOpen(enterpriseInfo, permissions) && (
              <Link to={enterpriseInfo.path}>{t(enterpriseInfo.title)}</Link>
            )}
          </MessageBarBody>
        </MessageBar>
      )}
      <section className={styles.panel}>
        {(mayPickTemplate || maySaveTemplate) && (
          <div className={styles.tools}>
            {mayPickTemplate && (
              <Field label={t('booking.template')}>
                <Dropdown
                  data-testid="booking-template"
                  placeholder={t('booking.template')}
                  onOptionSelect={(_e, data) => applyTemplate(String(data.optionValue ?? ''))}
                >
                  {(templates.data ?? []).map((row) => (
                    <Option key={String(row.id)} value={String(row.id)}>
                      {String(row.name)}
                    </Option>
                  ))}
                </Dropdown>
              </Field>
            )}
            {maySaveTemplate && (
              <>
                <Field label={t('booking.templateName')}>
                  <Input
                    data-testid="booking-template-name"
                    value={templateName}
                    maxLength={50}
                    onChange={(_e, data) => setTemplateName(data.value)}
                  />
                </Field>
                {submitAs('template', 'booking.saveTemplate', 'booking-save-template', !templateName.trim())}
              </>
            )}
          </div>
        )}
        <EntityForm
          key={`${draft?.id ?? 'new'}-${formKey}`}
          id="booking-form"
          entity={entity}
          sections={sections}
          record={record}
          disabled={busy || !mayBook}
          onChange={setCurrent}
          onSubmit={save}
        />
        {mayBook && (
          <div className={styles.buttons}>
            {submitAs('draft', 'booking.saveDraft', 'booking-save-draft')}
            {submitAs('submit', 'booking.submit', 'booking-submit', false, 'primary')}
          </div>
        )}
      </section>
    </div>
  )
}
