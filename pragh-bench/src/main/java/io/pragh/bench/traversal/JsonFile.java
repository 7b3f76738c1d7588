package io.pragh.bench.traversal;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes a benchmark report (maps, lists, numbers, strings) as indented JSON, creating the file's directory.
 *
 * <pre>{@code
 * JsonFile.write(Path.of("target/out.json"), Map.of("config", config.asMap()));
 * }</pre>
 */
public final class JsonFile {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private JsonFile() {
    }

    public static String toJson(Object report) {
        try {
            return JSON.writeValueAsString(report);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static void write(Path file, Object report) {
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            Files.writeString(file, toJson(report) + "\n");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the JSON report to " + file + ": " + e.getMessage(), e);
        }
    }
}
