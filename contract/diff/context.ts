/**
 * What every comparison step needs: both versions of one service (descriptor + locator), the
 * collector, and small helpers to make findings with their locations in both files.
 */
import type { ServiceDescriptor, ValueDescriptor } from '../../runtime/descriptor.js';
import type { Collector } from './collector.js';
import type { Declared, Locator } from './locate.js';
import type { Facts, Finding, Location, RuleId } from './types.js';

export interface Version {
  readonly d: ServiceDescriptor;
  readonly locate: Locator;
}

export interface PairContext {
  readonly c: Collector;
  readonly old: Version;
  readonly new: Version;
  /** The service's name (the same in both versions). */
  readonly service: string;
  /** Documentation is compared only when both versions have a model. */
  readonly compareDocs: boolean;
}

export interface Where {
  readonly old?: Location | undefined;
  readonly new?: Location | undefined;
}

export function where(old: Declared | undefined, now: Declared | undefined): Where {
  return { old: old?.source, new: now?.source };
}

export function finding(rule: RuleId, key: string, subject: string, what: string, facts: Facts, at: Where): Finding {
  return {
    key: `${rule}|${key}`,
    rule,
    subject,
    what,
    facts,
    ...(at.old === undefined ? {} : { old: at.old }),
    ...(at.new === undefined ? {} : { new: at.new }),
  };
}

/** A readable name for a descriptor type key: `Order`, `element SMSSend`, `element Order › Lines`. */
export function typeLabel(key: string): string {
  const element = key.startsWith('element:');
  const bare = element ? key.slice('element:'.length) : key;
  const close = bare.indexOf('}');
  const local = (close < 0 ? bare : bare.slice(close + 1)).split('/').join(' › ');
  return element ? `element ${local}` : local;
}

/** The namespace part of a Clark key (the schema a type or element is declared in). */
export function keyNamespace(key: string): string {
  const bare = key.startsWith('element:') ? key.slice('element:'.length) : key;
  const close = bare.indexOf('}');
  return bare.startsWith('{') && close > 0 ? bare.slice(1, close) : '';
}

export function describeValue(d: ServiceDescriptor, vd: ValueDescriptor): string {
  if (vd.kind === 'xml') return 'XML (anyType)';
  if (vd.kind === 'primitive') return vd.enumeration === undefined ? `xs:${vd.xsd}` : `xs:${vd.xsd} enumeration`;
  const type = d.types[vd.type];
  return type?.kind === 'simple' ? `xs:${type.xsd}` : typeLabel(vd.type);
}

export function occursText(min: number, max: number): string {
  return `${min}..${max === -1 ? 'unbounded' : max}`;
}

/** Documentation differs (compared trimmed, with runs of white space as one space). */
export function docsDiffer(a: string | undefined, b: string | undefined): boolean {
  const norm = (s: string | undefined): string => (s ?? '').replace(/\s+/g, ' ').trim();
  return norm(a) !== norm(b);
}
