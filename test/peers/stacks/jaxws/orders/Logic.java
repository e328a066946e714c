package orders;

import java.util.ArrayList;
import java.util.List;

final class Logic {
    private Logic() {}

    static Receipt place(Order order) throws OrderRefused {
        if (order == null || order.customer == null || order.customer.isEmpty())
            throw new OrderRefused("an order needs a customer");
        Receipt receipt = new Receipt();
        receipt.customer = order.customer;
        receipt.skus = new ArrayList<>();
        if (order.lines != null)
            for (OrderLine line : order.lines) {
                if (line == null) continue;
                receipt.total += line.quantity;
                receipt.skus.add(line.sku);
            }
        receipt.priority = order.priority == null ? Priority.LOW : order.priority;
        return receipt;
    }

    static List<String> skus(String prefix, int count) {
        List<String> out = new ArrayList<>();
        for (int i = 1; i <= Math.min(count, 1000); i++) out.add((prefix == null ? "" : prefix) + "-" + i);
        return out;
    }
}
