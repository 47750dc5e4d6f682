// The notice when main reopened the current context (its kubeconfig entry changed), and only then.
import { describe, expect, it } from 'vitest';
import { sessionRenewalNotice } from '../../../renderer/views/session-renewal';

const list = (current: string, session: number) => ({ current, session, contexts: [] });

describe('sessionRenewalNotice', () => {
  it('tells of the same context opened anew', () => {
    expect(sessionRenewalNotice(list('kind-dev', 1), list('kind-dev', 2))).toBe(
      'Context kind-dev reopened: its kubeconfig entry changed',
    );
  });

  it('says nothing for the first list, a switch, or the context list pushed again', () => {
    expect(sessionRenewalNotice(undefined, list('kind-dev', 1))).toBeUndefined();
    expect(sessionRenewalNotice(list('kind-dev', 1), list('prod', 2))).toBeUndefined();
    expect(sessionRenewalNotice(list('kind-dev', 2), list('kind-dev', 2))).toBeUndefined();
  });
});
