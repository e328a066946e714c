// A nested document type that exercises most of what XmlSerializer does with members:
// attributes, nested classes, arrays (wrapped and unwrapped), nullable value types (nillable),
// optional members (minOccurs=0 through IsNullable=false on reference types and the
// "...Specified" pattern on value types), and the special scalar types (DateTime, Guid, byte[],
// char, decimal, long).
using System;
using System.Xml.Serialization;

namespace Peers
{
    public class Order
    {
        // Attributes on the element itself rather than child elements.
        [XmlAttribute]
        public string Id;

        [XmlAttribute]
        public int Version;

        public Customer Customer;

        // Wrapped array: <Lines><OrderLine>...</OrderLine></Lines> (ArrayOfOrderLine).
        public OrderLine[] Lines;

        // Nullable value type: minOccurs=1 nillable=true; null is written as xsi:nil="true".
        public int? Priority;

        // A reference type with IsNullable=false: minOccurs=0, null is left out entirely.
        [XmlElement(IsNullable = false)]
        public string Note;

        // The "...Specified" pattern: a value type that may be absent (minOccurs=0). The bool is
        // not an element of its own; XmlSerializer reads and writes it as "was Discount present".
        public decimal Discount;

        [XmlIgnore]
        public bool DiscountSpecified;

        public DateTime Created;
        public Guid Reference;
        public byte[] Attachment;
        public char Flag;
        public decimal Total;
        public long Sequence;
        public string[] Tags;
        public Color[] Colors;
        public Access Access;

        // Unwrapped array: repeated <Comment> elements directly in Order (maxOccurs=unbounded).
        [XmlElement("Comment")]
        public string[] Comments;
    }

    public class Customer
    {
        public string Name;
        public string Email;
        public Address Address;
    }

    public class Address
    {
        public string Street;
        public string City;
        public string PostalCode;
        public string Country;
    }

    public class OrderLine
    {
        public string Sku;
        public int Quantity;
        public decimal UnitPrice;

        // A nullable enum: nillable=true of type tns:Color.
        public Color? Color;

        // A member typed by the abstract base: the instance carries xsi:type="Circle" etc.
        public Shape Shape;
    }
}
