/**
 * What the schema walk (schema-walk.ts) records: each finding under the rule it breaks. Its own
 * module so that the walk's helpers (xsi-type.ts) name the rules without importing the walk that
 * calls them.
 */
export type SchemaRule = 'occurrence' | 'namespace' | 'order' | 'value' | 'xsi-type' | 'array-item';

export interface SchemaFinding {
  readonly rule: SchemaRule;
  /** Where: element path from the checked element (`EchoOrderResult/Lines/OrderLine[2]/Shape`). */
  readonly path: string;
  readonly expected: string;
  readonly actual: string;
  readonly message: string;
}
