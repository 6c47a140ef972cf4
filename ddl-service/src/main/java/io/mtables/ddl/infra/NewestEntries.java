package io.mtables.ddl.infra;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A map that keeps its newest {@code capacity} entries, the oldest put leaving first: what
 * ddl-service remembers per request id grows with every statement ever sent, so it is bounded
 * ({@code mt.ddl.results-kept}). Thread-safe.
 */
public final class NewestEntries<K, V> {

    private final Map<K, V> entries;

    public NewestEntries(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("keeps at least one entry, not " + capacity);
        }
        this.entries =
                new LinkedHashMap<>() {
                    @Override
                    protected boolean removeEldestEntry(Map.Entry<K, V> eldest) {
                        return size() > capacity;
                    }
                };
    }

    public synchronized void put(K key, V value) {
        entries.remove(key); // a key put again is new again
        entries.put(key, value);
    }

    public synchronized void putIfAbsent(K key, V value) {
        if (!entries.containsKey(key)) {
            entries.put(key, value);
        }
    }

    /** Puts the key unless it is there; whether it was not. */
    public synchronized boolean add(K key, V value) {
        if (entries.containsKey(key)) {
            return false;
        }
        entries.put(key, value);
        return true;
    }

    public synchronized Optional<V> get(K key) {
        return Optional.ofNullable(entries.get(key));
    }

    public synchronized boolean containsKey(K key) {
        return entries.containsKey(key);
    }

    public synchronized int size() {
        return entries.size();
    }
}
