// An object as YAML in the read-only editor, loaded as a chunk of its own. CodeMirror and the YAML
// printer are 40% of the renderer's script; bundled with the rest, every page start parsed and ran
// them before its first row (the bundle's evaluation took 160 ms of the page's CPU at 150,000 pods,
// with the script's arrival and the first rows waiting behind it), though they serve only the detail
// pane's YAML tab. The chunk is asked for when a row is first selected (preloadObjectYaml), so by the
// time its detail opens it is usually in.
import { lazy, Suspense, type ReactNode } from 'react';

const loadYamlView = () => import('./yaml-view');

const LazyObjectYaml = lazy(async () => {
  const { YamlView, objectYaml } = await loadYamlView();
  return { default: (props: { readonly object: unknown }) => <YamlView text={objectYaml(props.object)} /> };
});

export function ObjectYaml(props: { readonly object: unknown }): ReactNode {
  return (
    <Suspense fallback={<div className="detail-message">Loading…</div>}>
      <LazyObjectYaml object={props.object} />
    </Suspense>
  );
}

/** Starts loading the YAML view's chunk (once; later calls share it). */
export function preloadObjectYaml(): void {
  void loadYamlView();
}
