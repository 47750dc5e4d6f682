// The read-only YAML of one object, in CodeMirror 6: syntax highlighting, folding, search and line
// numbers. metadata.managedFields is removed before rendering (it is server bookkeeping, often longer
// than the object itself, and kubectl hides it too unless asked with --show-managed-fields).
import { useEffect, useRef, type ReactNode } from 'react';
import { EditorState } from '@codemirror/state';
import { EditorView, keymap, lineNumbers, highlightActiveLine, drawSelection } from '@codemirror/view';
import { foldGutter, foldKeymap, HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { searchKeymap, highlightSelectionMatches } from '@codemirror/search';
import { yaml } from '@codemirror/lang-yaml';
import { tags } from '@lezer/highlight';
import { stringify } from 'yaml';

/** Colours come from CSS variables, so the same extension serves the dark and the light theme. */
const highlightStyle = HighlightStyle.define([
  { tag: [tags.propertyName, tags.definition(tags.propertyName)], color: 'var(--syntax-key)' },
  { tag: [tags.string, tags.special(tags.string), tags.content], color: 'var(--syntax-string)' },
  { tag: [tags.number, tags.bool, tags.null, tags.atom], color: 'var(--syntax-number)' },
  { tag: [tags.comment, tags.meta, tags.punctuation, tags.separator], color: 'var(--syntax-comment)' },
  { tag: [tags.keyword, tags.typeName, tags.labelName], color: 'var(--syntax-keyword)' },
]);

const editorTheme = EditorView.theme({
  '&': { height: '100%', fontSize: '12.5px', backgroundColor: 'transparent', color: 'var(--text)' },
  '.cm-scroller': { fontFamily: 'var(--font-mono)', lineHeight: '1.55' },
  '.cm-gutters': { backgroundColor: 'transparent', color: 'var(--text-faint)', border: 'none' },
  '.cm-activeLine': { backgroundColor: 'var(--bg-hover)' },
  '.cm-activeLineGutter': { backgroundColor: 'transparent', color: 'var(--text-muted)' },
  '.cm-foldPlaceholder': {
    backgroundColor: 'var(--bg-sunken)',
    border: '1px solid var(--border)',
    color: 'var(--text-muted)',
  },
  '&.cm-focused': { outline: 'none' },
  '.cm-selectionBackground, &.cm-focused .cm-selectionBackground': {
    backgroundColor: 'var(--bg-selected-strong)',
  },
  '.cm-panels': { backgroundColor: 'var(--bg-raised)', color: 'var(--text)' },
});

/** The YAML shown for `object`: managedFields dropped, keys in the order the server sent them. */
export function objectYaml(object: unknown): string {
  if (object && typeof object === 'object' && 'metadata' in object) {
    const record = object as { metadata?: Record<string, unknown> };
    if (record.metadata && 'managedFields' in record.metadata) {
      const { managedFields: _managedFields, ...metadata } = record.metadata;
      return stringify({ ...record, metadata }, { lineWidth: 0 });
    }
  }
  return stringify(object, { lineWidth: 0 });
}

export function YamlView(props: { readonly text: string }): ReactNode {
  const hostRef = useRef<HTMLDivElement>(null);
  const viewRef = useRef<EditorView | null>(null);

  useEffect(() => {
    const host = hostRef.current;
    if (!host) return;
    const view = new EditorView({
      parent: host,
      state: EditorState.create({
        doc: '',
        extensions: [
          EditorState.readOnly.of(true),
          EditorView.editable.of(false),
          EditorView.contentAttributes.of({ tabindex: '0', 'aria-label': 'Object YAML' }),
          lineNumbers(),
          foldGutter(),
          drawSelection(),
          highlightActiveLine(),
          highlightSelectionMatches(),
          keymap.of([...foldKeymap, ...searchKeymap]),
          yaml(),
          syntaxHighlighting(highlightStyle),
          editorTheme,
        ],
      }),
    });
    viewRef.current = view;
    return () => {
      view.destroy();
      viewRef.current = null;
    };
  }, []);

  useEffect(() => {
    const view = viewRef.current;
    if (!view || view.state.doc.toString() === props.text) return;
    view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: props.text } });
  }, [props.text]);

  return <div className="yaml-view" ref={hostRef} data-testid="yaml-view" />;
}
