// The part of Kubernetes' JSONPath (k8s.io/client-go/util/jsonpath) that CRD additionalPrinterColumns use:
// `.field`, `['field.with.dots']`, `[index]` (negative counts from the end), `[*]`, `.*`, and filters
// `[?(@.type=="Ready")]` with ==, !=, <, <=, >, >= or a bare `@.path` for presence.

type Json = unknown;

type Step =
  | { type: 'field'; name: string }
  | { type: 'index'; index: number }
  | { type: 'wildcard' }
  | { type: 'filter'; path: Step[]; operator?: string; literal?: Json };

export class JsonPathError extends Error {
  override readonly name = 'JsonPathError';
}

function parseLiteral(text: string): Json {
  const trimmed = text.trim();
  if (/^'.*'$/s.test(trimmed)) return trimmed.slice(1, -1);
  if (/^".*"$/s.test(trimmed)) return trimmed.slice(1, -1);
  if (trimmed === 'true' || trimmed === 'false') return trimmed === 'true';
  const number = Number(trimmed);
  if (trimmed === '' || Number.isNaN(number)) throw new JsonPathError(`unrecognized literal ${trimmed}`);
  return number;
}

function parseFilter(body: string): Step {
  const match = /^\s*@((?:\.[^.\s=!<>]+|\[[^\]]*\])*)\s*(?:(==|!=|<=|>=|<|>)\s*(.+?))?\s*$/s.exec(body);
  if (match === null) throw new JsonPathError(`unrecognized filter ${body}`);
  const path = parseSteps(match[1]!);
  return match[2] === undefined
    ? { type: 'filter', path }
    : { type: 'filter', path, operator: match[2], literal: parseLiteral(match[3]!) };
}

function parseBracket(body: string): Step {
  const trimmed = body.trim();
  if (trimmed === '*') return { type: 'wildcard' };
  if (/^-?\d+$/.test(trimmed)) return { type: 'index', index: Number(trimmed) };
  const quoted = /^(['"])(.*)\1$/s.exec(trimmed);
  if (quoted !== null) return { type: 'field', name: quoted[2]! };
  const filter = /^\?\((.*)\)$/s.exec(trimmed);
  if (filter !== null) return parseFilter(filter[1]!);
  throw new JsonPathError(`unsupported subscript [${body}]`);
}

function parseSteps(path: string): Step[] {
  const steps: Step[] = [];
  let position = 0;
  while (position < path.length) {
    const character = path[position];
    if (character === '.') {
      const end = path.slice(position + 1).search(/[.[]/);
      const name = end === -1 ? path.slice(position + 1) : path.slice(position + 1, position + 1 + end);
      if (name === '') throw new JsonPathError(`empty field name at ${position}`);
      steps.push(name === '*' ? { type: 'wildcard' } : { type: 'field', name });
      position += 1 + name.length;
    } else if (character === '[') {
      // A filter may contain "]" inside quotes, so find the bracket that closes this one.
      let depth = 0;
      let quote: string | undefined;
      let end = position;
      for (; end < path.length; end++) {
        const current = path[end];
        if (quote !== undefined) {
          if (current === quote) quote = undefined;
        } else if (current === '"' || current === "'") {
          quote = current;
        } else if (current === '[') {
          depth++;
        } else if (current === ']' && --depth === 0) {
          break;
        }
      }
      if (end >= path.length) throw new JsonPathError(`unterminated [ at ${position}`);
      steps.push(parseBracket(path.slice(position + 1, end)));
      position = end + 1;
    } else {
      throw new JsonPathError(`unexpected ${character} at ${position}`);
    }
  }
  return steps;
}

/** Parses a printer column's path: ".status.replicas", optionally wrapped in "{...}". */
export function parseJsonPath(path: string): Step[] {
  const trimmed = path.trim();
  const inner = trimmed.startsWith('{') && trimmed.endsWith('}') ? trimmed.slice(1, -1).trim() : trimmed;
  return parseSteps(inner.startsWith('$') ? inner.slice(1) : inner);
}

function compare(left: Json, operator: string, right: Json): boolean {
  switch (operator) {
    case '==':
      return left === right;
    case '!=':
      return left !== right;
  }
  if (typeof left !== typeof right || (typeof left !== 'number' && typeof left !== 'string')) return false;
  const [a, b] = [left as number | string, right as number | string];
  return operator === '<' ? a < b : operator === '<=' ? a <= b : operator === '>' ? a > b : a >= b;
}

function children(value: Json): Json[] {
  if (Array.isArray(value)) return value;
  if (typeof value === 'object' && value !== null) return Object.values(value);
  return [];
}

function apply(values: Json[], step: Step): Json[] {
  const results: Json[] = [];
  for (const value of values) {
    switch (step.type) {
      case 'field':
        if (
          typeof value === 'object' &&
          value !== null &&
          !Array.isArray(value) &&
          Object.hasOwn(value, step.name)
        ) {
          results.push((value as Record<string, Json>)[step.name]);
        }
        break;
      case 'index':
        if (Array.isArray(value)) {
          const index = step.index < 0 ? value.length + step.index : step.index;
          if (index >= 0 && index < value.length) results.push(value[index]);
        }
        break;
      case 'wildcard':
        results.push(...children(value));
        break;
      case 'filter':
        for (const item of children(value)) {
          const found = evaluateSteps(item, step.path);
          if (
            step.operator === undefined
              ? found.length > 0
              : found.some((candidate) => compare(candidate, step.operator!, step.literal))
          ) {
            results.push(item);
          }
        }
        break;
    }
  }
  return results;
}

function evaluateSteps(root: Json, steps: readonly Step[]): Json[] {
  return steps.reduce<Json[]>((values, step) => apply(values, step), [root]);
}

/** Every value the path reaches in `root`, in document order; [] when it reaches nothing. */
export function evaluateJsonPath(root: Json, path: string): Json[] {
  return evaluateSteps(root, parseJsonPath(path));
}

export type ParsedJsonPath = ReturnType<typeof parseJsonPath>;

/** Evaluates a path parsed once with parseJsonPath, for columns applied to many objects. */
export function evaluateParsedJsonPath(root: Json, steps: ParsedJsonPath): Json[] {
  return evaluateSteps(root, steps);
}
