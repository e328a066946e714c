package orders;

import java.util.ArrayList;
import java.util.List;
import javax.xml.bind.annotation.XmlElement;
import javax.xml.bind.annotation.XmlElements;

/**
 * A titled list of shapes, each a circle or a square, in the order drawn: JAXB publishes an
 * `@XmlElements` list as a repeating choice, `<xs:choice minOccurs="0" maxOccurs="unbounded">`.
 */
public class Drawing {
    public String title;

    @XmlElements({@XmlElement(name = "circle", type = Circle.class), @XmlElement(name = "square", type = Square.class)})
    public List<Object> shapes = new ArrayList<>();
}
