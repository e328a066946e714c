/**
 * Progress on stderr (a terminal: one line from the start; a log: nothing for a second, then a
 * line now and then) and the stack traces genuine ASMX writes (Mono frames, escaped inner
 * exception markers), from the captured exchanges in test/fixtures/asmx/captures.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { findStackTrace } from '../../conformance/validate/checks/no-stack-trace.js';
import { createProgress } from '../../conformance/report/progress.js';
import type { CaseOutcome } from '../../conformance/types.js';

const outcome = (status: CaseOutcome['status']) => ({ status }) as CaseOutcome;

describe('progress', () => {
  let now = 0;
  beforeEach(() => {
    vi.useFakeTimers();
    now = 0;
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  const clock = () => now;
  const advance = (ms: number) => {
    now += ms;
    vi.advanceTimersByTime(ms);
  };

  it('on a terminal: one line from the first moment, redrawn, cleared at the end', () => {
    const written: string[] = [];
    const progress = createProgress({ write: (t) => written.push(t), isTTY: true, now: clock });
    progress.start(83);
    expect(written).toEqual(['\r\x1b[Ksmskit conformance: 0/83 cases, 0 failed, 0.0 s']);
    advance(150);
    progress.onCase(outcome('failed'), 1, 83);
    expect(written.at(-1)).toBe('\r\x1b[Ksmskit conformance: 1/83 cases, 1 failed, 0.1 s');
    advance(1000);
    expect(written.at(-1)).toBe('\r\x1b[Ksmskit conformance: 1/83 cases, 1 failed, 1.1 s');
    progress.finish();
    expect(written.at(-1)).toBe('\r\x1b[K');
  });

  it('in a log: silent for a run under a second', () => {
    const written: string[] = [];
    const progress = createProgress({ write: (t) => written.push(t), isTTY: false, now: clock });
    progress.start(83);
    for (let i = 1; i <= 83; i++) progress.onCase(outcome('passed'), i, 83);
    advance(900);
    progress.finish();
    advance(5000);
    expect(written).toEqual([]);
  });

  it('in a log: a line after the first second, then every five', () => {
    const written: string[] = [];
    const progress = createProgress({ write: (t) => written.push(t), isTTY: false, now: clock });
    progress.start(700);
    progress.onCase(outcome('failed'), 1, 700);
    advance(1000);
    expect(written).toEqual(['smskit conformance: 1/700 cases, 1 failed, 1.0 s\n']);
    advance(5000);
    expect(written).toHaveLength(2);
    progress.finish();
    advance(20_000);
    expect(written).toHaveLength(2);
  });
});

describe('stack traces as genuine ASMX writes them', () => {
  const captures = new URL('../fixtures/asmx/captures/', import.meta.url);
  const response = (site: string, file: string): string => {
    const text = readFileSync(new URL(`${site}/${file}`, captures), 'utf8');
    return text.slice(text.indexOf('#### response'));
  };

  it('Mono frames inside an XML fault (escaped: `in &lt;…&gt;:0`, `---&gt;`)', () => {
    const fault = response('rich', 'Add.soap11.error-not-a-number.txt');
    expect(fault).toContain('---&gt;');
    expect(findStackTrace(fault)).toMatch(
      /^at System\.Number\.ThrowOverflowOrFormatException \(System\.Boolean overflow, System\.String overflowResourceKey\) \[0x00020\] in <[0-9a-f]+>:0$/,
    );
  });

  it('the escaped inner-exception marker alone', () => {
    expect(
      findStackTrace(
        '<faultstring>System.Web.Services.Protocols.SoapException: x ---&gt; System.FormatException: y</faultstring>',
      ),
    ).toBe('--->');
  });

  it('Mono frames in a GET/POST text/plain error', () => {
    expect(findStackTrace(response('rich', 'Add.get.error-not-a-number.txt'))).toMatch(
      /\[0x[0-9a-f]+\] in <[0-9a-f]+>:0$/,
    );
  });

  it('.NET frames without symbols, and the end-of-inner-exception line', () => {
    expect(
      findStackTrace(
        'System.InvalidOperationException: x\r\n   at System.Web.Services.Protocols.SoapServerProtocol.ReadParameters()\r\n',
      ),
    ).toBe('at System.Web.Services.Protocols.SoapServerProtocol.ReadParameters()');
    expect(findStackTrace('x\n   --- End of inner exception stack trace ---\n')).toBe(
      '--- End of inner exception stack trace ---',
    );
  });

  it('every captured ASMX error answer that carries a trace is recognised; success answers never', () => {
    for (const site of ['echo', 'rich']) {
      for (const file of readdirSync(new URL(`${site}/`, captures)).filter((f) => f.endsWith('.txt'))) {
        const text = response(site, file);
        const leaks = /\bat System\.|\bat Peers\.|\bat Microsoft\./.test(text);
        expect(findStackTrace(text) !== undefined, `${site}/${file}`).toBe(leaks);
      }
    }
  });
});
