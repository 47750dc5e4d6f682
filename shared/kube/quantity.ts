// resource.Quantity as the metrics and the containers' resources write it ("250m", "1.5", "128Mi",
// "1234567n", "2G", "1e3"), read into plain numbers: cores for CPU, bytes for memory. A float64 is
// exact to well under a nanocore at any CPU count a cluster has, so no big-number type is needed.
// Formatting follows `kubectl top` (pkg/cmd/top's printers): CPU in whole millicores, memory in whole
// mebibytes, percentages truncated to whole numbers.

const binarySuffixes: Record<string, number> = {
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
};

const decimalSuffixes: Record<string, number> = {
  n: 1e-9,
  u: 1e-6,
  m: 1e-3,
  '': 1,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
};

const quantityPattern = /^([+-]?(?:\d+\.?\d*|\.\d+))(?:([eE][+-]?\d+)|(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE])?)$/;

/** The quantity's value in its base unit, or undefined when `text` is not a Kubernetes quantity. */
export function parseQuantity(text: string): number | undefined {
  const match = quantityPattern.exec(text.trim());
  if (!match) return undefined;
  const [, number, exponent, suffix = ''] = match;
  const value = Number(number);
  if (exponent) return value * 10 ** Number(exponent.slice(1));
  return value * (binarySuffixes[suffix] ?? decimalSuffixes[suffix]);
}

/** kubectl top's CPU: "%vm" of the quantity's MilliValue, which rounds up as resource.Quantity does. */
export function formatCpu(cores: number): string {
  return `${Math.ceil(Math.round(cores * 1e9) / 1e6)}m`;
}

/** kubectl top's memory: "%vMi" of the bytes divided by 2^20, truncated. */
export function formatMemory(bytes: number): string {
  return `${Math.floor(bytes / 2 ** 20)}Mi`;
}

/**
 * kubectl top's and k9s's percentage: usage over the reference, truncated to a whole number; undefined
 * when there is no reference (no request or limit set), which k9s shows as "n/a", never as 0%.
 */
export function percentOf(usage: number, reference: number | undefined): number | undefined {
  if (reference === undefined || !(reference > 0)) return undefined;
  // kubectl divides integers (millicores, bytes); rounding off float noise first keeps 0.3/0.1 at 300.
  return Math.trunc(Math.round((usage / reference) * 100 * 1e6) / 1e6);
}
