// apimachinery's duration.HumanDuration (pkg/util/duration), the format of every AGE kubectl prints.

const second = 1000;
const minute = 60 * second;
const hour = 60 * minute;

/**
 * "45s", "5m2s", "5h2m", "3d", "2y30d": precise while the duration is short, coarser as it grows. Up to
 * 2 seconds in the future reads "0s" (clocks of client and server disagree a little); further ahead is
 * "<invalid>", as kubectl prints it.
 */
export function humanDuration(milliseconds: number): string {
  const seconds = Math.trunc(milliseconds / second);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 60 * 2) return `${seconds}s`;
  const minutes = Math.trunc(milliseconds / minute);
  if (minutes < 10) {
    const remainder = seconds % 60;
    return remainder === 0 ? `${minutes}m` : `${minutes}m${remainder}s`;
  }
  if (minutes < 60 * 3) return `${minutes}m`;
  const hours = Math.trunc(milliseconds / hour);
  if (hours < 8) {
    const remainder = minutes % 60;
    return remainder === 0 ? `${hours}h` : `${hours}h${remainder}m`;
  }
  if (hours < 48) return `${hours}h`;
  const days = Math.trunc(hours / 24);
  if (hours < 24 * 8) {
    const remainder = hours % 24;
    return remainder === 0 ? `${days}d` : `${days}d${remainder}h`;
  }
  if (hours < 24 * 365 * 2) return `${days}d`;
  const years = Math.trunc(days / 365);
  if (hours < 24 * 365 * 8) {
    const remainder = days % 365;
    return remainder === 0 ? `${years}y` : `${years}y${remainder}d`;
  }
  return `${years}y`;
}
