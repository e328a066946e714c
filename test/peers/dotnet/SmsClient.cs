// Calls SMSSend through Mono's wsdl-generated proxy for one protocol, as a .NET application would:
// the stock SoapHttpClientProtocol / HttpGetClientProtocol / HttpPostClientProtocol, no
// RequestEncoding set (so HTTP GET/POST send non-ASCII text as %uXXXX).
// Usage: SmsClient.exe <S11|S12|Get|Post> <url> <base64 UTF-8 message>; prints the message id.
using System;
using System.Text;

public static class SmsClient
{
    public static int Main(string[] args)
    {
        return ClientExit.With(Run(args));
    }

    static int Run(string[] args)
    {
        string protocol = args[0], url = args[1];
        string message = Encoding.UTF8.GetString(Convert.FromBase64String(args[2]));
        string password = Environment.GetEnvironmentVariable("SMSKIT_PASSWORD");
        try
        {
            string id;
            switch (protocol)
            {
                case "S11": id = new S11.ServiceAPI { Url = url }.SMSSend("ACME", "you@example.com", password, "+14155550123", "auto", message); break;
                case "S12": id = new S12.ServiceAPI { Url = url }.SMSSend("ACME", "you@example.com", password, "+14155550123", "auto", message); break;
                case "Get": id = new Get.ServiceAPI { Url = url }.SMSSend("ACME", "you@example.com", password, "+14155550123", "auto", message); break;
                case "Post": id = new Post.ServiceAPI { Url = url }.SMSSend("ACME", "you@example.com", password, "+14155550123", "auto", message); break;
                default: Console.Error.WriteLine("unknown protocol " + protocol); return 2;
            }
            Console.WriteLine(id);
            return 0;
        }
        catch (Exception e)
        {
            Console.Error.WriteLine(e.GetType().Name + ": " + e.Message);
            return 1;
        }
    }
}
