import { CounterBadge, makeStyles, Tab, TabList } from '@fluentui/react-components'
import { useTranslation } from 'react-i18next'
import type { ListController } from './useListScreen.ts'

const useStyles = makeStyles({
  tab: { display: 'inline-flex', alignItems: 'center', gap: '6px' },
})

/**
 * A tabbed list's tabs (SPEC §4's order tabs): "all", then each state the screen's `tabs` names, with the YAML's
 * label and the count the list's answer carries under the other filters; choosing one searches by it. Until the
 * first answer the tabs show no count: a 0 would tell the user they have no orders in any state.
 */
export function ListTabs({ list }: { list: ListController }) {
  const styles = useStyles()
  const { t } = useTranslation()
  const tabs = list.screen.tabs
  if (!tabs) return null
  const states = list.entity?.states?.values ?? {}
  const values = ['all', ...tabs.values]
  return (
    <TabList
      selectedValue={list.tab}
      onTabSelect={(_, data) => list.chooseTab(String(data.value))}
      aria-label={t('field.state')}
    >
      {values.map((value) => (
        <Tab key={value} value={value} data-tab={value}>
          <span className={styles.tab}>
            {t(value === 'all' ? 'ui.all' : (states[value]?.label ?? value))}
            {list.tabCounts && (
              <CounterBadge
                count={list.tabCounts[value] ?? 0}
                showZero
                size="small"
                appearance="ghost"
                data-count={value}
              />
            )}
          </span>
        </Tab>
      ))}
    </TabList>
  )
}
