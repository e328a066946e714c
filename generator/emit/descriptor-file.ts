/** `descriptor.ts`: the `toDescriptor` result as a typed constant the runtime reads. */
import type { StatementStructures } from 'ts-morph';
import { StructureKind, VariableDeclarationKind } from './kinds.js';
import type { ServiceDescriptor } from '../../runtime/descriptor.js';
import { cleanDocumentation, jsDoc } from './docs.js';
import { printLiteral, type LiteralValue } from './literal.js';
import type { ServicePlan } from './service-plan.js';

export function descriptorStatements(descriptor: ServiceDescriptor, service: ServicePlan, runtimeImport: string): StatementStructures[] {
  const bindings = service.bindings.map((b) => `${b.binding.protocol}: binding ${b.binding.name.local} (port ${b.port.name})`);
  return [
    { kind: StructureKind.ImportDeclaration, isTypeOnly: true, moduleSpecifier: runtimeImport, namedImports: ['ServiceDescriptor'] },
    {
      kind: StructureKind.VariableStatement,
      isExported: true,
      declarationKind: VariableDeclarationKind.Const,
      docs: jsDoc(
        cleanDocumentation(service.service.documentation),
        `Wire descriptor of service \`${service.service.name.local}\`; bindings: ${bindings.join('; ')}.`,
        service.notes.length > 0 ? `Binding choice: ${service.notes.join('; ')}.` : undefined,
      ),
      declarations: [
        {
          name: service.names.descriptor,
          type: 'ServiceDescriptor',
          initializer: printLiteral(descriptor as unknown as LiteralValue),
        },
      ],
    },
  ];
}
