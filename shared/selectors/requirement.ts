// One requirement of a label selector (labels.Requirement): how it matches, prints and validates.

import { labelKeyProblems, labelValueProblems, parseInt64 } from './label-syntax';

/** selection.Operator; 'gt' and 'lt' are written `>` and `<` in selector text. */
export type Operator = 'in' | 'notin' | 'exists' | '!' | '=' | '==' | '!=' | 'gt' | 'lt';

/** One condition on one label. `values` is sorted and duplicate-free when it comes from parsing. */
export interface Requirement {
  key: string;
  operator: Operator;
  values: string[];
}

/** Requirement.Matches: a missing label satisfies only notin, != and !. */
export function requirementMatches(
  requirement: Requirement,
  labels: Readonly<Record<string, string>> | undefined,
): boolean {
  const has = labels !== undefined && Object.hasOwn(labels, requirement.key);
  const value = has ? labels[requirement.key]! : '';
  switch (requirement.operator) {
    case 'in':
    case '=':
    case '==':
      return has && requirement.values.includes(value);
    case 'notin':
    case '!=':
      return !has || !requirement.values.includes(value);
    case 'exists':
      return has;
    case '!':
      return !has;
    case 'gt':
    case 'lt': {
      if (!has || requirement.values.length !== 1) return false;
      const actual = parseInt64(value);
      const bound = parseInt64(requirement.values[0]!);
      if (actual === undefined || bound === undefined) return false;
      return requirement.operator === 'gt' ? actual > bound : actual < bound;
    }
  }
}

/** Requirement.String: values are printed sorted, whatever order the requirement holds them in. */
export function requirementToString(requirement: Requirement): string {
  const { key, operator } = requirement;
  if (operator === 'exists') return key;
  if (operator === '!') return `!${key}`;
  const values =
    requirement.values.length === 1 ? requirement.values[0]! : [...requirement.values].sort().join(',');
  switch (operator) {
    case 'in':
      return `${key} in (${values})`;
    case 'notin':
      return `${key} notin (${values})`;
    case 'gt':
      return `${key}>${values}`;
    case 'lt':
      return `${key}<${values}`;
    default:
      return `${key}${operator}${values}`;
  }
}

/** field.Invalid's text: strings quoted, string lists in Go's %#v form. */
export function invalidValue(path: string, value: string | readonly string[], detail: string): string {
  const shown =
    typeof value === 'string'
      ? JSON.stringify(value)
      : `[]string{${value.map((item) => JSON.stringify(item)).join(', ')}}`;
  return `${path}: Invalid value: ${shown}: ${detail}`;
}

/** utilerrors.Aggregate's text: one error alone, several as "[first, second]". */
export function aggregateMessage(problems: readonly string[]): string {
  return problems.length === 1 ? problems[0]! : `[${problems.join(', ')}]`;
}

/**
 * The field errors NewRequirement reports, in its order and words ("values[0][app]: Invalid value:
 * ..."); empty when the requirement is valid.
 */
export function requirementProblems(requirement: Requirement): string[] {
  const { key, operator, values } = requirement;
  const problems: string[] = [];
  const keyProblems = labelKeyProblems(key);
  if (keyProblems.length > 0) problems.push(invalidValue('key', key, keyProblems.join('; ')));
  switch (operator) {
    case 'in':
    case 'notin':
      if (values.length === 0) {
        problems.push(
          invalidValue('values', values, "for 'in', 'notin' operators, values set can't be empty"),
        );
      }
      break;
    case '=':
    case '==':
    case '!=':
      if (values.length !== 1) {
        problems.push(invalidValue('values', values, 'exact-match compatibility requires one single value'));
      }
      break;
    case 'exists':
    case '!':
      if (values.length !== 0) {
        problems.push(
          invalidValue('values', values, 'values set must be empty for exists and does not exist'),
        );
      }
      break;
    case 'gt':
    case 'lt':
      if (values.length !== 1) {
        problems.push(
          invalidValue('values', values, "for 'Gt', 'Lt' operators, exactly one value is required"),
        );
      }
      values.forEach((value, index) => {
        if (parseInt64(value) === undefined) {
          problems.push(
            invalidValue(`values[${index}]`, value, "for 'Gt', 'Lt' operators, the value must be an integer"),
          );
        }
      });
      break;
    default:
      problems.push(`operator: Unsupported value: "${operator as string}"`);
  }
  values.forEach((value, index) => {
    const valueProblems = labelValueProblems(value);
    if (valueProblems.length > 0) {
      problems.push(invalidValue(`values[${index}][${key}]`, value, valueProblems.join('; ')));
    }
  });
  return problems;
}
