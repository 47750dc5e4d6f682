// The namespaces every cluster is created with (kube-apiserver's system namespaces and `default`):
// the embedded cluster makes them first, and the seeding of application objects leaves them out.
export const builtinNamespaces: ReadonlySet<string> = new Set([
  'default',
  'kube-system',
  'kube-public',
  'kube-node-lease',
]);
