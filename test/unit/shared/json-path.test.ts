import { describe, expect, it } from 'vitest';
import { JsonPathError, evaluateJsonPath } from '../../../shared/kinds/columns/json-path';

const object = {
  metadata: { name: 'w', labels: { 'app.kubernetes.io/name': 'web' } },
  spec: {
    containers: [
      { name: 'a', image: 'x' },
      { name: 'b', image: 'y' },
    ],
    replicas: 3,
  },
  status: {
    conditions: [
      { type: 'Ready', status: 'True', priority: 2 },
      { type: 'Synced', status: 'False', priority: 1 },
    ],
  },
};

describe('printer column JSONPath', () => {
  it('follows fields, with or without braces and $', () => {
    expect(evaluateJsonPath(object, '.spec.replicas')).toEqual([3]);
    expect(evaluateJsonPath(object, '{.spec.replicas}')).toEqual([3]);
    expect(evaluateJsonPath(object, '$.metadata.name')).toEqual(['w']);
  });

  it('indexes arrays, from the end with a negative index, and expands wildcards', () => {
    expect(evaluateJsonPath(object, '.spec.containers[1].image')).toEqual(['y']);
    expect(evaluateJsonPath(object, '.spec.containers[-1].name')).toEqual(['b']);
    expect(evaluateJsonPath(object, '.spec.containers[*].name')).toEqual(['a', 'b']);
    expect(evaluateJsonPath(object, '.spec.containers[5].name')).toEqual([]);
  });

  it('reads quoted keys containing dots', () => {
    expect(evaluateJsonPath(object, ".metadata.labels['app.kubernetes.io/name']")).toEqual(['web']);
  });

  it('filters by comparison or presence', () => {
    expect(evaluateJsonPath(object, '.status.conditions[?(@.type=="Ready")].status')).toEqual(['True']);
    expect(evaluateJsonPath(object, ".status.conditions[?(@.status!='True')].type")).toEqual(['Synced']);
    expect(evaluateJsonPath(object, '.status.conditions[?(@.priority > 1)].type')).toEqual(['Ready']);
    expect(evaluateJsonPath(object, '.status.conditions[?(@.missing)].type')).toEqual([]);
  });

  it('reaches nothing for missing fields and rejects malformed paths', () => {
    expect(evaluateJsonPath(object, '.status.nothing.deeper')).toEqual([]);
    expect(() => evaluateJsonPath(object, '.spec.containers[')).toThrow(JsonPathError);
    expect(() => evaluateJsonPath(object, 'spec')).toThrow(JsonPathError);
  });
});
