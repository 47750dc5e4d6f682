// A renderer's questions that it may withdraw before they are answered (historyMetricsCancel): the
// answer of a withdrawn one is not sent, only a small error saying so. The reading itself runs on (it
// is the query worker's, and cheap to drop); what is saved is main relaying its bytes and the page
// parsing them (at 150,000 pods a past moment's metrics are 8 MB, which went out on the connection
// ahead of a playback's rows and cursor, then parsed by the page only to be dropped).

class WithdrawnError extends Error {
  constructor() {
    super('the question was withdrawn: the renderer no longer wants its answer');
  }
}

export class WithdrawableQuestions {
  /** The questions unanswered, by request id: true once withdrawn. */
  private readonly open = new Map<number, boolean>();

  /**
   * The answer `produce` makes to question `requestId`, or a WithdrawnError once the question is
   * withdrawn; `produce` may ask whether it is, to stop early (sending parts of its answer).
   */
  async answer<T>(requestId: number, produce: (withdrawn: () => boolean) => Promise<T>): Promise<T> {
    this.open.set(requestId, false);
    const withdrawn = () => this.open.get(requestId) === true;
    try {
      const answer = await produce(withdrawn);
      if (withdrawn()) throw new WithdrawnError();
      return answer;
    } finally {
      this.open.delete(requestId);
    }
  }

  /** Withdraws question `requestId`: true when it was still unanswered. */
  withdraw(requestId: number): boolean {
    if (!this.open.has(requestId)) return false;
    this.open.set(requestId, true);
    return true;
  }
}
