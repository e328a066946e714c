/** The one error type of the XML layer: a stable code, a position and a human message. */

export type XmlReadErrorCode = 'XML_MALFORMED' | 'XML_DOCTYPE' | 'XML_ENCODING' | 'XML_LIMIT';

export class XmlReadError extends Error {
  override readonly name = 'XmlReadError';
  readonly code: XmlReadErrorCode;
  /** 1-based line and column of the problem. */
  readonly line: number;
  readonly column: number;
  /** The message without the position prefix. */
  readonly detail: string;
  readonly fileName: string | undefined;

  constructor(code: XmlReadErrorCode, detail: string, line: number, column: number, fileName?: string) {
    super(`${fileName === undefined ? '' : `${fileName}:`}${line}:${column}: ${detail}`);
    this.code = code;
    this.detail = detail;
    this.line = line;
    this.column = column;
    this.fileName = fileName;
  }
}

/** 1-based line and column of a string index (error paths only: it scans from the start). */
export function locateIndex(text: string, index: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < index; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a || (c === 0x0d && text.charCodeAt(i + 1) !== 0x0a)) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: index - lineStart + 1 };
}
