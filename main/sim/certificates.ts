// The embedded cluster's PKI, made at start as kubeadm makes a real cluster's: a self-signed CA, and
// a serving certificate it signs for the loopback names (127.0.0.1, ::1, localhost). Clients trust
// the CA through the kubeconfig's certificate-authority-data, so TLS is verified as against a real
// API server (no insecure-skip-tls-verify). ECDSA P-256 keys through WebCrypto (@peculiar/x509 builds
// the certificates; no hand-written ASN.1): generating both takes milliseconds, and the pair is made
// once per process and shared by every cluster it starts.
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

export interface ServingCertificates {
  /** PEM of the CA certificate, for the kubeconfig and for clients' `ca`. */
  certificateAuthority: string;
  /** PEM of the server certificate. */
  certificate: string;
  /** PEM (PKCS#8) of the server's private key. */
  privateKey: string;
}

const algorithm = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
const dayMs = 24 * 60 * 60 * 1000;
let shared: Promise<ServingCertificates> | undefined;

/** The process's CA and loopback serving certificate (made on first use). */
export function servingCertificates(): Promise<ServingCertificates> {
  shared ??= generateServingCertificates();
  return shared;
}

async function generateServingCertificates(): Promise<ServingCertificates> {
  // Node's WebCrypto is the DOM's Crypto that @peculiar/x509 declares (main/ has no DOM types).
  x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[1]);
  const crypto = webcrypto;
  // Backdated an hour so a client clock slightly behind still accepts them; a year is longer than
  // any process lives.
  const notBefore = new Date(Date.now() - 60 * 60 * 1000);
  const notAfter = new Date(Date.now() + 365 * dayMs);
  const authorityKeys = await crypto.subtle.generateKey(algorithm, true, ['sign', 'verify']);
  const authority = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serialNumber(),
    name: 'CN=kubetide-embedded-ca',
    notBefore,
    notAfter,
    keys: authorityKeys,
    signingAlgorithm: algorithm,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(
        x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign | x509.KeyUsageFlags.digitalSignature,
        true,
      ),
      await x509.SubjectKeyIdentifierExtension.create(authorityKeys.publicKey),
    ],
  });
  const serverKeys = await crypto.subtle.generateKey(algorithm, true, ['sign', 'verify']);
  const server = await x509.X509CertificateGenerator.create({
    serialNumber: serialNumber(),
    subject: 'CN=kube-apiserver',
    issuer: authority.subject,
    notBefore,
    notAfter,
    publicKey: serverKeys.publicKey,
    signingKey: authorityKeys.privateKey,
    signingAlgorithm: algorithm,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      new x509.SubjectAlternativeNameExtension([
        { type: 'ip', value: '127.0.0.1' },
        { type: 'ip', value: '::1' },
        { type: 'dns', value: 'localhost' },
      ]),
      await x509.AuthorityKeyIdentifierExtension.create(authority),
    ],
  });
  const pkcs8 = await crypto.subtle.exportKey('pkcs8', serverKeys.privateKey);
  return {
    certificateAuthority: authority.toString('pem'),
    certificate: server.toString('pem'),
    privateKey: x509.PemConverter.encode(pkcs8, 'PRIVATE KEY'),
  };
}

/** A random positive 128-bit serial, in hex (RFC 5280 asks for unique, at most 20 octets). */
function serialNumber(): string {
  const bytes = webcrypto.getRandomValues(new Uint8Array(16));
  bytes[0] &= 0x7f;
  return Buffer.from(bytes).toString('hex');
}
