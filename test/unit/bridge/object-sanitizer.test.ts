import { describe, expect, it } from 'vitest';
import { maskedValue, sanitizeObject } from '../../../main/bridge/object-sanitizer';
import type { KubeObject } from '../../../shared/kube/object';

const secrets = { group: '', version: 'v1', resource: 'secrets' };
const configMaps = { group: '', version: 'v1', resource: 'configmaps' };

const secret: KubeObject = {
  kind: 'Secret',
  metadata: {
    name: 'db',
    managedFields: [{ manager: 'kubectl' }],
    annotations: {
      'kubectl.kubernetes.io/last-applied-configuration': '{"data":{"password":"aHVudGVyMg=="}}',
    },
  },
  data: { password: 'aHVudGVyMg==' },
  stringData: { user: 'admin' },
};

describe('sanitizeObject', () => {
  it('masks every Secret value, including the last-applied copy', () => {
    const safe = sanitizeObject(secret, secrets);
    expect(safe.data).toEqual({ password: maskedValue });
    expect(safe.stringData).toEqual({ user: maskedValue });
    expect(JSON.stringify(safe)).not.toContain('aHVudGVyMg==');
  });

  it('leaves other kinds alone apart from managedFields', () => {
    const configMap = { ...secret, kind: 'ConfigMap' };
    expect(sanitizeObject(configMap, configMaps).data).toEqual({ password: 'aHVudGVyMg==' });
  });

  it("never changes the cache's object", () => {
    sanitizeObject(secret, secrets);
    expect(secret.metadata.managedFields).toHaveLength(1);
    expect(secret.data).toEqual({ password: 'aHVudGVyMg==' });
  });
});
