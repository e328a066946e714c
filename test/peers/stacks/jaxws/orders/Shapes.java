package orders;

import javax.jws.WebMethod;
import javax.jws.WebParam;
import javax.jws.WebService;

/**
 * Drawings, document/literal wrapped: `describe` says what JAXB read, in order, and `mirror`
 * answers the drawing with its shapes reversed, so both directions of a repeating choice meet
 * a real stack.
 */
@WebService(serviceName = "ShapeService", portName = "ShapesPort", targetNamespace = "urn:smskit:peers:jaxws-shapes")
public class Shapes {
    @WebMethod
    public String describe(@WebParam(name = "drawing") Drawing drawing) {
        StringBuilder out = new StringBuilder(drawing.title == null ? "" : drawing.title);
        for (Object shape : drawing.shapes) {
            out.append(shape instanceof Circle ? " circle " + ((Circle) shape).radius : " square " + ((Square) shape).side);
        }
        return out.toString();
    }

    @WebMethod
    public Drawing mirror(@WebParam(name = "drawing") Drawing drawing) {
        java.util.Collections.reverse(drawing.shapes);
        return drawing;
    }
}
