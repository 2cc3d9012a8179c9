import { Button, MessageBar, MessageBarBody, Spinner } from '@fluentui/react-components'
import { useTranslation } from 'react-i18next'
import { useParams, useSearchParams } from 'react-router'
import { useEffects } from '../../effects.tsx'
import { useTenantScreen } from '../../overlays/useTenantScreen.ts'
import type { ScreenProps } from '../../registry.ts'
import { GenericForm } from '../../screens/form/FormScreen.tsx'
import { routePath } from '../../screens/list/actions.ts'
import { useSession } from '../../session.ts'

/**
 * The B/L editor (/cargoFeedSubmission/:mode, issue #23): the screen's YAML sections drawn by the generic
 * entity form and its registered widgets (the containers as the sub-table, the parties as 35 × 7 text blocks,
 * the HS code and the order as look-ups), validated in the browser by the generated validators the server
 * runs too. Mode `edit` submits: a new instruction (?order=<id> starts it with what that order knows, the
 * screen's `form.prefill` and `prefillCall`) or an unconfirmed one (?id=); any other mode shows the
 * instruction, with the operator's confirm, reopen and finish.
 */
export default function BlEditor({ route }: ScreenProps) {
  const { t } = useTranslation()
  const { mode } = useParams()
  const [params] = useSearchParams()
  const session = useSession()
  const effects = useEffects()
  const { ready, screen, entity } = useTenantScreen(route.name)
  const editing = mode === 'edit'
  const order = params.get('order')
  const id = params.get('id')
  if (!ready) return <Spinner />
  if (!screen || !entity) {
    return (
      <MessageBar intent="warning">
        <MessageBarBody>{t('ui.screenMissing', { name: route.name })}</MessageBarBody>
      </MessageBar>
    )
  }
  const mayEdit = session.permissions.has('blSubmission')
  return (
    <>
      {!editing && id && mayEdit && (
        <Button
          appearance="secondary"
          data-action="edit"
          onClick={() => effects.navigate(`${routePath(route.path, { mode: 'edit' })}?id=${encodeURIComponent(id)}`)}
        >
          {t('bl.edit')}
        </Button>
      )}
      <GenericForm key={`${mode}-${id ?? order ?? 'new'}`} screen={screen} entity={entity} readOnly={!editing} />
    </>
  )
}
