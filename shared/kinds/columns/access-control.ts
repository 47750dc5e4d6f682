// Access-control columns as kubectl's printers compute them (printServiceAccount, printRole,
// printRoleBinding and their cluster-scoped twins).

import type { CellValue, ColumnDefinition, KindPrinter } from './column-definition';
import { ageColumn, createdAt, field, list, nameColumn, text } from './column-definition';

export const serviceAccountPrinter: KindPrinter = {
  columns: [nameColumn, { name: 'Secrets', type: 'integer', priority: 0 }, ageColumn],
  cells(account): CellValue[] {
    return [account.metadata.name ?? '', list(account, 'secrets').length, createdAt(account)];
  },
};

/** Roles print their creation time as a timestamp, not an age. */
export const createdAtColumn: ColumnDefinition = {
  name: 'Created At',
  type: 'date',
  priority: 0,
  format: 'timestamp',
};

export const rolePrinter: KindPrinter = {
  columns: [nameColumn, createdAtColumn],
  cells(role): CellValue[] {
    return [role.metadata.name ?? '', createdAt(role)];
  },
};

const wide = (name: string): ColumnDefinition => ({ name, type: 'string', priority: 1 });

/** SubjectsStrings: users, groups and "namespace/name" service accounts, each list joined by ", ". */
function subjects(binding: unknown): [string, string, string] {
  const users: string[] = [];
  const groups: string[] = [];
  const serviceAccounts: string[] = [];
  for (const subject of list(binding, 'subjects')) {
    const name = text(subject['name']) ?? '';
    switch (subject['kind']) {
      case 'User':
        users.push(name);
        break;
      case 'Group':
        groups.push(name);
        break;
      case 'ServiceAccount':
        serviceAccounts.push(`${text(subject['namespace']) ?? ''}/${name}`);
        break;
    }
  }
  return [users.join(', '), groups.join(', '), serviceAccounts.join(', ')];
}

export const roleBindingPrinter: KindPrinter = {
  columns: [
    nameColumn,
    { name: 'Role', type: 'string', priority: 0 },
    ageColumn,
    wide('Users'),
    wide('Groups'),
    wide('ServiceAccounts'),
  ],
  cells(binding): CellValue[] {
    const roleRef = field(binding, 'roleRef');
    return [
      binding.metadata.name ?? '',
      `${text(roleRef['kind']) ?? ''}/${text(roleRef['name']) ?? ''}`,
      createdAt(binding),
      ...subjects(binding),
    ];
  },
};
