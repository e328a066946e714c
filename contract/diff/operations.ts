/**
 * Compares one service's bindings (one per protocol) and their operations: which exist on
 * which binding, where they are routed (SOAPAction, HTTP path), and the roots of their
 * messages, which values.ts then compares.
 *
 * HTTP GET/POST messages are compared as the runtime reads them: the input as parameters
 * (params.ts), the output from its result element (`<string xmlns=...>`).
 */
import type { BindingDescriptor, OperationDescriptor } from '../../runtime/descriptor.js';
import { docsDiffer, finding, where, type PairContext } from './context.js';
import { operationFingerprint } from './fingerprint.js';
import { compareParams } from './params.js';
import { PROTOCOLS, type Protocol, type Usage } from './types.js';
import { ValueWalker } from './values.js';

export function compareService(p: PairContext): void {
  const walker = new ValueWalker(p);
  for (const protocol of PROTOCOLS) {
    const ob = p.old.d.bindings.find((b) => b.protocol === protocol);
    const nb = p.new.d.bindings.find((b) => b.protocol === protocol);
    if (ob === undefined && nb === undefined) continue;
    if (ob === undefined || nb === undefined) {
      const binding = (ob ?? nb)!;
      const side = ob === undefined ? p.new : p.old;
      const rule = ob === undefined ? 'binding-added' : 'binding-removed';
      const decl = side.locate.binding(binding.name);
      const at = ob === undefined ? where(undefined, decl) : where(decl, undefined);
      p.c.at(
        finding(
          rule,
          `${p.service}|${protocol}`,
          `${p.service} › ${binding.name}`,
          `${protocol} binding ${binding.name} ${ob === undefined ? 'added' : 'removed'}`,
          {},
          at,
        ),
        callUsages(p.service, binding),
      );
      continue;
    }
    compareBinding(p, walker, ob, nb);
  }
}

/** An operation's identity on a binding: its name, or name#method for ASMX overloads. */
export function operationKey(binding: BindingDescriptor, op: OperationDescriptor): string {
  return binding.operations.filter((o) => o.name === op.name).length > 1 ? `${op.name}#${op.method}` : op.name;
}

function callUsages(service: string, binding: BindingDescriptor): Usage[] {
  return binding.operations.map((op) => ({
    service,
    protocol: binding.protocol,
    operation: operationKey(binding, op),
    role: 'call' as const,
  }));
}

function compareBinding(p: PairContext, walker: ValueWalker, ob: BindingDescriptor, nb: BindingDescriptor): void {
  if (ob.name !== nb.name) reportBindingRenamed(p, ob, nb);
  compareAddress(p, ob, nb);
  const oldOps = new Map(ob.operations.map((op) => [operationKey(ob, op), op] as const));
  const newOps = new Map(nb.operations.map((op) => [operationKey(nb, op), op] as const));
  for (const [key, oo] of oldOps) {
    const no = newOps.get(key);
    if (no !== undefined) compareOperation(p, walker, ob, nb, key, oo, no);
  }
  const removed = [...oldOps].filter(([key]) => !newOps.has(key));
  const added = [...newOps].filter(([key]) => !oldOps.has(key));
  const renames = findRenames(p, removed, added);
  for (const [oldOp, newOp] of renames) reportOperationRenamed(p, ob, nb, oldOp, newOp);
  for (const [key, oo] of removed.filter(([k]) => !renames.some(([[r]]) => r === k)))
    reportOperationRemoved(p, ob, nb, key, oo);
  for (const [key, no] of added.filter(([k]) => !renames.some(([, [a]]) => a === k)))
    reportOperationAdded(p, ob, nb, key, no);
}

function reportBindingRenamed(p: PairContext, ob: BindingDescriptor, nb: BindingDescriptor): void {
  p.c.at(
    finding(
      'binding-renamed',
      `${p.service}|${ob.name}|${nb.name}`,
      `${p.service} › ${nb.name}`,
      `binding renamed: ${ob.name} -> ${nb.name}`,
      {},
      where(p.old.locate.binding(ob.name), p.new.locate.binding(nb.name)),
    ),
    callUsages(p.service, nb),
  );
}

type KeyedOperation = [string, OperationDescriptor];

function reportOperationRenamed(
  p: PairContext,
  ob: BindingDescriptor,
  nb: BindingDescriptor,
  [ok, oo]: KeyedOperation,
  [nk, no]: KeyedOperation,
): void {
  const protocol = ob.protocol;
  const usages: Usage[] = [usage(p, protocol, ok, 'call'), ...(nk === ok ? [] : [usage(p, protocol, nk, 'call')])];
  const opAt = where(
    p.old.locate.operation(ob.name, oo.name, oo.method),
    p.new.locate.operation(nb.name, no.name, no.method),
  );
  p.c.at(
    finding(
      'operation-renamed',
      `${p.service}|${ok}|${nk}`,
      `${p.service} › ${no.name}`,
      `operation renamed: ${oo.name} -> ${no.name} (detected by identical messages)`,
      { from: oo.name, to: no.name },
      opAt,
    ),
    usages,
  );
}

/** An operation only the old binding has; the new binding may name why it cannot carry it. */
function reportOperationRemoved(
  p: PairContext,
  ob: BindingDescriptor,
  nb: BindingDescriptor,
  key: string,
  oo: OperationDescriptor,
): void {
  const reason = nb.omitted?.find((o) => o.name === oo.name)?.reason;
  const what = `operation ${oo.name} removed from ${ob.protocol}${reason === undefined ? '' : ` (the binding can no longer carry it: ${reason})`}`;
  p.c.at(
    finding(
      'operation-removed',
      `${p.service}|${key}`,
      `${p.service} › ${oo.name}`,
      what,
      reason === undefined ? {} : { reason },
      where(p.old.locate.operation(ob.name, oo.name, oo.method), undefined),
    ),
    [usage(p, ob.protocol, key, 'call')],
  );
}

/** An operation only the new binding has; the old binding may name why it could not carry it. */
function reportOperationAdded(
  p: PairContext,
  ob: BindingDescriptor,
  nb: BindingDescriptor,
  key: string,
  no: OperationDescriptor,
): void {
  const reason = ob.omitted?.find((o) => o.name === no.name)?.reason;
  const what = `operation ${no.name} added to ${ob.protocol}${reason === undefined ? '' : ` (the old binding could not carry it: ${reason})`}`;
  p.c.at(
    finding(
      'operation-added',
      `${p.service}|${key}`,
      `${p.service} › ${no.name}`,
      what,
      reason === undefined ? {} : { reason },
      where(undefined, p.new.locate.operation(nb.name, no.name, no.method)),
    ),
    [usage(p, ob.protocol, key, 'call')],
  );
}

function usage(p: PairContext, protocol: Protocol, operation: string, role: Usage['role']): Usage {
  return { service: p.service, protocol, operation, role };
}

/** Pairs a removed and an added operation whose messages are the same apart from their names. */
function findRenames(
  p: PairContext,
  removed: [string, OperationDescriptor][],
  added: [string, OperationDescriptor][],
): [[string, OperationDescriptor], [string, OperationDescriptor]][] {
  const out: [[string, OperationDescriptor], [string, OperationDescriptor]][] = [];
  const addedPrints = added.map(([, op]) => operationFingerprint(p.new.d, op));
  for (const entry of removed) {
    const print = operationFingerprint(p.old.d, entry[1]);
    const matches = added.filter((_, i) => addedPrints[i] === print);
    const othersWithPrint = removed.filter(([, op]) => operationFingerprint(p.old.d, op) === print).length;
    // Only an unambiguous pair is a rename; anything else stays a removal and an addition.
    if (matches.length === 1 && othersWithPrint === 1) out.push([entry, matches[0]!]);
  }
  return out;
}

function compareAddress(p: PairContext, ob: BindingDescriptor, nb: BindingDescriptor): void {
  if (ob.address === undefined || nb.address === undefined || ob.address === nb.address) return;
  const [op, np] = [parseAddress(ob.address), parseAddress(nb.address)];
  const at = where(p.old.locate.port(p.service, ob.name), p.new.locate.port(p.service, nb.name));
  const rule = op.path.toLowerCase() !== np.path.toLowerCase() ? 'address-path-changed' : 'address-host-changed';
  const what = `port address ${ob.address} -> ${nb.address}`;
  p.c.at(
    finding(
      rule,
      `${p.service}|${ob.address}|${nb.address}`,
      `${p.service} › address`,
      what,
      { from: ob.address, to: nb.address },
      at,
    ),
    callUsages(p.service, nb).filter((u) => ob.operations.some((o) => operationKey(ob, o) === u.operation)),
  );
}

function parseAddress(address: string): { host: string; path: string } {
  try {
    const url = new URL(address);
    return { host: url.host, path: url.pathname.replace(/\/+$/, '') };
  } catch {
    return { host: '', path: address };
  }
}

function compareOperation(
  p: PairContext,
  walker: ValueWalker,
  ob: BindingDescriptor,
  nb: BindingDescriptor,
  key: string,
  oo: OperationDescriptor,
  no: OperationDescriptor,
): void {
  const protocol = ob.protocol;
  const at = where(
    p.old.locate.operation(ob.name, oo.name, oo.method),
    p.new.locate.operation(nb.name, no.name, no.method),
  );
  const subject = `${p.service} › ${no.name}`;
  const call = usage(p, protocol, key, 'call');
  if ((oo.soapAction ?? '') !== (no.soapAction ?? ''))
    routeChange(p, 'soap-action-changed', subject, oo.soapAction ?? '', no.soapAction ?? '', at, call);
  if ((oo.httpPath ?? '') !== (no.httpPath ?? ''))
    routeChange(p, 'http-path-changed', subject, oo.httpPath ?? '', no.httpPath ?? '', at, call);
  const http = protocol === 'http-get' || protocol === 'http-post';
  if (http) compareParams(p, walker, subject, [oo, no], usage(p, protocol, key, 'input'), at);
  else messageRoots(p, walker, subject, [oo.input, no.input], usage(p, protocol, key, 'input'), at);
  messageRoots(p, walker, subject, [oo.output, no.output], usage(p, protocol, key, 'output'), at);
  if (!http) compareHeaders(p, walker, subject, oo, no, protocol, key, at);
  if (!http) compareFaults(p, ob, nb, oo, no, call, at);
  if (p.compareDocs && docsDiffer(oo.documentation, no.documentation)) {
    p.c.alone(
      finding('documentation-changed', `${p.service}|${key}`, subject, 'operation documentation changed', {}, at),
    );
  }
}

/**
 * A SOAPAction or HTTP path change, reported once per operation however many bindings show it.
 * A SOAPAction that only follows the targetNamespace (ASMX writes `<namespace><method>`) is
 * part of that namespace change.
 */
function routeChange(
  p: PairContext,
  rule: 'soap-action-changed' | 'http-path-changed',
  subject: string,
  from: string,
  to: string,
  at: ReturnType<typeof where>,
  call: Usage,
): void {
  const oldNs = p.old.d.targetNamespace;
  const newNs = p.new.d.targetNamespace;
  if (
    rule === 'soap-action-changed' &&
    oldNs !== newNs &&
    from.startsWith(oldNs) &&
    to.startsWith(newNs) &&
    from.slice(oldNs.length) === to.slice(newNs.length)
  ) {
    p.c.at(
      finding(
        'namespace-changed',
        `${oldNs}|${newNs}`,
        'namespace',
        `elements move from namespace "${oldNs}" to "${newNs}"`,
        { from: oldNs, to: newNs },
        at,
      ),
      [call],
    );
    return;
  }
  const label = rule === 'soap-action-changed' ? 'SOAPAction' : 'HTTP location';
  p.c.at(finding(rule, `${subject}|${from}|${to}`, subject, `${label} "${from}" -> "${to}"`, { from, to }, at), [call]);
}

type Body = OperationDescriptor['input'];

function messageRoots(
  p: PairContext,
  walker: ValueWalker,
  subject: string,
  [ob, nb]: readonly [Body, Body],
  use: Usage,
  at: ReturnType<typeof where>,
): void {
  const root = (b: Body): string | undefined =>
    b.kind === 'element' || b.kind === 'xml-result' ? b.element : undefined;
  const [or, nr] = [root(ob), root(nb)];
  if (or !== undefined && nr !== undefined) {
    p.c.root(use, walker.element(or, nr));
    return;
  }
  if (ob.kind !== nb.kind && (ob.kind === 'empty' || nb.kind === 'empty')) {
    const kind = (b: Body): string => (b.kind === 'empty' ? 'empty' : 'element');
    p.c.at(
      finding(
        'message-body-changed',
        `${subject}|${use.role}`,
        `${subject} › ${use.role}`,
        `${use.role} message ${kind(ob)} -> ${kind(nb)}`,
        { body: { old: kind(ob), new: kind(nb) } },
        at,
      ),
      [use],
    );
  }
}

function compareHeaders(
  p: PairContext,
  walker: ValueWalker,
  subject: string,
  oo: OperationDescriptor,
  no: OperationDescriptor,
  protocol: Protocol,
  key: string,
  at: ReturnType<typeof where>,
): void {
  for (const direction of ['input', 'output'] as const) {
    const role = direction === 'input' ? ('input-header' as const) : ('output-header' as const);
    const olds = direction === 'input' ? oo.inputHeaders : oo.outputHeaders;
    const news = direction === 'input' ? no.inputHeaders : no.outputHeaders;
    const use = usage(p, protocol, key, role);
    for (const oh of olds) {
      const nh = news.find((h) => h.prop === oh.prop);
      if (nh !== undefined) p.c.root(use, walker.element(oh.element, nh.element));
      else
        p.c.at(
          finding(
            'header-removed',
            `${subject}|${role}|${oh.prop}`,
            `${subject} › ${role} ${oh.prop}`,
            `${direction} SOAP header ${oh.prop} removed`,
            { name: oh.prop },
            where(p.old.locate.element(oh.element), at.new === undefined ? undefined : { source: at.new }),
          ),
          [use],
        );
    }
    for (const nh of news.filter((h) => !olds.some((o) => o.prop === h.prop))) {
      p.c.at(
        finding(
          'header-added',
          `${subject}|${role}|${nh.prop}`,
          `${subject} › ${role} ${nh.prop}`,
          `${direction} SOAP header ${nh.prop} added`,
          { name: nh.prop },
          where(at.old === undefined ? undefined : { source: at.old }, p.new.locate.element(nh.element)),
        ),
        [use],
      );
    }
  }
}

function compareFaults(
  p: PairContext,
  ob: BindingDescriptor,
  nb: BindingDescriptor,
  oo: OperationDescriptor,
  no: OperationDescriptor,
  call: Usage,
  at: ReturnType<typeof where>,
): void {
  const olds = p.old.locate.faults(ob.name, oo.name, oo.method);
  const news = p.new.locate.faults(nb.name, no.name, no.method);
  if (olds === undefined || news === undefined) return;
  const subject = `${p.service} › ${no.name}`;
  for (const name of olds.filter((f) => !news.includes(f)))
    p.c.at(finding('fault-removed', `${subject}|${name}`, subject, `fault ${name} removed`, { name }, at), [call]);
  for (const name of news.filter((f) => !olds.includes(f)))
    p.c.at(finding('fault-added', `${subject}|${name}`, subject, `fault ${name} added`, { name }, at), [call]);
}
