package orders;

import javax.jws.WebMethod;
import javax.jws.WebParam;
import javax.jws.WebResult;
import javax.jws.WebService;
import javax.jws.soap.SOAPBinding;

/** The same service in rpc/literal (@SOAPBinding(style = RPC)): the wrapper is the operation. */
@WebService(serviceName = "OrderRpcService", portName = "OrdersRpcPort", targetNamespace = "urn:smskit:peers:jaxws-orders-rpc")
@SOAPBinding(style = SOAPBinding.Style.RPC)
public class OrdersRpc {
    @WebMethod
    @WebResult(name = "text")
    public String echoText(@WebParam(name = "text") String text) {
        return text;
    }

    @WebMethod
    @WebResult(name = "receipt")
    public Receipt placeOrder(@WebParam(name = "order") Order order) throws OrderRefused {
        return Logic.place(order);
    }

    @WebMethod
    @WebResult(name = "skus")
    public String[] listSkus(@WebParam(name = "prefix") String prefix, @WebParam(name = "count") int count) {
        return Logic.skus(prefix, count).toArray(new String[0]);
    }
}
