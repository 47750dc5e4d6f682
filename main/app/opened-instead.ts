// The embedded cluster opened at start in place of the kubeconfig's current context (backend.ts's
// openFirstSession), and how it gives way. While it is the session shown (the user picked nothing
// since), a reading of the kubeconfig that makes a context current opens that context: `kind create
// cluster` after `kind delete cluster`, `minikube start`, a file mended after a save mid-edit. The
// window stayed on the embedded cluster though its banner said it was there for want of a context.
import type { SessionOpener } from '../bridge/bridge-host';
import type { ClusterSession } from '../bridge/cluster-session';
import { messageOf } from '../kube/errors';
import type { Kubeconfig } from '../kube/kubeconfig';
import type { ContextOpenedInstead } from '../../shared/protocol/server-messages';

export const noCurrentContext = 'the kubeconfig sets no current-context';

export interface OpenedInsteadOptions {
  /** Opens a context of the kubeconfig as it reads now (it throws when the context cannot open). */
  open: (context: string) => Promise<ClusterSession>;
  /** What the pickers say of the session changed: tell the renderers. */
  onSaid: () => void;
  log: (message: string) => void;
}

export class OpenedInstead {
  /**
   * The current context and its entry (connection-entry.ts) last tried: a context that failed to
   * open is tried again once either changes, not at every save of the file for another context.
   */
  private tried: string | undefined;

  /**
   * `said` is what the pickers say of `session` (see ContextDescription.openedInstead); `failed`, the
   * kubeconfig whose current context failed to open at start.
   */
  constructor(
    readonly session: ClusterSession,
    public said: ContextOpenedInstead,
    private readonly options: OpenedInsteadOptions,
    failed?: Kubeconfig,
  ) {
    if (failed) this.tried = attempt(failed);
  }

  /**
   * How to open `reading`'s current context in place of `current`: while `current` is this session
   * and the reading makes current a context not yet tried as it reads now. A failed opening keeps
   * `current` and says why.
   */
  opener(reading: Kubeconfig, current: ClusterSession): SessionOpener | undefined {
    if (current !== this.session) return undefined;
    const context = reading.currentContext;
    if (context === '') {
      // Mended without one, or made current and then unset: say so, not an older reason.
      if (this.said.cause !== 'no-current-context')
        this.say({ context: '', cause: 'no-current-context', reason: noCurrentContext });
      this.tried = undefined;
      return undefined;
    }
    const tried = attempt(reading);
    if (context === this.session.context || tried === this.tried) return undefined;
    this.tried = tried;
    return async () => {
      this.options.log(
        `kubetide: the kubeconfig now makes context ${context} current; opening it in place of the embedded cluster`,
      );
      try {
        return await this.options.open(context);
      } catch (error) {
        const reason = messageOf(error);
        this.options.log(
          `kubetide: context ${context} could not be opened (${reason}); the embedded cluster stays`,
        );
        this.say({ context, cause: 'failed', reason });
        return current;
      }
    };
  }

  private say(said: ContextOpenedInstead): void {
    this.said = said;
    this.options.onSaid();
  }
}

/** The current context with its entry as `kubeconfig` reads (empty where it defines none). */
function attempt(kubeconfig: Kubeconfig): string {
  const context = kubeconfig.currentContext;
  return `${context}\n${kubeconfig.connectionEntry(context) ?? ''}`;
}
