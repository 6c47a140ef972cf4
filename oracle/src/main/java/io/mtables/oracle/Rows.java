package io.mtables.oracle;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Rows from either side in one normal form, and their differences as multisets. */
public final class Rows {

  private Rows() {}

  /** A value as text: numbers without trailing zeros, NULL for null, timestamps with a space. */
  public static String value(Object value) {
    if (value == null) {
      return "NULL";
    }
    if (value instanceof Number number) {
      return new BigDecimal(number.toString()).stripTrailingZeros().toPlainString();
    }
    if (value instanceof java.sql.Timestamp timestamp) {
      return timestamp.toLocalDateTime().toString().replace('T', ' ');
    }
    return value.toString();
  }

  /** A value of a JSON row from ddl-service's SELECT. */
  public static String value(JsonNode node) {
    if (node == null || node.isNull()) {
      return "NULL";
    }
    if (node.isNumber()) {
      return node.decimalValue().stripTrailingZeros().toPlainString();
    }
    String text = node.asText();
    return text.matches("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}.*") ? text.replace('T', ' ') : text;
  }

  /**
   * The rows in {@code left} but not in {@code right}, counted: a row twice on the left and once
   * on the right is one difference.
   */
  public static List<List<String>> missingFrom(List<List<String>> right, List<List<String>> left) {
    Map<List<String>, Integer> counts = new HashMap<>();
    right.forEach(row -> counts.merge(row, 1, Integer::sum));
    List<List<String>> missing = new ArrayList<>();
    for (List<String> row : left) {
      Integer count = counts.get(row);
      if (count == null || count == 0) {
        missing.add(row);
      } else {
        counts.put(row, count - 1);
      }
    }
    return missing;
  }
}
