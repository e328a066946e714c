/**
 * Invalid requests: a valid one (encoded by the runtime) with one mutation, each of which the
 * schema forbids, so a conforming server must refuse it with a client fault (SOAP) or an error
 * answer (HTTP GET/POST), never a success:
 *
 * - `wrong-lexical`: a number, boolean, date/time, guid or binary value given text its type does
 *   not allow;
 * - `out-of-range`: an integer one past its type's or facets' bound;
 * - `bad-enum`: a value outside its enumeration;
 * - `over-length`: a text one character past its maxLength (or length);
 * - `missing-required`: a required element (SOAP) or parameter (HTTP) left out;
 * - `extra-element`: an element the operation does not declare, first in the operation element;
 * - `wrong-namespace`: the operation element's first child moved to a namespace nobody declares;
 * - `malformed-xml`: the document cut before its last end tag.
 *
 * Reordered elements are not among them: neither ASMX's XmlSerializer nor smskit's runtime
 * enforces sequence order on requests, by design (runtime/codec/decode.ts), so a server that
 * accepts them is right. A mutation is chosen by kind and index from the arbitrary; one that
 * does not apply to this input falls to the next kind that does.
 */
import type { OperationContract } from '../../conformance/catalogue/operation-contract.js';
import {
  alterSoapValue,
  bodyString,
  httpParams,
  httpRequestWithParams,
  truncateDocument,
  type WirePath,
} from '../../conformance/catalogue/requests.js';
import type { BuiltInput } from '../../conformance/catalogue/operation-input.js';
import type { RequestSpec } from '../../conformance/types.js';
import { integerBounds } from '../generate/numbers.js';
import { primitiveFacts } from '../../runtime/primitives.js';
import type { LeafTarget, Targets } from './targets.js';

export const MUTATION_KINDS = [
  'wrong-lexical',
  'out-of-range',
  'bad-enum',
  'over-length',
  'missing-required',
  'extra-element',
  'wrong-namespace',
  'malformed-xml',
] as const;

export type MutationKind = (typeof MUTATION_KINDS)[number];

/** What the arbitrary chose: a kind, which target of it, and which of the invalid texts. */
export interface MutationChoice {
  readonly kind: MutationKind;
  readonly index: number;
  readonly variant: number;
}

export interface Mutated {
  readonly request: RequestSpec;
  /** One line: the mutation and where, e.g. `out-of-range at Add/a: 2147483648`. */
  readonly description: string;
}

/** Texts no lexical form of the family allows (none a stack could read as valid by leniency). */
const INVALID_TEXT: Readonly<Record<string, readonly string[]>> = {
  integer: ['not-a-number', '12abc', '1.5', '--1', ''],
  decimal: ['not-a-number', '1,5', '1.2.3', ''],
  float: ['not-a-number', '1.2.3', '', '0x1p3'],
  boolean: ['yes', '2', 'truth', ''],
  temporal: ['yesterday', '2024-13-45', '2024-02-30T25:61:00', ''],
  guid: ['not-a-guid', '1234', '{00000000-0000-0000-0000}'],
  base64: ['***', '@@@@'],
  hex: ['zz', 'abc'],
};

const UNDECLARED_NS = 'urn:smskit:fuzz:undeclared';
const pick = <T>(items: readonly T[], n: number): T => items[n % items.length]!;
const shown = (path: WirePath): string => path.join('/');

/** The text that spoils a leaf for a kind, or undefined when the kind does not apply to it. */
export function spoiledText(
  kind: MutationKind,
  leaf: Pick<LeafTarget, 'xsd' | 'enumeration' | 'facets'>,
  variant: number,
): string | undefined {
  const facts = primitiveFacts(leaf.xsd);
  if (kind === 'wrong-lexical') {
    const texts = leaf.xsd === 'char' ? undefined : INVALID_TEXT[facts.family];
    return texts === undefined || leaf.enumeration !== undefined ? undefined : pick(texts, variant);
  }
  if (kind === 'out-of-range') {
    if (facts.family !== 'integer' || leaf.enumeration !== undefined) return undefined;
    const { min, max } = integerBounds(leaf.xsd, leaf.facets);
    const [typeMin, typeMax] = facts.range ?? [undefined, undefined];
    const over =
      typeMax !== undefined || leaf.facets?.maxInclusive !== undefined || leaf.facets?.maxExclusive !== undefined;
    const under =
      typeMin !== undefined || leaf.facets?.minInclusive !== undefined || leaf.facets?.minExclusive !== undefined;
    const sides = [...(over ? [String(max + 1n)] : []), ...(under ? [String(min - 1n)] : [])];
    return sides.length === 0 ? undefined : pick(sides, variant);
  }
  if (kind === 'bad-enum') return leaf.enumeration === undefined ? undefined : 'NotAnEnumerationValue';
  if (kind === 'over-length') {
    const max = leaf.facets?.length ?? leaf.facets?.maxLength;
    return max === undefined || facts.family !== 'text' ? undefined : 'x'.repeat(max + 1);
  }
  return undefined;
}

/** The leaves a kind applies to, with their spoiled texts. */
function spoilable(
  targets: readonly LeafTarget[],
  kind: MutationKind,
  variant: number,
): { leaf: LeafTarget; text: string }[] {
  return targets.flatMap((leaf) => {
    const text = spoiledText(kind, leaf, variant);
    return text === undefined ? [] : [{ leaf, text }];
  });
}

function soapMutation(
  plain: RequestSpec,
  targets: Targets,
  choice: MutationChoice,
  kind: MutationKind,
): Mutated | undefined {
  if (kind === 'malformed-xml')
    return {
      request: { ...plain, body: truncateDocument(bodyString(plain)) },
      description: 'malformed-xml: the document cut before its last end tag',
    };
  if (kind === 'missing-required') {
    if (targets.required.length === 0) return undefined;
    const path = pick(targets.required, choice.index);
    const request = alterSoapValue(plain, path.slice(1), undefined);
    return request === undefined ? undefined : { request, description: `missing-required: ${shown(path)} left out` };
  }
  if (kind === 'extra-element' || kind === 'wrong-namespace') return structural(plain, kind);
  const found = spoilable(targets.leaves, kind, choice.variant);
  if (found.length === 0) return undefined;
  const { leaf, text } = pick(found, choice.index);
  const request = alterSoapValue(plain, leaf.path.slice(1), text);
  return request === undefined
    ? undefined
    : { request, description: `${kind} at ${shown(leaf.path)} (xs:${leaf.xsd}): ${JSON.stringify(text)}` };
}

/** An undeclared element first in the operation element, or its first child moved to another namespace. */
function structural(plain: RequestSpec, kind: 'extra-element' | 'wrong-namespace'): Mutated | undefined {
  const body = bodyString(plain);
  const opStart = /<(?:[\w.-]+:)?Body(?:\s[^>]*)?>\s*<([\w.-]+:)?([\w.-]+)((?:\s[^>]*?)?)(\/?)>/.exec(body);
  if (opStart === null) return undefined;
  const end = opStart.index + opStart[0].length;
  if (kind === 'extra-element') {
    if (opStart[4] === '/') return undefined;
    const extra = `<UndeclaredByTheSchema xmlns="${UNDECLARED_NS}">fuzz</UndeclaredByTheSchema>`;
    return {
      request: { ...plain, body: body.slice(0, end) + extra + body.slice(end) },
      description: `extra-element: <UndeclaredByTheSchema> first in <${opStart[2]}>`,
    };
  }
  const child = /^\s*<([\w.-]+:)?([\w.-]+)(\s[^>]*?)?(\/?)>/.exec(body.slice(end));
  if (child === null || opStart[4] === '/') return undefined;
  const tag = `${child[1] ?? ''}${child[2]}`;
  const renamed = `<f:${child[2]} xmlns:f="${UNDECLARED_NS}"${child[3] ?? ''}${child[4]}>`;
  const rest = body.slice(end + child[0].length);
  const closeAt = child[4] === '/' ? 0 : rest.indexOf(`</${tag}>`);
  if (closeAt < 0) return undefined;
  const after =
    child[4] === '/' ? rest : `${rest.slice(0, closeAt)}</f:${child[2]}>${rest.slice(closeAt + tag.length + 3)}`;
  return {
    request: { ...plain, body: body.slice(0, end) + renamed + after },
    description: `wrong-namespace: <${child[2]}> in ${UNDECLARED_NS}`,
  };
}

function httpMutation(
  contract: OperationContract,
  basePath: string,
  built: BuiltInput,
  choice: MutationChoice,
  kind: MutationKind,
): Mutated | undefined {
  const http = contract.http;
  if (http === undefined) return undefined;
  const values = httpParams(contract, built);
  const present = http.params.filter((p) => values.some(([n]) => n === p.name));
  if (kind === 'missing-required') {
    // A parameter whose SOAP member is optional may be absent on a server that passes it through.
    const required = present.filter((p) => p.required);
    if (required.length === 0) return undefined;
    const gone = pick(required, choice.index).name;
    return {
      request: httpRequestWithParams(
        contract,
        basePath,
        values.filter(([n]) => n !== gone),
      ),
      description: `missing-required: parameter ${gone} left out`,
    };
  }
  // A char or [Flags] parameter has its own text form over HTTP; the others use the XML form.
  const leaves = present
    .filter((p) => p.form === 'xml' || p.form === 'boolean')
    .map((p) => ({ p, leaf: { xsd: p.xsd, ...(p.enumeration === undefined ? {} : { enumeration: p.enumeration }) } }));
  const found = leaves.flatMap(({ p, leaf }) => {
    const text = spoiledText(kind, leaf, choice.variant);
    return text === undefined || (kind === 'wrong-lexical' && p.form === 'boolean' && text === '') ? [] : [{ p, text }];
  });
  if (found.length === 0) return undefined;
  const { p, text } = pick(found, choice.index);
  let done = false;
  const spoiled = values.map(([n, v]) => {
    if (n !== p.name || done) return [n, v] as const;
    done = true;
    return [n, text] as const;
  });
  return {
    request: httpRequestWithParams(contract, basePath, spoiled),
    description: `${kind} at parameter ${p.name} (xs:${p.xsd}): ${JSON.stringify(text)}`,
  };
}

/** The mutated request, trying the chosen kind first and then each later kind in turn; undefined when none applies. */
export function mutate(
  contract: OperationContract,
  basePath: string,
  built: BuiltInput,
  plain: RequestSpec,
  targets: Targets,
  choice: MutationChoice,
): Mutated | undefined {
  const soap = contract.protocol === 'soap11' || contract.protocol === 'soap12';
  const start = MUTATION_KINDS.indexOf(choice.kind);
  for (let i = 0; i < MUTATION_KINDS.length; i++) {
    const kind = MUTATION_KINDS[(start + i) % MUTATION_KINDS.length]!;
    const mutated = soap
      ? soapMutation(plain, targets, choice, kind)
      : httpMutation(contract, basePath, built, choice, kind);
    if (mutated !== undefined) return mutated;
  }
  return undefined;
}
