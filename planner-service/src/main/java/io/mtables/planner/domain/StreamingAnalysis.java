package io.mtables.planner.domain;

/**
 * What Flink's planner says about running a table's query as a stream.
 *
 * @param verdict whether it can run as a stream
 * @param changelogMode the changelog the query produces, such as {@code [I]} or {@code [I,UB,UA,D]};
 *     null unless STREAMABLE
 * @param detail why, in Flink's words when Flink refused
 */
public record StreamingAnalysis(Verdict verdict, String changelogMode, String detail) {

  /** The planner's answer. */
  public enum Verdict {
    STREAMABLE,
    NOT_STREAMABLE,
    UNKNOWN
  }

  public static StreamingAnalysis streamable(String changelogMode) {
    return new StreamingAnalysis(Verdict.STREAMABLE, changelogMode, null);
  }

  public static StreamingAnalysis notStreamable(String why) {
    return new StreamingAnalysis(Verdict.NOT_STREAMABLE, null, why);
  }

  public static StreamingAnalysis unknown(String why) {
    return new StreamingAnalysis(Verdict.UNKNOWN, null, why);
  }

  /** Whether the query produces updates or deletes, not only inserts. */
  public boolean updating() {
    return changelogMode != null && (changelogMode.contains("UA") || changelogMode.contains("D"));
  }
}
