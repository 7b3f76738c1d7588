package io.pragh.bench.paper;

import io.pragh.bench.charts.ChartFiles;
import io.pragh.bench.traversal.JsonFile;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where {@code bench paper} puts each figure: {@code OUT/<id>.json} (what the figure plots, ours and the paper's,
 * and the single-copy floor where it applies) and {@code OUT/<id>.png}, tiled from the figure's charts, which the
 * existing chart writers put under {@code OUT/parts/<id>/}.
 *
 * <p>Every JSON has the same top-level fields: {@code figure}, {@code title}, {@code command}, {@code config},
 * {@code measured} (the benchmark's own report), {@code paper} (the paper's numbers, or what its text says where it
 * gives none), {@code single_copy_floor} (a fraction, a map of them by scope, or null where no floor applies),
 * {@code floor_note}, {@code png} and {@code charts} (the tiled charts, relative to OUT).
 *
 * <pre>{@code
 * FigureFiles files = new FigureFiles(config, out);
 * List<Path> charts = TraversalCharts.write(files.parts("fig10"), results, PaperFigures.TRAVERSAL, floor);
 * files.write("fig10", "Migration schemes", report.asMap(), paper, floor, "why", charts);
 * }</pre>
 */
final class FigureFiles {
    /** The JSON fields every figure has, in order. */
    static final List<String> FIELDS = List.of("figure", "title", "command", "config", "measured", "paper",
        "single_copy_floor", "floor_note", "png", "charts");

    private final PaperConfig config;
    private final PrintStream out;
    private final List<Path> written = new ArrayList<>();

    FigureFiles(PaperConfig config, PrintStream out) {
        this.config = config;
        this.out = out;
    }

    /** The directory a figure's chart writers write into. */
    Path parts(String id) {
        return config.out().resolve("parts").resolve(id);
    }

    /**
     * Writes figure {@code id}'s JSON and its PNG tiled from {@code charts}.
     *
     * @param floor the single-copy floor: a Double, a map of them, or null where it does not apply
     */
    void write(String id, String title, Map<String, Object> measured, Map<String, Object> paper, Object floor,
               String floorNote, List<Path> charts) {
        Path png = ChartFiles.tile(config.out().resolve(id + ".png"), charts);
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("figure", id);
        root.put("title", title);
        root.put("command", config.command());
        root.put("config", config.asMap());
        root.put("measured", measured);
        root.put("paper", paper);
        root.put("single_copy_floor", floor);
        root.put("floor_note", floorNote);
        root.put("png", png.getFileName().toString());
        root.put("charts", charts.stream().map(c -> config.out().relativize(c).toString()).toList());
        Path json = config.out().resolve(id + ".json");
        JsonFile.write(json, root);
        written.add(json);
        written.add(png);
        out.println("[" + id + "] " + json + ", " + png);
    }

    /** Every file written so far, JSON then PNG per figure. */
    List<Path> written() {
        return written;
    }
}
