/**
 * The rich section's payloads (test/fixtures/asmx/rich.wsdl): an Order with nested lines whose
 * Shape is a derived type, and an array of derived shapes. Deterministic: every run, every side
 * and every process builds the same values, hence the same bytes.
 */
import type { AnyShape, Color, Order, OrderLine } from '../../test/golden/generated/asmx-rich/rich-service/index.js';

export const RICH_NS = 'http://smskit.dev/rich/';
/** The port address path of every binding in rich.wsdl. */
export const RICH_PATH = '/rich.asmx';
export const RICH_WSDL = new URL('../../test/fixtures/asmx/rich.wsdl', import.meta.url);
/** Lines in the order and shapes in the array. */
export const RICH_ITEMS = 100;

const COLORS: readonly (Color | null)[] = ['Red', 'Green', 'Blue', null];

/** The i-th shape: Circle, Rectangle, Square in turn, all three levels of the hierarchy. */
export function richShape(i: number): AnyShape {
  switch (i % 3) {
    case 0:
      return { $type: 'Circle', Label: `circle-${i}`, Radius: 1.5 + i };
    case 1:
      return { $type: 'Rectangle', Label: `rectangle-${i}`, Width: 2 + i, Height: 0.25 * (i + 1) };
    default:
      return { $type: 'Square', Label: `square-${i}`, Width: 3 + i, Height: 3 + i, Rotated: i % 2 === 0 };
  }
}

function line(i: number): OrderLine {
  const cents = 199 + ((i * 37) % 9_800);
  return {
    Sku: `SKU-${String(i).padStart(5, '0')}`,
    Quantity: 1 + (i % 12),
    UnitPrice: `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`,
    Color: COLORS[i % COLORS.length] ?? null,
    Shape: richShape(i),
  };
}

/** 256 bytes 0..255: every base64 alphabet position appears. */
function attachment(): Uint8Array {
  return Uint8Array.from({ length: 256 }, (_, i) => i);
}

/** An order carrying every member kind of Order, with `lines` lines. */
export function richOrder(lines = RICH_ITEMS): Order {
  return {
    Id: 'order-0001',
    Version: 3,
    Customer: {
      Name: 'Ada Lovelace & Co',
      Email: 'ada@example.com',
      Address: { Street: '12 Analytical Engine Way', City: 'London', PostalCode: 'EC1A 1BB', Country: 'GB' },
    },
    Lines: Array.from({ length: lines }, (_, i) => line(i)),
    Priority: 2,
    Note: 'Deliver <before> noon',
    Discount: '5.00',
    Created: '2024-03-01T10:30:00Z',
    Reference: '3f2504e0-4f89-11d3-9a0c-0305e82c3301',
    Attachment: attachment(),
    Flag: 65,
    Total: '12345.67',
    Sequence: 9_007_199_254_740_993n,
    Tags: ['rush', 'gift', 'fragile'],
    Colors: ['Red', 'Blue'],
    Access: 'Read Write',
    Comment: ['first comment', 'second comment'],
  };
}

/** `count` derived shapes, the three concrete types in turn. */
export function richShapes(count = RICH_ITEMS): AnyShape[] {
  return Array.from({ length: count }, (_, i) => richShape(i));
}

/** The operations the rich section measures, each with its input and the echo it must get back. */
export type RichOp = 'EchoOrder' | 'EchoShapes';
export const RICH_OPS: readonly RichOp[] = ['EchoOrder', 'EchoShapes'];

export function richInput(op: RichOp): { input: Record<string, unknown>; output: Record<string, unknown> } {
  if (op === 'EchoOrder') {
    const order = richOrder();
    return { input: { order }, output: { EchoOrderResult: order } };
  }
  const shapes = richShapes();
  return { input: { shapes }, output: { EchoShapesResult: shapes } };
}

/** A shape as node-soap's client takes it: the derived type named by an xsi:type attribute. */
function nodeSoapShape(shape: AnyShape): Record<string, unknown> {
  const { $type, ...members } = shape;
  return { attributes: { xsi_type: { type: $type, xmlns: RICH_NS } }, ...members };
}

/**
 * The same input in node-soap's own object shape (built once, outside the measured loop):
 * attributes under `attributes`, wrapped arrays as `{ Item: [...] }`, bytes as base64 text,
 * members in the schema's order.
 */
export function nodeSoapInput(op: RichOp): Record<string, unknown> {
  if (op === 'EchoShapes') return { shapes: { Shape: richShapes().map(nodeSoapShape) } };
  const o = richOrder();
  const lines = o.Lines!.map((l) =>
    l === null || l.Shape === undefined ? l : { ...l, Shape: nodeSoapShape(l.Shape) },
  );
  return {
    order: {
      attributes: { Id: o.Id, Version: o.Version },
      Customer: o.Customer,
      Lines: { OrderLine: lines },
      Priority: o.Priority,
      Note: o.Note,
      Discount: o.Discount,
      Created: o.Created,
      Reference: o.Reference,
      Attachment: Buffer.from(o.Attachment!).toString('base64'),
      Flag: o.Flag,
      Total: o.Total,
      Sequence: String(o.Sequence),
      Tags: { string: o.Tags },
      Colors: { Color: o.Colors },
      Access: o.Access,
      Comment: o.Comment,
    },
  };
}
