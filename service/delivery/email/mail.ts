/**
 * One message as one mail: the gateway address from the carrier table, the whole text as a
 * UTF-8 body (quoted-printable when not plain ASCII: every character arrives as sent), and the
 * relay's answer as the delivery contract's outcome.
 */
import type SMTPPool from 'nodemailer/lib/smtp-pool/index.js';
import type { Transporter } from 'nodemailer';
import type { CarrierTable } from '../carriers.js';
import { gatewayAddress } from './gateways.js';
import type { OutgoingMessage, SubmitResult } from '../route.js';
import { acceptedPeerId, classifyMailError, type MailError, oneLine } from './classify.js';
import type { EmailRouteOptions } from './options.js';

export type MailTransport = Transporter<SMTPPool.SentMessageInfo>;

/** The outcome, and whether the relay itself seems gone (the route then goes down). */
export type MailResult = { readonly result: SubmitResult; readonly relayDown?: string };

export async function sendAsMail(
  transport: MailTransport,
  options: EmailRouteOptions,
  carriers: Pick<CarrierTable, 'emailGateways'>,
  message: OutgoingMessage,
): Promise<MailResult> {
  const gateway = carriers.emailGateways.get(message.carrierCode);
  if (gateway === undefined)
    return {
      result: {
        outcome: 'rejected',
        code: 'NoEmailGateway',
        text: `carrier "${message.carrierCode}" has no e-mail gateway`,
      },
    };
  const to = gatewayAddress(message.smsto, gateway);
  if (to === undefined)
    return {
      result: {
        outcome: 'rejected',
        code: 'NotServedByGateway',
        text: `${gateway.domain} does not serve ${message.smsto.slice(0, 3)}… numbers`,
      },
    };
  const fromDomain = options.from.slice(options.from.lastIndexOf('@') + 1);
  // The same Message-ID on every attempt lets a relay or gateway drop a resent duplicate.
  const messageId = `<${message.id}@${fromDomain}>`;
  try {
    const info = await transport.sendMail({
      from: options.from,
      to,
      ...(options.subject === undefined ? {} : { subject: options.subject }),
      text: message.smsmsg,
      messageId,
      textEncoding: 'quoted-printable',
      disableFileAccess: true,
      disableUrlAccess: true,
    });
    if (info.rejected.length > 0)
      return {
        result: { outcome: 'rejected', code: 'smtp:550', text: oneLine(String(info.response ?? 'recipient refused')) },
      };
    return { result: { outcome: 'accepted', peerIds: [acceptedPeerId(info.response, messageId)] } };
  } catch (error) {
    const { routeDown, ...result } = classifyMailError(error as MailError);
    return routeDown ? { result, relayDown: `${result.code}: ${result.text}` } : { result };
  }
}
