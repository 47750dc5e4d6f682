// PodLogOptions from the query of GET .../pods/{name}/log, converted and validated as kube-apiserver
// does: a value that does not parse is 400 BadRequest; one that parses but breaks a rule
// (ValidatePodLogOptions) is 422 Invalid on kind PodLogOptions.
import type { StatusCause } from '../../shared/kube/status';
import { StatusError, newStatus } from '../../shared/kube/status';
import { badRequest } from './api-errors';

export interface PodLogOptions {
  container?: string;
  follow: boolean;
  previous: boolean;
  timestamps: boolean;
  tailLines?: number;
  sinceSeconds?: number;
  /** Epoch ms, from sinceTime (RFC 3339). */
  sinceTime?: number;
  limitBytes?: number;
}

/** strconv.ParseBool, which the query conversion uses. */
function readBoolean(query: URLSearchParams, name: string): boolean {
  const text = query.get(name);
  if (text === null || text === '') return false;
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(text)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(text)) return false;
  throw badRequest(`strconv.ParseBool: parsing "${text}": invalid syntax`);
}

function readInteger(query: URLSearchParams, name: string): number | undefined {
  const text = query.get(name);
  if (text === null || text === '') return undefined;
  if (!/^[+-]?\d+$/.test(text)) throw badRequest(`strconv.ParseInt: parsing "${text}": invalid syntax`);
  return Number(text);
}

export function readPodLogOptions(query: URLSearchParams, podName: string): PodLogOptions {
  const sinceTimeText = query.get('sinceTime');
  let sinceTime: number | undefined;
  if (sinceTimeText) {
    sinceTime = Date.parse(sinceTimeText);
    if (!/^\d{4}-\d\d-\d\dT/.test(sinceTimeText) || Number.isNaN(sinceTime))
      throw badRequest(`parsing time "${sinceTimeText}" as "2006-01-02T15:04:05Z07:00": cannot parse`);
  }
  const options: PodLogOptions = {
    container: query.get('container') || undefined,
    follow: readBoolean(query, 'follow'),
    previous: readBoolean(query, 'previous'),
    timestamps: readBoolean(query, 'timestamps'),
    tailLines: readInteger(query, 'tailLines'),
    sinceSeconds: readInteger(query, 'sinceSeconds'),
    sinceTime,
    limitBytes: readInteger(query, 'limitBytes'),
  };
  const causes: StatusCause[] = [];
  const invalidValue = (field: string, value: number, rule: string) =>
    causes.push({ type: 'FieldValueInvalid', field, message: `Invalid value: ${value}: ${rule}` });
  if (options.tailLines !== undefined && options.tailLines < 0)
    invalidValue('tailLines', options.tailLines, 'must be greater than or equal to 0');
  if (options.limitBytes !== undefined && options.limitBytes < 1)
    invalidValue('limitBytes', options.limitBytes, 'must be greater than 0');
  if (options.sinceSeconds !== undefined && options.sinceTime !== undefined)
    causes.push({
      type: 'FieldValueForbidden',
      field: '',
      message: 'Forbidden: at most one of `sinceTime` or `sinceSeconds` may be specified',
    });
  if (options.sinceSeconds !== undefined && options.sinceSeconds < 1)
    invalidValue('sinceSeconds', options.sinceSeconds, 'must be greater than 0');
  if (causes.length > 0)
    throw new StatusError(
      newStatus(
        422,
        'Invalid',
        `PodLogOptions "${podName}" is invalid: ${causes.map((cause) => `${cause.field}: ${cause.message}`).join(', ')}`,
        { name: podName, kind: 'PodLogOptions', causes },
      ),
    );
  return options;
}
