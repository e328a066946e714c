// Calls the rich peer service through the proxy class Mono's `wsdl` tool generates from its
// ?wsdl (RichService), over SOAP 1.1 and then SOAP 1.2, as a .NET client of an ASMX service
// would. Usage: mono RichCaller.exe <endpoint-url>. Prints one line per call: "<call> ok" or
// "<call> error <exception type>", so the test can tell every call went through.
using System;
using System.Web.Services.Protocols;

public static class RichCaller
{
    static void Call(string name, Action action)
    {
        try { action(); Console.WriteLine(name + " ok"); }
        catch (Exception e) { Console.WriteLine(name + " error " + e.GetType().Name); }
    }

    public static int Main(string[] args)
    {
        foreach (var version in new[] { SoapProtocolVersion.Soap11, SoapProtocolVersion.Soap12 })
        {
            var service = new RichService();
            service.Url = args[0];
            service.SoapVersion = version;
            string v = version == SoapProtocolVersion.Soap11 ? "soap11" : "soap12";
            Call(v + "/SumValues", () => service.SumValues(new[] { 1, 2, 3 }));
            Call(v + "/EchoStrings", () => service.EchoStrings(new[] { "a", null, "Grüße <&>" }));
            Call(v + "/EchoColor", () => service.EchoColor(Color.Green));
            Call(v + "/EchoShapes", () => service.EchoShapes(new Shape[] {
                new Circle { Label = "c", Radius = 1.5 }, new Square { Label = "s", Width = 2, Height = 2 } }));
            Call(v + "/MakeShape", () => service.MakeShape("circle", 2.5));
            Call(v + "/TotalArea", () => service.TotalArea(new Shape[] { new Rectangle { Label = "r", Width = 2, Height = 3 } }));
            Call(v + "/DescribeScalars", () => service.DescribeScalars(new Guid("0F8FAD5B-D9CB-469F-A165-70867728950E"), 'x',
                12.50m, 9007199254740993L, new DateTime(2024, 2, 29, 13, 45, 0, DateTimeKind.Utc), true, 0.1, 255, -32768, 1.5f, 18446744073709551615UL));
            Call(v + "/EchoBytes", () => service.EchoBytes(new byte[] { 0, 1, 254, 255 }));
            Call(v + "/EchoNullableInt(null)", () => service.EchoNullableInt(null));
            Call(v + "/EchoNullableInt(5)", () => service.EchoNullableInt(5));
            Call(v + "/NextDate", () => service.NextDate(new DateTime(2024, 12, 31)));
            service.AuthHeaderValue = new AuthHeader { User = "dotnet", Token = "dotnet-secret-token" };
            service.SessionHeaderValue = new SessionHeader { SessionId = "s-1", Counter = 41 };
            Call(v + "/WhoAmI", () => service.WhoAmI());
            Call(v + "/Add", () => service.Add(2, 3));
            Call(v + "/AddDoubles", () => service.Add(0.5, 0.25));
            Call(v + "/Ping", () => service.Ping());
            Call(v + "/Record", () => service.Record("note"));
            Call(v + "/EmptyList", () => service.EmptyList());
            Call(v + "/NullList", () => service.NullList());
            Call(v + "/NoOrder", () => service.NoOrder());
            Call(v + "/NullString", () => service.NullString());
        }
        return 0;
    }
}
