/**
 * `types.ts`: one declaration per schema type (named types, wrapper elements, nested anonymous
 * types) plus the synthesised types of HTTP-only operations, in plan order.
 */
import type {
  InterfaceDeclarationStructure,
  OptionalKind,
  PropertySignatureStructure,
  StatementStructures,
  TypeAliasDeclarationStructure,
} from 'ts-morph';
import { StructureKind } from './kinds.js';
import { propertyKey, quoteString } from '../../contract/naming.js';
import { facetText, jsDoc, occurrence, wireName, cleanDocumentation } from './docs.js';
import type { PlannedAttribute, PlannedField } from '../../contract/plan/members.js';
import type {
  PlannedComplex,
  PlannedSimple,
  PlannedType,
  PlannedXmlAlias,
  SchemaPlan,
} from '../../contract/plan/schema.js';
import type { PlannedHeaders, ServicePlan, SyntheticField } from '../../contract/plan/service.js';
import { runtime, runtimeImportDeclaration } from './runtime-imports.js';
import { primitiveText, TypeText } from './type-text.js';
import type { PlannedValue } from '../../contract/plan/values.js';

export function typesStatements(
  schema: SchemaPlan,
  service: ServicePlan,
  runtimeImport: string,
): StatementStructures[] {
  const text = new TypeText(schema);
  const declarations: StatementStructures[] = schema.types.flatMap((t) => {
    const declared = declareType(t, schema, text);
    return t.kind === 'complex' && t.unionName !== undefined
      ? [declared, unionAlias(t, t.unionName, schema)]
      : [declared];
  });
  for (const op of service.operations) {
    for (const shape of [op.input, op.output]) {
      if (shape.kind === 'synthetic')
        declarations.push(syntheticInterface(shape.tsName, shape.fields, op.name, text, shape.rpc));
    }
    if (op.requestHeaders !== undefined)
      declarations.push(headersAlias(op.requestHeaders, `the request of operation \`${op.name}\``, schema, text));
    if (op.responseHeaders !== undefined)
      declarations.push(headersAlias(op.responseHeaders, `the response of operation \`${op.name}\``, schema, text));
  }
  const imports: StatementStructures[] = text.usesXml
    ? [runtimeImportDeclaration(runtimeImport, [runtime.XmlElement])]
    : [];
  return [...imports, ...declarations];
}

function declareType(type: PlannedType, schema: SchemaPlan, text: TypeText): StatementStructures {
  switch (type.kind) {
    case 'simple':
      return simpleAlias(type);
    case 'xml':
      return xmlAlias(type, text);
    case 'complex':
      if (type.group?.kind === 'choice') return choiceAlias(type, text);
      return type.arrayItem !== undefined
        ? arrayAlias(type, type.arrayItem, text)
        : complexInterface(type, schema, text);
  }
}

function typeAlias(name: string, type: string, docs: ReturnType<typeof jsDoc>): TypeAliasDeclarationStructure {
  return { kind: StructureKind.TypeAlias, isExported: true, name, type, docs };
}

function simpleAlias(type: PlannedSimple): TypeAliasDeclarationStructure {
  const v = type.value;
  const derivation =
    v.list === true ? `whitespace-separated list (kept as one string), base xs:${v.xsd}` : `restriction of xs:${v.xsd}`;
  return typeAlias(
    type.tsName,
    primitiveText(v),
    jsDoc(
      cleanDocumentation(type.type.documentation),
      `Simple type ${wireName(type.wireName)}: ${derivation}.`,
      facetText(type.type),
    ),
  );
}

function xmlAlias(type: PlannedXmlAlias, text: TypeText): TypeAliasDeclarationStructure {
  return typeAlias(
    type.tsName,
    text.value({ kind: 'xml' }),
    jsDoc(
      cleanDocumentation(type.type.documentation),
      type.orderedGroup === undefined
        ? `Complex type ${wireName(type.wireName)}: wildcard / DataSet content, kept as XML.`
        : `Complex type ${wireName(type.wireName)}, kept as XML: its repeating ${type.orderedGroup.particle.kind} (WSDL line ${type.orderedGroup.particle.source.line}) holds several members, and ${type.orderedGroup.reason}; the XmlElement keeps every child in document order.`,
    ),
  );
}

function arrayAlias(type: PlannedComplex, item: PlannedField, text: TypeText): TypeAliasDeclarationStructure {
  return typeAlias(
    type.tsName,
    text.field({ ...item, maxOccurs: 'unbounded' }),
    jsDoc(
      cleanDocumentation(type.type.documentation),
      `${origin(type)}: array wrapper; each item is the element ${wireName(item.name)} (${occurrence(item.minOccurs, item.maxOccurs, item.nillable)}).`,
    ),
  );
}

/**
 * `AnyShape`: the concrete variants of a polymorphic type, each tagged by `$type` (the runtime
 * writes and reads it as xsi:type). Abstract types have no variant: they cannot be sent.
 */
function unionAlias(type: PlannedComplex, name: string, schema: SchemaPlan): TypeAliasDeclarationStructure {
  const concrete = [type, ...type.derived.map((key) => schema.byKey.get(key))].filter(
    (t): t is PlannedComplex => t?.kind === 'complex' && !t.type.abstract,
  );
  const variants = concrete.map((t) => `({ $type: ${quoteString(t.tsName)}; } & ${t.tsName})`);
  return typeAlias(
    name,
    variants.length > 0 ? variants.join(' | ') : 'never',
    jsDoc(
      `A value declared as ${wireName(type.wireName)}${type.type.abstract ? ' (abstract)' : ''}: one of its concrete types, named by \`$type\` ` +
        '(on the wire: xsi:type; no xsi:type means the declared type itself).',
    ),
  );
}

/**
 * One occurrence of a repeating choice: an object holding the one member that occurred. Each
 * variant forbids the others (`?: never`), so the compiler refuses an object of two members,
 * which the wire cannot carry as one occurrence.
 */
function choiceAlias(type: PlannedComplex, text: TypeText): TypeAliasDeclarationStructure {
  const variants = type.fields.map((f) => {
    const others = type.fields.filter((o) => o !== f).map((o) => ` ${propertyKey(o.prop)}?: never;`);
    return `{ ${propertyKey(f.prop)}: ${text.field(f)};${others.join('')} }`;
  });
  const members = type.fields.map((f) => `\`${f.prop}\`: ${wireName(f.name)} (${describeValue(f.value)})`);
  return typeAlias(
    type.tsName,
    variants.join(' | '),
    jsDoc(`${origin(type)}: the one member that occurred, in an object of its own. ${members.join('; ')}.`),
  );
}

function origin(type: PlannedComplex): string {
  if (type.origin === 'type') return `Complex type ${wireName(type.wireName)}`;
  if (type.origin === 'element') return `Element ${wireName(type.wireName)} (anonymous type)`;
  if (type.group !== undefined)
    return `One occurrence of the repeating ${type.group.kind} (WSDL line ${type.group.particle.source.line}) of ${type.key.startsWith('element:') ? 'element' : 'type'} ${wireName(type.wireName)}`;
  return `Anonymous type of the local element ${wireName(type.wireName)}`;
}

function complexInterface(type: PlannedComplex, schema: SchemaPlan, text: TypeText): InterfaceDeclarationStructure {
  const base = type.baseKey !== undefined ? schema.byKey.get(type.baseKey) : undefined;
  const baseHasText = base?.kind === 'complex' && base.text !== undefined;
  const properties: OptionalKind<PropertySignatureStructure>[] = [
    ...type.fields.slice(type.inheritedFields).map((f) => fieldProperty(f, text)),
    ...(type.text !== undefined && !baseHasText ? [textProperty(type.text, text)] : []),
    ...type.attributes.slice(type.inheritedAttributes).map((a) => attributeProperty(a, text)),
  ];
  const derived = type.derived.map((key) => schema.byKey.get(key)?.tsName ?? key);
  return {
    kind: StructureKind.Interface,
    isExported: true,
    name: type.tsName,
    extends: base !== undefined ? [base.tsName] : [],
    docs: jsDoc(
      cleanDocumentation(type.type.documentation ?? elementDocumentation(type, schema)),
      `${origin(type)}${base !== undefined ? `, extends ${base.tsName} (base members first on the wire)` : ''}.`,
      derived.length > 0 ? `Extended by: ${derived.join(', ')} (sent with xsi:type).` : undefined,
      type.type.anyAttribute ? 'Other attributes (anyAttribute) are not represented.' : undefined,
    ),
    properties,
  };
}

function elementDocumentation(type: PlannedComplex, schema: SchemaPlan): string | undefined {
  if (type.origin !== 'element') return undefined;
  return schema.elements.get(type.key.slice('element:'.length))?.decl.documentation;
}

function fieldProperty(field: PlannedField, text: TypeText): OptionalKind<PropertySignatureStructure> {
  const decl = field.decl;
  if (decl.kind !== 'element' && decl.kind !== 'any') return groupProperty(field, decl.source.line, text);
  const what = field.wildcard
    ? `Wildcard (xs:any, namespace ${field.name.ns}): unclaimed child elements, kept as XML.`
    : `Element ${wireName(field.name)}: ${describeValue(field.value)}.`;
  return {
    name: propertyKey(field.prop),
    type: text.field(field),
    hasQuestionToken: field.minOccurs === 0 || field.inChoice,
    docs: jsDoc(
      decl.kind === 'element' ? cleanDocumentation(decl.documentation) : undefined,
      `${what} ${capitalise(occurrence(field.minOccurs, field.maxOccurs, field.nillable))}${field.inChoice ? ', choice member' : ''}.` +
        (decl.kind === 'element' && decl.defaultValue !== undefined ? ` Default \`${decl.defaultValue}\`.` : '') +
        (decl.kind === 'element' && decl.fixedValue !== undefined ? ` Fixed \`${decl.fixedValue}\`.` : ''),
    ),
  };
}

/** A repeating group's property: one object per occurrence, in document order. */
function groupProperty(field: PlannedField, line: number, text: TypeText): OptionalKind<PropertySignatureStructure> {
  const occurs = `occurrences: ${occurrence(field.minOccurs, field.maxOccurs, false)}`;
  return {
    name: propertyKey(field.prop),
    type: text.field(field),
    hasQuestionToken: field.minOccurs === 0 || field.inChoice,
    docs: jsDoc(
      `Repeating ${field.group} (WSDL line ${line}): one object per occurrence, in document order; on the wire each occurrence's members follow one another in this element, with no element of their own. ${capitalise(occurs)}${field.inChoice ? ', choice member' : ''}.`,
    ),
  };
}

function textProperty(value: PlannedValue, text: TypeText): OptionalKind<PropertySignatureStructure> {
  return {
    name: 'value',
    type: text.value(value),
    docs: jsDoc(`The element's text content (simpleContent): ${describeValue(value)}.`),
  };
}

function attributeProperty(attribute: PlannedAttribute, text: TypeText): OptionalKind<PropertySignatureStructure> {
  const decl = attribute.decl;
  return {
    name: propertyKey(attribute.prop),
    type: text.value(attribute.value),
    hasQuestionToken: !attribute.required,
    docs: jsDoc(
      cleanDocumentation(decl.documentation),
      `Attribute ${wireName(attribute.name)}: ${describeValue(attribute.value)}, use ${decl.use}.` +
        (decl.defaultValue !== undefined ? ` Default \`${decl.defaultValue}\`.` : '') +
        (decl.fixedValue !== undefined ? ` Fixed \`${decl.fixedValue}\`.` : ''),
    ),
  };
}

function syntheticInterface(
  name: string,
  fields: readonly SyntheticField[],
  operation: string,
  text: TypeText,
  rpc: { ns: string; local: string } | undefined,
): InterfaceDeclarationStructure {
  return {
    kind: StructureKind.Interface,
    isExported: true,
    name,
    docs: jsDoc(
      rpc === undefined
        ? `Synthesised for operation \`${operation}\`, which has no SOAP binding: HTTP GET/POST parameters / result.`
        : `The parts of operation \`${operation}\` (rpc/literal): the wrapper element ${wireName(rpc)} holds one accessor per part.`,
    ),
    properties: fields.map((f) => ({
      name: propertyKey(f.prop),
      type: text.value(f.value),
      hasQuestionToken: f.optional,
      docs: jsDoc(
        `${rpc !== undefined ? 'Part' : f.optional ? 'Result' : 'Parameter'} \`${f.prop}\`: ${describeValue(f.value)}.`,
      ),
    })),
  };
}

/**
 * The SOAP header blocks of one direction of an operation, by property. A type literal (not an
 * interface) so that it is assignable to the runtime's `Record<string, unknown>` header maps.
 */
function headersAlias(
  headers: PlannedHeaders,
  what: string,
  schema: SchemaPlan,
  text: TypeText,
): TypeAliasDeclarationStructure {
  const members = headers.blocks.map(
    (b) => `${propertyKey(b.prop)}?: ${text.value(schema.elements.get(b.element)!.value)}`,
  );
  const elements = headers.blocks.map((b) => `\`${b.prop}\`: ${wireName(schema.elements.get(b.element)!.decl.name)}`);
  return typeAlias(
    headers.tsName,
    `{ ${members.map((m) => `${m}; `).join('')}}`,
    jsDoc(`SOAP header blocks of ${what} (SOAP 1.1/1.2 only: HTTP GET/POST carry none). ${elements.join('; ')}.`),
  );
}

function describeValue(value: PlannedValue): string {
  if (value.kind === 'xml') return 'arbitrary XML';
  if (value.kind === 'type') return `type \`${value.key}\``;
  const enumeration = value.enumeration !== undefined ? `, enumeration of ${value.enumeration.length}` : '';
  const xsd =
    value.xsd === 'char'
      ? 'a UTF-16 code unit as a number'
      : value.xsd === 'guid'
        ? 'a GUID, 8-4-4-4-12 hex digits'
        : `xs:${value.xsd}`;
  const via = value.simpleType !== undefined ? `\`${value.simpleType}\` (${xsd})` : xsd;
  return `${via}${enumeration}`;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
