// The smskit service contract (SMSSend, SMSSendToPort) as ASP.NET ASMX implements it, so tests can
// compare what smskit publishes and answers with what the real ASMX stack does. The methods only
// echo their inputs: the answer is predictable without any SMS back end.
using System;
using System.Web.Services;
using System.Web.Services.Protocols;

namespace Peers
{
    [WebService(Namespace = "http://smskit.dev/serviceapi/")]
    [WebServiceBinding(ConformsTo = WsiProfiles.BasicProfile1_1)]
    public class ServiceAPI : WebService
    {
        [WebMethod]
        public string SMSSend(string keyword, string emailAddress, string password, string smsto,
            string carrierCode, string smsmsg)
        {
            Refuse(smsmsg);
            // The password is accepted but never echoed: tests must not see secrets in answers.
            return "SMSSend|" + Show(keyword) + "|" + Show(emailAddress) + "|" + Show(smsto) + "|"
                + Show(carrierCode) + "|" + Show(smsmsg);
        }

        [WebMethod]
        public string SMSSendToPort(string keyword, string emailAddress, string password, string smsto,
            string carrierCode, string smsmsg, string port)
        {
            Refuse(smsmsg);
            return "SMSSendToPort|" + Show(keyword) + "|" + Show(emailAddress) + "|" + Show(smsto) + "|"
                + Show(carrierCode) + "|" + Show(smsmsg) + "|" + Show(port);
        }

        // A missing element arrives as null; show it so tests can tell null from "".
        static string Show(string value)
        {
            return value == null ? "(null)" : value;
        }

        // Two message texts make the peer fail on purpose, so fault bodies can be compared:
        // "fault" is a deliberate SoapException (soap:Client), "crash" an unhandled exception
        // (ASMX turns it into soap:Server with the exception text).
        static void Refuse(string smsmsg)
        {
            if (smsmsg == "fault")
                throw new SoapException("refused by the echo peer", SoapException.ClientFaultCode);
            if (smsmsg == "crash")
                throw new InvalidOperationException("the echo peer crashed on purpose");
        }
    }
}
