// A service whose answers carry what differs between two correct answers to the same request:
// a generated id and the time of the call. Two instances of it are the reference pair of the
// replay tests (test/migrate): their differences are noise, to be learned, not reported.
using System;
using System.Web.Services;

namespace Peers
{
    public class Receipt
    {
        public string Id;
        public DateTime Accepted;
        public string Text;
        public int Length;
    }

    [WebService(Namespace = "http://smskit.dev/peers/stamp/")]
    [WebServiceBinding(ConformsTo = WsiProfiles.BasicProfile1_1)]
    public class StampService : WebService
    {
        static int counter;

        [WebMethod]
        public Receipt Submit(string text)
        {
            // A fresh Guid and the clock: never the same twice.
            var id = Guid.NewGuid().ToString() + "-" + System.Threading.Interlocked.Increment(ref counter);
            return new Receipt { Id = id, Accepted = DateTime.UtcNow, Text = text, Length = text == null ? 0 : text.Length };
        }

        [WebMethod]
        public string Echo(string text)
        {
            return text;
        }
    }
}
