// Config and storage columns as kubectl's printers compute them (printConfigMap, printSecret,
// printPersistentVolumeClaim, printPersistentVolume, printStorageClass).

import type { KubeObject } from '../../kube/object';
import type { CellValue, KindPrinter } from './column-definition';
import {
  ageColumn,
  createdAt,
  field,
  integerColumn,
  nameColumn,
  stringColumn,
  text,
} from './column-definition';

function keyCount(value: unknown): number {
  return typeof value === 'object' && value !== null ? Object.keys(value).length : 0;
}

export const configMapPrinter: KindPrinter = {
  columns: [nameColumn, integerColumn('Data'), ageColumn],
  cells(configMap): CellValue[] {
    return [
      configMap.metadata.name ?? '',
      keyCount(configMap['data']) + keyCount(configMap['binaryData']),
      createdAt(configMap),
    ];
  },
};

export const secretPrinter: KindPrinter = {
  columns: [nameColumn, stringColumn('Type'), integerColumn('Data'), ageColumn],
  cells(secret): CellValue[] {
    return [
      secret.metadata.name ?? '',
      text(secret['type']) ?? '',
      keyCount(secret['data']),
      createdAt(secret),
    ];
  },
};

/** GetAccessModesAsString: RWO, ROX, RWX, RWOP in that order, each once. */
export function accessModes(modes: unknown): string {
  const present = Array.isArray(modes) ? (modes as unknown[]) : [];
  const abbreviations: [string, string][] = [
    ['ReadWriteOnce', 'RWO'],
    ['ReadOnlyMany', 'ROX'],
    ['ReadWriteMany', 'RWX'],
    ['ReadWriteOncePod', 'RWOP'],
  ];
  return abbreviations
    .filter(([mode]) => present.includes(mode))
    .map(([, abbreviation]) => abbreviation)
    .join(',');
}

/** The beta annotation still overrides spec.storageClassName, as GetPersistentVolume(Claim)Class reads. */
function storageClassOf(object: KubeObject): string {
  return (
    object.metadata.annotations?.['volume.beta.kubernetes.io/storage-class'] ??
    text(field(object, 'spec')['storageClassName']) ??
    ''
  );
}

function phaseOf(object: KubeObject): string {
  if (typeof object.metadata.deletionTimestamp === 'string') return 'Terminating';
  return text(field(object, 'status')['phase']) ?? '';
}

export const persistentVolumeClaimPrinter: KindPrinter = {
  columns: [
    nameColumn,
    stringColumn('Status'),
    stringColumn('Volume'),
    stringColumn('Capacity'),
    stringColumn('Access Modes'),
    stringColumn('StorageClass'),
    stringColumn('VolumeAttributesClass'),
    ageColumn,
    stringColumn('VolumeMode', 1),
  ],
  cells(claim): CellValue[] {
    const spec = field(claim, 'spec');
    const status = field(claim, 'status');
    const volumeName = text(spec['volumeName']) ?? '';
    // Capacity and modes are the bound volume's, so they stay blank until the claim is bound.
    return [
      claim.metadata.name ?? '',
      phaseOf(claim),
      volumeName,
      volumeName === '' ? '' : (text(field(status, 'capacity')['storage']) ?? '0'),
      volumeName === '' ? '' : accessModes(status['accessModes']),
      storageClassOf(claim),
      text(spec['volumeAttributesClassName']) || '<unset>',
      createdAt(claim),
      text(spec['volumeMode']) ?? '<unset>',
    ];
  },
};

export const persistentVolumePrinter: KindPrinter = {
  columns: [
    nameColumn,
    stringColumn('Capacity'),
    stringColumn('Access Modes'),
    stringColumn('Reclaim Policy'),
    stringColumn('Status'),
    stringColumn('Claim'),
    stringColumn('StorageClass'),
    stringColumn('VolumeAttributesClass'),
    stringColumn('Reason'),
    ageColumn,
    stringColumn('VolumeMode', 1),
  ],
  cells(volume): CellValue[] {
    const spec = field(volume, 'spec');
    const claimRef = spec['claimRef'] === undefined ? undefined : field(spec, 'claimRef');
    return [
      volume.metadata.name ?? '',
      text(field(spec, 'capacity')['storage']) ?? '0',
      accessModes(spec['accessModes']),
      text(spec['persistentVolumeReclaimPolicy']) ?? '',
      phaseOf(volume),
      claimRef === undefined ? '' : `${text(claimRef['namespace']) ?? ''}/${text(claimRef['name']) ?? ''}`,
      storageClassOf(volume),
      text(spec['volumeAttributesClassName']) ?? '<unset>',
      text(field(volume, 'status')['reason']) ?? '',
      createdAt(volume),
      text(spec['volumeMode']) ?? '<unset>',
    ];
  },
};

function isDefaultStorageClass(storageClass: KubeObject): boolean {
  const annotations = storageClass.metadata.annotations ?? {};
  return (
    annotations['storageclass.kubernetes.io/is-default-class'] === 'true' ||
    annotations['storageclass.beta.kubernetes.io/is-default-class'] === 'true'
  );
}

export const storageClassPrinter: KindPrinter = {
  columns: [
    nameColumn,
    stringColumn('Provisioner'),
    stringColumn('ReclaimPolicy'),
    stringColumn('VolumeBindingMode'),
    stringColumn('AllowVolumeExpansion'),
    ageColumn,
  ],
  cells(storageClass): CellValue[] {
    const name = storageClass.metadata.name ?? '';
    return [
      isDefaultStorageClass(storageClass) ? `${name} (default)` : name,
      text(storageClass['provisioner']) ?? '',
      text(storageClass['reclaimPolicy']) ?? 'Delete',
      text(storageClass['volumeBindingMode']) ?? 'Immediate',
      String(storageClass['allowVolumeExpansion'] === true),
      createdAt(storageClass),
    ];
  },
};
