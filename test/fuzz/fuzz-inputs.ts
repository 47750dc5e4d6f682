// Generators of hostile input for the fuzz tests, all from a seeded random source so that a failing
// case is reproduced by its seed and iteration.
import type { SeededRandom } from '../support/seeded-random';

/** Text drawn mostly from `alphabet`, sometimes from anywhere in Unicode (lone surrogates included). */
export function randomText(random: SeededRandom, alphabet: string, maximumLength: number): string {
  const length = random.integer(maximumLength + 1);
  let text = '';
  for (let index = 0; index < length; index++) {
    text += random.chance(0.9)
      ? alphabet[random.integer(alphabet.length)]
      : String.fromCharCode(random.integer(0x10000));
  }
  return text;
}

/** A random JSON-like value: the shapes a confused or malicious renderer might send. */
export function randomValue(random: SeededRandom, depth = 0): unknown {
  const choice = random.integer(depth > 3 ? 6 : 9);
  switch (choice) {
    case 0:
      return null;
    case 1:
      return undefined;
    case 2:
      return random.chance(0.5);
    case 3:
      return random.pick([0, -1, 1.5, Number.NaN, Infinity, 2 ** 53, random.integer(1000)]);
    case 4:
      return randomText(random, 'abcdefghijklmnopqrstuvwxyz0123456789-./', 20);
    case 5:
      return random.pick(['', 'v1', 'pods', 'apps', 'default', '../etc/passwd', 'x'.repeat(5000)]);
    case 6:
      return Array.from({ length: random.integer(4) }, () => randomValue(random, depth + 1));
    default: {
      const object: Record<string, unknown> = {};
      const keys = ['type', 'requestId', 'subscriptionId', 'gvr', 'group', 'version', 'resource'];
      const more = ['namespace', 'name', 'reveal', 'lastSeq', 'seq', 'context', 'resume', '__proto__'];
      for (let count = random.integer(6); count > 0; count--) {
        object[random.pick([...keys, ...more, 'protocolVersion', 'involvedObject'])] = randomValue(
          random,
          depth + 1,
        );
      }
      return object;
    }
  }
}

/** Flips, drops, duplicates or inserts a few bytes of `bytes`. */
export function mutateBytes(random: SeededRandom, bytes: Buffer): Buffer {
  const result = [...bytes];
  for (let count = random.between(1, 4); count > 0 && result.length > 0; count--) {
    const at = random.integer(result.length);
    switch (random.integer(4)) {
      case 0:
        result[at] = random.integer(256);
        break;
      case 1:
        result.splice(at, 1);
        break;
      case 2:
        result.splice(at, 0, result[at]);
        break;
      default:
        result.splice(at, 0, random.pick([0x0a, 0x22, 0x7b, 0x7d, 0x5c, 0xff, 0xc3]));
    }
  }
  return Buffer.from(result);
}

/** Splits `bytes` into random chunks, as a network delivers them. */
export function randomChunks(random: SeededRandom, bytes: Buffer): Buffer[] {
  const chunks: Buffer[] = [];
  for (let start = 0; start < bytes.length;) {
    const size = random.chance(0.2) ? 1 : random.between(1, 64 * 1024);
    chunks.push(bytes.subarray(start, start + size));
    start += size;
  }
  return chunks;
}
