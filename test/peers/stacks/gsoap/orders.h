// gSOAP order service (document/literal, SOAP 1.1), the peer of test/peers/stacks/gsoap.test.ts.
// soapcpp2 turns this header into the WSDL, schema and C++ skeleton.
//gsoap ns service name: Orders
//gsoap ns service namespace: urn:smskit:peers:gsoap-orders
//gsoap ns service location: http://localhost/orders
//gsoap ns service style: document
//gsoap ns service encoding: literal
//gsoap ns schema namespace: urn:smskit:peers:gsoap-orders
//gsoap ns schema form: qualified
#import "stlvector.h"

enum ns__Priority { LOW, HIGH };

class ns__OrderLine {
 public:
  std::string sku;
  int quantity;
};

class ns__Order {
 public:
  std::string customer;
  std::vector<ns__OrderLine> line;
  enum ns__Priority priority;
};

class ns__Receipt {
 public:
  std::string customer;
  int total;
  std::vector<std::string> sku;
  enum ns__Priority priority;
};

int ns__echoText(std::string text, std::string &result);
int ns__placeOrder(ns__Order *order, ns__Receipt &receipt);
