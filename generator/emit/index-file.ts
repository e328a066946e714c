/** `index.ts` of a service folder, and the top-level index re-exporting each service as a namespace. */
import type { StatementStructures } from 'ts-morph';
import { StructureKind } from './kinds.js';
import type { ServicePlan } from '../../contract/plan/service.js';

export function serviceIndexStatements(): StatementStructures[] {
  return ['./types.js', './descriptor.js', './client.js', './server.js'].map((moduleSpecifier) => ({
    kind: StructureKind.ExportDeclaration,
    moduleSpecifier,
  }));
}

/** Namespaced (`export * as ServiceAPI`), because two services of one WSDL share type names. */
export function rootIndexStatements(services: readonly ServicePlan[]): StatementStructures[] {
  return services.map((s) => ({
    kind: StructureKind.ExportDeclaration,
    namespaceExport: s.ident,
    moduleSpecifier: `./${s.folder}/index.js`,
  }));
}
