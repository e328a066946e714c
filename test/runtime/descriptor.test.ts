/**
 * The hand-made descriptor the runtime tests use must stay what the generator derives from
 * wsdl/serviceapi.wsdl (documentation aside), so the runtime is tested on the real contract.
 */
import { describe, expect, it } from 'vitest';
import { parseWsdl, toDescriptor } from '../../generator/index.js';
import { serviceApiDescriptor } from '../fixtures/runtime/serviceapi-descriptor.js';

const withoutDocs = (value: unknown): unknown =>
  JSON.parse(JSON.stringify(value, (key, v: unknown) => (key === 'documentation' ? undefined : v)));

describe('the serviceapi fixture descriptor', () => {
  it('equals toDescriptor(parseWsdl(wsdl/serviceapi.wsdl)) apart from documentation', () => {
    const derived = toDescriptor(parseWsdl('wsdl/serviceapi.wsdl'));
    expect(withoutDocs(serviceApiDescriptor)).toEqual(withoutDocs(derived));
  });
});
