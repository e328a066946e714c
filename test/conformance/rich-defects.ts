/**
 * Defects in rich responses, one each, for the runner's self-tests against the rich peer
 * (test/peers/asmx/rich served by smskit): each breaks one rule of the schema in answers that
 * are otherwise correct, and names the check that must catch it. Textual, as a buggy server
 * would write them; no alteration needs to know more than the element names it touches.
 */
import type { Alteration, ProxiedResponse } from '../fixtures/conformance/broken-server.js';

export interface RichDefect {
  readonly name: string;
  readonly expectedCheck: string;
  /** The level the check's findings count at (the checks' own; none of these is in a COMPAT case). */
  readonly level: 'must' | 'should';
  readonly alter: Alteration;
}

const isSuccess = (res: ProxiedResponse): boolean => res.status === 200 && !/<(\w+:)?Fault[\s>]/.test(res.body);
const body = (res: ProxiedResponse, next: string): ProxiedResponse => ({ ...res, body: next });
const onSuccess =
  (change: (text: string) => string): Alteration =>
  (_, res) =>
    isSuccess(res) ? body(res, change(res.body)) : res;

export const RICH_DEFECTS: readonly RichDefect[] = [
  {
    // Order declares Customer before Lines: both complex members.
    name: 'wrong order among complex members',
    expectedCheck: 'response.field-order',
    level: 'must',
    alter: onSuccess((t) => t.replace(/(<Customer>.*?<\/Customer>)(<Lines>.*?<\/Lines>)/gs, '$2$1')),
  },
  {
    // Shapes are declared of the abstract type Shape: without xsi:type nothing says which one arrived.
    name: 'missing xsi:type',
    expectedCheck: 'response.xsi-type',
    level: 'must',
    alter: onSuccess((t) => t.replace(/ xsi:type="[^"]*"/g, '')),
  },
  {
    name: 'wrong array item name',
    expectedCheck: 'response.array-item',
    level: 'must',
    alter: onSuccess((t) =>
      t
        .replace(/<string>([^<]*)<\/string>/g, '<item>$1</item>')
        .replace(/<string (xsi:nil="true") ?\/>/g, '<item $1/>'),
    ),
  },
  {
    name: 'non-number in an int',
    expectedCheck: 'response.result-type',
    level: 'must',
    alter: onSuccess((t) =>
      t
        .replace(/<(SumValuesResult|AddResult)>-?\d+<\/\1>/g, '<$1>forty-two</$1>')
        .replace(/(<int xmlns="[^"]*">)-?\d+(<\/int>)/g, '$1forty-two$2'),
    ),
  },
  {
    // WhoAmI declares SessionHeader in and out: sent, it must come back.
    name: 'missing header in the answer',
    expectedCheck: 'soap.response-headers',
    level: 'should',
    alter: onSuccess((t) => t.replace(/<SessionHeader\b[^>]*>.*?<\/SessionHeader>/gs, '')),
  },
  {
    // WhoAmI declares AuthHeader on its SOAP bindings; a service that needs it refuses over HTTP
    // GET/POST, as ASMX does: 500 text/plain with the SoapException its implementation threw.
    name: 'an operation needing its SOAP header, refused over HTTP',
    expectedCheck: 'http.header-unsendable',
    level: 'should',
    alter: (req, res) =>
      /\/rich\.asmx\/WhoAmI\b/.test(req.url)
        ? {
            status: 500,
            headers: { 'content-type': 'text/plain; charset=utf-8' },
            body: 'System.Web.Services.Protocols.SoapException: AuthHeader is required.',
          }
        : res,
  },
];
