// Enumerations as ASMX services use them: a plain enum (an xs:string restriction with enumeration
// facets) and a [Flags] enum (ASMX publishes it as an xs:list of the names, and writes a combined
// value as space-separated names, e.g. "Read Write").
using System;

namespace Peers
{
    public enum Color
    {
        Red,
        Green,
        Blue,
    }

    [Flags]
    public enum Access
    {
        None = 0,
        Read = 1,
        Write = 2,
        Delete = 4,
    }
}
