// A small polymorphic hierarchy. The classes live together in one file because they only make
// sense together: XmlInclude on the abstract base is what makes ASMX publish the derived types in
// the WSDL (complexContent/extension) and accept/write them with xsi:type. Square derives from
// Rectangle, so there are two levels of extension.
using System;
using System.Xml.Serialization;

namespace Peers
{
    [XmlInclude(typeof(Circle)), XmlInclude(typeof(Rectangle))]
    public abstract class Shape
    {
        public string Label;

        public abstract double Area();
    }

    public class Circle : Shape
    {
        public double Radius;

        public override double Area()
        {
            return Math.PI * Radius * Radius;
        }
    }

    // Square is reached through Rectangle's own XmlInclude, so the chain of includes is also tested.
    [XmlInclude(typeof(Square))]
    public class Rectangle : Shape
    {
        public double Width;
        public double Height;

        public override double Area()
        {
            return Width * Height;
        }
    }

    public class Square : Rectangle
    {
        // A member of its own, so the second extension level is not empty.
        public bool Rotated;
    }
}
