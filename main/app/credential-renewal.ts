// New credentials in the open context's kubeconfig entry, its server part unchanged (a token renewed
// by `oc login` or regenerated in Rancher, a client certificate reissued): the session goes on with
// them only when the API server knows them as the user it was opened as (SelfSubjectReview), who may
// read what it lists. Then its connection takes them and nothing is listed again (a renewed token used
// to relist every kind), and feeds failing on the expired token retry now. Anything else (another
// user, a user that cannot be told) opens the context again (backend.ts).
import type { Clock } from '../cache/clock';
import type { ClusterConnection } from '../kube/cluster-connection';
import { messageOf } from '../kube/errors';
import type { Kubeconfig } from '../kube/kubeconfig';
import type { AuthProviderFiles } from '../kube/kubeconfig-persister';
import { RestClient } from '../kube/rest-client';
import { describeUser, sameUser, selfSubjectReview } from '../kube/self-subject-review';
import type { OwnedClusterSession } from './owned-cluster-session';

export interface CredentialRenewalOptions {
  clock: Clock;
  log: (message: string) => void;
  authProviderFiles: AuthProviderFiles;
}

/** True when `session` took `reading`'s credentials for its context; false to open it again. */
export async function renewCredentials(
  session: OwnedClusterSession,
  reading: Kubeconfig,
  options: CredentialRenewalOptions,
): Promise<boolean> {
  const { context } = session;
  const { clock, log } = options;
  const reopening = (why: string) => {
    log(`kubetide: the kubeconfig's credentials for context ${context} changed; ${why}: opening it again`);
    return false;
  };
  let candidate: ClusterConnection | undefined;
  try {
    candidate = reading.connect(context, {
      clock,
      authProviderFiles: options.authProviderFiles,
      onExecRun: session.onExecRun,
    });
    const client = new RestClient(candidate, { clock });
    // Both asked at once; each failure says whose it is (the open session's may have been refused
    // from its start: a token that had expired before the app opened).
    const [before, after] = await Promise.allSettled([
      session.identity ?? Promise.reject(new Error('it was not asked')),
      selfSubjectReview(client, AbortSignal.timeout(30_000)),
    ]);
    if (before.status === 'rejected')
      return reopening(`who the open session is was not known (${messageOf(before.reason)})`);
    if (after.status === 'rejected')
      return reopening(`who the new ones are cannot be told (${messageOf(after.reason)})`);
    if (!sameUser(before.value, after.value))
      return reopening(`they are ${describeUser(after.value)}, not ${describeUser(before.value)}`);
    session.connection?.adoptCredentials(candidate);
    session.entry = reading.connectionEntry(context);
    session.retryFailing();
    log(
      `kubetide: context ${context} goes on with the kubeconfig's new credentials: the API server knows them as the same user, ${describeUser(after.value)}`,
    );
    return true;
  } catch (error) {
    // Thrown by connect (a proxy-url refused): the opening fails the same way, and says so.
    return reopening(messageOf(error));
  } finally {
    candidate?.close();
  }
}
