// The smskit status contract (GetMessageStatus) as ASP.NET ASMX implements it: wsdl/statusapi.wsdl is
// what this class publishes, so the contract is the one a genuine ASMX status method would have.
// The method answers from a fixed table: the answer is predictable without any SMS back end.
using System;
using System.Web.Services;
using System.Web.Services.Protocols;

namespace Peers
{
    /// <summary>One message's state as the status method answers it.</summary>
    public class MessageStatus
    {
        public string State;
        public DateTime Updated;
        public int Attempts;
        public string ErrorCode;
        public string ErrorText;
    }

    [WebService(Namespace = "http://smskit.dev/statusapi/",
        Description = "SMS status service: GetMessageStatus over SOAP 1.1, SOAP 1.2, HTTP GET and HTTP POST.")]
    [WebServiceBinding(ConformsTo = WsiProfiles.BasicProfile1_1)]
    public class StatusAPI : WebService
    {
        [WebMethod(Description = "Returns the delivery state of one message the account sent (its id as SMSSend returned it).")]
        public MessageStatus GetMessageStatus(string emailAddress, string password, string messageId)
        {
            if (messageId == "SMS-UNKNOWN")
                throw new SoapException("UnknownMessage: no such message", SoapException.ClientFaultCode);
            MessageStatus status = new MessageStatus();
            status.State = "delivered";
            status.Updated = new DateTime(2026, 11, 29, 1, 2, 3, DateTimeKind.Utc);
            status.Attempts = 1;
            if (messageId == "SMS-FAILED")
            {
                status.State = "failed";
                status.ErrorCode = "0x0000000B";
                status.ErrorText = "invalid destination address";
            }
            return status;
        }
    }
}
