/**
 * Rules for where a call goes: services, bindings (ports), their addresses, operations and how
 * an operation is named on the wire (SOAPAction, HTTP location).
 */
import type { Facts } from '../types.js';
import { both, fail, isHttp, type Flow, type JudgeContext, type Judgement, ok, type Rule } from './flow.js';

function soapAction(f: Facts, ctx: JudgeContext): Judgement | undefined {
  if (isHttp(ctx)) return undefined;
  const asmx =
    ctx.protocol === 'soap12'
      ? 'genuine ASMX routes a SOAP 1.2 request whose action it does not know by its Body element, so it tolerates this'
      : undefined;
  const flow = (sent: string | undefined): Flow =>
    sent === undefined || sent === ''
      ? ok('{sender} names no action, so {receiver} routes by the Body element')
      : fail(`{receiver} does not know the action "${sent}" {sender} sends and answers a fault`, asmx);
  return { forward: flow(f.from), backward: flow(f.to) };
}

export const CONTRACT_RULES: readonly Rule[] = [
  {
    id: 'service-added',
    title: 'service added',
    judge: () => ({
      forward: ok('old clients do not know the service'),
      backward: fail('{receiver} does not serve it'),
    }),
  },
  {
    id: 'service-removed',
    title: 'service removed',
    judge: () => ({
      forward: fail('{receiver} no longer serves it'),
      backward: ok('new clients do not know the service'),
    }),
  },
  {
    id: 'binding-added',
    title: 'binding (port) added',
    judge: () => ({
      forward: ok('old clients do not use the binding'),
      backward: fail('{receiver} does not serve this binding'),
    }),
  },
  {
    id: 'binding-removed',
    title: 'binding (port) removed',
    judge: () => ({
      forward: fail('{receiver} no longer serves this binding'),
      backward: ok('new clients do not use the binding'),
    }),
  },
  {
    id: 'binding-renamed',
    title: 'binding or port renamed',
    judge: () => both(ok('binding and port names are not on the wire')),
  },
  {
    id: 'address-path-changed',
    title: 'port address path changed',
    judge: () => both(fail('{receiver} listens at another path (for clients that call the address in the WSDL)')),
  },
  {
    id: 'address-host-changed',
    title: 'port address host changed',
    judge: () =>
      both(
        ok(
          'host and port are deployment settings, not on the wire between peers that are configured to reach each other',
        ),
      ),
  },
  {
    id: 'operation-added',
    title: 'operation added',
    judge: () => ({
      forward: ok('old clients do not call it'),
      backward: fail(
        '{receiver} does not have the operation (an unknown SOAPAction or Body element, or 404 on HTTP GET/POST)',
      ),
    }),
  },
  {
    id: 'operation-removed',
    title: 'operation removed',
    judge: () => ({
      forward: fail(
        '{receiver} no longer has the operation (an unknown SOAPAction or Body element, or 404 on HTTP GET/POST)',
      ),
      backward: ok('new clients do not call it'),
    }),
  },
  {
    id: 'operation-renamed',
    title: 'operation renamed (same messages)',
    judge: () =>
      both(fail('{receiver} knows the operation only under its other name (SOAPAction, Body element, HTTP path)')),
  },
  { id: 'soap-action-changed', title: 'SOAPAction changed', judge: soapAction },
  {
    id: 'http-path-changed',
    title: 'HTTP operation location changed',
    judge: (_f, ctx) => (isHttp(ctx) ? both(fail('{receiver} serves the operation at another path (404)')) : undefined),
  },
];
