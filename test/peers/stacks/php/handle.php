<?php
// One SOAP request through SoapServer, in its own process (server.php starts one per request):
// SoapServer ends the process on some bad requests. Body on stdin, the SOAP version in argv[1],
// the SOAPAction in SMSKIT_SOAPACTION; the response on stdout.
ini_set('soap.wsdl_cache_enabled', '0');
ini_set('display_errors', 'stderr');

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

$action = getenv('SMSKIT_SOAPACTION');
if ($action !== false) $_SERVER['HTTP_SOAPACTION'] = $action;
$soap = new SoapServer(__DIR__ . '/orders.wsdl', ['soap_version' => $argv[1] === '1.2' ? SOAP_1_2 : SOAP_1_1, 'cache_wsdl' => WSDL_CACHE_NONE]);
$soap->setClass('Orders');
$soap->handle(stream_get_contents(STDIN));
