import { describe, expect, it } from 'vitest';
import {
  allocateMethodNames,
  allocatePropertyNames,
  allocateTypeNames,
  namespaceTag,
  propertyKey,
  serviceFolder,
  toIdentifier,
  toTypeIdentifier,
} from '../../contract/naming.js';

describe('naming: identifiers from WSDL names', () => {
  const cases: [string, { given: string; want: string }][] = [
    ['keeps ASMX spelling', { given: 'SMSSend', want: 'SMSSend' }],
    ['keeps ArrayOfX', { given: 'ArrayOfString', want: 'ArrayOfString' }],
    ['dotted MessageName', { given: 'User.GetApiKey', want: 'User_GetApiKey' }],
    ['escaped space stays legal', { given: 'WSF_x0020_Schedule', want: 'WSF_x0020_Schedule' }],
    ['hyphen', { given: 'order-line', want: 'Order_line' }],
    ['lower-case first letter', { given: 'tCountryInfo', want: 'TCountryInfo' }],
    ['non-ASCII letters are identifier letters', { given: 'Città', want: 'Città' }],
  ];
  it.each(cases)('%s', (_name, { given, want }) => {
    expect(toTypeIdentifier(given)).toBe(want);
  });

  it('toIdentifier keeps the first letter and makes digits-first names legal', () => {
    expect(toIdentifier('getCitations')).toBe('getCitations');
    expect(toIdentifier('1st')).toBe('_1st');
  });

  const keys: [string, { given: string; want: string }][] = [
    ['identifier stays bare', { given: 'keyword', want: 'keyword' }],
    ['reserved word is a legal property name', { given: 'default', want: 'default' }],
    ['hyphen is quoted', { given: 'e-mail', want: "'e-mail'" }],
    ['dot is quoted', { given: 'a.b', want: "'a.b'" }],
  ];
  it.each(keys)('propertyKey: %s', (_name, { given, want }) => {
    expect(propertyKey(given)).toBe(want);
  });

  const tags: [string, { given: string; want: string }][] = [
    ['last path segment', { given: 'http://schemas.microsoft.com/2003/10/Serialization/', want: 'Serialization' }],
    ['host when no path', { given: 'http://tempuri.org/', want: 'Tempuri' }],
    ['urn', { given: 'urn:example:orders', want: 'Orders' }],
    ['no namespace', { given: '', want: 'NoNamespace' }],
  ];
  it.each(tags)('namespaceTag: %s', (_name, { given, want }) => {
    expect(namespaceTag(given)).toBe(want);
  });

  it('service folders are kebab-case', () => {
    expect(serviceFolder('ServiceAPI')).toBe('service-api');
    expect(serviceFolder('WSF_x0020_Schedule')).toBe('wsf-x0020-schedule');
    expect(serviceFolder('CountryInfoService')).toBe('country-info-service');
  });
});

describe('naming: collisions follow the documented rule', () => {
  it('a type keeps the name, an element of the same name gets the Element suffix', () => {
    const names = allocateTypeNames(
      [
        { key: 'element:{urn:t}Country', sourceName: 'Country', ns: 'urn:t', kind: 'element' },
        { key: '{urn:t}Country', sourceName: 'Country', ns: 'urn:t', kind: 'type' },
      ],
      [],
    );
    expect(names.get('{urn:t}Country')).toEqual({ name: 'Country', sourceName: 'Country' });
    expect(names.get('element:{urn:t}Country')!.name).toBe('CountryElement');
  });

  it('the same local name in two namespaces: Type suffix, then namespace tag, then numbers', () => {
    const names = allocateTypeNames(
      [
        { key: '{urn:a}guid', sourceName: 'guid', ns: 'urn:a', kind: 'type' },
        { key: '{http://x/Serialization/}guid', sourceName: 'guid', ns: 'http://x/Serialization/', kind: 'type' },
        { key: '{urn:c:Serialization}guid', sourceName: 'guid', ns: 'urn:c:Serialization', kind: 'type' },
        { key: '{urn:d:Serialization}guid', sourceName: 'guid', ns: 'urn:d:Serialization', kind: 'type' },
        { key: '{urn:e:Serialization}guid', sourceName: 'guid', ns: 'urn:e:Serialization', kind: 'type' },
      ],
      [],
    );
    expect([...names.values()].map((n) => n.name)).toEqual([
      'Guid',
      'GuidType',
      'Guid_Serialization',
      'GuidType_Serialization',
      'Guid_2',
    ]);
  });

  it('reserved and runtime names are never taken', () => {
    const names = allocateTypeNames(
      [{ key: '{urn:t}Promise', sourceName: 'Promise', ns: 'urn:t', kind: 'type' }],
      ['Promise'],
    );
    expect(names.get('{urn:t}Promise')!.name).toBe('PromiseType');
  });

  it('is independent of request order within a priority class only by document order', () => {
    const a = allocateTypeNames(
      [
        { key: 'e', sourceName: 'X', ns: 'urn:t', kind: 'element' },
        { key: 't', sourceName: 'X', ns: 'urn:t', kind: 'type' },
      ],
      [],
    );
    const b = allocateTypeNames(
      [
        { key: 't', sourceName: 'X', ns: 'urn:t', kind: 'type' },
        { key: 'e', sourceName: 'X', ns: 'urn:t', kind: 'element' },
      ],
      [],
    );
    expect(a).toEqual(b);
  });

  it('properties: attribute next to an element of the same name, same local name twice', () => {
    expect(
      allocatePropertyNames([
        { local: 'id', ns: 'urn:t', kind: 'element' },
        { local: 'id', ns: '', kind: 'attribute' },
        { local: 'name', ns: 'urn:a', kind: 'element' },
        { local: 'name', ns: 'urn:b', kind: 'element' },
      ]),
    ).toEqual(['id', 'idAttribute', 'name', 'nameElement']);
    expect(allocatePropertyNames([{ local: 'value', ns: '', kind: 'attribute' }], ['value'])).toEqual([
      'valueAttribute',
    ]);
  });

  it("properties: never a name every object already has (an omitted field would read as Object.prototype's)", () => {
    expect(
      allocatePropertyNames([
        { local: 'constructor', ns: 'urn:t', kind: 'element' },
        { local: '__proto__', ns: 'urn:t', kind: 'element' },
        { local: 'toString', ns: '', kind: 'attribute' },
        { local: 'name', ns: 'urn:t', kind: 'element' },
      ]),
    ).toEqual(['constructorElement', '__proto__Element', 'toStringAttribute', 'name']);
  });

  it('methods: operation name, then MessageName for overloads, never `close`', () => {
    const names = allocateMethodNames([
      { key: '1', operation: 'Add', messageName: 'AddInt' },
      { key: '2', operation: 'Add', messageName: 'AddDouble' },
      { key: '3', operation: 'close' },
      { key: '4', operation: 'GetApiKey', messageName: 'User.GetApiKey' },
    ]);
    expect([...names.values()].map((n) => n.name)).toEqual(['Add', 'AddDouble', 'closeOperation', 'GetApiKey']);
    expect(names.get('4')!.sourceName).toBe('GetApiKey');
  });
});
