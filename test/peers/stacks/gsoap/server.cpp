// The gSOAP order service on 127.0.0.1, port 0 (printed first), one request at a time; GET
// ?wsdl answers the WSDL soapcpp2 wrote (its path in argv[1]) with this server's address.
#include <arpa/inet.h>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include "soapH.h"
#include "Orders.nsmap"

static std::string wsdl_text;

static int http_get(struct soap *soap) {
  if (!soap->path || !strstr(soap->path, "?wsdl")) return 404;
  soap_response(soap, SOAP_HTML);  // sets up the response; the content type follows
  soap->http_content = "text/xml; charset=utf-8";
  soap_response(soap, SOAP_FILE);
  soap_send_raw(soap, wsdl_text.c_str(), wsdl_text.size());
  soap_end_send(soap);
  return SOAP_OK;
}

int main(int argc, char **argv) {
  struct soap *soap = soap_new1(SOAP_C_UTFSTRING);
  soap->fget = http_get;
  // One request at a time: a client that keeps a connection open must not hold the others off. A
  // request that is not well-formed XML waits this out too (the parser reads on for the rest of
  // the document), so it is short.
  soap->recv_timeout = 1;
  soap->send_timeout = 3;
  if (!soap_valid_socket(soap_bind(soap, "127.0.0.1", 0, 100))) { soap_print_fault(soap, stderr); return 1; }
  struct sockaddr_in addr; socklen_t len = sizeof addr;
  getsockname(soap->master, (struct sockaddr *)&addr, &len);
  std::string base = "http://127.0.0.1:" + std::to_string(ntohs(addr.sin_port)) + "/orders";
  std::ifstream in(argv[1]); std::stringstream text; text << in.rdbuf();
  wsdl_text = text.str();
  size_t at = wsdl_text.find("http://localhost/orders");
  if (at != std::string::npos) wsdl_text.replace(at, strlen("http://localhost/orders"), base);
  std::cout << base << std::endl;
  for (;;) {
    if (!soap_valid_socket(soap_accept(soap))) continue;
    soap_serve(soap);
    soap_destroy(soap);
    soap_end(soap);
  }
}

int ns__echoText(struct soap *, std::string text, std::string &result) { result = text; return SOAP_OK; }

int ns__placeOrder(struct soap *soap, ns__Order *order, ns__Receipt &receipt) {
  if (order == NULL || order->customer.empty()) return soap_sender_fault(soap, "an order needs a customer", "<ns:reason xmlns:ns=\"urn:smskit:peers:gsoap-orders\">no customer</ns:reason>");
  receipt.customer = order->customer;
  receipt.total = 0;
  for (auto &line : order->line) { receipt.total += line.quantity; receipt.sku.push_back(line.sku); }
  receipt.priority = order->priority;
  return SOAP_OK;
}
