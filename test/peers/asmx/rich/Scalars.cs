// Every scalar type XmlSerializer maps, in one document, to see the lexical forms ASMX writes and
// accepts. Guid and char are not XML Schema types: ASMX publishes them in the
// http://microsoft.com/wsdl/types/ namespace (a pattern-restricted string and an xs:unsignedShort).
using System;

namespace Peers
{
    public class Scalars
    {
        public bool Bool;
        public byte Byte;
        public sbyte SByte;
        public short Int16;
        public ushort UInt16;
        public int Int32;
        public uint UInt32;
        public long Int64;
        public ulong UInt64;
        public float Single;
        public double Double;
        public decimal Decimal;
        public char Char;
        public Guid Guid;
        public DateTime DateTime;
        public string String;
        public byte[] Bytes;
    }
}
