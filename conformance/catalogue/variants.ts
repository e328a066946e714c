/**
 * The texts positive cases carry in every free parameter (one not bound by an input). `plain`
 * must be accepted; the others may be refused by the service's own validation, so their cases
 * accept a well-formed refusal too (see `Expectation.allowRefusal`).
 */

export interface TextVariant {
  readonly name: string;
  readonly description: string;
  readonly text: string;
  /** The service may legitimately refuse this text (its rules are its own). */
  readonly mayBeRefused: boolean;
}

const LONG_UNIT = 'Conformance long text, 0123456789. ';

export const TEXT_VARIANTS: readonly TextVariant[] = [
  { name: 'plain', description: 'plain ASCII text', text: 'Conformance check 42', mayBeRefused: false },
  {
    name: 'non-ascii',
    description: 'accents, CJK and emoji',
    text: 'Grüße café naïve – 你好世界 🙂🚀',
    mayBeRefused: true,
  },
  {
    name: 'xml-special',
    description: 'XML-special characters <&>"\'',
    text: `a < b && c > d "q" 'a' ]]> &amp;`,
    mayBeRefused: true,
  },
  { name: 'empty', description: 'empty strings', text: '', mayBeRefused: true },
  // Long, but short enough that a GET request line stays under common 8-16 KiB header limits.
  {
    name: 'long',
    description: 'long text (5,000 characters)',
    text: LONG_UNIT.repeat(Math.ceil(5000 / LONG_UNIT.length)).slice(0, 5000),
    mayBeRefused: true,
  },
];
