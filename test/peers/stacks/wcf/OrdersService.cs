// A small order service on Mono's WCF (ServiceHost + BasicHttpBinding, SOAP 1.1), the peer of
// test/peers/stacks/wcf.test.ts. The service is named "service" and keeps WCF's default
// namespace (tempuri.org) while its contract has its own, so the WSDL imports the contract's
// WSDL (?wsdl=wsdl0) and schemas (?xsd=xsd0…). Listens on 127.0.0.1 on a free port; prints its URL.
using System;
using System.Collections.Generic;
using System.Net;
using System.Net.Sockets;
using System.Runtime.Serialization;
using System.ServiceModel;
using System.ServiceModel.Description;

[DataContract(Namespace = "urn:smskit:peers:wcf-orders")]
public enum Priority { [EnumMember] LOW, [EnumMember] HIGH }

[DataContract(Namespace = "urn:smskit:peers:wcf-orders")]
public class OrderLine {
  [DataMember(Order = 1)] public string sku;
  [DataMember(Order = 2)] public int quantity;
}

[DataContract(Namespace = "urn:smskit:peers:wcf-orders")]
public class Order {
  [DataMember(Order = 1)] public string customer;
  [DataMember(Order = 2)] public List<OrderLine> lines;
  [DataMember(Order = 3)] public Priority priority;
}

[DataContract(Namespace = "urn:smskit:peers:wcf-orders")]
public class Receipt {
  [DataMember(Order = 1)] public string customer;
  [DataMember(Order = 2)] public int total;
  [DataMember(Order = 3)] public string[] skus;
  [DataMember(Order = 4)] public Priority priority;
}

[DataContract(Namespace = "urn:smskit:peers:wcf-orders")]
public class OrderRefused {
  [DataMember] public string reason;
}

[ServiceContract(Namespace = "urn:smskit:peers:wcf-orders")]
public interface IOrders {
  [OperationContract] string EchoText(string text);
  [OperationContract] [FaultContract(typeof(OrderRefused))] Receipt PlaceOrder(Order order);
  [OperationContract] string[] ListSkus(string prefix, int count);
}

[ServiceBehavior(Name = "service")]
public class OrdersService : IOrders {
  public string EchoText(string text) { return text; }

  public Receipt PlaceOrder(Order order) {
    if (order == null || string.IsNullOrEmpty(order.customer))
      throw new FaultException<OrderRefused>(new OrderRefused { reason = "no customer" }, "an order needs a customer");
    var receipt = new Receipt { customer = order.customer, priority = order.priority };
    var skus = new List<string>();
    if (order.lines != null)
      foreach (var line in order.lines) { if (line == null) continue; receipt.total += line.quantity; skus.Add(line.sku); }
    receipt.skus = skus.ToArray();
    return receipt;
  }

  public string[] ListSkus(string prefix, int count) {
    var skus = new List<string>();
    for (int i = 1; i <= Math.Min(count, 1000); i++) skus.Add((prefix ?? "") + "-" + i);
    return skus.ToArray();
  }
}

public static class Program {
  public static void Main() {
    for (int attempt = 0; ; attempt++) {
      // ServiceHost takes no port 0: take a free one from the system, and retry if it was taken meanwhile.
      var probe = new TcpListener(IPAddress.Loopback, 0);
      probe.Start();
      int port = ((IPEndPoint)probe.LocalEndpoint).Port;
      probe.Stop();
      var url = "http://127.0.0.1:" + port + "/orders";
      var host = new ServiceHost(typeof(OrdersService), new Uri(url));
      host.AddServiceEndpoint(typeof(IOrders), new BasicHttpBinding(), "");
      host.Description.Behaviors.Add(new ServiceMetadataBehavior { HttpGetEnabled = true });
      try {
        host.Open();
      } catch (Exception) when (attempt < 5) {
        continue;
      }
      Console.WriteLine(url);
      Console.Out.Flush();
      System.Threading.Thread.Sleep(System.Threading.Timeout.Infinite);
    }
  }
}
