/**
 * Element paths for error messages (`EchoOrder/order/Lines/OrderLine[3]/Shape`), built only when
 * an error names one. Encoding and decoding visit every element of a message and almost every
 * message needs no path at all, so a path string per element (the parent's, a '/', the local
 * name, a position) would be work and garbage for nothing.
 *
 * A path is the string a caller names the root with, or a PathNode: the parent's path, the local
 * name and the 1-based position among the siblings of a repeated field or an array (0: none).
 * A complex element gets a node (its children need a parent); a leaf (a simple-typed element)
 * gets none: it is named by its parent, its local name and its position, held in variables.
 * `String(path)` and template literals give the text.
 */
import { CodecError } from '../errors.js';

export type Path = string | PathNode;

export class PathNode {
  constructor(
    readonly parent: Path,
    readonly local: string,
    readonly index: number,
  ) {}

  toString(): string {
    return childPath(this.parent, this.local, this.index);
  }
}

/** The text of the path of the child `local` of `parent`, at position `index` (0: none). */
export function childPath(parent: Path, local: string, index: number): string {
  return index === 0 ? `${parent}/${local}` : `${parent}/${local}[${index}]`;
}

/**
 * What a leaf calls (the primitive codec, the enumeration check, escaping) names errors by a
 * path string; a leaf gives them '' and, when one fails, raises its error again with the leaf's
 * path, built then. The message is the same as if the path had been given in the first place.
 */
export function atPath(err: unknown, path: Path): unknown {
  return err instanceof CodecError && err.path === '' ? new CodecError(err.code, String(path), err.message) : err;
}
