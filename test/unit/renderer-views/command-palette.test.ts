import { describe, expect, it } from 'vitest';
import { matchPaletteEntries } from '../../../renderer/components/command-palette';
import { catalogKinds } from '../../../renderer/views/kind-catalog';

const entries = catalogKinds([]).map((kind) => ({ id: kind.id, title: kind.title, aliases: kind.aliases }));

describe('matchPaletteEntries', () => {
  it('jumps to pods with :pods and :po', () => {
    expect(matchPaletteEntries(entries, ':pods')[0]?.title).toBe('Pods');
    expect(matchPaletteEntries(entries, ':po')[0]?.title).toBe('Pods');
  });

  it('resolves kubectl short names such as deploy and svc', () => {
    expect(matchPaletteEntries(entries, ':deploy')[0]?.title).toBe('Deployments');
    expect(matchPaletteEntries(entries, 'svc')[0]?.title).toBe('Services');
  });

  it('offers nothing for a name no kind has', () => {
    expect(matchPaletteEntries(entries, ':nosuchkind')).toEqual([]);
  });
});
