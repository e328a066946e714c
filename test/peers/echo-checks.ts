/**
 * What the generated ServiceAPIClient must get from the echo peer (test/peers/asmx/echo), per
 * operation and binding: `SMSSend|keyword|emailAddress|smsto|carrierCode|smsmsg` (never the
 * password; a missing parameter shows as "(null)"), and its two deliberate failures.
 */
import { expect } from 'vitest';
import type { Protocol } from '../../runtime/index.js';
import type { ServiceAPIClient, ServiceAPIHandlers } from '../golden/generated/asmx-echo/service-api/index.js';
import { ALL, check, HTTP, SOAP, type Check } from './binding-checks.js';
import { SPECIAL } from './rich-checks.js';

type C = ServiceAPIClient;
const FIELDS = {
  keyword: 'kw',
  emailAddress: 'user@example.com',
  password: 'p4ss',
  smsto: '+15551234567',
  carrierCode: 'ATT',
  smsmsg: SPECIAL,
};

/**
 * SOAP: a fault with the version's code. HTTP GET/POST: ASMX answers 500 text/plain with the
 * exception text, which the client raises as a SoapFaultError coded 'HTTP'.
 */
function expectFault(binding: Protocol, soap11Code: string, soap12Code: string, text: string) {
  if (binding === 'soap11')
    return expect.objectContaining({ name: 'SoapFaultError', code: soap11Code, httpStatus: 500 });
  if (binding === 'soap12')
    return expect.objectContaining({ name: 'SoapFaultError', code: soap12Code, httpStatus: 500 });
  return expect.objectContaining({
    name: 'SoapFaultError',
    code: 'HTTP',
    httpStatus: 500,
    message: expect.stringContaining(text),
  });
}

export const echoChecks: Record<keyof ServiceAPIHandlers, readonly Check<C>[]> = {
  SMSSend: [
    check('every field, special characters', ALL, async (c) => {
      expect(await c.SMSSend(FIELDS)).toEqual({
        SMSSendResult: `SMSSend|kw|user@example.com|+15551234567|ATT|${SPECIAL}`,
      });
    }),
    check('absent fields are null', SOAP, async (c) =>
      expect(await c.SMSSend({ smsmsg: 'hi' })).toEqual({ SMSSendResult: 'SMSSend|(null)|(null)|(null)|(null)|hi' }),
    ),
    check('empty fields', ALL, async (c) => {
      expect(
        await c.SMSSend({ keyword: '', emailAddress: '', password: '', smsto: '', carrierCode: '', smsmsg: '' }),
      ).toEqual({ SMSSendResult: 'SMSSend|||||' });
    }),
    check('fault: a Client fault', ALL, async (c, binding) => {
      await expect(c.SMSSend({ ...FIELDS, smsmsg: 'fault' })).rejects.toEqual(
        expectFault(binding, 'Client', 'Sender', 'refused by the echo peer'),
      );
    }),
    check('crash: a Server fault', ALL, async (c, binding) => {
      await expect(c.SMSSend({ ...FIELDS, smsmsg: 'crash' })).rejects.toEqual(
        expectFault(binding, 'Server', 'Receiver', 'the echo peer crashed on purpose'),
      );
    }),
  ],
  SMSSendToPort: [
    check('every field', ALL, async (c) => {
      expect(await c.SMSSendToPort({ ...FIELDS, port: '2948' })).toEqual({
        SMSSendToPortResult: `SMSSendToPort|kw|user@example.com|+15551234567|ATT|${SPECIAL}|2948`,
      });
    }),
    check('absent port is null', SOAP, async (c) =>
      expect(await c.SMSSendToPort(FIELDS)).toEqual({
        SMSSendToPortResult: `SMSSendToPort|kw|user@example.com|+15551234567|ATT|${SPECIAL}|(null)`,
      }),
    ),
    // ASMX's HTTP reader requires every parameter.
    check('absent port refused', HTTP, async (c, binding) => {
      await expect(c.SMSSendToPort(FIELDS)).rejects.toEqual(expectFault(binding, '', '', 'Missing parameter'));
    }),
    check('fault', ALL, async (c, binding) => {
      await expect(c.SMSSendToPort({ ...FIELDS, smsmsg: 'fault', port: '1' })).rejects.toEqual(
        expectFault(binding, 'Client', 'Sender', 'refused by the echo peer'),
      );
    }),
  ],
};
