// Which of a feed's list and watch failures are worth a log line. The Reflector retries a failure with
// its backoff for as long as it lasts, and each retry fails again: a cluster that stays unreachable
// logged the same "cannot reach ... (connection refused ...)" for every kind at every step, 68 lines in
// the first two minutes for nine kinds and a line for each of them every 30 s after. A failure saying
// what the last one said is no news (the top bar shows it, with when it began and the next retry);
// one saying something new is, and so is the first failure after the feed watched again. The end of
// a run of failures whose repeats went unsaid is told too, or the log's last word on the kind would
// be a failure long over.
import { messageOf } from '../kube/errors';

export class FailureLog {
  /** The message of the last failure told, while failures follow one another with no recovery. */
  private told: string | undefined;
  /** Failures since the feed last watched, and how many of them were not told. */
  private failures = 0;
  private unsaid = 0;

  constructor(
    private readonly tell: (error: unknown) => void,
    /** Told when the feed watches again after `failures` failures, some of them unsaid. */
    private readonly tellRecovered: (failures: number) => void,
  ) {}

  /** A list or watch failed: told unless its message repeats the failure told last. */
  failed(error: unknown): void {
    this.failures++;
    const message = messageOf(error);
    if (message === this.told) {
      this.unsaid++;
      return;
    }
    this.told = message;
    this.tell(error);
  }

  /** The feed watches again (its list went through): its next failure is told, whatever it says. */
  recovered(): void {
    if (this.unsaid > 0) this.tellRecovered(this.failures);
    this.told = undefined;
    this.failures = 0;
    this.unsaid = 0;
  }
}
