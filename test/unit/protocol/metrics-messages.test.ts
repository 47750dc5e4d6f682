// The renderer keeps a metrics message only when its shape holds: parallel arrays of one length,
// non-negative numbers, a known resource and availability.
import { describe, expect, it } from 'vitest';
import { validateMetricsMessage } from '../../../shared/protocol/metrics-messages';
import { Rejection } from '../../../shared/protocol/validation-rules';

const valid = {
  type: 'metrics',
  resource: 'pods',
  availability: 'served',
  timestamp: 1,
  windowMs: 15_000,
  keys: ['shop/web-1'],
  cpu: [0.25],
  memory: [1024],
};

describe('validateMetricsMessage', () => {
  it('accepts a well-formed batch', () => {
    expect(validateMetricsMessage(valid)).toBe(valid);
  });

  it('accepts a part of a bigger message', () => {
    const part = { ...valid, part: { id: 3, index: 1, count: 2 } };
    expect(validateMetricsMessage(part)).toBe(part);
  });

  it.each([
    ['an unknown resource', { ...valid, resource: 'deployments' }],
    ['an unknown availability', { ...valid, availability: 'maybe' }],
    ['arrays of different lengths', { ...valid, cpu: [] }],
    ['a negative sample', { ...valid, memory: [-1] }],
    ['a non-string key', { ...valid, keys: [7] }],
    ['a non-numeric timestamp', { ...valid, timestamp: 'now' }],
    ['a part beyond its count', { ...valid, part: { id: 1, index: 2, count: 2 } }],
    ['a part of too many', { ...valid, part: { id: 1, index: 0, count: 100_000 } }],
    ['a part without an id', { ...valid, part: { index: 0, count: 2 } }],
  ])('refuses %s', (_case, message) => {
    expect(validateMetricsMessage(message)).toBeInstanceOf(Rejection);
  });
});
