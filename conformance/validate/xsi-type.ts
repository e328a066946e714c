/**
 * Which complex type an element's content is judged by: the declared one, or the derived type
 * its xsi:type names (which must be in the declared type's hierarchy and concrete). An element
 * without xsi:type whose children are plainly a derived type's is named too: a client would read
 * it as the declared type. The `xsi-type` findings of the schema walk come from here.
 */
import type { ComplexTypeDescriptor, ServiceDescriptor } from '../../runtime/descriptor.js';
import { XSI_NS } from '../../runtime/namespaces.js';
import { childElements, resolveQNameValue } from '../../runtime/xml/reader.js';
import type { XmlElement } from '../../runtime/xml/types.js';
import type { SchemaRule } from './schema-rules.js';

/** What the type resolution needs of the walk: the contract, and where findings go. */
export interface TypeWalk {
  readonly d: ServiceDescriptor;
  add(rule: SchemaRule, path: string, expected: string, actual: string, message: string): void;
}

/**
 * The type to validate the element's content with: the one its xsi:type names when that is
 * the declared type or derived from it. `undefined` when the content cannot be judged (an
 * xsi:type outside the hierarchy, or none where the declared type is abstract): the xsi-type
 * finding is then the one finding, not a cascade of undeclared members.
 */
export function actualType(
  walk: TypeWalk,
  el: XmlElement,
  declaredKey: string,
  declared: ComplexTypeDescriptor,
  path: string,
): ComplexTypeDescriptor | undefined {
  const attribute = el.attributes.find((a) => a.ns === XSI_NS && a.local === 'type');
  const allowed = [declaredKey, ...(declared.derived ?? [])];
  const local = (key: string): string => key.slice(key.lastIndexOf('}') + 1);
  if (attribute === undefined) return untyped(walk, el, declaredKey, declared, path);
  let key: string;
  try {
    const q = resolveQNameValue(el, attribute.value);
    key = `{${q.ns}}${q.local}`;
  } catch {
    walk.add(
      'xsi-type',
      path,
      'a resolvable QName',
      JSON.stringify(attribute.value),
      `<${path}> has an xsi:type whose prefix is not declared`,
    );
    return undefined;
  }
  if (!allowed.includes(key)) {
    walk.add(
      'xsi-type',
      path,
      `one of ${allowed.map(local).join(', ')}`,
      key,
      `<${path}> has xsi:type ${key}, which is neither ${local(declaredKey)} nor a type derived from it`,
    );
    return undefined;
  }
  const type = walk.d.types[key];
  if (type?.kind !== 'complex') return declared;
  if (type.abstract === true) {
    walk.add('xsi-type', path, 'a concrete type', key, `<${path}> names the abstract type ${key} in xsi:type`);
    return undefined;
  }
  return type;
}

/** No xsi:type: the declared type, unless it is abstract or the content is plainly a derived type's. */
function untyped(
  walk: TypeWalk,
  el: XmlElement,
  declaredKey: string,
  declared: ComplexTypeDescriptor,
  path: string,
): ComplexTypeDescriptor | undefined {
  const derived = (declared.derived ?? [])
    .map((k) => [k, walk.d.types[k]] as const)
    .filter((e): e is readonly [string, ComplexTypeDescriptor] => e[1]?.kind === 'complex' && e[1].abstract !== true);
  const names = childElements(el).map((c) => c.local);
  const fits = (t: ComplexTypeDescriptor): boolean =>
    names.every((n) => t.fields.some((f) => f.name.local === n || f.wildcard === true));
  const local = (key: string): string => key.slice(key.lastIndexOf('}') + 1);
  if (declared.abstract === true) {
    walk.add(
      'xsi-type',
      path,
      `xsi:type naming one of ${derived.map(([k]) => local(k)).join(', ') || '(no concrete type)'}`,
      'no xsi:type',
      `<${path}> is declared of the abstract type ${local(declaredKey)}: it must name its concrete type in xsi:type`,
    );
    return undefined;
  }
  if (derived.length === 0 || fits(declared)) return declared;
  const match = derived.find(([, t]) => fits(t));
  if (match === undefined) return declared;
  walk.add(
    'xsi-type',
    path,
    `xsi:type="${local(match[0])}"`,
    'no xsi:type',
    `<${path}> holds the members of the derived type ${local(match[0])} but no xsi:type saying so: a client reads it as ${local(declaredKey)}`,
  );
  return match[1];
}
