// A login plugin's run as the window shows it. A run that lasts (kubelogin's device code, oidc-login
// waiting for a browser login, a plugin asking for a hardware key's touch) waits for the user
// somewhere else and says where on its stderr, which kubectl hands to the terminal; a desktop app has
// no terminal, so it must show those words itself, or a login in progress looks like a cluster that
// never lists. Runs that end within announceAfterMs (a token refreshed) are never told.
import type { Clock, Timer } from '../cache/clock';

export interface ExecPluginRun {
  /** The plugin's file name ("kubelogin"). */
  command: string;
  /** When it started (epoch ms). */
  since: number;
  /**
   * What it printed on stderr so far (its last messageLimit characters), terminal controls removed and
   * anything shaped like a credential (a JWT, "token: …", "Bearer …") hidden.
   */
  message: string;
}

/** Runs shorter than this are not told: a token refresh takes well under it. */
export const announceAfterMs = 2_000;
const messageLimit = 2_048;
// CSI sequences (colours, cursor moves) and OSC ones (hyperlinks, titles) that terminals interpret.
// eslint-disable-next-line no-control-regex
const terminalControls = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/g;
// Credentials stay in main: a plugin run with verbose logging may print the token it got (a JWT, a
// bearer header) beside the device code; those words never reach the renderer.
const credentialWords = [
  /\beyJ[\w-]{8,}\.[\w-]{8,}\.[\w-]*/g,
  /\bbearer\s+[^\s"',]{8,}/gi,
  /\b[\w-]*(token|password|secret)["']?\s*[:=]\s*(["']?)[^\s"',]{8,}\2/gi,
];

/** Tells `tell` of one run: after announceAfterMs, again at each stderr write, and undefined at its end. */
export class ExecPluginRunReport {
  private readonly since: number;
  private readonly timer: Timer;
  private stderr = '';
  private announced = false;

  constructor(
    private readonly command: string,
    clock: Clock,
    private readonly tell: (run: ExecPluginRun | undefined) => void,
  ) {
    this.since = clock.now();
    this.timer = clock.setTimeout(() => {
      this.announced = true;
      this.tell(this.run());
    }, announceAfterMs);
  }

  printed(text: string): void {
    this.stderr = (this.stderr + text).slice(-messageLimit);
    if (this.announced) this.tell(this.run());
  }

  ended(): void {
    this.timer.stop();
    if (this.announced) this.tell(undefined);
  }

  private run(): ExecPluginRun {
    return {
      command: this.command.split(/[\\/]/).at(-1) ?? this.command,
      since: this.since,
      message: credentialWords
        .reduce((text, words) => text.replace(words, '[hidden]'), this.stderr.replace(terminalControls, ''))
        .trim(),
    };
  }
}
