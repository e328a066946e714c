/** Model groups (sequence / choice / all), group references, and wildcards, in document order. */
import type { XmlElement } from '../../runtime/xml/types.js';
import { GeneratorError } from '../errors.js';
import { clark, qname, type AnyParticle, type ElementDecl, type GroupParticle, type Particle } from '../model/index.js';
import type { SchemaDocument } from './documents.js';
import { readGlobalElement, readLocalElement } from './elements.js';
import { substitutes, throwIfAbstractElement } from './substitution-groups.js';
import { XSD_NS } from './namespaces.js';
import { booleanAttr, guarded, occurs, type SchemaContext } from './schema-context.js';
import { unresolved } from './type-refs.js';
import { at, attr, children, requiredQNameAttr, showQName, tagName } from './xml-access.js';

const GROUP_KINDS = new Set(['sequence', 'choice', 'all']);

/** The content model of a complexType (or extension/restriction): its one group, if any. */
export function readContent(ctx: SchemaContext, doc: SchemaDocument, container: XmlElement): GroupParticle | undefined {
  for (const el of children(container, XSD_NS)) {
    if (GROUP_KINDS.has(el.local)) return readModelGroup(ctx, doc, el);
    if (el.local === 'group') return readGroupRef(ctx, doc, el);
  }
  return undefined;
}

function readModelGroup(ctx: SchemaContext, doc: SchemaDocument, el: XmlElement): GroupParticle {
  const particles: Particle[] = [];
  for (const child of children(el, XSD_NS)) {
    const particle = readParticle(ctx, doc, child);
    if (particle !== undefined) particles.push(particle);
  }
  return { kind: el.local as GroupParticle['kind'], ...occurs(doc, el), particles, source: at(doc.file, el) };
}

function readParticle(ctx: SchemaContext, doc: SchemaDocument, el: XmlElement): Particle | undefined {
  if (el.local === 'element') return withSubstitutes(ctx, doc, el, readLocalElement(ctx, doc, el));
  if (el.local === 'any') return readAny(doc, el);
  if (GROUP_KINDS.has(el.local)) return readModelGroup(ctx, doc, el);
  if (el.local === 'group') return readGroupRef(ctx, doc, el);
  if (el.local === 'annotation') return undefined;
  throw new GeneratorError('WSDL_INVALID', `<${tagName(el)}> is not allowed in a model group`, at(doc.file, el));
}

/**
 * The particle `decl` (read from `el`) stands for: itself, or, where it refers to the head of a
 * substitution group, the choice of the head (unless abstract) and every element that may take
 * its place, with the reference's occurrences (substitution-groups.ts).
 */
function withSubstitutes(ctx: SchemaContext, doc: SchemaDocument, el: XmlElement, decl: ElementDecl): Particle {
  if (decl.ref === undefined || decl.isSchemaRef === true) return decl;
  const head = ctx.index.elements.get(clark(decl.ref));
  if (head === undefined) return decl;
  const members = substitutes(ctx.index, clark(decl.ref)).map(
    (def): ElementDecl => ({ ...readGlobalElement(ctx, def), ref: qname(def.doc.targetNamespace, def.name) }),
  );
  if (members.length === 0) {
    throwIfAbstractElement(ctx.index, decl.ref, { file: doc.file, el, attribute: 'ref' });
    return decl;
  }
  const headItself: ElementDecl[] = booleanAttr(head.el, 'abstract') ? [] : [{ ...decl, minOccurs: 1, maxOccurs: 1 }];
  return {
    kind: 'choice',
    minOccurs: decl.minOccurs,
    maxOccurs: decl.maxOccurs,
    particles: [...headItself, ...members],
    source: decl.source,
    substitutionHead: decl.ref,
  };
}

function readAny(doc: SchemaDocument, el: XmlElement): AnyParticle {
  const processContents = attr(el, 'processContents')?.trim() ?? 'strict';
  if (processContents !== 'strict' && processContents !== 'lax' && processContents !== 'skip') {
    throw new GeneratorError(
      'WSDL_INVALID',
      `<${tagName(el)}> processContents="${processContents}" is not strict, lax or skip`,
      at(doc.file, el),
    );
  }
  return {
    kind: 'any',
    namespace: attr(el, 'namespace')?.trim() ?? '##any',
    processContents,
    ...occurs(doc, el),
    source: at(doc.file, el),
  };
}

/** `<group ref="...">`: the named group's model group, with the reference's occurrence. */
function readGroupRef(ctx: SchemaContext, doc: SchemaDocument, el: XmlElement): GroupParticle {
  const name = requiredQNameAttr(doc.file, el, 'ref');
  const def = ctx.index.groups.get(clark(name));
  if (def === undefined) throw unresolved(ctx.index, 'group', name, { file: doc.file, el, attribute: 'ref' });
  const cycle = () => new GeneratorError('WSDL_INVALID', `group ${showQName(name)} contains itself`, at(doc.file, el));
  const group = guarded(ctx, `group ${clark(name)}`, cycle, () => {
    const inner = children(def.el, XSD_NS).find((c) => GROUP_KINDS.has(c.local));
    if (inner === undefined) {
      throw new GeneratorError(
        'WSDL_INVALID',
        `group ${showQName(name)} has no sequence, choice or all`,
        at(def.doc.file, def.el),
      );
    }
    return readModelGroup(ctx, def.doc, inner);
  });
  return { ...group, ...occurs(doc, el), source: at(doc.file, el) };
}
