/**
 * `descriptor.ts`: the `toDescriptor` result as a typed constant the runtime reads. Bindings whose
 * operation lists are identical (SOAP 1.1 and 1.2 of one portType; HTTP GET and POST) share one
 * constant instead of repeating it: the runtime only reads descriptors, so sharing is safe.
 */
import type { StatementStructures } from 'ts-morph';
import { StructureKind, VariableDeclarationKind } from './kinds.js';
import type { BindingDescriptor, ServiceDescriptor } from '../../runtime/descriptor.js';
import { cleanDocumentation, jsDoc } from './docs.js';
import { LiteralReference, printLiteral, type LiteralValue } from './literal.js';
import { runtime, runtimeImportDeclaration } from './runtime-imports.js';
import type { ServicePlan } from '../../contract/plan/service.js';

interface SharedOperations {
  readonly identifier: string;
  readonly operations: BindingDescriptor['operations'];
  readonly bindings: string[];
}

/** Identifier for a shared list: `soapOperations`, `httpOperations`, else numbered. */
function sharedName(bindings: readonly BindingDescriptor[], index: number): string {
  const protocols = bindings.map((b) => b.protocol).join(',');
  if (protocols === 'soap11,soap12') return 'soapOperations';
  if (protocols === 'http-get,http-post') return 'httpOperations';
  return `sharedOperations${index + 1}`;
}

/** Groups bindings by identical operation lists; only groups of two or more are shared. */
function findSharedOperations(descriptor: ServiceDescriptor): SharedOperations[] {
  const groups = new Map<string, BindingDescriptor[]>();
  for (const binding of descriptor.bindings) {
    if (binding.operations.length === 0) continue;
    const key = JSON.stringify(binding.operations);
    groups.set(key, [...(groups.get(key) ?? []), binding]);
  }
  return [...groups.values()]
    .filter((bindings) => bindings.length > 1)
    .map((bindings, index) => ({
      identifier: sharedName(bindings, index),
      operations: bindings[0]!.operations,
      bindings: bindings.map((b) => b.name),
    }));
}

function withReferences(descriptor: ServiceDescriptor, shared: readonly SharedOperations[]): LiteralValue {
  const byBinding = new Map(shared.flatMap((s) => s.bindings.map((name) => [name, s.identifier] as const)));
  const bindings = descriptor.bindings.map((binding) => {
    const identifier = byBinding.get(binding.name);
    return identifier === undefined ? binding : { ...binding, operations: new LiteralReference(identifier) };
  });
  return { ...descriptor, bindings } as unknown as LiteralValue;
}

export function descriptorStatements(
  descriptor: ServiceDescriptor,
  service: ServicePlan,
  runtimeImport: string,
): StatementStructures[] {
  const bindings = service.bindings.map(
    (b) => `${b.binding.protocol}: binding ${b.binding.name.local} (port ${b.port.name})`,
  );
  const shared = findSharedOperations(descriptor);
  const sharedStatements: StatementStructures[] = shared.map((s) => ({
    kind: StructureKind.VariableStatement,
    declarationKind: VariableDeclarationKind.Const,
    docs: jsDoc(`Operations of bindings ${s.bindings.join(' and ')} (identical, so declared once).`),
    declarations: [
      {
        name: s.identifier,
        type: `readonly ${runtime.OperationDescriptor.name}[]`,
        initializer: printLiteral(s.operations as unknown as LiteralValue),
      },
    ],
  }));
  return [
    runtimeImportDeclaration(
      runtimeImport,
      shared.length > 0 ? [runtime.OperationDescriptor, runtime.ServiceDescriptor] : [runtime.ServiceDescriptor],
    ),
    ...sharedStatements,
    {
      kind: StructureKind.VariableStatement,
      isExported: true,
      declarationKind: VariableDeclarationKind.Const,
      docs: jsDoc(
        cleanDocumentation(service.service.documentation),
        `Wire descriptor of service \`${service.service.name.local}\`; bindings: ${bindings.join('; ')}.`,
        service.notes.length > 0 ? `Binding choice: ${service.notes.join('; ')}.` : undefined,
        service.warnings.length > 0
          ? `Left out: ${service.warnings.map((w) => `${w.message} (WSDL line ${w.source.line})`).join('; ')}.`
          : undefined,
      ),
      declarations: [
        {
          name: service.names.descriptor,
          type: runtime.ServiceDescriptor.name,
          initializer: printLiteral(withReferences(descriptor, shared)),
        },
      ],
    },
  ];
}
