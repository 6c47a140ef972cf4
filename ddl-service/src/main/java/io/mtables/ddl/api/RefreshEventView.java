package io.mtables.ddl.api;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;

/**
 * One refresh event as {@code GET /api/v1/events} streams it: the event's contract name ({@code
 * JobStarted}, {@code RefreshSucceeded}, ...: docs/topics.md), its table, when this instance read
 * it, and its payload exactly as on {@code mt.refresh.events} (the contract in schemas/).
 */
public record RefreshEventView(String type, String table, Instant readAt, JsonNode event) {}
