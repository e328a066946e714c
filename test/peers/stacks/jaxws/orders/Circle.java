package orders;

/** A shape of a Drawing. */
public class Circle {
    public int radius;
}
