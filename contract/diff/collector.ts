/**
 * Collects findings once each, and where each is used.
 *
 * A type is shared by many operations and messages, and a difference inside it must be
 * reported once with every place it reaches. So the comparison is a graph: each pair of
 * compared elements or types (old, new) is a node compared once, holding its own findings and
 * edges to the pairs its members lead to; each operation message on each binding is a root.
 * `reaches()` walks the graph from every root (breadth-first, so each node gets its shortest
 * depth from that root) and hands each finding the usages that reach it.
 */
import type { Finding, Reach, Usage } from './types.js';

export class Collector {
  private readonly findings = new Map<string, Finding>();
  private readonly order: string[] = [];
  private readonly nodeFindings = new Map<string, string[]>();
  private readonly edges = new Map<string, Set<string>>();
  private readonly direct = new Map<string, Reach[]>();
  private readonly roots: { readonly usage: Usage; readonly node: string; readonly depth: number }[] = [];
  /** Per `node|member`: the findings and child nodes of one member, for HTTP parameters (operations.ts). */
  private readonly members = new Map<string, { keys: Set<string>; children: Set<string> }>();
  private readonly compared = new Set<string>();

  /** True the first time a node is seen: the caller compares it then, and only then. */
  claim(node: string): boolean {
    if (this.compared.has(node)) return false;
    this.compared.add(node);
    return true;
  }

  /** Adds a finding that belongs to a graph node (its usages come from the roots that reach it). */
  inNode(node: string, finding: Finding): void {
    this.record(finding);
    const list = this.nodeFindings.get(node) ?? [];
    // One finding may belong to many nodes (a namespace change shows in every element it moves).
    if (!list.includes(finding.key)) list.push(finding.key);
    this.nodeFindings.set(node, list);
  }

  /** inNode, remembering the member it is about. */
  inMember(node: string, member: string, finding: Finding): void {
    this.inNode(node, finding);
    this.member(node, member).keys.add(finding.key);
  }

  /** edge, remembering the member it leads through. */
  memberEdge(node: string, member: string, to: string): void {
    this.edge(node, to);
    this.member(node, member).children.add(to);
  }

  /** What one member of a compared node holds: its findings and the nodes it leads to. */
  memberOf(
    node: string,
    member: string,
  ): { readonly findings: readonly Finding[]; readonly children: readonly string[] } {
    const m = this.members.get(`${node}|${member}`);
    return { findings: [...(m?.keys ?? [])].map((k) => this.findings.get(k)!), children: [...(m?.children ?? [])] };
  }

  private member(node: string, member: string): { keys: Set<string>; children: Set<string> } {
    let m = this.members.get(`${node}|${member}`);
    if (m === undefined) this.members.set(`${node}|${member}`, (m = { keys: new Set(), children: new Set() }));
    return m;
  }

  /** Adds a finding with usages of its own (an operation, a binding, a header block). */
  at(finding: Finding, usages: readonly Usage[]): void {
    this.record(finding);
    const list = this.direct.get(finding.key) ?? [];
    for (const usage of usages) list.push({ usage, depth: 0 });
    this.direct.set(finding.key, list);
  }

  /** A finding no usage reaches (documentation, facets). */
  alone(finding: Finding): void {
    this.record(finding);
  }

  edge(from: string, to: string): void {
    let set = this.edges.get(from);
    if (set === undefined) this.edges.set(from, (set = new Set()));
    set.add(to);
  }

  /** `depth`: how deep the node sits below the message root (HTTP parameters start at 1). */
  root(usage: Usage, node: string, depth = 0): void {
    this.roots.push({ usage, node, depth });
  }

  isEmpty(): boolean {
    return this.findings.size === 0;
  }

  /** Every finding in the order found, with the usages that reach it. */
  results(): { finding: Finding; reaches: Reach[] }[] {
    const reaches = new Map<string, Reach[]>();
    for (const [key, list] of this.direct) reaches.set(key, [...list]);
    for (const root of this.nodeFindings.size === 0 ? [] : this.roots) {
      for (const [node, depth] of this.walk(root.node, root.depth)) {
        for (const key of this.nodeFindings.get(node) ?? []) {
          const list = reaches.get(key) ?? [];
          list.push({ usage: root.usage, depth });
          reaches.set(key, list);
        }
      }
    }
    return this.order.map((key) => ({ finding: this.findings.get(key)!, reaches: reaches.get(key) ?? [] }));
  }

  private walk(start: string, startDepth: number): Map<string, number> {
    const depth = new Map<string, number>([[start, startDepth]]);
    const queue = [start];
    for (let i = 0; i < queue.length; i++) {
      const node = queue[i]!;
      for (const next of this.edges.get(node) ?? []) {
        if (depth.has(next)) continue;
        depth.set(next, depth.get(node)! + 1);
        queue.push(next);
      }
    }
    return depth;
  }

  private record(finding: Finding): boolean {
    if (this.findings.has(finding.key)) return false;
    this.findings.set(finding.key, finding);
    this.order.push(finding.key);
    return true;
  }
}
