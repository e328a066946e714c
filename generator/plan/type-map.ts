/**
 * XSD built-in -> TypeScript primitive: the table in docs/generator.md ("XSD → TypeScript type
 * mapping"), as code. The runtime's codecs implement the same table; change both together.
 */

import { XSD_TEXT_TYPES } from '../../runtime/codec/primitives.js';

export type TsPrimitive = 'string' | 'boolean' | 'number' | 'bigint' | 'Uint8Array';

const GROUPS: ReadonlyArray<readonly [TsPrimitive, readonly string[]]> = [
  [
    'string',
    [
      ...XSD_TEXT_TYPES,
      'dateTime',
      'date',
      'time',
      'gYear',
      'gYearMonth',
      'gMonth',
      'gMonthDay',
      'gDay',
      'duration',
      'dayTimeDuration',
      'yearMonthDuration',
      'dateTimeStamp',
      'decimal',
    ],
  ],
  ['boolean', ['boolean']],
  ['number', ['float', 'double', 'int', 'short', 'byte', 'unsignedInt', 'unsignedShort', 'unsignedByte']],
  [
    'bigint',
    [
      'long',
      'unsignedLong',
      'integer',
      'nonNegativeInteger',
      'positiveInteger',
      'nonPositiveInteger',
      'negativeInteger',
    ],
  ],
  ['Uint8Array', ['base64Binary', 'hexBinary']],
];

const BY_XSD_NAME: ReadonlyMap<string, TsPrimitive> = new Map(
  GROUPS.flatMap(([ts, names]) => names.map((name) => [name, ts] as const)),
);

/** The TS type for an XSD built-in local name, or undefined when the built-in is unsupported. */
export function tsTypeOfXsd(xsdLocal: string): TsPrimitive | undefined {
  return BY_XSD_NAME.get(xsdLocal);
}
