// The recording worker's profile by stage: each sample of a V8 CPU profile (recording-profile.ts
// --profile writes initial-list.cpuprofile and events.cpuprofile) goes to the first stage, in the
// order below, that a function of its stack belongs to, so a stage counts its callees too and each
// sample is counted once. profile-summary.ts gives self and total time by function; this answers
// "where does a change's time go" in the writer's terms:
//
//   npx tsx test/bench/recording-stages.ts DIR/events.cpuprofile [--leaves STAGE]
//
// --leaves STAGE lists what the samples of one stage were doing (leaf function < its caller).
// Shares are of the profile's busy samples: a profile on a loaded machine counts wall time, so
// compare shares, and take CPU time per change from recording-profile.ts's own figures.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Stages in order of precedence: a sample is the first one any frame of its stack matches. */
const stages: readonly (readonly [stage: string, matches: (name: string, file: string) => boolean])[] = [
  ['garbage collection', (name) => name === '(garbage collector)'],
  ['row frames', (name) => name === 'writeRowFramesDue'],
  ['zlib (versions deflated)', (name) => name === 'deflateRawSync' || name === 'syncBufferWrapper'],
  ['text deltas', (name) => name === 'encodeTextDelta'],
  ['objects table (new objects)', (name) => name === 'objectState'],
  ['reading the batch', (name) => name === 'readCapturedBatch'],
  ['keyframes', (name) => name === 'writeKeyframe'],
  ['change INSERT and bookkeeping', (name) => name === 'writeCapturedChange'],
  ['transaction (COMMIT)', (name) => name === 'sqliteTransaction'],
  ['session', (_name, file) => file === 'recording-session.ts'],
  ['server', (_name, file) => file === 'recording-server.ts'],
];

function main(): void {
  const [file, flag, wanted] = process.argv.slice(2);
  if (file === undefined || (flag !== undefined && (flag !== '--leaves' || wanted === undefined)))
    throw new Error('usage: recording-stages.ts PROFILE.cpuprofile [--leaves STAGE]');
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parents = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  const stageOf = new Map<number, string>();
  const stageOfNode = (id: number): string => {
    const known = stageOf.get(id);
    if (known !== undefined) return known;
    const stack: ProfileNode[] = [];
    for (let at: number | undefined = id; at !== undefined; at = parents.get(at)) stack.push(nodes.get(at)!);
    const found = stages.find(([, matches]) =>
      stack.some((node) => matches(node.callFrame.functionName, basename(node.callFrame.url))),
    );
    const stage = found?.[0] ?? 'other';
    stageOf.set(id, stage);
    return stage;
  };
  const byStage = new Map<string, number>();
  const leaves = new Map<string, number>();
  let busy = 0;
  profile.samples.forEach((sample, index) => {
    const node = nodes.get(sample)!;
    if (node.callFrame.functionName === '(idle)') return;
    const time = profile.timeDeltas[index] ?? 0;
    const stage = stageOfNode(sample);
    busy += time;
    byStage.set(stage, (byStage.get(stage) ?? 0) + time);
    if (stage !== wanted) return;
    const caller = nodes.get(parents.get(sample)!);
    const leaf = `${node.callFrame.functionName} ${basename(node.callFrame.url)} < ${caller?.callFrame.functionName ?? ''} ${basename(caller?.callFrame.url ?? '')}`;
    leaves.set(leaf, (leaves.get(leaf) ?? 0) + time);
  });
  const line = (ms: number, label: string) =>
    `${Math.round(ms).toString().padStart(8)} ms ${((100 * ms) / (busy / 1000)).toFixed(1).padStart(5)}%  ${label}`;
  console.log(`${file}: ${Math.round(busy / 1000)} ms busy`);
  for (const [stage, time] of [...byStage].sort((left, right) => right[1] - left[1]))
    console.log(line(time / 1000, stage));
  if (wanted === undefined) return;
  console.log(`\n  ${wanted}, by leaf:`);
  for (const [leaf, time] of [...leaves].sort((left, right) => right[1] - left[1]).slice(0, 25))
    console.log(line(time / 1000, leaf));
}

main();
