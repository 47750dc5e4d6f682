// A renderer's requests that it may withdraw before they are answered (historyWithdraw): a past
// moment's metrics the view has left, an export the user cancelled. The request's work is told
// through an AbortSignal, whose reason says why: an export's worker stops and removes its partial
// file; a metrics answer stops sending its parts and fails instead of carrying the answer (at 150,000
// pods a past moment's metrics are 8 MB, which went out on the connection ahead of a playback's rows
// and cursor, then were parsed by the page only to be dropped). A request whose work had finished
// when the withdrawal came is answered as it finished: an export's file was written, and says so.

class WithdrawnError extends Error {
  constructor() {
    super('the request was withdrawn: the renderer no longer wants its answer');
  }
}

export class WithdrawableRequests {
  /** The requests unanswered, by request id, each with what withdraws it and why it says it was. */
  private readonly open = new Map<number, { controller: AbortController; reason: () => Error }>();

  /**
   * The answer `produce` makes to request `requestId`; its `signal` is aborted when the request is
   * withdrawn, with `reason`'s error (else a generic one), for `produce` to stop and reject with.
   */
  async run<T>(
    requestId: number,
    produce: (signal: AbortSignal) => Promise<T>,
    reason: () => Error = () => new WithdrawnError(),
  ): Promise<T> {
    if (this.open.has(requestId)) throw new Error(`request ${requestId} is already under way`);
    const controller = new AbortController();
    this.open.set(requestId, { controller, reason });
    try {
      return await produce(controller.signal);
    } finally {
      this.open.delete(requestId);
    }
  }

  /** Withdraws request `requestId`: true when it was still unanswered. */
  withdraw(requestId: number): boolean {
    const request = this.open.get(requestId);
    if (!request) return false;
    if (!request.controller.signal.aborted) request.controller.abort(request.reason());
    return true;
  }

  /** Withdraws every request unanswered (the connection closed), each failing with `reason`. */
  withdrawAll(reason: string): void {
    for (const { controller } of this.open.values()) {
      if (!controller.signal.aborted) controller.abort(new Error(reason));
    }
  }
}
