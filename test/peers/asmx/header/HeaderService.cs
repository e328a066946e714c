// A service whose implementation needs a SOAP header: Whoami throws when AuthHeader is absent, as
// a real service checking credentials in a header does. ASMX still offers Whoami on HTTP GET and
// POST (the header is simply null there), so every HTTP call to it is refused: the conformance
// runner must report that as one SHOULD finding, not as MUST failures of a correct server.
using System.Web.Services;
using System.Web.Services.Protocols;

namespace Peers
{
    public class AuthHeader : SoapHeader
    {
        public string User;
        public string Token;
    }

    [WebService(Namespace = "http://smskit.dev/peers/header/")]
    public class HeaderService : WebService
    {
        public AuthHeader Auth;

        [WebMethod]
        [SoapHeader("Auth", Direction = SoapHeaderDirection.In)]
        public string Whoami(string greeting)
        {
            if (Auth == null || string.IsNullOrEmpty(Auth.User))
                throw new SoapException("AuthHeader is required.", SoapException.ClientFaultCode);
            return greeting + ", " + Auth.User;
        }

        [WebMethod]
        public string Echo(string text)
        {
            return text;
        }
    }
}
