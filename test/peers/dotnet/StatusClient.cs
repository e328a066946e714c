// Reads one message's state through Mono's wsdl-generated proxy for one protocol, as a .NET
// application would (SoapHttpClientProtocol, HttpGetClientProtocol, HttpPostClientProtocol).
// Usage: StatusClient.exe <S11|S12|Get|Post> <url> <email> <message id>, password in SMSKIT_PASSWORD;
// prints State|Updated (UTC, round-trip format)|Attempts|ErrorCode|ErrorText, or the exception on stderr (exit 1).
using System;

public static class StatusClient
{
    public static int Main(string[] args)
    {
        return ClientExit.With(Run(args));
    }

    static int Run(string[] args)
    {
        string protocol = args[0], url = args[1], email = args[2], id = args[3];
        string password = Environment.GetEnvironmentVariable("SMSKIT_PASSWORD");
        try
        {
            string line;
            switch (protocol)
            {
                case "S11": line = Show(new S11.StatusAPI { Url = url }.GetMessageStatus(email, password, id)); break;
                case "S12": line = Show(new S12.StatusAPI { Url = url }.GetMessageStatus(email, password, id)); break;
                case "Get": line = Show(new Get.StatusAPI { Url = url }.GetMessageStatus(email, password, id)); break;
                case "Post": line = Show(new Post.StatusAPI { Url = url }.GetMessageStatus(email, password, id)); break;
                default: Console.Error.WriteLine("unknown protocol " + protocol); return 2;
            }
            Console.WriteLine(line);
            return 0;
        }
        catch (Exception e)
        {
            Console.Error.WriteLine(e.GetType().Name + ": " + e.Message);
            return 1;
        }
    }

    // Each proxy namespace declares its own MessageStatus class: read the members by name
    // (wsdl writes them as properties, older versions as fields).
    static string Show(object status)
    {
        if (status == null) return "(null)";
        DateTime updated = (DateTime)Member(status, "Updated");
        return Member(status, "State") + "|" + updated.ToUniversalTime().ToString("o") + "|"
            + Member(status, "Attempts") + "|" + (Member(status, "ErrorCode") ?? "(null)") + "|"
            + (Member(status, "ErrorText") ?? "(null)");
    }

    static object Member(object value, string name)
    {
        Type t = value.GetType();
        var property = t.GetProperty(name);
        return property != null ? property.GetValue(value, null) : t.GetField(name).GetValue(value);
    }
}
