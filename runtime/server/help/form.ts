/**
 * The test form: a plain HTML form posted (application/x-www-form-urlencoded) to the operation's
 * HTTP POST address, so the browser shows the service's own answer — the XML document or the
 * one-line error — with no script involved. The answer opens in a frame under the form, which
 * keeps the values for the next try; the frame is sandboxed, so whatever a service answers
 * cannot run there. A parameter named like a secret is a password input:
 * the browser neither shows it nor puts it in the page, and no page of ours ever echoes it.
 */
import type { HttpOperation } from '../../http/binding.js';
import type { CompiledParam } from '../../http/params.js';
import { escapeHtml as html } from '../../escape/html.js';

const SECRET_NAME = /pass|pwd|secret|token|credential/i;

export type TestFormState =
  | { readonly kind: 'form'; readonly action: string; readonly hop: HttpOperation }
  | { readonly kind: 'remote-only' }
  | { readonly kind: 'unavailable'; readonly why: string };

function field(p: CompiledParam, index: number): string {
  const id = `param-${index}`;
  const hint = `<span class="hint">(${html(p.xsd)}${p.required ? '' : ', optional'})</span>`;
  const label = `<label for="${id}">${html(p.name)} ${hint}</label>`;
  const name = html(p.name);
  let control: string;
  if (p.enumeration !== undefined && p.enumeration.length > 0) {
    control = `<select id="${id}" name="${name}">${p.enumeration.map((v) => `<option>${html(v)}</option>`).join('')}</select>`;
  } else if (p.form === 'boolean') {
    control = `<select id="${id}" name="${name}"><option>true</option><option>false</option></select>`;
  } else if (SECRET_NAME.test(p.name)) {
    control = `<input id="${id}" name="${name}" type="password" autocomplete="off">`;
  } else {
    control = `<input id="${id}" name="${name}" type="text" autocomplete="off" spellcheck="false">`;
  }
  return `<p>${label}${control}</p>`;
}

export function renderTestForm(state: TestFormState, operation: string): string {
  if (state.kind === 'remote-only') {
    return '<p class="note">The test form is only available for requests from the local machine.</p>';
  }
  if (state.kind === 'unavailable') return `<p class="note">No test form: ${html(state.why)}</p>`;
  const repeated = state.hop.params.find((p) => p.repeated || p.form === 'bytes');
  if (repeated !== undefined) {
    return `<p class="note">No test form: the parameter ${html(repeated.name)} is an array, which a form field cannot hold; use the HTTP GET or HTTP POST request shown below.</p>`;
  }
  return [
    `<p>To call ${html(operation)} over HTTP POST, fill in the parameters and press Invoke. The service's answer appears under the form.</p>`,
    `<form method="post" action="${html(state.action)}" accept-charset="utf-8" target="answer" aria-label="Test ${html(operation)}">`,
    ...state.hop.params.map(field),
    '<p><button type="submit">Invoke</button></p>',
    '</form>',
    `<iframe name="answer" title="Answer of ${html(operation)}" sandbox></iframe>`,
  ].join('\n');
}
