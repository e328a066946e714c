package orders;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import javax.xml.ws.Endpoint;

/** Publishes both services on 127.0.0.1, port 0 (/orders and /orders-rpc); prints the base URL. */
public class Main {
    public static void main(String[] args) throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        Endpoint.create(new Orders()).publish(server.createContext("/orders"));
        Endpoint.create(new OrdersRpc()).publish(server.createContext("/orders-rpc"));
        server.start();
        System.out.println("http://127.0.0.1:" + server.getAddress().getPort());
        System.out.flush();
    }
}
