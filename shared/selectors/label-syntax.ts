// apimachinery's validation of label keys (IsQualifiedName) and label values (IsValidLabelValue), with its
// messages, so a selector the API server would refuse is refused here first and explained the same way.

const qualifiedNameCharacters = '[-A-Za-z0-9_.]';
const qualifiedNameFormat = `([A-Za-z0-9]${qualifiedNameCharacters}*)?[A-Za-z0-9]`;
const qualifiedNamePattern = new RegExp(`^${qualifiedNameFormat}$`);
const qualifiedNameMaxLength = 63;
const qualifiedNameHint =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric " +
  `character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '${qualifiedNameFormat}')`;

const dns1123LabelFormat = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const dns1123SubdomainFormat = `${dns1123LabelFormat}(\\.${dns1123LabelFormat})*`;
const dns1123SubdomainPattern = new RegExp(`^${dns1123SubdomainFormat}$`);
const dns1123SubdomainMaxLength = 253;

const labelValueFormat = `(${qualifiedNameFormat})?`;
const labelValuePattern = new RegExp(`^${labelValueFormat}$`);
const labelValueMaxLength = 63;

/**
 * Problems with a label key: an optional DNS-1123 subdomain prefix and '/', then a name of at most 63
 * characters that starts and ends with [A-Za-z0-9] and has only [-A-Za-z0-9_.] inside. Empty when valid.
 */
export function labelKeyProblems(key: string): string[] {
  const parts = key.split('/');
  let name: string;
  const problems: string[] = [];
  if (parts.length === 1) {
    name = parts[0]!;
  } else if (parts.length === 2) {
    const prefix = parts[0]!;
    name = parts[1]!;
    if (prefix.length === 0) {
      problems.push('prefix part must be non-empty');
    } else if (prefix.length > dns1123SubdomainMaxLength) {
      problems.push(`prefix part must be no more than ${dns1123SubdomainMaxLength} characters`);
    } else if (!dns1123SubdomainPattern.test(prefix)) {
      problems.push(
        "prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' " +
          "or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for " +
          `validation is '${dns1123SubdomainFormat}')`,
      );
    }
  } else {
    return [
      `a qualified name ${qualifiedNameHint} with an optional DNS subdomain prefix and '/' (e.g. ` +
        "'example.com/MyName')",
    ];
  }
  if (name.length === 0) {
    problems.push('name part must be non-empty');
  } else if (name.length > qualifiedNameMaxLength) {
    problems.push(`name part must be no more than ${qualifiedNameMaxLength} characters`);
  }
  if (name.length > 0 && !qualifiedNamePattern.test(name)) problems.push(`name part ${qualifiedNameHint}`);
  return problems;
}

/** Problems with a label value: empty, or at most 63 characters shaped like a qualified name. */
export function labelValueProblems(value: string): string[] {
  const problems: string[] = [];
  if (value.length > labelValueMaxLength) {
    problems.push(`must be no more than ${labelValueMaxLength} characters`);
  }
  if (!labelValuePattern.test(value)) {
    problems.push(
      "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and " +
        "must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', " +
        `regex used for validation is '${labelValueFormat}')`,
    );
  }
  return problems;
}

/** strconv.ParseInt(value, 10, 64): an optional sign and decimal digits, within the int64 range. */
export function parseInt64(value: string): bigint | undefined {
  if (!/^[+-]?[0-9]+$/.test(value)) return undefined;
  const parsed = BigInt(value);
  if (parsed > 9223372036854775807n || parsed < -9223372036854775808n) return undefined;
  return parsed;
}
