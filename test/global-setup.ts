// Builds the renderer once, before any test file runs. Each browser suite calls ensureRendererBuilt
// too; from a clean clone (CI), two of them starting together in parallel workers each found no build
// and ran vite into the same out/renderer, one build emptying the folder under the other suite's page
// (seen as a suite whose page never showed its filter bar within 60 s).
import { ensureRendererBuilt } from '../main/app/renderer-build';

export default async function setup(): Promise<void> {
  await ensureRendererBuilt(() => undefined);
}
