package orders;

/** A shape of a Drawing. */
public class Square {
    public int side;
}
