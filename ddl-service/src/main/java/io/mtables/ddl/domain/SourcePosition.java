package io.mtables.ddl.domain;

/**
 * A place in a statement.
 *
 * @param line 1-based line
 * @param column 1-based column
 */
public record SourcePosition(int line, int column) {

    /** The 0-based character offset of this position in {@code text}. */
    public int offsetIn(String text) {
        int offset = 0;
        for (int currentLine = 1; currentLine < line && offset < text.length(); offset++) {
            if (text.charAt(offset) == '\n') {
                currentLine++;
            }
        }
        return Math.min(text.length(), offset + column - 1);
    }
}
