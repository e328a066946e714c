/**
 * The echo peer service (test/peers/asmx/echo/ServiceAPI.cs) implemented on smskit's generated
 * skeleton: the same answers as the C#, so a request can go to genuine ASMX and to this server
 * and the two answers be compared.
 */
import { ServiceError } from '../../runtime/index.js';
import type { ServiceAPIHandlers } from '../golden/generated/asmx-echo/service-api/index.js';

/** A missing element arrives as undefined; the C# shows null as "(null)" so "" stays visible. */
const show = (value: string | undefined): string => value ?? '(null)';

/**
 * Two message texts fail on purpose, as in the C#: "fault" is a deliberate refusal (SoapException
 * with the Client code: here a ServiceError), "crash" an unexpected exception (a Server fault).
 */
function refuse(smsmsg: string | undefined): void {
  if (smsmsg === 'fault') throw new ServiceError('REFUSED', 'refused by the echo peer');
  if (smsmsg === 'crash') throw new Error('the echo peer crashed on purpose');
}

export const echoHandlers: ServiceAPIHandlers = {
  SMSSend: (input) => {
    refuse(input.smsmsg);
    // The password is accepted but never echoed.
    const { keyword, emailAddress, smsto, carrierCode, smsmsg } = input;
    return { SMSSendResult: ['SMSSend', ...[keyword, emailAddress, smsto, carrierCode, smsmsg].map(show)].join('|') };
  },
  SMSSendToPort: (input) => {
    refuse(input.smsmsg);
    const { keyword, emailAddress, smsto, carrierCode, smsmsg, port } = input;
    return {
      SMSSendToPortResult: [
        'SMSSendToPort',
        ...[keyword, emailAddress, smsto, carrierCode, smsmsg, port].map(show),
      ].join('|'),
    };
  },
};
