/**
 * A `soap:header` whose part is declared by `type` (some rpc-style stacks write it; WS-I BP
 * R2205 wants an element): the header block is then the part's name in the message's
 * namespace — SOAP requires header blocks to be qualified — holding a value of that type. The
 * block is added to the schema as a global element, so the rest of the pipeline carries it like
 * any header, and a warning says so. A global element of that name that the schema declares is
 * the block's own declaration, and is used as it is.
 */
import {
  clark,
  type Binding,
  type ElementDecl,
  type Message,
  type ModelWarning,
  type SchemaSet,
} from '../model/index.js';

export function withTypedHeaderElements(
  schema: SchemaSet,
  bindings: readonly Binding[],
  messages: readonly Message[],
): { schema: SchemaSet; warnings: ModelWarning[] } {
  const elements = { ...schema.elements };
  const warnings: ModelWarning[] = [];
  for (const binding of bindings)
    for (const op of binding.operations)
      for (const header of [...op.inputHeaders, ...op.outputHeaders]) {
        if (header.byType !== true || header.use !== 'literal') continue;
        const key = clark(header.element);
        const part = messages
          .find((m) => clark(m.name) === clark(header.message))
          ?.parts.find((p) => p.name === header.part);
        if (part?.type === undefined || elements[key] !== undefined) continue;
        const decl: ElementDecl = {
          kind: 'element',
          name: header.element,
          type: part.type,
          minOccurs: 1,
          maxOccurs: 1,
          nillable: false,
          source: op.source,
        };
        elements[key] = decl;
        warnings.push({
          code: 'TYPED_HEADER_PART',
          message: `operation ${op.name} of binding ${binding.name.local}: SOAP header part ${header.part} is declared by type (WS-I BP R2205 wants an element); carried as the header block {${header.element.ns}}${header.element.local}`,
          source: op.source,
        });
      }
  return { schema: { ...schema, elements }, warnings };
}
