package orders;

public enum Priority { LOW, HIGH }
