// A "rich types" ASMX service: the constructs real ASMX services put in their contracts (arrays,
// enums, nested and polymorphic classes, nullable value types, SOAP headers, MessageName overloads,
// void and null answers), so tests can see exactly what ASMX publishes in the WSDL and writes on
// each binding. Every method is a deterministic echo or computation: tests can predict answers.
using System;
using System.Globalization;
using System.Web.Services;
using System.Web.Services.Protocols;

namespace Peers
{
    [WebService(Namespace = "http://smskit.dev/rich/")]
    // The Add/AddDoubles overload (two operations named "Add" in the portType) breaks WS-I Basic
    // Profile rule R2304, and ASMX refuses to describe a service that claims BP 1.1 with it; real
    // services with overloads declare no profile, so this one does too.
    [WebServiceBinding(ConformsTo = WsiProfiles.None)]
    public class RichService : WebService
    {
        // SOAP header slots: ASMX fills In/InOut fields from the request before the method runs and
        // writes InOut/Out fields into the response after it returns (a null field writes nothing).
        public AuthHeader Auth;
        public SessionHeader Session;
        public TraceHeader Trace;

        // ---- arrays of simple types: also carried by HTTP GET/POST as repeated parameters ----

        [WebMethod]
        public int SumValues(int[] values)
        {
            int sum = 0;
            if (values != null)
                foreach (int v in values)
                    sum += v;
            return sum;
        }

        // Null items are kept, so the answer shows how ASMX writes them (xsi:nil).
        [WebMethod]
        public string[] EchoStrings(string[] items)
        {
            return items;
        }

        [WebMethod]
        public long[] EchoLongs(long[] values)
        {
            return values;
        }

        // ---- arrays of complex types: ASMX leaves these out of the HTTP GET/POST bindings ----

        [WebMethod]
        public OrderLine[] EchoLines(OrderLine[] lines)
        {
            return lines;
        }

        // ---- enums ----

        [WebMethod]
        public Color EchoColor(Color color)
        {
            return color;
        }

        [WebMethod]
        public Color[] EchoColors(Color[] colors)
        {
            return colors;
        }

        // A [Flags] value travels as space-separated names ("Read Write").
        [WebMethod]
        public Access EchoAccess(Access access)
        {
            return access;
        }

        // ---- nested complex types ----

        [WebMethod]
        public Order EchoOrder(Order order)
        {
            return order;
        }

        // ---- polymorphism through XmlInclude ----

        [WebMethod]
        public Shape[] EchoShapes(Shape[] shapes)
        {
            return shapes;
        }

        // Returns a derived type where the declared type is the abstract base, or null for an
        // unknown kind.
        [WebMethod]
        public Shape MakeShape(string kind, double size)
        {
            switch (kind)
            {
                case "circle":
                    return new Circle { Label = kind, Radius = size };
                case "rectangle":
                    return new Rectangle { Label = kind, Width = size, Height = size * 2 };
                case "square":
                    return new Square { Label = kind, Width = size, Height = size, Rotated = true };
                default:
                    return null;
            }
        }

        [WebMethod]
        public double TotalArea(Shape[] shapes)
        {
            double total = 0;
            if (shapes != null)
                foreach (Shape shape in shapes)
                    if (shape != null)
                        total += shape.Area();
            return total;
        }

        // ---- scalars ----

        [WebMethod]
        public Scalars EchoScalars(Scalars s)
        {
            return s;
        }

        // Scalar parameters; the answer shows the values ASMX parsed, formatted with the invariant
        // culture so it does not depend on the host's locale. The Guid parameter keeps this method
        // out of the HTTP GET/POST bindings: ASMX's HTTP parameter reader has no Guid (nor TimeSpan)
        // support, so DescribeHttpScalars below is the same thing without it.
        [WebMethod]
        public string DescribeScalars(Guid id, char flag, decimal amount, long count, DateTime when, bool yes,
            double ratio, byte small, short s16, float f32, ulong big)
        {
            return "id=" + id.ToString("D") + "|" + Describe(flag, amount, count, when, yes, ratio, small, s16, f32, big);
        }

        // Every scalar type the HTTP GET/POST parameter reader accepts.
        [WebMethod]
        public string DescribeHttpScalars(char flag, decimal amount, long count, DateTime when, bool yes,
            double ratio, byte small, short s16, float f32, ulong big)
        {
            return Describe(flag, amount, count, when, yes, ratio, small, s16, f32, big);
        }

        static string Describe(char flag, decimal amount, long count, DateTime when, bool yes,
            double ratio, byte small, short s16, float f32, ulong big)
        {
            CultureInfo inv = CultureInfo.InvariantCulture;
            // char as its code point: ASMX publishes char as an unsignedShort number.
            return string.Format(inv,
                "flag={0}|amount={1}|count={2}|when={3}|kind={4}|yes={5}|ratio={6}|small={7}|s16={8}|f32={9}|big={10}",
                (int)flag, amount.ToString(inv), count, when.ToString("yyyy-MM-dd'T'HH:mm:ss.fffffffK", inv), when.Kind,
                yes ? "true" : "false", ratio.ToString("R", inv), small, s16, f32.ToString("R", inv), big);
        }

        [WebMethod]
        public byte[] EchoBytes(byte[] data)
        {
            return data;
        }

        // ---- nullable value types ----

        [WebMethod]
        public int? EchoNullableInt(int? value)
        {
            return value;
        }

        // The day after, or null when no date is given.
        [WebMethod]
        public DateTime? NextDate(DateTime? after)
        {
            if (after == null)
                return null;
            return after.Value.AddDays(1);
        }

        // ---- SOAP headers: In, InOut and Out on one method ----

        [WebMethod]
        [SoapHeader("Auth", Direction = SoapHeaderDirection.In)]
        [SoapHeader("Session", Direction = SoapHeaderDirection.InOut)]
        [SoapHeader("Trace", Direction = SoapHeaderDirection.Out)]
        public string WhoAmI()
        {
            // The InOut header is written back as received, with the counter moved on.
            if (Session != null)
                Session.Counter++;
            Trace = new TraceHeader { Server = "rich-peer", Operation = "WhoAmI" };
            // Auth.Token is a secret: never echoed.
            if (Auth == null)
                return "(anonymous)";
            return Auth.User == null ? "(null)" : Auth.User;
        }

        // ---- MessageName overloads: one C# name, two operations ----

        [WebMethod]
        public int Add(int a, int b)
        {
            return a + b;
        }

        [WebMethod(MessageName = "AddDoubles")]
        public double Add(double a, double b)
        {
            return a + b;
        }

        // ---- void methods ----

        [WebMethod]
        public void Ping()
        {
        }

        [WebMethod]
        public void Record(string note)
        {
            // Nothing to keep: the point is the shape of a void answer to a call with parameters.
        }

        // ---- empty and null answers ----

        [WebMethod]
        public string[] EmptyList()
        {
            return new string[0];
        }

        [WebMethod]
        public string[] NullList()
        {
            return null;
        }

        [WebMethod]
        public Order NoOrder()
        {
            return null;
        }

        [WebMethod]
        public string NullString()
        {
            return null;
        }
    }
}
