// The command palette with object search: mounted only while open, so the kinds it mirrors for the
// search, and the re-renders every mirrored batch causes, last exactly as long as the palette.
import { useMemo, type ReactNode } from 'react';
import { CommandPalette } from '../components/command-palette';
import type { CatalogKind } from './kind-catalog';
import { paletteObjectSearch, useObjectSearch } from './use-object-search';

export function ObjectPalette(props: {
  readonly kinds: readonly CatalogKind[];
  readonly initialQuery: string;
  readonly onChooseKind: (id: string) => void;
  /** An object was chosen: its kind and its row key. */
  readonly onChooseObject: (kind: CatalogKind, key: string) => void;
  readonly onClose: () => void;
}): ReactNode {
  const { kinds, onChooseObject } = props;
  const source = useObjectSearch(kinds);
  const objectSearch = useMemo(() => paletteObjectSearch(source), [source]);
  const entries = useMemo(() => kinds.map(paletteEntry), [kinds]);
  return (
    <CommandPalette
      entries={entries}
      initialQuery={props.initialQuery}
      onChoose={props.onChooseKind}
      onClose={props.onClose}
      objectSearch={objectSearch}
      onChooseObject={(kindId, key) => {
        const kind = kinds.find((candidate) => candidate.id === kindId);
        if (kind) onChooseObject(kind, key);
      }}
    />
  );
}

function paletteEntry(kind: CatalogKind) {
  return { id: kind.id, title: kind.title, aliases: kind.aliases, detail: kind.gvr.group || 'core' };
}
