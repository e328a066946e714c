package orders;

import java.util.ArrayList;
import java.util.List;
import javax.jws.WebMethod;
import javax.jws.WebParam;
import javax.jws.WebService;

/** The order service, document/literal wrapped (JAX-WS's default). */
@WebService(serviceName = "OrderService", portName = "OrdersPort", targetNamespace = "urn:smskit:peers:jaxws-orders")
public class Orders {
    @WebMethod
    public String echoText(@WebParam(name = "text") String text) {
        return text;
    }

    @WebMethod
    public Receipt placeOrder(@WebParam(name = "order") Order order) throws OrderRefused {
        return Logic.place(order);
    }

    @WebMethod
    public List<String> listSkus(@WebParam(name = "prefix") String prefix, @WebParam(name = "count") int count) {
        return Logic.skus(prefix, count);
    }
}
