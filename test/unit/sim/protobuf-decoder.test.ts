import { describe, expect, it } from 'vitest';
import { decodeProtobufDeleteOptions, decodeProtobufObject } from '../../../main/sim/protobuf-decoder';
import { StatusError } from '../../../shared/kube/status';

// What kubectl v1.32.4 sends for `kubectl create configmap foo --from-literal=a=1`, copied from its
// -v=8 request dump: every non-pointer ObjectMeta field is on the wire, empty.
const kubectlConfigMap = Buffer.from(
  '6b3873000a0f0a0276311209436f6e6669674d6170121d0a130a03666f6f12001a0022002a00320038004200' +
    '12060a01611201311a002200',
  'hex',
);

// A minimal protobuf writer, enough to build bodies for the cases kubectl's dump does not cover.
type Bytes = number[];
function varint(value: bigint): Bytes {
  const bytes: Bytes = [];
  let rest = BigInt.asUintN(64, value);
  do {
    const low = Number(rest & 0x7fn);
    rest >>= 7n;
    bytes.push(rest > 0n ? low | 0x80 : low);
  } while (rest > 0n);
  return bytes;
}
const integer = (number: number, value: number): Bytes => [
  ...varint(BigInt(number << 3)),
  ...varint(BigInt(value)),
];
function nested(number: number, payload: Bytes | string): Bytes {
  const bytes = typeof payload === 'string' ? [...Buffer.from(payload)] : payload;
  return [...varint(BigInt((number << 3) | 2)), ...varint(BigInt(bytes.length)), ...bytes];
}
const entry = (number: number, key: string, value: Bytes | string): Bytes =>
  nested(number, [...nested(1, key), ...nested(2, value)]);
const envelope = (apiVersion: string, kind: string, raw: Bytes): Uint8Array =>
  Uint8Array.from([
    0x6b,
    0x38,
    0x73,
    0x00,
    ...nested(1, [...nested(1, apiVersion), ...nested(2, kind)]),
    ...nested(2, raw),
  ]);

function statusCodeOf(action: () => unknown): number {
  try {
    action();
  } catch (error) {
    if (error instanceof StatusError) return error.code;
    throw error;
  }
  throw new Error('expected a StatusError');
}

describe('Kubernetes protobuf request bodies', () => {
  it('decode the ConfigMap kubectl sends, leaving out the empty fields omitempty would', () => {
    expect(decodeProtobufObject(kubectlConfigMap)).toEqual({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'foo' },
      data: { a: '1' },
    });
  });

  it('keep a zero a pointer field carries (replicas: 0) and drop a non-pointer zero', () => {
    const deployment = decodeProtobufObject(
      envelope('apps/v1', 'Deployment', [
        ...nested(1, nested(1, 'web')),
        ...nested(2, [...integer(1, 0), ...integer(5, 0), ...nested(4, [])]),
      ]),
    );
    expect(deployment.spec).toEqual({ replicas: 0, strategy: {} });
  });

  it('read negative int32s, IntOrString, Time, byte maps and repeated messages', () => {
    const service = decodeProtobufObject(
      envelope('v1', 'Service', [
        ...nested(1, [...nested(1, 'api'), ...nested(8, integer(1, 1_700_000_000))]),
        ...nested(2, [
          ...nested(1, [...integer(3, 80), ...nested(4, [...integer(1, 1), ...nested(3, 'http')])]),
          ...nested(1, [...integer(3, 443), ...nested(4, [...integer(1, 0), ...integer(2, 8443)])]),
          ...integer(12, -1),
        ]),
      ]),
    );
    expect(service.metadata.creationTimestamp).toBe('2023-11-14T22:13:20Z');
    expect(service.spec).toEqual({
      ports: [
        { port: 80, targetPort: 'http' },
        { port: 443, targetPort: 8443 },
      ],
      healthCheckNodePort: -1,
    });
    const secret = decodeProtobufObject(envelope('v1', 'Secret', [...entry(2, 'token', [0xff, 0x00])]));
    expect(secret.data).toEqual({ token: '/wA=' });
  });

  it('decode the DeleteOptions of a typed client (kubectl drain), and no other kind in their place', () => {
    const options = envelope('v1', 'DeleteOptions', [
      ...integer(1, 30),
      ...nested(2, nested(1, 'uid-1')),
      ...nested(4, 'Background'),
      ...nested(5, 'All'),
    ]);
    expect(decodeProtobufDeleteOptions(options)).toEqual({
      gracePeriodSeconds: 30,
      preconditions: { uid: 'uid-1' },
      propagationPolicy: 'Background',
      dryRun: ['All'],
    });
    expect(decodeProtobufDeleteOptions(envelope('meta.k8s.io/v1', 'DeleteOptions', []))).toEqual({});
    expect(statusCodeOf(() => decodeProtobufDeleteOptions(kubectlConfigMap))).toBe(415);
    expect(statusCodeOf(() => decodeProtobufObject(options))).toBe(415);
  });

  it('refuse with 415 a set field the schema does not name, but pass over an unset one', () => {
    const withUnknown = (value: number) =>
      envelope('v1', 'ConfigMap', [...nested(1, nested(1, 'foo')), ...integer(99, value)]);
    expect(decodeProtobufObject(withUnknown(0)).metadata).toEqual({ name: 'foo' });
    expect(statusCodeOf(() => decodeProtobufObject(withUnknown(1)))).toBe(415);
  });

  it('refuse kinds without a schema with 415, and malformed bodies with 400', () => {
    expect(statusCodeOf(() => decodeProtobufObject(envelope('v1', 'Node', [])))).toBe(415);
    expect(statusCodeOf(() => decodeProtobufObject(Buffer.from('{"kind":"ConfigMap"}')))).toBe(400);
    expect(statusCodeOf(() => decodeProtobufObject(kubectlConfigMap.subarray(0, 30)))).toBe(400);
  });
});
