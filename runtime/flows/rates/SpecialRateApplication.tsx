import { Button, Field, Input, Spinner, Textarea } from '@fluentui/react-components'
import { useMutation, useQuery } from '@tanstack/react-query'
import { type FormEvent, useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useNavigate, useSearchParams } from 'react-router'
import { RequestError } from '../../api.ts'
import { useClient } from '../../client.tsx'
import { formatDate } from '../../dates.ts'
import { quietClient } from '../../quietClient.ts'
import type { ScreenProps } from '../../registry.ts'
import { useSession } from '../../session.ts'
import { priceProblem } from './price.ts'
import { modeOfRoute, SEARCH_PATHS } from './state.ts'
import { useRateStyles } from './styles.ts'
import { CONTAINER_LABELS, money, useRateTexts } from './texts.ts'

/**
 * Applying for a special rate (/fclSpecialPriceApplication?rateId=…, /lcl…, /air…): the rate as the customer
 * pays it, a target price (at most 3 decimals, below the list price) and a remark. verifyFreightRates is
 * asked first: an expired rate shows SPEC §8's "freight rate has expired" and cannot be applied for. After
 * applying, the user is told so and returns to the rate list three seconds later.
 */

export const RETURN_AFTER_MS = 3_000
const CARGO_KEYS = ['containerType', 'containers', 'cbm', 'weightKg', 'currency'] as const

export default function SpecialRateApplication({ route }: ScreenProps) {
  useRateTexts()
  const mode = modeOfRoute(route.name)
  const styles = useRateStyles()
  const { t, i18n } = useTranslation()
  const client = useClient()
  const session = useSession()
  const navigate = useNavigate()
  const [params] = useSearchParams()
  const rateId = Number(params.get('rateId'))
  const validId = Number.isInteger(rateId) && rateId > 0
  const cargo = Object.fromEntries(
    CARGO_KEYS.filter((key) => params.get(key)).map((key) => [key, params.get(key) as string]),
  )
  const [target, setTarget] = useState('')
  const [remark, setRemark] = useState('')
  const [problem, setProblem] = useState<string | null>(null)

  const verify = useQuery({
    queryKey: ['verifyFreightRates', rateId],
    enabled: validId,
    retry: false,
    queryFn: async ({ signal }) =>
      (await quietClient.booking.verifyFreightRates({ rateId: String(rateId) }, signal)).content,
  })
  const rate = useQuery({
    queryKey: ['rateQuote', rateId, cargo, session.user?.userInfo.userId ?? 0, i18n.language],
    enabled: validId,
    retry: false,
    queryFn: async ({ signal }) =>
      (await quietClient.price.rateQuote({ ...cargo, id: String(rateId) }, signal)).content,
  })

  const apply = useMutation({
    mutationFn: async () =>
      (
        await client.booking.spaApply({
          rateId,
          ...(mode === 'FCL' ? { containerType: rate.data?.containerType ?? cargo.containerType ?? '45G1' } : {}),
          targetPrice: target.trim(),
          ...(remark.trim() ? { remark: remark.trim() } : {}),
        })
      ).content,
  })

  const listBack = rate.data
    ? `${SEARCH_PATHS[mode]}?${new URLSearchParams({ origin: rate.data.origin, destination: rate.data.destination, ...cargo }).toString()}`
    : SEARCH_PATHS[mode]

  useEffect(() => {
    if (!apply.isSuccess) return
    const timer = setTimeout(() => navigate(listBack), RETURN_AFTER_MS)
    return () => clearTimeout(timer)
  }, [apply.isSuccess, listBack, navigate])

  const expired =
    (verify.error instanceof RequestError && verify.error.code === '340001') || rate.data?.expired === true
  const expiredText =
    verify.error instanceof RequestError && verify.error.code === '340001'
      ? verify.error.message
      : t('rate.expiredRate')
  const mayApply = session.permissions.has('spaApplyList')
  const listPrice = rate.data?.freight.unitPrice ?? null

  function submit(event: FormEvent) {
    event.preventDefault()
    const found = priceProblem(target, listPrice)
    if (found) {
      setProblem(t(`rate.price_${found}`, { price: listPrice ? money(listPrice, rate.data?.freight.currency) : '' }))
      return
    }
    setProblem(null)
    apply.mutate()
  }

  if (!validId) {
    return (
      <section className={styles.page}>
        <h1 className={styles.title}>{t(`route.${route.name}`)}</h1>
        <p className={styles.empty}>
          {t('rate.noRateChosen')}{' '}
          <Link className={styles.link} to={SEARCH_PATHS[mode]}>
            {t('rate.searchButton')}
          </Link>
        </p>
      </section>
    )
  }

  const data = rate.data
  return (
    <section className={styles.page} data-testid="spa-apply">
      <div className={styles.titleRow}>
        <h1 className={styles.title}>{t(`route.${route.name}`)}</h1>
        <Link className={styles.link} to={listBack}>
          {t('rate.backToSearch')}
        </Link>
      </div>
      <p className={styles.subtitle}>{t('spa.applyIntro')}</p>
      {(rate.isPending || verify.isPending) && <Spinner />}
      {expired && (
        <p className={styles.alert} role="alert" data-testid="spa-expired">
          {expiredText}
        </p>
      )}
      {verify.isError && !expired && (
        <p className={styles.alert} role="alert">
          {verify.error.message}
        </p>
      )}
      {data && (
        <div className={styles.facts} data-testid="spa-rate">
          <Fact label={t('field.carrier')} value={`${data.carrierName ?? data.carrier} (${data.carrier})`} />
          <Fact
            label={t('rate.lane')}
            value={`${data.origin} ${data.originName ?? ''} → ${data.destination} ${data.destinationName ?? ''}`}
          />
          <Fact label={t('rate.rateNo')} value={data.rateNo} />
          {data.containerType && (
            <Fact label={t('rate.containerType')} value={CONTAINER_LABELS[data.containerType] ?? data.containerType} />
          )}
          <Fact label={t('rate.transitDays')} value={t('rate.days', { count: data.transitDays })} />
          <Fact
            label={t('rate.validity')}
            value={`${formatDate(data.validFrom, i18n.language)} – ${formatDate(data.validTo, i18n.language)}`}
          />
          <Fact
            label={t('spa.listPrice')}
            value={`${money(data.freight.unitPrice, data.freight.currency)} ${t(`rate.unit_${data.chargeUnit}`)}`}
            testId="spa-list-price"
          />
          <Fact label={t('rate.allInTotal')} value={money(data.total, data.currency)} />
        </div>
      )}
      {!mayApply && session.view.status !== 'loading' && (
        <p className={styles.notice} role="status">
          {t('spa.customersOnly')}
        </p>
      )}
      {apply.isSuccess ? (
        <p className={styles.success} role="status" data-testid="spa-applied">
          {t('spa.applied', { no: apply.data.applicationNo })}
        </p>
      ) : (
        <form className={styles.panel} onSubmit={submit} noValidate>
          <Field
            label={t('spa.targetPriceIn', { currency: data?.freight.currency ?? '' })}
            required
            validationMessage={problem ?? undefined}
            hint={t('spa.targetHint')}
          >
            <Input
              inputMode="decimal"
              value={target}
              disabled={expired || !mayApply}
              onChange={(_, d) => {
                setTarget(d.value)
                setProblem(null)
              }}
              data-testid="spa-target"
            />
          </Field>
          <Field label={t('spa.remark')}>
            <Textarea
              value={remark}
              maxLength={500}
              disabled={expired || !mayApply}
              onChange={(_, d) => setRemark(d.value)}
              data-testid="spa-remark"
            />
          </Field>
          <div className={styles.row}>
            <Button
              type="submit"
              appearance="primary"
              disabled={expired || !mayApply || !data || apply.isPending}
              data-testid="spa-submit"
            >
              {t('spa.submitApplication')}
            </Button>
          </div>
        </form>
      )}
    </section>
  )
}

export function Fact({ label, value, testId }: { label: string; value: string; testId?: string }) {
  const styles = useRateStyles()
  return (
    <div className={styles.fact}>
      <span className={styles.factLabel}>{label}</span>
      <span className={styles.strong} data-testid={testId}>
        {value}
      </span>
    </div>
  )
}
