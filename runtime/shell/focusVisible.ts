/**
 * Fluent UI v9 draws its focus outline on `[data-fui-focus-visible]` and removes the browser's own: the
 * attribute is set by FluentProvider's focus-visible polyfill (keyborg), and the portal has no
 * FluentProvider (runtime/main.tsx) — so no Fluent button, tab or sortable header showed keyboard focus.
 * This sets the attribute from the browser's own `:focus-visible` judgement instead: on the element that
 * takes focus from the keyboard (or a script after a key), never after a click on a button.
 */
export const FOCUS_VISIBLE_ATTRIBUTE = 'data-fui-focus-visible'

export function markFocusVisible(target: Document = document): () => void {
  let marked: HTMLElement | null = null
  const clear = () => {
    marked?.removeAttribute(FOCUS_VISIBLE_ATTRIBUTE)
    marked = null
  }
  const onFocusIn = (event: FocusEvent) => {
    clear()
    const element = event.composedPath()[0]
    if (element instanceof HTMLElement && element.matches(':focus-visible')) {
      marked = element
      element.setAttribute(FOCUS_VISIBLE_ATTRIBUTE, '')
    }
  }
  target.addEventListener('focusin', onFocusIn)
  target.addEventListener('focusout', clear)
  return () => {
    clear()
    target.removeEventListener('focusin', onFocusIn)
    target.removeEventListener('focusout', clear)
  }
}
