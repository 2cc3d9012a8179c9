import { makeStyles, mergeClasses, Toolbar, ToolbarButton, ToolbarDivider, tokens } from '@fluentui/react-components'
import { $generateHtmlFromNodes, $generateNodesFromDOM } from '@lexical/html'
import { LinkNode, TOGGLE_LINK_COMMAND } from '@lexical/link'
import { INSERT_ORDERED_LIST_COMMAND, INSERT_UNORDERED_LIST_COMMAND, ListItemNode, ListNode } from '@lexical/list'
import { LexicalComposer } from '@lexical/react/LexicalComposer'
import { useLexicalComposerContext } from '@lexical/react/LexicalComposerContext'
import { ContentEditable } from '@lexical/react/LexicalContentEditable'
import { LexicalErrorBoundary } from '@lexical/react/LexicalErrorBoundary'
import { HistoryPlugin } from '@lexical/react/LexicalHistoryPlugin'
import { LinkPlugin } from '@lexical/react/LexicalLinkPlugin'
import { ListPlugin } from '@lexical/react/LexicalListPlugin'
import { OnChangePlugin } from '@lexical/react/LexicalOnChangePlugin'
import { RichTextPlugin } from '@lexical/react/LexicalRichTextPlugin'
import { HeadingNode, QuoteNode } from '@lexical/rich-text'
import {
  $getRoot,
  $insertNodes,
  type EditorState,
  FORMAT_TEXT_COMMAND,
  type LexicalEditor,
  REDO_COMMAND,
  UNDO_COMMAND,
} from 'lexical'
import { useTranslation } from 'react-i18next'

/**
 * The rich-text editor (Lexical; why Lexical: docs/DECISIONS.md). Loaded on its own, only when a form has
 * a rich-text field (runtime/widgets/index.tsx lazy-loads this module). It edits HTML: the stored value
 * is read in, and every change is written back as HTML — which the server sanitises before storing
 * (server/http/sanitize.ts), so what this editor makes is exactly what survives.
 */

const useStyles = makeStyles({
  frame: {
    border: `1px solid ${tokens.colorNeutralStroke1}`,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground1,
  },
  disabled: { opacity: 0.6 },
  toolbar: { borderBottom: `1px solid ${tokens.colorNeutralStroke2}` },
  area: { position: 'relative' },
  editable: {
    minHeight: '120px',
    padding: '8px 12px',
    outline: 'none',
    ':focus-visible': { outline: `2px solid ${tokens.colorStrokeFocus2}` },
  },
  placeholder: {
    position: 'absolute',
    top: '8px',
    left: '12px',
    color: tokens.colorNeutralForeground4,
    pointerEvents: 'none',
  },
})

export interface RichTextEditorProps {
  id: string
  value: string
  onChange: (html: string) => void
  disabled?: boolean
  ariaLabel?: string
  placeholder?: string
}

/** The HTML of an editor state; '' for an editor holding nothing but an empty paragraph. */
function htmlOf(editor: LexicalEditor, state: EditorState): string {
  return state.read(() => ($getRoot().getTextContent().trim() === '' ? '' : $generateHtmlFromNodes(editor, null)))
}

function FormatBar({ disabled }: { disabled?: boolean }) {
  const [editor] = useLexicalComposerContext()
  const { t } = useTranslation()
  const styles = useStyles()
  const link = () => {
    const url = window.prompt(t('widget.linkPrompt'), 'https://')
    if (url === null) return
    editor.dispatchCommand(TOGGLE_LINK_COMMAND, /^(https?:\/\/|mailto:)/i.test(url.trim()) ? url.trim() : null)
  }
  const button = (label: string, text: string, run: () => void) => (
    <ToolbarButton aria-label={t(label)} title={t(label)} disabled={disabled} onClick={run}>
      {text}
    </ToolbarButton>
  )
  return (
    <Toolbar className={styles.toolbar} size="small" aria-label={t('widget.richTextToolbar')}>
      {button('widget.bold', 'B', () => editor.dispatchCommand(FORMAT_TEXT_COMMAND, 'bold'))}
      {button('widget.italic', 'I', () => editor.dispatchCommand(FORMAT_TEXT_COMMAND, 'italic'))}
      {button('widget.underline', 'U', () => editor.dispatchCommand(FORMAT_TEXT_COMMAND, 'underline'))}
      <ToolbarDivider />
      {button('widget.bulletList', '•', () => editor.dispatchCommand(INSERT_UNORDERED_LIST_COMMAND, undefined))}
      {button('widget.numberedList', '1.', () => editor.dispatchCommand(INSERT_ORDERED_LIST_COMMAND, undefined))}
      {button('widget.link', '🔗', link)}
      <ToolbarDivider />
      {button('widget.undo', '↶', () => editor.dispatchCommand(UNDO_COMMAND, undefined))}
      {button('widget.redo', '↷', () => editor.dispatchCommand(REDO_COMMAND, undefined))}
    </Toolbar>
  )
}

export default function RichTextEditor({ id, value, onChange, disabled, ariaLabel, placeholder }: RichTextEditorProps) {
  const styles = useStyles()
  const initialConfig = {
    namespace: `richText-${id}`,
    editable: !disabled,
    nodes: [HeadingNode, QuoteNode, ListNode, ListItemNode, LinkNode],
    onError: (error: Error) => {
      throw error
    },
    // The stored HTML, parsed by the browser and turned into the editor's nodes.
    editorState: (editor: LexicalEditor) => {
      if (!value) return
      const dom = new DOMParser().parseFromString(value, 'text/html')
      const nodes = $generateNodesFromDOM(editor, dom)
      $getRoot().select()
      $insertNodes(nodes)
    },
  }
  return (
    <div className={mergeClasses(styles.frame, disabled && styles.disabled)} data-rich-text={id}>
      <LexicalComposer initialConfig={initialConfig}>
        <FormatBar disabled={disabled} />
        <div className={styles.area}>
          <RichTextPlugin
            contentEditable={
              placeholder ? (
                <ContentEditable
                  id={id}
                  className={styles.editable}
                  aria-label={ariaLabel}
                  aria-multiline
                  aria-placeholder={placeholder}
                  placeholder={<div className={styles.placeholder}>{placeholder}</div>}
                />
              ) : (
                <ContentEditable id={id} className={styles.editable} aria-label={ariaLabel} aria-multiline />
              )
            }
            ErrorBoundary={LexicalErrorBoundary}
          />
        </div>
        <HistoryPlugin />
        <ListPlugin />
        <LinkPlugin />
        <OnChangePlugin ignoreSelectionChange onChange={(state, editor) => onChange(htmlOf(editor, state))} />
      </LexicalComposer>
    </div>
  )
}
