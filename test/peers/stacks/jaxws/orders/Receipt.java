package orders;

import java.util.List;

public class Receipt {
    public String customer;
    public int total;
    public List<String> skus;
    public Priority priority;
}
