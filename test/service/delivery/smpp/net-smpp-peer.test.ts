/**
 * The SMPP route against an SMSC it did not write and does not share code with: Net::SMPP
 * (Debian's libnet-smpp-perl) driven by test/peers/smsc/net-smpp-smsc.pl. What arrived is
 * checked from the octets the Perl side logged: text (GSM unpacked and packed, UCS-2), the
 * characters that differ between the alphabets and emoji, concatenation by UDH and by SAR TLVs,
 * ports, source and destination TON/NPI, and receipts coming back to the engine. The octets are
 * read with the test's own decoder (../../sms/gsm-reference.ts, typed from 3GPP TS 23.038), not
 * smskit's, so an error the encoder and decoder share still fails here.
 * Skipped with one line without perl + Net::SMPP, unless CI is set (then it must run).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../../../helpers/wait-for.js';
import { referenceText, referenceUnpack, referenceUtf16be } from '../../sms/gsm-reference.js';
import { type PerlSmsc, routeOptions, type StartedRoute, startPerlSmsc, startRoute, stored } from './helpers.js';
import { requirePeer } from '../../../helpers/peers.js';

const perl = requirePeer('net-smpp', 'smpp/net-smpp-peer');

/** The characters GSM puts in its extension table (two septets each), and ones only UCS-2 has. */
const EXTENSION_CHARS = '€ [ ] ~ ^ { } \\ |';

type Line = Record<string, unknown>;

interface Submitted {
  readonly line: Line;
  readonly octets: Buffer;
  readonly tlvs: Record<string, string>;
}

function submits(smsc: PerlSmsc): Submitted[] {
  return smsc
    .lines()
    .filter((l) => l.pdu === 'submit_sm')
    .map((line) => ({
      line,
      octets: Buffer.from(String(line.short_message), 'hex'),
      tlvs: line.tlvs as Record<string, string>,
    }));
}

interface Header {
  /** Octets of the header, UDHL included (0 without UDHI). */
  readonly length: number;
  /** Each information element's data, hex, by IE identifier. */
  readonly ies: Record<number, string>;
}

/** The user data header read by hand (23.040 §9.2.3.24: UDHL, then IEI, length, data). */
function headerOf(part: Submitted): Header {
  if ((Number(part.line.esm_class) & 0x40) === 0) return { length: 0, ies: {} };
  const length = (part.octets[0] as number) + 1;
  const ies: Record<number, string> = {};
  for (let at = 1; at < length; at += 2 + (part.octets[at + 1] as number)) {
    const size = part.octets[at + 1] as number;
    ies[part.octets[at] as number] = part.octets.subarray(at + 2, at + 2 + size).toString('hex');
  }
  return { length, ies };
}

/** The text of a part as a handset reads it from the logged octets. */
function partText(part: Submitted, packed = false): string {
  const udh = headerOf(part).length;
  const body = part.octets.subarray(udh);
  if (Number(part.line.data_coding) === 8) return referenceUtf16be(body);
  if (!packed) return referenceText([...body]);
  // The text starts on the first septet boundary after the header.
  const fill = Math.ceil((udh * 8) / 7) * 7 - udh * 8;
  const septets = referenceUnpack(body, fill);
  // A CR in 7 spare bits at the end only pads the last octet (23.038 §6.1.2.3.1).
  const padded = fill + septets.length * 7 === body.length * 8 && septets.at(-1) === 0x0d;
  return referenceText(padded ? septets.slice(0, -1) : septets);
}

describe.skipIf(perl.skip)('SMPP route → Net::SMPP SMSC (libnet-smpp-perl)', () => {
  let smsc: PerlSmsc | undefined;
  let started: StartedRoute | undefined;

  afterEach(async () => {
    await started?.route.close(2_000);
    smsc?.close();
    started = undefined;
    smsc = undefined;
  });

  async function connect(
    perlArgs: string[] = [],
    overrides: Parameters<typeof routeOptions>[1] = {},
  ): Promise<StartedRoute> {
    smsc = await startPerlSmsc(perlArgs);
    started = startRoute(routeOptions(smsc.port, overrides));
    await started.waitUp();
    return started;
  }

  it('binds as a transceiver with system_id, password and system_type', async () => {
    await connect([], { systemType: 'SMSKIT' });
    const bind = smsc!.lines().find((l) => l.pdu === 'bind_transceiver')!;
    expect(bind).toMatchObject({ system_id: 'smskit', system_type: 'SMSKIT', interface_version: 0x34, accepted: true });
  });

  it('GSM unpacked: one septet code per octet, extension characters as ESC + code, decoded back exactly', async () => {
    const { route } = await connect();
    const text = `Price: 5€ [a] ~b^ {c} \\d| ok @£$¥ Ä Ñ`;
    const result = await route.submit(stored(text));
    expect(result.outcome).toBe('accepted');
    const [part] = submits(smsc!);
    expect(part!.line).toMatchObject({ data_coding: 0, esm_class: 0 });
    expect(partText(part!)).toBe(text);
    // Independently of our decoder: the extension table's codes (3GPP TS 23.038 §6.2.1.1).
    const ext = await route.submit(stored(EXTENSION_CHARS.replaceAll(' ', '')));
    expect(ext.outcome).toBe('accepted');
    expect(submits(smsc!)[1]!.line.short_message).toBe('1b651b3c1b3e1b3d1b141b281b291b2f1b40');
  });

  it('GSM packed: 7-bit packing (the textbook vector) and a long packed message with fill bits after the UDH', async () => {
    const { route } = await connect([], { gsmPacking: 'packed' });
    expect((await route.submit(stored('hellohello'))).outcome).toBe('accepted');
    expect(submits(smsc!)[0]!.line.short_message).toBe('e8329bfd4697d9ec37');
    const long = `${EXTENSION_CHARS} packed `.repeat(8);
    const message = stored(long);
    expect(message.segments).toBe(2);
    expect((await route.submit(message)).outcome).toBe('accepted');
    const parts = submits(smsc!).slice(1);
    expect(parts).toHaveLength(2);
    expect(parts.map((p) => partText(p, true)).join('')).toBe(long);
  });

  it('UCS-2 (data_coding 8, big-endian) with emoji and the characters GSM would have escaped', async () => {
    const { route } = await connect();
    const text = `Grüße 你好 📱🎉 ${EXTENSION_CHARS}`;
    expect((await route.submit(stored(text))).outcome).toBe('accepted');
    const [part] = submits(smsc!);
    expect(part!.line.data_coding).toBe(8);
    expect(part!.octets.subarray(0, 4).toString('hex')).toBe('00470072'); // "Gr" big-endian
    expect(partText(part!)).toBe(text);
  });

  it('a long message as UDH-concatenated parts: count = stored segments, one reference, seq 1..n, esm_class 0x40', async () => {
    const { route } = await connect();
    const text = `${'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(7)}end`;
    const message = stored(text);
    expect(message.segments).toBe(3);
    const result = await route.submit(message);
    expect(result).toEqual({ outcome: 'accepted', peerIds: ['perl-000001', 'perl-000002', 'perl-000003'] });
    const parts = submits(smsc!);
    expect(parts).toHaveLength(3);
    const reference = parts[0]!.octets.subarray(3, 4).toString('hex');
    parts.forEach((p, index) => {
      expect(p.line.esm_class).toBe(0x40);
      expect(p.octets.subarray(0, 6).toString('hex')).toBe(`050003${reference}030${index + 1}`);
    });
    expect(parts.map((p) => partText(p)).join('')).toBe(text);
  });

  it('UCS-2 concatenated with an application port: UDH with the 8-bit concat IE and the 16-bit port IE', async () => {
    const { route } = await connect();
    const text = '📱 emoji über alles '.repeat(5);
    const message = stored(text, { port: 5499 });
    expect(message.segments).toBe(2);
    expect((await route.submit(message)).outcome).toBe('accepted');
    const parts = submits(smsc!);
    expect(parts).toHaveLength(2);
    const reference = parts[0]!.octets[3]!.toString(16).padStart(2, '0');
    for (const [index, p] of parts.entries()) {
      // 5499 = 0x157B; UDHL 11 = concat IE (5) + port IE (6).
      expect(headerOf(p)).toEqual({ length: 12, ies: { 0: `${reference}020${index + 1}`, 5: '157b0000' } });
      expect(p.octets.subarray(0, 12).toString('hex')).toBe(`0b0003${reference}020${index + 1}0504157b0000`);
    }
    expect(parts.map((p) => partText(p)).join('')).toBe(text);
  });

  it('SAR: no UDH, sar_msg_ref_num / sar_total_segments / sar_segment_seqnum TLVs, the port in destination_port', async () => {
    const { route } = await connect([], { concatenation: 'sar' });
    const text = `SAR ${EXTENSION_CHARS} `.repeat(12);
    const message = stored(text, { port: 2948 });
    expect(message.segments).toBe(3);
    expect((await route.submit(message)).outcome).toBe('accepted');
    const parts = submits(smsc!);
    expect(parts).toHaveLength(3);
    const reference = parts[0]!.tlvs['0x020c'];
    expect(reference).toMatch(/^[0-9a-f]{4}$/);
    parts.forEach((p, index) => {
      expect(p.line.esm_class).toBe(0);
      expect(p.tlvs).toEqual({ '0x020c': reference, '0x020e': '03', '0x020f': `0${index + 1}`, '0x020b': '0b84' });
    });
    expect(parts.map((p) => partText(p)).join('')).toBe(text);
  });

  it('source and destination addresses with their TON/NPI; registered_delivery as configured', async () => {
    const { route } = await connect([], {
      source: { address: '4420', ton: 3, npi: 0 },
      destination: { ton: 1, npi: 1 },
      receipts: false,
    });
    expect((await route.submit(stored('hi', { smsto: '+447700900123' }))).outcome).toBe('accepted');
    expect(submits(smsc!)[0]!.line).toMatchObject({
      source_addr: '4420',
      source_addr_ton: 3,
      source_addr_npi: 0,
      destination_addr: '447700900123',
      dest_addr_ton: 1,
      dest_addr_npi: 1,
      registered_delivery: 0,
    });
    const defaults = submits(smsc!)[0]!;
    expect(defaults.line.service_type).toBe('');
  });

  it.each([
    ['text and TLVs', 'both', 'DELIVRD', 'delivered'],
    ['the text only', 'text', 'UNDELIV', 'undeliverable'],
    ['the TLVs only', 'tlv', 'EXPIRED', 'expired'],
    ['a rejection', 'both', 'REJECTD', 'rejected'],
  ] as const)(
    'a receipt by %s reaches the engine, and is acknowledged only after it was recorded',
    async (_, style, stat, state) => {
      const route = await connect(['--receipts', style, '--stat', stat]);
      const held: Array<(matched: boolean) => void> = [];
      route.answer = () => new Promise<boolean>((resolve) => held.push(resolve));
      const result = await route.route.submit(stored('receipt please'));
      expect(result).toEqual({ outcome: 'accepted', peerIds: ['perl-000001'] });
      await waitFor('the receipt', () => route.receipts.length === 1);
      expect(route.receipts[0]).toMatchObject({ peerId: 'perl-000001', state, code: stat });
      // Not yet recorded, so Net::SMPP must have no deliver_sm_resp. The route writes its PDUs to
      // one socket in order and the SMSC logs each as it reads it, so once a later submit_sm is in
      // the log, a deliver_sm_resp written before it would be in the log too.
      expect((await route.route.submit(stored('later'))).outcome).toBe('accepted');
      expect(smsc!.lines().map((l) => l.pdu)).toContain('submit_sm');
      expect(submits(smsc!).map((p) => p.line.message_id)).toEqual(['perl-000001', 'perl-000002']);
      expect(smsc!.lines().some((l) => l.pdu === 'deliver_sm_resp')).toBe(false);
      held[0]!(true);
      await waitFor('deliver_sm_resp', () => smsc!.lines().some((l) => l.pdu === 'deliver_sm_resp'));
      const first = smsc!.lines().find((l) => l.pdu === 'deliver_sm' && l.receipted === 'perl-000001');
      expect(smsc!.lines().find((l) => l.pdu === 'deliver_sm_resp')).toEqual({
        pdu: 'deliver_sm_resp',
        seq: first!.seq,
        status: 0,
      });
      // Let the second receipt go, so the route closes without one held.
      await waitFor('the second receipt', () => held.length === 2);
      held[1]!(true);
    },
  );

  it('close() unbinds', async () => {
    const { route } = await connect();
    await route.close(2_000);
    await waitFor('unbind', () => smsc!.lines().some((l) => l.pdu === 'unbind'));
    expect(route.status().up).toBe(false);
  });
});
