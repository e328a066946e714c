// SOAP headers in the three directions ASMX supports. Each is a SoapHeader subclass; the service
// class holds one public field per header, named in [SoapHeader("Field", Direction = ...)].
using System.Web.Services.Protocols;

namespace Peers
{
    // Read from the request only (Direction.In).
    public class AuthHeader : SoapHeader
    {
        public string User;
        public string Token;
    }

    // Read from the request and written back in the response (Direction.InOut).
    public class SessionHeader : SoapHeader
    {
        public string SessionId;
        public int Counter;
    }

    // Written in the response only (Direction.Out).
    public class TraceHeader : SoapHeader
    {
        public string Server;
        public string Operation;
    }
}
