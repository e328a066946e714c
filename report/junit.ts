/**
 * JUnit XML for CI, the elements every report kind writes: the document (<testsuites>), a
 * <testsuite> with its <properties>, a <testcase> with at most a <failure>, <error>, <skipped>
 * or <system-out>. Every attribute and text goes through the reports' lenient XML escaping
 * (runtime/escape/xml.ts): markup escaped, characters XML 1.0 cannot carry replaced, so a
 * hostile answer cannot break the file a CI parses. Attributes are written in the order the
 * object lists them.
 */
import { escapeReportText as x } from '../runtime/escape/xml.js';

/** Attribute names and values, written in the object's order. */
export type JunitAttributes = Readonly<Record<string, string | number>>;

function attributes(list: JunitAttributes): string {
  return Object.entries(list)
    .map(([name, value]) => ` ${name}="${x(String(value))}"`)
    .join('');
}

/** A duration as JUnit's `time`: seconds with three decimals. */
export function junitTime(ms: number): string {
  return (ms / 1000).toFixed(3);
}

/** The whole file: the XML declaration, <testsuites> around `suites` (lines), a final newline. */
export function junitDocument(attrs: JunitAttributes, suites: readonly string[]): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${attributes(attrs)}>`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}

/** A <testsuite> around its lines (properties, test cases). */
export function junitSuite(attrs: JunitAttributes, body: readonly string[]): string[] {
  return [`  <testsuite${attributes(attrs)}>`, ...body, '  </testsuite>'];
}

/** A suite's <properties>: where the run comes from (tool, target, times), in the object's order. */
export function junitProperties(entries: Readonly<Record<string, string>>): string {
  const lines = Object.entries(entries).map(([name, value]) => `      <property${attributes({ name, value })}/>`);
  return `    <properties>\n${lines.join('\n')}\n    </properties>`;
}

/** A <testcase>; with no children it is a pass, written as an empty element. */
export function junitCase(attrs: JunitAttributes, children: readonly string[] = []): string {
  const open = `    <testcase${attributes(attrs)}`;
  return children.length === 0 ? `${open}/>` : `${open}>\n${children.join('\n')}\n    </testcase>`;
}

/** The case failed: a one-line message, a type, and the whole story as text. */
export function junitFailure(message: string, type: string, text: string): string {
  return `      <failure${attributes({ message, type })}>${x(text)}</failure>`;
}

/** The case has no verdict (not run, not judged): the CI view fails as the exit code does. */
export function junitError(message: string, type: string): string {
  return `      <error${attributes({ message, type })}/>`;
}

export function junitSkipped(message: string): string {
  return `      <skipped${attributes({ message })}/>`;
}

/** Text a passing case carries for a reader: warnings, known failures. */
export function junitSystemOut(text: string): string {
  return `      <system-out>${x(text)}</system-out>`;
}
