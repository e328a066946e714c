package orders;

/** One line of an order: a product and how many. */
public class OrderLine {
    public String sku;
    public int quantity;
}
