import { makeStyles, mergeClasses, tokens } from '@fluentui/react-components'
import { type KeyboardEvent, type ReactNode, type RefObject, useEffect, useId, useRef, useState } from 'react'
import { useButtonStyles, usePopupStyles } from './styles.ts'

/**
 * A button that opens a menu (the WAI-ARIA menu button pattern), drawn with Fluent's tokens but without
 * Fluent's Menu: the top bar is on every page, and Menu with its focus manager and positioning engine is
 * most of a public page's script. Keyboard: Enter, Space or ↓ open on the first item, ↑ on the last; ↑ ↓
 * Home End move; Escape closes back to the button; Tab and a click elsewhere close.
 */

/** Calls `onAway` on a pointer press outside `root` while `active` (an open menu or dropdown closes). */
export function useClickAway(root: RefObject<HTMLElement | null>, active: boolean, onAway: () => void) {
  const away = useRef(onAway)
  away.current = onAway
  useEffect(() => {
    if (!active) return
    const outside = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) away.current()
    }
    document.addEventListener('pointerdown', outside)
    return () => document.removeEventListener('pointerdown', outside)
  }, [root, active])
}

const menuItems = (menu: HTMLElement | null) => [
  ...(menu?.querySelectorAll<HTMLButtonElement>('[role="menuitem"]') ?? []),
]

export interface MenuButtonItem {
  key: string
  label: ReactNode
  onSelect: () => void
  disabled?: boolean
}

const useStyles = makeStyles({
  menu: { minWidth: '140px' },
  item: {
    display: 'block',
    width: '100%',
    padding: '6px 10px',
    border: 'none',
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: 'transparent',
    color: tokens.colorNeutralForeground1,
    fontFamily: tokens.fontFamilyBase,
    fontSize: tokens.fontSizeBase300,
    textAlign: 'start',
    whiteSpace: 'nowrap',
    cursor: 'pointer',
    ':hover': { backgroundColor: tokens.colorNeutralBackground1Hover },
    ':focus-visible': { outline: `2px solid ${tokens.colorStrokeFocus2}`, outlineOffset: '-2px' },
  },
  disabled: {
    color: tokens.colorNeutralForegroundDisabled,
    cursor: 'default',
    ':hover': { backgroundColor: 'transparent' },
  },
})

export function MenuButton({
  label,
  ariaLabel,
  items,
  align = 'start',
  size = 'medium',
  className,
}: {
  label: ReactNode
  ariaLabel?: string
  items: readonly MenuButtonItem[]
  align?: 'start' | 'end'
  size?: 'small' | 'medium'
  className?: string
}) {
  const styles = useStyles()
  const buttons = useButtonStyles()
  const popup = usePopupStyles()
  const [open, setOpen] = useState<false | 'first' | 'last'>(false)
  const root = useRef<HTMLDivElement>(null)
  const trigger = useRef<HTMLButtonElement>(null)
  const menu = useRef<HTMLDivElement>(null)
  const menuId = useId()

  const close = (refocus: boolean) => {
    setOpen(false)
    if (refocus) trigger.current?.focus()
  }

  useClickAway(root, open !== false, () => setOpen(false))
  useEffect(() => {
    if (!open) return
    const list = menuItems(menu.current)
    ;(open === 'last' ? list[list.length - 1] : list[0])?.focus()
  }, [open])

  const onTriggerKey = (event: KeyboardEvent) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault()
      setOpen(event.key === 'ArrowUp' ? 'last' : 'first')
    }
  }

  const onMenuKey = (event: KeyboardEvent) => {
    const list = menuItems(menu.current)
    const at = list.indexOf(document.activeElement as HTMLButtonElement)
    const move = (index: number) => {
      event.preventDefault()
      list[(index + list.length) % list.length]?.focus()
    }
    if (event.key === 'ArrowDown') move(at + 1)
    else if (event.key === 'ArrowUp') move(at - 1)
    else if (event.key === 'Home') move(0)
    else if (event.key === 'End') move(list.length - 1)
    else if (event.key === 'Escape') {
      event.preventDefault()
      close(true)
    } else if (event.key === 'Tab') close(false)
  }

  return (
    <div className={popup.anchor} ref={root}>
      <button
        ref={trigger}
        type="button"
        className={mergeClasses(buttons.button, size === 'small' && buttons.small, className)}
        aria-label={ariaLabel}
        aria-haspopup="menu"
        aria-expanded={open !== false}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen((now) => (now ? false : 'first'))}
        onKeyDown={onTriggerKey}
      >
        {label}
        <span aria-hidden="true">▾</span>
      </button>
      {open && (
        <div
          ref={menu}
          id={menuId}
          role="menu"
          tabIndex={-1}
          className={mergeClasses(popup.surface, styles.menu, align === 'end' ? popup.end : popup.start)}
          onKeyDown={onMenuKey}
        >
          {items.map((item) => (
            <button
              key={item.key}
              type="button"
              role="menuitem"
              tabIndex={-1}
              aria-disabled={item.disabled || undefined}
              className={mergeClasses(styles.item, item.disabled && styles.disabled)}
              onClick={() => {
                if (item.disabled) return
                close(true)
                item.onSelect()
              }}
            >
              {item.label}
            </button>
          ))}
        </div>
      )}
    </div>
  )
}
