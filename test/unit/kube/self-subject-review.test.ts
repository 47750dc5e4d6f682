// Who the API server knows a session's credentials as: two answers are one user only when every
// authorizer would see them alike (name, uid, groups and extra fields, the lists in any order).
import { describe, expect, it } from 'vitest';
import { describeUser, sameUser } from '../../../main/kube/self-subject-review';
import type { UserInfo } from '../../../main/kube/self-subject-review';

const jane: UserInfo = {
  username: 'jane',
  uid: '42',
  groups: ['ops', 'system:authenticated'],
  extra: { scopes: ['user:full', 'user:info'] },
};

describe('sameUser', () => {
  it('holds for the same user with groups and extra values in another order', () => {
    expect(
      sameUser(jane, {
        username: 'jane',
        uid: '42',
        groups: ['system:authenticated', 'ops'],
        extra: { scopes: ['user:info', 'user:full'] },
      }),
    ).toBe(true);
    expect(sameUser({ username: 'jane' }, { username: 'jane', uid: '', groups: [], extra: {} })).toBe(true);
  });

  it('fails on any difference an authorizer could decide by', () => {
    for (const other of [
      { ...jane, username: 'bob' },
      { ...jane, uid: '43' },
      { ...jane, groups: ['system:authenticated'] },
      { ...jane, groups: ['ops', 'system:authenticated', 'admins'] },
      { ...jane, extra: { scopes: ['user:full'] } },
      { ...jane, extra: { scopes: ['user:full', 'user:info'], team: ['a'] } },
    ])
      expect(sameUser(jane, other), JSON.stringify(other)).toBe(false);
  });
});

describe('describeUser', () => {
  it('names the user and its groups, sorted', () => {
    expect(describeUser(jane)).toBe('jane (groups ops, system:authenticated)');
    expect(describeUser({ username: 'system:anonymous' })).toBe('system:anonymous');
  });
});
