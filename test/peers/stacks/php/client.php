<?php
// PHP's own SoapClient calling a service from the order contract (argv[1]: its URL, argv[2]:
// 1.1 or 1.2): EchoText, PlaceOrder, and PlaceOrder refused; prints what came back as JSON.
ini_set('soap.wsdl_cache_enabled', '0');
$client = new SoapClient(__DIR__ . '/orders.wsdl', [
  'location' => $argv[1],
  'soap_version' => $argv[2] === '1.2' ? SOAP_1_2 : SOAP_1_1,
  'cache_wsdl' => WSDL_CACHE_NONE,
  'exceptions' => true,
]);
$out = [];
$out['echo'] = $client->EchoText(['text' => "Grüße 你好 📱 <&>\"'"])->text;
$receipt = $client->PlaceOrder(['order' => [
  'customer' => 'ACME',
  'lines' => ['line' => [['sku' => 'A-1', 'quantity' => 2], ['sku' => 'B-2', 'quantity' => 5]]],
  'priority' => 'HIGH',
]]);
$out['receipt'] = ['total' => $receipt->total, 'skus' => $receipt->skus, 'priority' => $receipt->priority];
try {
  $client->PlaceOrder(['order' => ['customer' => '', 'lines' => [], 'priority' => 'LOW']]);
  $out['fault'] = null;
} catch (SoapFault $fault) {
  $out['fault'] = ['code' => $fault->faultcode, 'text' => $fault->getMessage(), 'detail' => $fault->detail ?? null];
}
echo json_encode($out, JSON_UNESCAPED_UNICODE), "\n";
