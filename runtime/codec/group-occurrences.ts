/**
 * Repeating groups of several members (`FieldDescriptor.group`): a property holding one object
 * per occurrence of the group, whose members sit straight in the parent element, occurrence
 * after occurrence. Encoding writes each object's members in field order (encode.ts calls
 * `groupOccurrenceType` and `checkChoiceOccurrence`); decoding (`readOccurrences`) reads a run
 * of member elements back into occurrences.
 *
 * The plan types only groups whose occurrences follow from the elements' names
 * (contract/plan/repeating-groups.ts): in a sequence one member occurs exactly once per
 * occurrence, in a choice every member does. So reading is greedy and never has to guess: a
 * member that cannot continue the current occurrence (one that comes before the last one read, or
 * the last one again past its maxOccurs) starts the next, and a child that is no member ends the
 * run. What the group's occurrences or member order forbid is refused, naming the occurrence.
 */
import type { ComplexTypeDescriptor, ServiceDescriptor } from '../descriptor.js';
import { CodecError } from '../errors.js';
import type { XmlElement, XmlNode } from '../xml/types.js';
import { layoutOf, resolveSlot, type FieldLayout, type FieldSlot } from './field-layout.js';
import { childPath, PathNode, type Path } from './path.js';

/** Decodes the member element `child` of an occurrence at `occurrence` (decode.ts's decodeChild). */
export type MemberDecoder = (slot: FieldSlot, child: XmlElement, occurrence: Path, index: number) => unknown;

/** The complex type of one occurrence of the group field `slot`. */
export function groupOccurrenceType(d: ServiceDescriptor, slot: FieldSlot, path: Path): ComplexTypeDescriptor {
  const resolved = resolveSlot(d, slot, path);
  if (resolved.kind !== 'complex')
    throw new CodecError('CODEC_DESCRIPTOR', String(path), `the group ${slot.prop} must name a complex type`);
  return resolved.type;
}

/** The path of the `index`th (1-based) occurrence of the group field `slot` under `parent`. */
export function occurrencePath(parent: Path, slot: FieldSlot, index: number): PathNode {
  return new PathNode(parent, slot.prop, index);
}

/** A choice occurrence holds exactly one member: the one that occurred. */
export function checkChoiceOccurrence(layout: FieldLayout, record: Record<string, unknown>, path: Path): void {
  const present = layout.fields.filter((f) => record[f.prop] !== undefined).map((f) => f.prop);
  if (present.length === 1) return;
  const members = layout.fields.map((f) => f.prop).join(', ');
  throw new CodecError(
    'CODEC_INVALID_VALUE',
    String(path),
    `an occurrence of a repeating choice holds exactly one of ${members}, got ${present.length === 0 ? 'none' : present.join(' and ')}`,
  );
}

/** The group field among `groups` that `child` is a member of, if any. */
export function groupFor(
  d: ServiceDescriptor,
  groups: readonly FieldSlot[],
  child: XmlElement,
  path: Path,
): FieldSlot | undefined {
  for (const slot of groups) if (memberIndex(layoutOf(groupOccurrenceType(d, slot, path)), child) >= 0) return slot;
  return undefined;
}

function memberIndex(layout: FieldLayout, child: XmlElement): number {
  const candidates = layout.byLocal.get(child.local);
  if (candidates !== undefined) for (const slot of candidates) if (slot.ns === child.ns) return slot.position;
  return -1;
}

interface Occurrence {
  readonly record: Record<string, unknown>;
  readonly path: PathNode;
  /** How many elements of each member it holds so far. */
  readonly counts: number[];
  /** The position of the member read last (-1: none yet). */
  at: number;
}

/**
 * Reads the occurrences of the group field `slot` from `children`, starting at `start` (a
 * member element); `next` is the index after the last member element read.
 */
export function readOccurrences(
  d: ServiceDescriptor,
  slot: FieldSlot,
  children: readonly XmlNode[],
  start: number,
  parent: Path,
  decodeMember: MemberDecoder,
): { occurrences: Record<string, unknown>[]; next: number } {
  const layout = layoutOf(groupOccurrenceType(d, slot, parent));
  const max = slot.field.maxOccurs;
  const occurrences: Record<string, unknown>[] = [];
  let current: Occurrence | undefined;
  let next = start;
  for (let i = start; i < children.length; i++) {
    const child = children[i]!;
    if (child.type !== 'element') continue; // text: the parent's loop checks it
    const m = memberIndex(layout, child);
    if (m < 0) break;
    if (current === undefined || !continues(layout, current, m, slot.field.group === 'choice')) {
      if (current !== undefined) checkMembers(layout, current, layout.fields.length);
      if (max > 0 && occurrences.length >= max)
        throw new CodecError(
          'CODEC_UNEXPECTED',
          childPath(parent, child.local, 0),
          `more than ${max} occurrences of the repeating ${slot.field.group} ${slot.prop}`,
        );
      current = {
        record: {},
        path: occurrencePath(parent, slot, occurrences.length + 1),
        counts: layout.fields.map(() => 0),
        at: -1,
      };
      occurrences.push(current.record);
    }
    checkMembers(layout, current, m);
    addMember(layout.fields[m]!, child, current, decodeMember);
    next = i + 1;
  }
  if (current !== undefined) checkMembers(layout, current, layout.fields.length);
  return { occurrences, next };
}

/** Whether member `m` continues `occurrence` rather than starting the next one. */
function continues(layout: FieldLayout, occurrence: Occurrence, m: number, choice: boolean): boolean {
  if (choice) return false;
  if (m > occurrence.at) return true;
  const max = layout.fields[m]!.field.maxOccurs;
  return m === occurrence.at && (max < 0 || occurrence.counts[m]! < max);
}

/** Every member before position `before` that the occurrence has passed holds its minOccurs. */
function checkMembers(layout: FieldLayout, occurrence: Occurrence, before: number): void {
  for (let k = Math.max(occurrence.at, 0); k < before; k++) {
    const member = layout.fields[k]!;
    const { minOccurs, inChoice } = member.field;
    if (inChoice === true || occurrence.counts[k]! >= minOccurs) continue;
    throw new CodecError(
      'CODEC_MISSING',
      childPath(occurrence.path, member.local, 0),
      minOccurs === 1
        ? 'required element is missing from this occurrence'
        : `${occurrence.counts[k]} found in this occurrence, at least ${minOccurs} required`,
    );
  }
}

function addMember(member: FieldSlot, child: XmlElement, occurrence: Occurrence, decodeMember: MemberDecoder): void {
  const count = ++occurrence.counts[member.position]!;
  occurrence.at = member.position;
  if (!member.repeated) {
    occurrence.record[member.prop] = decodeMember(member, child, occurrence.path, 0);
    return;
  }
  const list = (occurrence.record[member.prop] ??= []) as unknown[];
  list.push(decodeMember(member, child, occurrence.path, count));
}
