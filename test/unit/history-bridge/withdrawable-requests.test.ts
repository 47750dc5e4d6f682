// A withdrawal (historyWithdraw) reaches the request's work through its signal, with the reason its
// kind gives, and only while the request is unanswered: an answer already made stands.
import { describe, expect, it } from 'vitest';
import { WithdrawableRequests } from '../../../main/bridge/withdrawable-requests';

/** Work that runs until its signal is aborted, then rejects with the signal's reason. */
function untilWithdrawn(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason)));
}

describe('WithdrawableRequests', () => {
  it("aborts a request's work with its own reason, and only while it is unanswered", async () => {
    const requests = new WithdrawableRequests();
    const exporting = requests.run(3, untilWithdrawn, () => new Error('the export was cancelled'));
    const asking = requests.run(4, untilWithdrawn);
    expect(requests.withdraw(3)).toBe(true);
    await expect(exporting).rejects.toThrow('the export was cancelled');
    expect(requests.withdraw(4)).toBe(true);
    await expect(asking).rejects.toThrow(/withdrawn/);
    // Answered, or never asked: nothing to withdraw.
    expect(requests.withdraw(3)).toBe(false);
    expect(requests.withdraw(99)).toBe(false);
  });

  it('answers a request whose work had finished as it finished, though withdrawn before the reply', async () => {
    const requests = new WithdrawableRequests();
    let finish: (value: string) => void = () => {};
    let seen: AbortSignal | undefined;
    const answered = requests.run(1, (signal) => {
      seen = signal;
      return new Promise<string>((resolve) => (finish = resolve));
    });
    finish('written');
    // The withdrawal comes after the work resolved: its answer (a file written) is not turned into
    // "no file was written".
    expect(requests.withdraw(1)).toBe(true);
    await expect(answered).resolves.toBe('written');
    expect(seen?.aborted).toBe(true);
  });

  it('refuses a second request under an id still unanswered, and withdraws all on close', async () => {
    const requests = new WithdrawableRequests();
    const first = requests.run(7, untilWithdrawn);
    await expect(requests.run(7, untilWithdrawn)).rejects.toThrow(/already under way/);
    requests.withdrawAll('the connection closed');
    await expect(first).rejects.toThrow('the connection closed');
    expect(requests.withdraw(7)).toBe(false);
  });
});
