// Calls the rich service through Mono's wsdl-generated proxy for one protocol and prints what came
// back, one line per call, so a test can compare genuine ASMX and smskit answering the same .NET
// client: text with non-ASCII characters (HTTP GET/POST send it as %uXXXX), infinities (.NET
// writes "Infinity"), a UTC DateTime, a decimal.
// Usage: RichClient.exe <S11|S12|Get|Post> <url> <base64 UTF-8 text>
using System;
using System.Text;

public static class RichClient
{
    static readonly System.Globalization.CultureInfo Inv = System.Globalization.CultureInfo.InvariantCulture;

    // The HTTP proxies take every parameter as a string: what a .NET application passes is the
    // value's invariant ToString() ("Infinity", "12.50"), and a sortable universal date ("u": space, Z).
    static string S(object value) { return Convert.ToString(value, Inv); }

    static string B64(string s) { return s == null ? "(null)" : Convert.ToBase64String(Encoding.UTF8.GetBytes(s)); }

    public static int Main(string[] args)
    {
        return ClientExit.With(Run(args));
    }

    static int Run(string[] args)
    {
        string protocol = args[0], url = args[1];
        string text = Encoding.UTF8.GetString(Convert.FromBase64String(args[2]));
        DateTime when = new DateTime(2024, 1, 2, 3, 4, 5, DateTimeKind.Utc);
        try
        {
            string[] echoed;
            string scalars;
            switch (protocol)
            {
                case "S11": { var c = new S11.RichService { Url = url }; echoed = c.EchoStrings(new[] { text, "x" }); scalars = c.DescribeHttpScalars('A', 12.50m, 7, when, true, double.PositiveInfinity, 1, 2, float.NegativeInfinity, 3); break; }
                case "S12": { var c = new S12.RichService { Url = url }; echoed = c.EchoStrings(new[] { text, "x" }); scalars = c.DescribeHttpScalars('A', 12.50m, 7, when, true, double.PositiveInfinity, 1, 2, float.NegativeInfinity, 3); break; }
                case "Get": { var c = new Get.RichService { Url = url }; echoed = c.EchoStrings(new[] { text, "x" }); scalars = c.DescribeHttpScalars("A", S(12.50m), S(7), when.ToString("u", Inv), S(true).ToLowerInvariant(), S(double.PositiveInfinity), S(1), S(2), S(float.NegativeInfinity), S(3)); break; }
                case "Post": { var c = new Post.RichService { Url = url }; echoed = c.EchoStrings(new[] { text, "x" }); scalars = c.DescribeHttpScalars("A", S(12.50m), S(7), when.ToString("u", Inv), S(true).ToLowerInvariant(), S(double.PositiveInfinity), S(1), S(2), S(float.NegativeInfinity), S(3)); break; }
                default: Console.Error.WriteLine("unknown protocol " + protocol); return 2;
            }
            Console.WriteLine("echo " + string.Join(",", Array.ConvertAll(echoed, B64)));
            Console.WriteLine("scalars " + scalars);
            return 0;
        }
        catch (Exception e)
        {
            Console.Error.WriteLine(e.GetType().Name + ": " + e.Message);
            return 1;
        }
    }
}
