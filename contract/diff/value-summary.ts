/**
 * A value reduced to what decides whether a peer can read it (acceptance.ts compares these):
 * XML, a primitive with its enumeration, or a complex type's key; and the same value as an
 * HTTP GET/POST parameter. Also which named simple type two values share, and the words that
 * say which way a type change goes.
 */
import type { ServiceDescriptor, ValueDescriptor } from '../../runtime/descriptor.js';
import type { ParamSummary, ValueSummary } from './acceptance.js';
import type { Declared } from './locate.js';

export interface SimpleTypes {
  readonly old?: (Declared & { readonly key: string }) | undefined;
  readonly new?: (Declared & { readonly key: string }) | undefined;
}

const localOf = (key: string): string => key.slice(key.indexOf('}') + 1);

export function sharedSimpleType(
  simple: SimpleTypes | undefined,
  oldModel: boolean,
  newModel: boolean,
): string | undefined {
  const [o, n] = [simple?.old, simple?.new];
  if (o !== undefined && n !== undefined) return localOf(o.key) === localOf(n.key) ? localOf(n.key) : undefined;
  if (oldModel && newModel) return undefined;
  const known = o ?? n;
  return known === undefined ? undefined : localOf(known.key);
}

export function widening(forward: boolean, backward: boolean): string {
  if (forward && !backward) return ' (widened)';
  if (!forward && backward) return ' (narrowed)';
  return '';
}

export function summarize(d: ServiceDescriptor, vd: ValueDescriptor): ValueSummary {
  if (vd.kind === 'xml') return { kind: 'xml' };
  if (vd.kind === 'primitive')
    return vd.enumeration === undefined
      ? { kind: 'primitive', xsd: vd.xsd }
      : { kind: 'primitive', xsd: vd.xsd, enumeration: vd.enumeration };
  const type = d.types[vd.type];
  if (type?.kind === 'simple') {
    const xsd = type.list === true ? 'string' : type.xsd;
    return type.enumeration === undefined
      ? { kind: 'primitive', xsd }
      : { kind: 'primitive', xsd, enumeration: type.enumeration };
  }
  return { kind: 'complex', key: vd.type };
}

/** A value as an HTTP GET/POST parameter (as runtime/http/binding.ts reads it), or undefined. */
export function paramOf(d: ServiceDescriptor, s: ValueSummary, maxOccurs: number): ParamSummary | undefined {
  if (s.kind === 'primitive')
    return {
      xsd: s.xsd,
      ...(s.enumeration === undefined ? {} : { enumeration: s.enumeration }),
      repeated: maxOccurs !== 1,
    };
  if (s.kind !== 'complex' || maxOccurs !== 1) return undefined;
  const type = d.types[s.key];
  const item = type?.kind === 'complex' ? type.arrayItem : undefined;
  if (item === undefined || item.maxOccurs === 1) return undefined;
  const itemSummary = summarize(d, item.value);
  return itemSummary.kind === 'primitive'
    ? {
        xsd: itemSummary.xsd,
        ...(itemSummary.enumeration === undefined ? {} : { enumeration: itemSummary.enumeration }),
        repeated: true,
      }
    : undefined;
}
