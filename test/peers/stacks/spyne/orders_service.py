"""A small order service in Python spyne (document/literal wrapped, SOAP 1.1), the peer of
test/peers/stacks/spyne.test.ts. Listens on 127.0.0.1, port 0; prints its URL on the first line.
Operations: a scalar echo, a nested order with an array and an enum, an array answer, and a
declared fault (an order without customer)."""
import sys
from wsgiref.simple_server import WSGIRequestHandler, make_server

from spyne import (Application, Array, ComplexModel, Enum, Fault, Integer, Iterable, ServiceBase, Unicode, rpc)
from spyne.protocol.soap import Soap11
from spyne.server.wsgi import WsgiApplication

TNS = 'urn:smskit:peers:orders'

Priority = Enum('LOW', 'HIGH', type_name='Priority')


class OrderLine(ComplexModel):
    __namespace__ = TNS
    sku = Unicode(min_occurs=1)
    quantity = Integer(min_occurs=1)


class Order(ComplexModel):
    __namespace__ = TNS
    _type_info = [
        ('customer', Unicode),
        ('lines', Array(OrderLine)),
        ('priority', Priority),
    ]


class Receipt(ComplexModel):
    __namespace__ = TNS
    customer = Unicode
    total = Integer
    skus = Unicode.customize(max_occurs='unbounded')
    priority = Priority


class OrderRefused(Fault):
    __namespace__ = TNS

    def __init__(self, reason):
        super().__init__(faultcode='Client.OrderRefused', faultstring=reason, detail={'reason': reason})


class Orders(ServiceBase):
    @rpc(Unicode, _returns=Unicode)
    def echoText(ctx, text):
        return text

    @rpc(Order, _returns=Receipt, _throws=[OrderRefused])
    def placeOrder(ctx, order):
        if order is None or not order.customer:
            raise OrderRefused('an order needs a customer')
        lines = order.lines or []
        return Receipt(customer=order.customer, total=sum(l.quantity for l in lines),
                       skus=[l.sku for l in lines], priority=order.priority or 'LOW')

    @rpc(Unicode, Integer, _returns=Iterable(Unicode))
    def listSkus(ctx, prefix, count):
        # A list, not a generator: spyne streams a generator's items after the status line, so
        # an error halfway would be a broken 200 instead of a fault.
        return ['%s-%d' % (prefix or '', i + 1) for i in range(min(count or 0, 1000))]


class Quiet(WSGIRequestHandler):
    def log_message(self, *args):
        pass


app = Application([Orders], TNS, name='OrderService', in_protocol=Soap11(validator='lxml'), out_protocol=Soap11())
server = make_server('127.0.0.1', 0, WsgiApplication(app), handler_class=Quiet)
print('http://127.0.0.1:%d/' % server.server_port, flush=True)
try:
    server.serve_forever()
except KeyboardInterrupt:
    sys.exit(0)
