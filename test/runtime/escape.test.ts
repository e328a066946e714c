/**
 * The escape modules (runtime/escape/): one per format, each checked against the text it must
 * produce, and the XML spellings checked against what the runtime actually writes.
 */
import { describe, expect, it } from 'vitest';
import { escapeHtml } from '../../runtime/escape/html.js';
import { markdownCell, markdownCode } from '../../report/markdown.js';
import { escapeRegExp } from '../../runtime/escape/regexp.js';
import {
  escapeAttr,
  escapeBareAmpersands,
  escapeReportText,
  escapeText,
  xmlSpellings,
} from '../../runtime/escape/xml.js';
import { readXml } from '../../runtime/xml/reader.js';
import { textContent } from '../../runtime/xml/helpers.js';
import type { XmlElement } from '../../runtime/xml/types.js';
import { wireSpellings } from '../../runtime/escape/spellings.js';

describe('escape/html', () => {
  it('escapes the five characters that matter in content and in either quoted attribute', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
    );
    expect(escapeHtml('plain é 😀')).toBe('plain é 😀');
  });
});

describe('escape/markdown', () => {
  it('keeps a table cell on one line and its pipes, backslashes and angle brackets literal', () => {
    expect(markdownCell('a|b\\c <x>\r\nnext')).toBe('a\\|b\\\\c &lt;x&gt; next');
  });
  it('keeps a code span closed', () => {
    expect(markdownCode('a`b')).toBe("`a'b`");
  });
});

describe('escape/regexp', () => {
  it.each(['a.b*c+d?', '^$', '{1}(x)|[y]', 'back\\slash', 'p@ss.w*rd'])('%s matches only itself', (text) => {
    const pattern = new RegExp(`^${escapeRegExp(text)}$`);
    expect(pattern.test(text)).toBe(true);
    expect(pattern.test(`${text}x`)).toBe(false);
    expect(pattern.test(text.replace(/./, 'Z'))).toBe(false);
  });
});

describe('escape/xml', () => {
  const element = (xml: string): XmlElement => readXml(xml).root;

  it('writes text and attribute values that read back as the original', () => {
    const value = `a<b>&c "q" 'a'\r\n\tend`;
    const doc = element(`<r a="${escapeAttr(value, 'v')}">${escapeText(value, 'v')}</r>`);
    expect(textContent(doc)).toBe(value);
    expect(doc.attributes.find((a) => a.local === 'a')?.value).toBe(value);
  });

  it('returns the same string when nothing needs escaping (the fast path)', () => {
    const plain = 'nothing to escape here';
    expect(escapeText(plain, 'v')).toBe(plain);
    expect(escapeAttr(plain, 'v')).toBe(plain);
  });

  it('refuses a character XML 1.0 cannot carry, naming the field', () => {
    expect(() => escapeText('a\u0001b', 'Body/Text')).toThrow(/Body\/Text|U\+0001/);
  });

  it('makes report text safe in content and attributes, replacing what XML cannot carry', () => {
    expect(escapeReportText('<a b="c">&\u0001')).toBe('&lt;a b=&quot;c&quot;&gt;&amp;\uFFFD');
  });

  it('gives every spelling the writer uses for a secret', () => {
    const secret = `p"a<s's&`;
    const spellings = xmlSpellings(secret);
    expect(spellings).toContain(secret);
    expect(spellings).toContain(escapeText(secret, ''));
    expect(spellings).toContain(escapeAttr(secret, ''));
    expect(new Set(spellings).size).toBe(spellings.length);
    expect(xmlSpellings('plain')).toEqual(['plain']);
    expect(xmlSpellings('bad\u0000')).toEqual(['bad\u0000']);
  });

  it('gives the spellings peers use too: every special escaped, the apostrophe as &apos;, &#39; or as is', () => {
    const spellings = xmlSpellings(`a"b'c&`);
    for (const peer of ['a&quot;b&apos;c&amp;', 'a&quot;b&#39;c&amp;', "a&quot;b'c&amp;"])
      expect(spellings).toContain(peer);
  });

  it('gives the wire spellings of a secret: XML, percent-encoded and form-encoded as the runtime sends it', () => {
    const secret = "pa!ss w'ord";
    const spellings = wireSpellings(secret);
    expect(spellings).toContain(new URLSearchParams({ x: secret }).toString().slice(2)); // pa%21ss+w%27ord
    expect(spellings).toContain(encodeURIComponent(secret));
    expect(spellings).toContain("pa!ss+w'ord");
    expect(spellings).toContain('pa!ss w&apos;ord');
    expect([...spellings].sort((a, b) => b.length - a.length)).toEqual(spellings);
  });

  it('escapes bare ampersands in markup and leaves references alone', () => {
    expect(escapeBareAmpersands('/a?x=1&y=2&amp;z=&lt;&#38;&#x26;')).toBe('/a?x=1&amp;y=2&amp;z=&lt;&#38;&#x26;');
  });
});
