/**
 * HTTP GET/POST requests: the parameters are the parts of the input message, and each carries
 * the value of the SOAP input wrapper's member of the same name where there is one (ASMX
 * converts parameters to the method's types; runtime/http/binding.ts does the same), else the
 * part's own type.
 *
 * A parameter that is also a wrapper member shares that member's findings, so a member added
 * to a method is one change with a verdict per binding, not one change for SOAP and another
 * for HTTP. The parameters' node is rooted at depth 1: the parameters are the members of a
 * request whose root is not on the wire.
 */
import type {
  FieldDescriptor,
  OperationDescriptor,
  ServiceDescriptor,
  ValueDescriptor,
} from '../../runtime/descriptor.js';
import { finding, type PairContext, type Where } from './context.js';
import type { Usage } from './types.js';
import type { ValueWalker } from './values.js';

interface Param {
  readonly name: string;
  readonly value: ValueDescriptor;
}

interface Wrapper {
  readonly typeKey: string;
  readonly fields: ReadonlyMap<string, FieldDescriptor>;
}

export function compareParams(
  p: PairContext,
  walker: ValueWalker,
  subject: string,
  [oo, no]: readonly [OperationDescriptor, OperationDescriptor],
  use: Usage,
  at: Where,
): void {
  const ow = wrapperOf(p.old.d, oo.method);
  const nw = wrapperOf(p.new.d, no.method);
  const olds = paramsOf(oo);
  const news = paramsOf(no);
  const names = (list: readonly Param[]): string => list.map((x) => x.name).join(',');
  const node = `P:${p.service}|${oo.method}|${no.method}|${names(olds)}|${names(news)}`;
  p.c.root(use, node, 1);
  if (!p.c.claim(node)) return;
  const wrapperNode = ow !== undefined && nw !== undefined ? walker.type(ow.typeKey, nw.typeKey) : undefined;
  const share = (name: string): boolean => shareWrapperMember(p, node, wrapperNode, name);
  for (const op of olds) {
    const np = news.find((x) => x.name === op.name);
    if (np === undefined) {
      if (!share(op.name)) reportParam(p, node, subject, 'removed', op.name, at);
      continue;
    }
    const of = ow?.fields.get(op.name);
    const nf = nw?.fields.get(np.name);
    if (of !== undefined && nf !== undefined && wrapperNode !== undefined) share(op.name);
    else
      walker.value(node, `${subject} › ${op.name}`, op.name, of?.value ?? op.value, nf?.value ?? np.value, at, [
        of?.maxOccurs ?? 1,
        nf?.maxOccurs ?? 1,
      ]);
  }
  for (const np of news.filter((x) => !olds.some((o) => o.name === x.name)))
    if (!share(np.name)) reportParam(p, node, subject, 'added', np.name, at);
}

/** Takes over what the wrapper comparison found about this member; false when it found nothing. */
function shareWrapperMember(p: PairContext, node: string, wrapperNode: string | undefined, name: string): boolean {
  if (wrapperNode === undefined) return false;
  const member = p.c.memberOf(wrapperNode, name);
  for (const f of member.findings) p.c.inNode(node, f);
  for (const child of member.children) p.c.edge(node, child);
  return member.findings.length > 0 || member.children.length > 0;
}

/** A parameter only one version has (every HTTP GET/POST parameter is required). */
function reportParam(
  p: PairContext,
  node: string,
  subject: string,
  change: 'added' | 'removed',
  name: string,
  at: Where,
): void {
  p.c.inNode(
    node,
    finding(
      change === 'added' ? 'member-added' : 'member-removed',
      `${node}|${name}`,
      `${subject} › ${name}`,
      `HTTP parameter ${name} ${change}`,
      { name, required: true },
      at,
    ),
  );
}

function paramsOf(op: OperationDescriptor): Param[] {
  return op.input.kind === 'params' ? [...op.input.params] : [];
}

/** The SOAP input wrapper of the same method (the first SOAP binding's, as the runtime takes it). */
function wrapperOf(d: ServiceDescriptor, method: string): Wrapper | undefined {
  for (const b of d.bindings) {
    if (b.protocol !== 'soap11' && b.protocol !== 'soap12') continue;
    const op = b.operations.find((o) => o.method === method);
    if (op === undefined) continue;
    if (op.input.kind !== 'element') return undefined;
    const element = d.elements[op.input.element];
    if (element?.value.kind !== 'type') return undefined;
    const type = d.types[element.value.type];
    if (type?.kind !== 'complex') return undefined;
    return { typeKey: element.value.type, fields: new Map(type.fields.map((f) => [f.name.local, f])) };
  }
  return undefined;
}
