// What the embedded cluster's metrics-server would report: CPU and memory per running container and per
// Ready node, sampled once per resolution window (metrics-server's 15 s scrape by default). Values are a
// random walk per container, seeded by the cluster's seed and the container's identity, scaled to its
// requests and capped by its limits; a crash-looping pod barely runs and so uses next to nothing; a
// node uses the sum of its pods plus the kubelet's and the runtime's own overhead.
//
// The walk advances lazily when a scrape is asked for, one step per elapsed window (a few at most after
// a long quiet spell), so an idle cluster spends nothing on metrics and a scrape costs one pass over
// the pods, at most once per window however often it is read.
import type { KubeObject } from '../../shared/kube/object';
import { parseQuantity } from '../../shared/kube/quantity';
import type { ObjectStore } from './object-store';
import { podStageOf } from './pod-lifecycle';
import { isNodeReady } from './workload-objects';

/** metrics-server's --metric-resolution default. */
export const defaultMetricResolutionMs = 15_000;

export interface ContainerUsage {
  name: string;
  /** Cores. */
  cpu: number;
  /** Bytes. */
  memory: number;
}

export interface PodUsage {
  pod: KubeObject;
  containers: ContainerUsage[];
}

export interface NodeUsage {
  node: KubeObject;
  cpu: number;
  memory: number;
}

export interface Scrape {
  /** When the samples were taken: the start of the current resolution window (epoch ms). */
  timestamp: number;
  /** By "namespace/name". */
  pods: Map<string, PodUsage>;
  /** By name. */
  nodes: Map<string, NodeUsage>;
}

type Json = Record<string, unknown>;

/** Steps replayed at most after a pause, so the first scrape after hours of quiet stays cheap. */
const maximumCatchUpSteps = 8;
const mebibyte = 2 ** 20;
/** The kubelet, container runtime and system daemons on every node. */
const nodeOverheadCpu = 0.12;
const nodeOverheadMemory = 900 * mebibyte;

/** A uniform draw in [0, 1) from a 32-bit hash of the seed, a key and a step (FNV-1a, then mixed). */
function draw(seed: number, key: string, step: number): number {
  let hash = (0x811c9dc5 ^ seed) >>> 0;
  for (let index = 0; index < key.length; index++) hash = Math.imul(hash ^ key.charCodeAt(index), 0x01000193);
  hash = Math.imul(hash ^ step, 0x01000193);
  hash ^= hash >>> 15;
  hash = Math.imul(hash, 0x2c1b3c6d);
  hash ^= hash >>> 12;
  return (hash >>> 0) / 4294967296;
}

function quantity(
  resources: Json | undefined,
  field: 'requests' | 'limits',
  name: string,
): number | undefined {
  const text = (resources?.[field] as Record<string, string> | undefined)?.[name];
  return text === undefined ? undefined : parseQuantity(text);
}

/** A container's requests and limits, parsed. */
interface ContainerResources {
  cpuRequest: number;
  memoryRequest: number;
  cpuLimit: number;
  memoryLimit: number;
}

/**
 * Parsed once per container object: a stored object is replaced, never changed, so a pod that did not
 * change keeps its containers' objects from one scrape to the next (four parseQuantity calls a
 * container were a third of a 150,000-pod scrape).
 */
const parsedResources = new WeakMap<Json, ContainerResources>();

function resourcesOf(container: Json): ContainerResources {
  let parsed = parsedResources.get(container);
  if (parsed === undefined) {
    const resources = container.resources as Json | undefined;
    parsed = {
      cpuRequest: quantity(resources, 'requests', 'cpu') ?? 0.05,
      memoryRequest: quantity(resources, 'requests', 'memory') ?? 64 * mebibyte,
      cpuLimit: quantity(resources, 'limits', 'cpu') ?? Number.POSITIVE_INFINITY,
      memoryLimit: quantity(resources, 'limits', 'memory') ?? Number.POSITIVE_INFINITY,
    };
    parsedResources.set(container, parsed);
  }
  return parsed;
}

interface Walk {
  /** In [0, 1]: how busy the container is relative to its requests. */
  level: number;
  window: number;
}

export class MetricsScraper {
  private readonly walks = new Map<string, Walk>();
  private last: Scrape | undefined;
  private lastWindow = Number.NaN;

  constructor(
    private readonly store: ObjectStore,
    private readonly seed: number,
    readonly resolutionMs: number = defaultMetricResolutionMs,
  ) {}

  /** The samples of the window containing `now`, taken once per window. */
  scrape(now: number): Scrape {
    const window = Math.floor(now / this.resolutionMs);
    if (this.last && window === this.lastWindow) return this.last;
    const nodes = new Map<string, NodeUsage>();
    for (const { object } of this.store.values('nodes')) {
      if (!isNodeReady(object)) continue;
      const name = object.metadata.name ?? '';
      const level = this.level(`node/${name}`, window);
      nodes.set(name, {
        node: object,
        cpu: nodeOverheadCpu * (0.5 + level),
        memory: nodeOverheadMemory * (0.8 + level / 2),
      });
    }
    const pods = new Map<string, PodUsage>();
    for (const { object } of this.store.values('pods')) {
      const nodeName = (object.spec as Json | undefined)?.nodeName as string | undefined;
      const node = nodeName === undefined ? undefined : nodes.get(nodeName);
      const stage = podStageOf(object);
      // metrics-server scrapes kubelets: only pods with started containers on reachable nodes.
      if (!node || (stage !== 'Running' && stage !== 'CrashLoopBackOff')) continue;
      const usage = this.podUsage(object, stage === 'CrashLoopBackOff', window);
      pods.set(`${object.metadata.namespace}/${object.metadata.name}`, usage);
      for (const container of usage.containers) {
        node.cpu += container.cpu;
        node.memory += container.memory;
      }
    }
    // A container's walk is stepped to this window when its pod is scraped: one left behind belongs to a
    // container gone since (nodes keep theirs while NotReady).
    for (const [key, walk] of this.walks)
      if (walk.window !== window && !key.startsWith('node/')) this.walks.delete(key);
    this.last = { timestamp: window * this.resolutionMs, pods, nodes };
    this.lastWindow = window;
    return this.last;
  }

  private podUsage(pod: KubeObject, crashLooping: boolean, window: number): PodUsage {
    const containers = ((pod.spec as Json | undefined)?.containers as Json[] | undefined) ?? [];
    return {
      pod,
      containers: containers.map((container) => {
        const name = container.name as string;
        const key = `${pod.metadata.uid}/${name}`;
        const level = this.level(key, window);
        if (crashLooping) return { name, cpu: 0.0005 + level * 0.002, memory: (1 + level * 3) * mebibyte };
        const { cpuRequest, memoryRequest, cpuLimit, memoryLimit } = resourcesOf(container);
        return {
          name,
          cpu: Math.min(cpuRequest * (0.05 + 1.1 * level), cpuLimit),
          memory: Math.min(memoryRequest * (0.45 + 0.7 * level), memoryLimit * 0.97),
        };
      }),
    };
  }

  /** The walk of `key` at `window`, started from a seeded level the first time it is seen. */
  private level(key: string, window: number): number {
    let walk = this.walks.get(key);
    if (!walk) {
      walk = { level: 0.15 + 0.6 * draw(this.seed, key, 0), window };
      this.walks.set(key, walk);
    }
    const steps = Math.min(window - walk.window, maximumCatchUpSteps);
    for (let step = 0; step < steps; step++) {
      const change = (draw(this.seed, key, window - steps + step + 1) - 0.5) * 0.24;
      walk.level = Math.min(1, Math.max(0, walk.level + change));
    }
    walk.window = window;
    return walk.level;
  }
}
