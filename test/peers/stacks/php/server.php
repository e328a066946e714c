<?php
// PHP SoapServer (WSDL mode) behind a minimal HTTP/1.0 loop on 127.0.0.1, port 0: prints its
// URL first. GET /orders.php?wsdl and GET /orders-types.xsd serve the contract files (the WSDL
// with its own address); POST /orders.php goes to SoapServer in a process of its own
// (handle.php). One request per connection.
ini_set('soap.wsdl_cache_enabled', '0');
$dir = __DIR__;
$server = stream_socket_server('tcp://127.0.0.1:0', $errno, $errstr);
if ($server === false) { fwrite(STDERR, "listen: $errstr\n"); exit(1); }
$name = stream_socket_get_name($server, false);
$base = "http://$name";
$wsdlText = str_replace('ADDRESS', "$base/orders.php", file_get_contents("$dir/orders.wsdl"));
echo "$base/orders.php\n";

function answer($conn, $status, $type, $body) {
  fwrite($conn, "HTTP/1.0 $status\r\nContent-Type: $type\r\nContent-Length: " . strlen($body) . "\r\nConnection: close\r\n\r\n$body");
}

while (true) {
  $conn = @stream_socket_accept($server, -1);
  if ($conn === false) continue;
  stream_set_timeout($conn, 10);
  $head = '';
  while (!str_contains($head, "\r\n\r\n") && !feof($conn)) { $chunk = fread($conn, 8192); if ($chunk === false || $chunk === '') break; $head .= $chunk; }
  [$headText, $body] = array_pad(explode("\r\n\r\n", $head, 2), 2, '');
  $lines = explode("\r\n", $headText);
  [$method, $target] = array_pad(explode(' ', $lines[0] ?? ''), 2, '');
  $headers = [];
  foreach (array_slice($lines, 1) as $line) { $p = strpos($line, ':'); if ($p !== false) $headers[strtolower(trim(substr($line, 0, $p)))] = trim(substr($line, $p + 1)); }
  $length = (int)($headers['content-length'] ?? 0);
  if ($length > 1048576) { answer($conn, '413 Payload Too Large', 'text/plain', 'too large'); fclose($conn); continue; }
  while (strlen($body) < $length && !feof($conn)) { $chunk = fread($conn, $length - strlen($body)); if ($chunk === false || $chunk === '') break; $body .= $chunk; }
  $path = parse_url($target, PHP_URL_PATH);
  $query = parse_url($target, PHP_URL_QUERY);
  if ($method === 'GET' && $path === '/orders.php' && $query === 'wsdl') answer($conn, '200 OK', 'text/xml; charset=utf-8', $wsdlText);
  elseif ($method === 'GET' && $path === '/orders-types.xsd') answer($conn, '200 OK', 'text/xml; charset=utf-8', file_get_contents("$dir/orders-types.xsd"));
  elseif ($method === 'POST' && $path === '/orders.php') {
    $type = $headers['content-type'] ?? '';
    $soap12 = str_starts_with($type, 'application/soap+xml');
    $env = getenv();
    if (isset($headers['soapaction'])) $env['SMSKIT_SOAPACTION'] = $headers['soapaction'];
    $child = proc_open([PHP_BINARY, "$dir/handle.php", $soap12 ? '1.2' : '1.1'], [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => STDERR], $pipes, null, $env);
    fwrite($pipes[0], $body);
    fclose($pipes[0]);
    $out = stream_get_contents($pipes[1]);
    fclose($pipes[1]);
    proc_close($child);
    $isFault = str_contains($out, ':Fault>');
    answer($conn, $isFault ? '500 Internal Server Error' : '200 OK', ($soap12 ? 'application/soap+xml' : 'text/xml') . '; charset=utf-8', $out);
  } else answer($conn, '404 Not Found', 'text/plain', 'not found');
  fclose($conn);
}
