package orders;

import javax.xml.ws.WebFault;

/** The declared fault: an order without a customer. */
@WebFault(name = "OrderRefused")
public class OrderRefused extends Exception {
    public OrderRefused(String message) {
        super(message);
    }
}
