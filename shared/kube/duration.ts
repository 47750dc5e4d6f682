// Durations as Kubernetes writes them (metav1.Duration: Go's time.Duration String form).

/** A Go duration as metav1.Duration writes it ("15s", "1m0s", "10.5s", "500ms"), in milliseconds. */
export function parseGoDuration(text: string): number | undefined {
  const units: Record<string, number> = {
    h: 3_600_000,
    m: 60_000,
    s: 1_000,
    ms: 1,
    us: 1e-3,
    µs: 1e-3,
    ns: 1e-6,
  };
  const parts = [...text.matchAll(/(\d+(?:\.\d*)?)(ms|us|µs|ns|h|m|s)/g)];
  if (parts.length === 0 || parts.map((part) => part[0]).join('') !== text) return undefined;
  return parts.reduce((total, [, number, unit]) => total + Number(number) * units[unit!]!, 0);
}
