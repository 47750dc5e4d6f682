// resource.Quantity parsing into cores and bytes, and kubectl top's formatting and percentages.
import { describe, expect, it } from 'vitest';
import { formatCpu, formatMemory, parseQuantity, percentOf } from '../../../shared/kube/quantity';

describe('parseQuantity', () => {
  it('reads decimal SI suffixes, milli and nano included', () => {
    expect(parseQuantity('250m')).toBeCloseTo(0.25);
    expect(parseQuantity('1234567n')).toBeCloseTo(0.001234567);
    expect(parseQuantity('1.5')).toBe(1.5);
    expect(parseQuantity('2k')).toBe(2000);
    expect(parseQuantity('2G')).toBe(2e9);
    expect(parseQuantity('1e3')).toBe(1000);
  });

  it('reads binary suffixes', () => {
    expect(parseQuantity('128Mi')).toBe(128 * 2 ** 20);
    expect(parseQuantity('1024Ki')).toBe(2 ** 20);
    expect(parseQuantity('1Gi')).toBe(2 ** 30);
  });

  it('refuses what is not a quantity', () => {
    expect(parseQuantity('')).toBeUndefined();
    expect(parseQuantity('12 cores')).toBeUndefined();
    expect(parseQuantity('1Mb')).toBeUndefined();
  });
});

describe('kubectl top formatting', () => {
  it('shows CPU in millicores, rounding up as Quantity.MilliValue does', () => {
    expect(formatCpu(0.25)).toBe('250m');
    expect(formatCpu(0.001234567)).toBe('2m');
    expect(formatCpu(0)).toBe('0m');
  });

  it('shows memory in whole mebibytes, truncated', () => {
    expect(formatMemory(128 * 2 ** 20)).toBe('128Mi');
    expect(formatMemory(2 ** 20 - 1)).toBe('0Mi');
  });

  it('truncates percentages and has none without a reference', () => {
    expect(percentOf(0.0999, 0.1)).toBe(99);
    expect(percentOf(0.3, 0.1)).toBe(300);
    expect(percentOf(1, undefined)).toBeUndefined();
    expect(percentOf(1, 0)).toBeUndefined();
  });
});
