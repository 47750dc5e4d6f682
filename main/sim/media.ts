// Content negotiation on Accept, as the apiserver does it for JSON: plain objects, a meta.k8s.io/v1
// Table (what kubectl get asks for), or PartialObjectMetadata(List) (metadata-only informers).

export type Rendering = 'object' | 'table' | 'metadata';

interface MediaRange {
  type: string;
  parameters: Map<string, string>;
}

function parseAccept(header: string): MediaRange[] {
  return header
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const [type, ...parameterTexts] = part.split(';').map((piece) => piece.trim());
      const parameters = new Map<string, string>();
      for (const text of parameterTexts) {
        const [name, value = ''] = text.split('=');
        parameters.set(name.trim().toLowerCase(), value.trim());
      }
      return { type: type.toLowerCase(), parameters };
    });
}

/**
 * The first acceptable rendering in the client's order, or undefined when nothing offered can be
 * produced (406). An absent header means plain JSON.
 */
export function negotiateRendering(accept: string | undefined): Rendering | undefined {
  if (!accept) return 'object';
  for (const range of parseAccept(accept)) {
    if (range.type !== 'application/json' && range.type !== '*/*' && range.type !== 'application/*') continue;
    const as = range.parameters.get('as');
    if (as === undefined) return 'object';
    const group = range.parameters.get('g');
    const version = range.parameters.get('v');
    if (group !== 'meta.k8s.io' || (version !== 'v1' && version !== 'v1beta1')) continue;
    if (as === 'Table') return 'table';
    if (as === 'PartialObjectMetadata' || as === 'PartialObjectMetadataList') return 'metadata';
  }
  return undefined;
}
