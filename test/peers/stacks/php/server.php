<?php
// The order service under PHP's built-in web server: `php -S 127.0.0.1:0 server.php` (see
// startPhpPeer in ../harness.ts) runs this router once per request, all in one process, and
// survives a request that ends the script (SoapServer does on some bad requests). GET
// /orders.php?wsdl and GET /orders-types.xsd serve the contract files (the WSDL with the address
// the request came to); POST /orders.php goes to SoapServer, which sets the status (500 for a
// fault) and the content type of the SOAP version.
ini_set('soap.wsdl_cache_enabled', '0');

class Orders {
  public function EchoText($in) { return ['text' => $in->text]; }
  public function PlaceOrder($in) {
    $order = $in->order;
    if (!isset($order->customer) || $order->customer === '') {
      throw new SoapFault('Client', 'an order needs a customer', null, ['reason' => 'no customer'], 'OrderRefused');
    }
    $lines = isset($order->lines->line) ? $order->lines->line : [];
    if (!is_array($lines)) $lines = [$lines];
    $total = 0; $skus = [];
    foreach ($lines as $line) { $total += $line->quantity; $skus[] = $line->sku; }
    return ['total' => $total, 'skus' => $skus, 'priority' => $order->priority];
  }
}

function answer($status, $type, $body) {
  header("HTTP/1.1 $status");
  header("Content-Type: $type");
  echo $body;
}

$dir = __DIR__;
$method = $_SERVER['REQUEST_METHOD'];
$path = parse_url($_SERVER['REQUEST_URI'], PHP_URL_PATH);
$query = parse_url($_SERVER['REQUEST_URI'], PHP_URL_QUERY);
if ((int)($_SERVER['CONTENT_LENGTH'] ?? 0) > 1048576) answer('413 Payload Too Large', 'text/plain', 'too large');
elseif ($method === 'GET' && $path === '/orders.php' && $query === 'wsdl') {
  $base = 'http://' . $_SERVER['SERVER_NAME'] . ':' . $_SERVER['SERVER_PORT'];
  answer('200 OK', 'text/xml; charset=utf-8', str_replace('ADDRESS', "$base/orders.php", file_get_contents("$dir/orders.wsdl")));
} elseif ($method === 'GET' && $path === '/orders-types.xsd') answer('200 OK', 'text/xml; charset=utf-8', file_get_contents("$dir/orders-types.xsd"));
elseif ($method === 'POST' && $path === '/orders.php') {
  $soap12 = str_starts_with($_SERVER['CONTENT_TYPE'] ?? '', 'application/soap+xml');
  $soap = new SoapServer("$dir/orders.wsdl", ['soap_version' => $soap12 ? SOAP_1_2 : SOAP_1_1, 'cache_wsdl' => WSDL_CACHE_NONE]);
  $soap->setClass('Orders');
  $soap->handle(file_get_contents('php://input'));
} else answer('404 Not Found', 'text/plain', 'not found');
