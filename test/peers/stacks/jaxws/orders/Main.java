package orders;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.util.concurrent.Executors;
import javax.xml.ws.Endpoint;

/**
 * Publishes the services on 127.0.0.1, port 0 (/orders, /orders-rpc and /shapes); prints the base URL.
 * Requests are served by a thread pool, as a deployed JAX-WS service's are: the JDK server's
 * default runs every exchange on its one dispatcher thread, so a request the fuzzer leaves
 * unfinished held up the next service's ?wsdl until the reader gave up.
 */
public class Main {
    public static void main(String[] args) throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        Endpoint.create(new Orders()).publish(server.createContext("/orders"));
        Endpoint.create(new OrdersRpc()).publish(server.createContext("/orders-rpc"));
        Endpoint.create(new Shapes()).publish(server.createContext("/shapes"));
        server.setExecutor(Executors.newCachedThreadPool());
        server.start();
        System.out.println("http://127.0.0.1:" + server.getAddress().getPort());
        System.out.flush();
    }
}
