// Builds the renderer once, before any test file runs, so the browser suites (whose browser mode
// checks the build again, finding it fresh) never build it themselves. From a clean clone (CI), two
// of them starting together in parallel workers each found no build and ran vite into the same
// out/renderer, one build emptying the folder under the other suite's page (seen as a suite whose
// page never showed its filter bar within 60 s); builds now swap into place whole besides
// (main/app/folder-swap.ts).
import { ensureRendererBuilt } from '../main/app/renderer-build';

export default async function setup(): Promise<void> {
  await ensureRendererBuilt(() => undefined);
}
