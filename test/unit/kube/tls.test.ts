import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { TLSSocket } from 'node:tls';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ClusterConnection } from '../../../main/kube/cluster-connection';
import { TlsVerificationError } from '../../../main/kube/errors';
import { Kubeconfig } from '../../../main/kube/kubeconfig';
import { RestClient } from '../../../main/kube/rest-client';
import { kubeconfigYaml, rejectionOf, sendJson, startServer } from './local-server';
import type { LocalServer } from './local-server';

function opensslAvailable(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const directory = mkdtempSync(path.join(tmpdir(), 'kubetide-tls-'));
const file = (name: string) => path.join(directory, name);
const base64 = (name: string) => readFileSync(file(name)).toString('base64');
let server: LocalServer;
let connection: ClusterConnection | undefined;
/** The common name of the client certificate the server saw on the last request, if any. */
let clientName: string | undefined;

function openssl(...args: string[]): void {
  execFileSync('openssl', args, { cwd: directory, stdio: 'ignore' });
}

/** A CA, a server certificate for 127.0.0.1 and a client certificate for user "jane", all from the CA. */
function generateCertificates(): void {
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl(
    'req',
    '-x509',
    ...ec,
    '-keyout',
    'ca.key',
    '-out',
    'ca.crt',
    '-days',
    '1',
    '-subj',
    '/CN=kubetide-test-ca',
  );
  writeFileSync(file('server.ext'), 'subjectAltName=IP:127.0.0.1\n');
  openssl('req', ...ec, '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=127.0.0.1');
  openssl(
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    'ca.crt',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'server.crt',
    '-days',
    '1',
    '-extfile',
    'server.ext',
  );
  openssl('req', ...ec, '-keyout', 'client.key', '-out', 'client.csr', '-subj', '/CN=jane/O=dev');
  openssl(
    'x509',
    '-req',
    '-in',
    'client.csr',
    '-CA',
    'ca.crt',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'client.crt',
    '-days',
    '1',
  );
}

async function get(kubeconfig: Kubeconfig): Promise<unknown> {
  connection = kubeconfig.connect();
  return new RestClient(connection).json({
    path: '/version',
    description: { verb: 'get', resource: 'version' },
  });
}

describe.skipIf(!opensslAvailable())('TLS and client certificates', () => {
  beforeAll(async () => {
    generateCertificates();
    server = await startServer(
      (request, response) => {
        const peer = (request.socket as TLSSocket).getPeerCertificate();
        clientName = peer && 'subject' in peer && peer.subject ? String(peer.subject.CN) : undefined;
        sendJson(response, 200, { gitVersion: 'v1.36.0' });
      },
      {
        key: readFileSync(file('server.key')),
        cert: readFileSync(file('server.crt')),
        ca: readFileSync(file('ca.crt')),
        requestCert: true,
        rejectUnauthorized: false,
      },
    );
  });
  afterEach(() => {
    connection?.close();
    connection = undefined;
    clientName = undefined;
  });
  afterAll(async () => {
    await server?.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it('verifies the server against certificate-authority and presents the client certificate files', async () => {
    // Relative paths resolve against the kubeconfig's own folder, as kubectl does.
    const yaml = kubeconfigYaml(
      server.url,
      { 'client-certificate': 'client.crt', 'client-key': 'client.key' },
      { 'certificate-authority': 'ca.crt' },
    );
    writeFileSync(file('kubeconfig'), yaml);
    expect(await get(Kubeconfig.fromFiles([file('kubeconfig')]))).toEqual({ gitVersion: 'v1.36.0' });
    expect(clientName).toBe('jane');
  });

  it('accepts the same material inline as base64 data', async () => {
    const yaml = kubeconfigYaml(
      server.url,
      { 'client-certificate-data': base64('client.crt'), 'client-key-data': base64('client.key') },
      { 'certificate-authority-data': base64('ca.crt') },
    );
    await get(Kubeconfig.fromString(yaml));
    expect(clientName).toBe('jane');
  });

  it('fails with a TlsVerificationError that suggests certificate-authority when the CA is unknown', async () => {
    const error = await rejectionOf<TlsVerificationError>(
      get(Kubeconfig.fromString(kubeconfigYaml(server.url))),
    );
    expect(error).toBeInstanceOf(TlsVerificationError);
    expect(error.message).toContain(server.url);
    expect(error.message).toContain('certificate-authority');
    expect(error.message).toContain('insecure-skip-tls-verify');
  });

  it('connects without verification when insecure-skip-tls-verify is set', async () => {
    const yaml = kubeconfigYaml(server.url, {}, { 'insecure-skip-tls-verify': true });
    expect(await get(Kubeconfig.fromString(yaml))).toEqual({ gitVersion: 'v1.36.0' });
    expect(clientName).toBeUndefined();
  });
});
