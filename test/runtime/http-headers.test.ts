/**
 * `context.setHttpHeader`: a handler adds an X- header beside the answer on every binding (the SMS
 * service's X-Smskit-Delivery); any other name (the server's own Content-Type, Set-Cookie, …) is a
 * handler bug, answered as a Server fault without the header.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequestListener, listen, type Listening, type RequestContext } from '../../runtime/index.js';
import { NS, serviceApiDescriptor } from '../fixtures/runtime/serviceapi-descriptor.js';
import { envelope, raw, sendBody, soap11Post, soap12Post, WSDL_TEXT } from '../fixtures/runtime/harness.js';
import { SOAP11, SOAP12 } from '../../tools/soap-fault.js';

const FIELDS = { keyword: 'k', emailAddress: 'e@x', password: 'p', smsto: '+1555', carrierCode: 'c', smsmsg: 'hi' };
let server: Listening;
let endpoint: string;
const logged: string[] = [];

beforeAll(async () => {
  const handlers = {
    SMSSend: (input: { keyword?: string | null }, context: RequestContext) => {
      context.setHttpHeader(input.keyword === 'bad' ? 'Content-Type' : 'X-Example-Hint', `via ${context.binding}`);
      return { SMSSendResult: 'ok' };
    },
    SMSSendToPort: () => ({ SMSSendToPortResult: 'ok' }),
  };
  const listener = createRequestListener(serviceApiDescriptor, handlers as never, {
    wsdl: WSDL_TEXT,
    logger: { error: (line) => logged.push(line) },
  });
  server = await listen(listener, {});
  endpoint = `${server.url}/serviceapi.asmx`;
});
afterAll(async () => server?.close());

describe('setHttpHeader', () => {
  it('adds the header on all four bindings, beside the unchanged answer', async () => {
    const query = new URLSearchParams(FIELDS).toString();
    const answers = [
      await soap11Post(endpoint, envelope(SOAP11, sendBody(FIELDS)), `"${NS}SMSSend"`),
      await soap12Post(endpoint, envelope(SOAP12, sendBody(FIELDS))),
      await raw(`${endpoint}/SMSSend?${query}`),
      await raw(`${endpoint}/SMSSend`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: query,
      }),
    ];
    expect(answers.map((a) => [a.status, a.headers['x-example-hint']])).toEqual([
      [200, 'via soap11'],
      [200, 'via soap12'],
      [200, 'via http-get'],
      [200, 'via http-post'],
    ]);
    for (const answer of answers) expect(answer.text).toContain('ok');
  });

  it('refuses a name that is not an X- extension header: a Server fault, the header not sent', async () => {
    const answer = await soap11Post(
      endpoint,
      envelope(SOAP11, sendBody({ ...FIELDS, keyword: 'bad' })),
      `"${NS}SMSSend"`,
    );
    expect(answer.status).toBe(500);
    expect(answer.contentType).toBe('text/xml; charset=utf-8');
    expect(answer.text).toContain('soap:Server');
    expect(logged.join('\n')).toMatch(/setHttpHeader/);
  });
});
