// A small seeded generator (mulberry32) so a seed reproduces a whole run: seeding, churn choices,
// crash loops and node failures all draw from one stream.

export class SeededRandom {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0 || 0x9e3779b9;
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let value = this.state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  }

  /** Uniform integer in [0, bound). */
  int(bound: number): number {
    return Math.floor(this.next() * bound);
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  /** Lower-case alphanumerics without vowels, as Kubernetes' rand.String uses for generated names. */
  suffix(length: number): string {
    const alphabet = 'bcdfghjklmnpqrstvwxz2456789';
    let text = '';
    for (let index = 0; index < length; index++) text += alphabet[this.int(alphabet.length)];
    return text;
  }

  /** A version-4-shaped UUID drawn from this stream, so uids are reproducible too. */
  uid(): string {
    const word = () => (Math.floor(this.next() * 4294967296) >>> 0).toString(16).padStart(8, '0');
    const [a, b, c, d] = [word(), word(), word(), word()];
    return `${a}-${b.slice(0, 4)}-4${b.slice(5, 8)}-${'89ab'[this.int(4)]}${c.slice(1, 4)}-${c.slice(4)}${d}`;
  }
}
