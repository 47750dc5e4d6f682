// Text the views show for numbers and times, in one place so every count and age reads the same.
import { humanDuration } from '../../shared/kinds/columns/human-duration';

const integer = new Intl.NumberFormat('en-US');

/** "12,403". */
export function formatCount(value: number): string {
  return integer.format(value);
}

/** kubectl's AGE ("3d", "5m2s") of an epoch-ms instant; "<unknown>" when absent. */
export function formatAge(epochMs: number | null | undefined, now: number): string {
  if (!epochMs) return '<unknown>';
  return humanDuration(now - epochMs);
}
