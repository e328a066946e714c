package orders;

import java.util.List;

/** An order: a customer, its lines (an array) and a priority (an enum). */
public class Order {
    public String customer;
    public List<OrderLine> lines;
    public Priority priority;
}
