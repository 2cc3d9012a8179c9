import {
  Button,
  Checkbox,
  FieldContextProvider,
  MessageBar,
  MessageBarBody,
  makeStyles,
  Select,
  Spinner,
  tokens,
} from '@fluentui/react-components'
import Form from '@rjsf/core'
import type { RJSFSchema, WidgetProps } from '@rjsf/utils'
import { createPrecompiledValidator, type ValidatorFunctions } from '@rjsf/validator-ajv8'
import { useQuery } from '@tanstack/react-query'
import { use, useEffect, useMemo, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useParams } from 'react-router'
import type { Inquiry } from '../../../generated/content.ts'
import * as validators from '../../../generated/validators.js'
import { withoutInactive } from '../../../rules/uiRules.ts'
import { RequestError, type ServerFieldError } from '../../api.ts'
import { useClient } from '../../client.tsx'
import {
  buildUiSchema,
  type FormSection,
  formRules,
  localizeErrors,
  serverErrorTree,
  someDisabled,
  withRuleMarks,
  withUiRules,
} from '../../forms/schemaForm.ts'
import { withSchema } from '../../forms/schemas.ts'
import { templates, widgets } from '../../forms/theme.tsx'
import i18next, { hasTexts, textsReady } from '../../i18n.ts'
import { quietClient } from '../../quietClient.ts'
import type { ScreenProps } from '../../registry.ts'
import { entityDef, screenDef } from '../../screens/manifest.ts'
import { useSession } from '../../session.ts'
import { FLOW_PAGE, FLOW_PANEL } from '../layout.ts'
import {
  inquiryUiSchema,
  offeredTerms,
  TYPE_MODES,
  termModes,
  withLockedCustoms,
  withTradeTerm,
} from './inquiryForm.ts'

/**
 * The pallet inquiry (/palletInquiry/:type, SPEC §2, §3, §5): the inquiry entity's generated form and
 * validator (the server runs the same one again), with what this flow adds: the route's transport mode
 * preset, trade terms from the tenant's configuration pre-ticking services and locking customs declaration.
 * Its sections and their rules (origin and destination first) are the screen's YAML. Saved by the engine
 * (POST /booking/inquiry/save); then the inquiry's quotes page is one click away.
 */

type Data = Record<string, unknown>

const useStyles = makeStyles({
  page: FLOW_PAGE,
  title: { margin: 0, fontSize: tokens.fontSizeHero700, lineHeight: tokens.lineHeightHero700 },
  subtitle: { margin: 0, color: tokens.colorNeutralForeground2 },
  panel: { ...FLOW_PANEL, gap: '20px' },
  checks: { display: 'flex', flexWrap: 'wrap', gap: '4px 16px', border: 'none', margin: 0, padding: 0 },
  buttons: { display: 'flex', gap: '8px', alignItems: 'center' },
  links: { display: 'flex', gap: '16px', marginTop: '8px' },
})

const BUNDLES = ['site', 'screens'] as const

/** Several values of an enum as tick boxes (transport types, warehouse services, customs clearance). */
function EnumChecksWidget(props: WidgetProps) {
  const styles = useStyles()
  const { t } = useTranslation()
  const chosen = Array.isArray(props.value) ? (props.value as unknown[]) : []
  const options = props.options.enumOptions ?? []
  return (
    <fieldset className={styles.checks} id={props.id} aria-label={t(props.label)}>
      {/* Each box is labelled by its own option, not by the field around the group. */}
      <FieldContextProvider value={undefined}>
        {options.map((option) => (
          <Checkbox
            key={String(option.value)}
            label={t(String(option.label))}
            checked={chosen.includes(option.value)}
            disabled={props.disabled || props.readonly}
            onChange={(_, data) => {
              const next = data.checked
                ? options.map((o) => o.value).filter((v) => v === option.value || chosen.includes(v))
                : chosen.filter((v) => v !== option.value)
              props.onChange(next)
            }}
          />
        ))}
      </FieldContextProvider>
    </fieldset>
  )
}

/** The trade term, from the terms the tenant configured for the party and modes only (`ui:options.terms`). */
function TradeTermWidget(props: WidgetProps) {
  const { t } = useTranslation()
  const terms = (props.options.terms as string[] | undefined) ?? []
  const options = (props.options.enumOptions ?? []).filter((o) => terms.includes(String(o.value)))
  return (
    <Select
      id={props.id}
      value={typeof props.value === 'string' ? props.value : ''}
      disabled={props.disabled || props.readonly}
      onChange={(_, data) => props.onChange(data.value === '' ? undefined : data.value)}
    >
      <option value="">{t(options.length ? 'ui.selectPlaceholder' : 'inquiry.noTradeTerms')}</option>
      {options.map((option) => (
        <option key={String(option.value)} value={String(option.value)}>
          {t(String(option.label))}
        </option>
      ))}
    </Select>
  )
}

const inquiryWidgets = { ...widgets, enumChecks: EnumChecksWidget, tradeTermSelect: TradeTermWidget }

const startData = (modes: readonly number[]): Data => ({
  transportModes: [...modes],
  tradeRole: 'seller',
  goodsReady: 'ready',
  containers: [],
  packages: [],
})

function InquiryForm({ type, modes }: { type: string; modes: readonly number[] }) {
  const styles = useStyles()
  const { t, i18n } = useTranslation()
  const client = useClient()
  const session = useSession()
  const screen = screenDef('palletInquiry')
  // screens/inquiry.yaml: the sections, and the rules that keep all but the route's disabled until it is chosen.
  const sections = useMemo(() => (screen?.form?.sections ?? []) as FormSection[], [screen])
  const entity = useMemo(() => {
    const portal = entityDef('inquiry')
    if (!portal) throw new Error('No inquiry entity in the manifest: run `waybill generate`')
    return withSchema(portal)
  }, [])
  const validator = useMemo(
    () =>
      createPrecompiledValidator(validators as unknown as ValidatorFunctions, entity.schema as RJSFSchema, (errors) =>
        localizeErrors(errors, entity.fields, (key, params) => i18next.t(key, params)),
      ),
    [entity],
  )
  const formRef = useRef<Form | null>(null)
  const [data, setData] = useState<Data>(() => startData(modes))
  const [attempted, setAttempted] = useState(false)
  const [busy, setBusy] = useState(false)
  const [serverErrors, setServerErrors] = useState<ServerFieldError[]>([])
  const [saved, setSaved] = useState<Pick<Inquiry, 'id' | 'inquiryNo'> | null>(null)

  const tradeTerms = useQuery({
    queryKey: ['inquiryTradeTerms'],
    retry: false,
    queryFn: async ({ signal }) => (await quietClient.booking.inquiryTradeTerms({}, signal)).content.list,
  })
  const options = tradeTerms.data ?? []

  // The default term (and its services) once the configuration has come.
  useEffect(() => {
    if (options.length) setData((current) => withTradeTerm({}, current, options))
  }, [options])

  // The services this user ticked last time (SPEC §7 getRememberServices), over the term's defaults.
  const remembered = useQuery({
    queryKey: ['rememberServices'],
    retry: false,
    queryFn: async ({ signal }) => (await quietClient.b2b.getRememberServices({}, signal)).content,
  })
  useEffect(() => {
    if (remembered.data && options.length) setData((current) => ({ ...current, ...remembered.data }))
  }, [remembered.data, options.length])

  const offered = offeredTerms(options, data.tradeRole, termModes(data))
  const chosen = offered.find((o) => o.tradeTerm === data.tradeTerm)
  const waiting = someDisabled(entity, sections, data)
  const rules = useMemo(() => formRules(entity, sections), [entity, sections])
  const uiSchema = useMemo(
    () =>
      inquiryUiSchema(buildUiSchema(entity, sections), entity.fields, {
        presetModes: modes,
        terms: offered.map((o) => o.tradeTerm),
        lockCustoms: chosen?.lockedCustomsDeclaration === true,
      }),
    [entity, sections, modes, offered, chosen],
  )
  // The required mark on what a rule makes required now (the pick-up address once pick-up is ticked), and
  // the YAML's UI rules for the data now (disabled until the route is chosen, goods value with insurance).
  const markedUiSchema = useMemo(
    () => withUiRules(withRuleMarks(uiSchema, entity, data), entity, data),
    [uiSchema, entity, data],
  )

  // Messages on screen follow a language switch.
  const language = i18n.language
  useEffect(() => {
    if (attempted && language) formRef.current?.validateForm()
  }, [language, attempted])

  const extraErrors = useMemo(
    () => serverErrorTree(serverErrors, (key) => (i18n.exists(key) ? t(key) : null)),
    [serverErrors, t, i18n],
  )

  const submit = async (values: Data) => {
    // What the rules turn off is not sent (the server would ignore it).
    const body = withoutInactive(rules, withLockedCustoms(values, chosen))
    // The form held the data to the inquiry's generated validator; the same check makes it the call's body.
    if (!validators.inquiry(body))
      throw new Error(`The inquiry validator refuses the form's data: ${JSON.stringify(validators.inquiry.errors)}`)
    setBusy(true)
    try {
      setSaved((await client.palletInquiry.create(body)).content)
      // Remembered for the next inquiry (SPEC §7 changeRememberServices): the fields the YAML says it keeps.
      const kept = Object.keys(entityDef('rememberedServices')?.fields ?? {})
      const services = Object.fromEntries(Object.entries(body).filter(([name]) => kept.includes(name)))
      if (validators.rememberedServices(services))
        void quietClient.b2b.changeRememberServices(services).catch(() => null)
    } catch (error) {
      if (error instanceof RequestError && error.fieldErrors.length) setServerErrors(error.fieldErrors)
    } finally {
      setBusy(false)
    }
  }

  if (saved)
    return (
      <MessageBar intent="success" data-testid="inquiry-saved">
        <MessageBarBody>
          {t('inquiry.submitted', { no: saved.inquiryNo })}
          <div className={styles.links}>
            <Link to={`/inquiryQuotes?id=${saved.id}`} data-testid="inquiry-quotes-link">
              {t('inquiry.viewQuotes')}
            </Link>
            <Link to="/myInquiries">{t('route.myInquiries')}</Link>
          </div>
        </MessageBarBody>
      </MessageBar>
    )

  const mayInquire = session.permissions.has('palletInquiry')
  return (
    <div className={styles.panel} data-testid={`inquiry-form-${type}`}>
      {!mayInquire && session.view.status !== 'loading' && (
        <MessageBar intent="warning">
          <MessageBarBody>{t('inquiry.customersOnly')}</MessageBarBody>
        </MessageBar>
      )}
      {waiting && (
        <MessageBar intent="info" data-testid="inquiry-route-first">
          <MessageBarBody>{t('inquiry.routeFirst')}</MessageBarBody>
        </MessageBar>
      )}
      {tradeTerms.isPending && <Spinner size="tiny" />}
      <Form
        ref={formRef}
        id="form-palletInquiry"
        schema={entity.schema as RJSFSchema}
        uiSchema={markedUiSchema}
        formData={data}
        validator={validator}
        templates={templates}
        widgets={inquiryWidgets}
        disabled={busy}
        noHtml5Validate
        showErrorList={false}
        focusOnFirstError
        liveValidate={attempted ? 'onChange' : undefined}
        extraErrors={extraErrors}
        onChange={(event) => {
          setData((current) => withTradeTerm(current, event.formData as Data, options))
          if (serverErrors.length) setServerErrors([])
        }}
        onError={() => setAttempted(true)}
        onSubmit={(event) => {
          setAttempted(true)
          void submit(event.formData as Data)
        }}
      />
      <div className={styles.buttons}>
        <Button appearance="primary" type="submit" form="form-palletInquiry" disabled={busy || !mayInquire}>
          {t('inquiry.submit')}
        </Button>
        {busy && <Spinner size="tiny" />}
      </div>
    </div>
  )
}

export default function PalletInquiry(_: ScreenProps) {
  if (!hasTexts(BUNDLES)) use(textsReady(BUNDLES))
  const styles = useStyles()
  const { t } = useTranslation()
  const { type = 'all' } = useParams()
  const modes = TYPE_MODES[type]
  return (
    <section className={styles.page}>
      <h1 className={styles.title}>{t('route.palletInquiry')}</h1>
      <p className={styles.subtitle}>{t(`inquiry.intro_${modes ? type : 'all'}`)}</p>
      {modes ? (
        <InquiryForm key={type} type={type} modes={modes} />
      ) : (
        <MessageBar intent="error">
          <MessageBarBody>{t('inquiry.unknownType')}</MessageBarBody>
        </MessageBar>
      )}
    </section>
  )
}
