import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/kube/object';
import type { SelectorParseError } from '../../../shared/selectors/field-selector';
import {
  escapeFieldValue,
  objectFieldGetter,
  parseFieldSelector,
  tryParseFieldSelector,
} from '../../../shared/selectors/field-selector';

const pod: KubeObject = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'web-1', namespace: 'shop', labels: { 'app.kubernetes.io/name': 'web' } },
  spec: {
    nodeName: 'node-a',
    restartPolicy: 'Always',
    schedulerName: 'default-scheduler',
    serviceAccountName: 'web',
    containers: [{ name: 'web', image: 'nginx:1.27' }],
    priority: 0,
  },
  status: { phase: 'Running', podIP: '10.0.0.5', podIPs: [{ ip: '10.0.0.5' }, { ip: 'fd00::5' }] },
};

const event: KubeObject = {
  metadata: { name: 'web-1.17f', namespace: 'shop' },
  involvedObject: {
    kind: 'Pod',
    name: 'web-1',
    namespace: 'shop',
    uid: 'u-1',
    fieldPath: 'spec.containers{web}',
  },
  reason: 'BackOff',
  type: 'Warning',
  source: { component: 'kubelet', host: 'node-a' },
};

function matches(text: string, object: KubeObject = pod): boolean {
  return parseFieldSelector(text).matches(objectFieldGetter(object));
}

function parseError(text: string): SelectorParseError {
  const result = tryParseFieldSelector(text);
  if (result.error === undefined) throw new Error(`"${text}" parsed`);
  return result.error;
}

describe('field selector parsing', () => {
  it('reads =, == and != terms, sorted by their text as fields.ParseSelector sorts them', () => {
    expect(
      parseFieldSelector('status.phase!=Failed,metadata.name==web-1,spec.nodeName=node-a').requirements,
    ).toEqual([
      { field: 'metadata.name', operator: '==', value: 'web-1' },
      { field: 'spec.nodeName', operator: '=', value: 'node-a' },
      { field: 'status.phase', operator: '!=', value: 'Failed' },
    ]);
  });

  it('prints == as = and escapes values', () => {
    expect(parseFieldSelector('b==x,a!=1').toString()).toBe('a!=1,b=x');
    expect(parseFieldSelector('a=x\\,y\\=z\\\\').toString()).toBe('a=x\\,y\\=z\\\\');
  });

  it('unescapes \\, \\= and \\\\ in values', () => {
    expect(parseFieldSelector('metadata.name=a\\,b\\=c\\\\d').requirements[0]!.value).toBe('a,b=c\\d');
    expect(escapeFieldValue('a,b=c\\d')).toBe('a\\,b\\=c\\\\d');
  });

  it('splits on the first operator and keeps the field name and value verbatim', () => {
    expect(parseFieldSelector('x==y').requirements[0]).toEqual({ field: 'x', operator: '==', value: 'y' });
    expect(parseFieldSelector(' a = b').requirements[0]).toEqual({
      field: ' a ',
      operator: '=',
      value: ' b',
    });
    expect(parseFieldSelector('=b').requirements[0]).toEqual({ field: '', operator: '=', value: 'b' });
  });

  it('selects everything when empty, skipping empty terms', () => {
    expect(parseFieldSelector('').isEmpty()).toBe(true);
    expect(parseFieldSelector(',,').isEmpty()).toBe(true);
    expect(parseFieldSelector('a=b,').requirements).toHaveLength(1);
  });
});

describe('field selector errors', () => {
  it('rejects a term without an operator, pointing at the term', () => {
    const error = parseError('a=b,oops');
    expect(error.message).toBe("invalid selector: 'a=b,oops'; can't understand 'oops'");
    expect([error.position, error.length]).toEqual([4, 4]);
  });

  it('rejects unknown escapes and a trailing backslash', () => {
    const error = parseError('a=x\\y');
    expect(error.message).toBe('invalid field selector: invalid escape sequence: \\y');
    expect([error.position, error.length]).toEqual([3, 2]);
    expect(parseError('a=x\\').message).toBe('invalid field selector: invalid escape sequence: \\');
  });

  it('rejects an unescaped = in a value', () => {
    const error = parseError('a=b=c');
    expect(error.message).toBe("invalid field selector: unescaped character in value: '='");
    expect([error.position, error.length]).toEqual([3, 1]);
  });
});

describe('field selector matching over objects', () => {
  it('matches the pod fields the API server supports', () => {
    expect(matches('metadata.name=web-1,metadata.namespace=shop')).toBe(true);
    expect(matches('spec.nodeName=node-a,status.phase=Running')).toBe(true);
    expect(matches('spec.restartPolicy=Always,spec.schedulerName=default-scheduler')).toBe(true);
    expect(matches('spec.serviceAccountName=web')).toBe(true);
    expect(matches('status.phase!=Running')).toBe(false);
  });

  it('reads status.podIP from the first of status.podIPs', () => {
    const { podIP: _podIP, ...status } = pod['status'] as Record<string, unknown>;
    expect(matches('status.podIP=10.0.0.5', { ...pod, status })).toBe(true);
  });

  it('compares a missing field as the empty string', () => {
    const unscheduled = { ...pod, spec: {} };
    expect(matches('spec.nodeName=', unscheduled)).toBe(true);
    expect(matches('spec.nodeName!=', unscheduled)).toBe(false);
    expect(matches('spec.nodeName!=node-a', unscheduled)).toBe(true);
  });

  it('prints defaulted booleans and counts the way the server does', () => {
    expect(matches('spec.hostNetwork=false')).toBe(true);
    expect(matches('spec.unschedulable=false', { metadata: { name: 'node-a' } })).toBe(true);
    expect(matches('status.successful=3', { metadata: { name: 'job' }, status: { succeeded: 3 } })).toBe(
      true,
    );
  });

  it('matches the event fields: involvedObject.*, reason, type and source', () => {
    expect(matches('involvedObject.kind=Pod,involvedObject.name=web-1,involvedObject.uid=u-1', event)).toBe(
      true,
    );
    expect(matches('involvedObject.fieldPath=spec.containers{web}', event)).toBe(true);
    expect(matches('reason=BackOff,type=Warning,source=kubelet', event)).toBe(true);
    expect(matches('type=Normal', event)).toBe(false);
  });

  it('resolves any other dotted path, numbers and dotted keys included', () => {
    const getter = objectFieldGetter(pod);
    expect(getter('spec.priority')).toBe('0');
    expect(getter('metadata.labels.app.kubernetes.io/name')).toBe('web');
    expect(getter('spec.containers')).toBeUndefined();
    expect(getter('no.such.field')).toBeUndefined();
  });
});
