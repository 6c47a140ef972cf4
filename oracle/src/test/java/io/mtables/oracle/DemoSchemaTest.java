package io.mtables.oracle;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * bin/run prepares several examples' PostgreSQL tables side by side; two examples with a table of
 * the same name in one schema would break the demo (the second CREATE TABLE IF NOT EXISTS keeps the
 * first one's columns). The examples and schemas are read from bin/run itself.
 */
class DemoSchemaTest {

    private static final Pattern CREATE = Pattern.compile("CREATE TABLE IF NOT EXISTS ([\\w.]+)");

    @Test
    void theExamplesBinRunPreparesInOneSchemaHaveNoTableInCommon() throws IOException {
        String script = Files.readString(Path.of("..", "bin", "run"));
        // The schema bin/run uses unless MT_DEMO_SCHEMA names another.
        String schema = value(script, "DEMO_SCHEMA=\"\\$\\{MT_DEMO_SCHEMA:-(\\w+)}\"");
        Map<String, String> exampleSchemas = new HashMap<>();
        for (String example : value(script, "DEMO_EXAMPLES=\\(([^)]*)\\)").split("\\s+")) {
            exampleSchemas.put(example, schema);
        }
        for (String entry : value(script, "PREPARED_ONLY=\\(([^)]*)\\)").split("\\s+")) {
            String[] exampleAndSchema =
                    (entry.contains(":") ? entry : entry + ":" + schema).split(":", 2);
            exampleSchemas.put(
                    exampleAndSchema[0], exampleAndSchema[1].replace("$DEMO_SCHEMA", schema));
        }
        assertThat(exampleSchemas)
                .containsKeys("users-domains", "orders-dashboard", "shapes", "tpch");

        Map<String, String> owner = new HashMap<>();
        List<String> clashes = new ArrayList<>();
        exampleSchemas.forEach(
                (example, exampleSchema) -> {
                    for (String statement : Example.named(example).postgresTables(exampleSchema)) {
                        Matcher table = CREATE.matcher(statement);
                        if (table.find()) {
                            String previous = owner.putIfAbsent(table.group(1), example);
                            if (previous != null && !previous.equals(example)) {
                                clashes.add(
                                        table.group(1) + " (" + previous + ", " + example + ")");
                            }
                        }
                    }
                });
        assertThat(clashes).isEmpty();
    }

    private static String value(String script, String regex) {
        Matcher matcher = Pattern.compile(regex).matcher(script);
        assertThat(matcher.find()).as(regex + " in bin/run").isTrue();
        return matcher.group(1).strip();
    }
}
