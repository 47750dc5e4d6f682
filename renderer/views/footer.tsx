// The footer: the keys that matter most, always in sight, like k9s' header hints.
import { memo, type ReactNode } from 'react';
import type { CatalogKind } from './kind-catalog';

const hints: readonly (readonly [string, string])[] = [
  ['/', 'filter'],
  [':', 'kind'],
  ['j/k', 'move'],
  ['Enter', 'details'],
  ['y', 'YAML'],
  ['c', 'copy name'],
  ['h', 'history'],
  ['[ ]', 'changes'],
  ['Space', 'play'],
  ['Esc', 'close'],
  ['?', 'help'],
];

/** Memoized: its kind changes only when the user picks another. */
export const Footer = memo(function Footer(props: { readonly kind: CatalogKind }): ReactNode {
  return (
    <footer className="footer">
      {hints.map(([key, meaning]) => (
        <span key={key}>
          <kbd>{key}</kbd> {meaning}
        </span>
      ))}
      <span className="footer-spacer" />
      <span>
        {props.kind.kind} · {props.kind.gvr.group ? `${props.kind.gvr.group}/` : ''}
        {props.kind.gvr.version}
      </span>
    </footer>
  );
});
