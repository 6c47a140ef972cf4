package io.mtables.bench;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Rectangle;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogarithmicAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.data.category.DefaultCategoryDataset;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;
import org.jfree.svg.SVGGraphics2D;

/**
 * A bench's figures as charts beside its printed numbers: SVG files drawn by JFreeChart (through
 * JFreeSVG) into {@code MT_BENCH_CHARTS} (default {@code .run/bench/charts}), each path printed as
 * it is written. Two kinds: latency distributions (each series' samples by percentile, the tail to
 * the right) and rounds (each round's figure, series side by side).
 */
final class Charts {

    private static final int WIDTH = 900;
    private static final int HEIGHT = 420;

    /** The series' colours, in order: the system's first, its baselines after. */
    private static final Color[] COLOURS = {
        new Color(0x2b6cb0),
        new Color(0xdd6b20),
        new Color(0x2f855a),
        new Color(0x805ad5),
        new Color(0xc53030),
        new Color(0x718096),
        new Color(0x00a3c4),
        new Color(0x975a16),
        new Color(0xd53f8c),
        new Color(0x1a202c)
    };

    static {
        System.setProperty("java.awt.headless", "true");
    }

    private Charts() {}

    /**
     * Latency distributions: for each series its samples sorted, the value at each percentile from
     * 0 to 100 (the median halfway, the p99 at the right edge), on a logarithmic value axis when
     * the values span more than two orders of magnitude.
     *
     * @param name the file's name, without .svg
     * @param samples each series' samples in {@code unit}
     */
    static Path distribution(
            String name,
            String title,
            String unit,
            Map<String, ? extends List<? extends Number>> samples) {
        XYSeriesCollection data = new XYSeriesCollection();
        double lowest = Double.MAX_VALUE;
        double highest = 0;
        for (var entry : samples.entrySet()) {
            List<Double> sorted = new ArrayList<>();
            entry.getValue().forEach(v -> sorted.add(v.doubleValue()));
            if (sorted.isEmpty()) {
                continue;
            }
            sorted.sort(null);
            XYSeries series = new XYSeries(entry.getKey() + " (" + sorted.size() + ")", true, true);
            for (int i = 0; i < sorted.size(); i++) {
                double percentile = sorted.size() == 1 ? 100 : 100.0 * i / (sorted.size() - 1);
                series.add(percentile, sorted.get(i));
            }
            data.addSeries(series);
            lowest = Math.min(lowest, sorted.get(0));
            highest = Math.max(highest, sorted.get(sorted.size() - 1));
        }
        JFreeChart chart =
                ChartFactory.createXYLineChart(
                        title,
                        "percentile of the samples",
                        unit,
                        data,
                        PlotOrientation.VERTICAL,
                        true,
                        false,
                        false);
        XYPlot plot = chart.getXYPlot();
        NumberAxis percentiles = (NumberAxis) plot.getDomainAxis();
        percentiles.setRange(0, 100);
        percentiles.setTickUnit(new NumberTickUnit(10));
        if (lowest > 0 && highest / lowest > 100) { // a logarithmic axis takes no zero
            LogarithmicAxis axis = new LogarithmicAxis(unit + " (logarithmic)");
            axis.setAllowNegativesFlag(false);
            plot.setRangeAxis(axis);
        }
        for (int i = 0; i < data.getSeriesCount(); i++) {
            plot.getRenderer().setSeriesPaint(i, COLOURS[i % COLOURS.length]);
            plot.getRenderer().setSeriesStroke(i, new BasicStroke(2f));
        }
        return write(style(chart), name);
    }

    /**
     * Each round's figure, a group of bars per round, a bar per series.
     *
     * @param name the file's name, without .svg
     * @param perRound each series' figure of round 1, 2, ...
     */
    static Path rounds(
            String name,
            String title,
            String unit,
            Map<String, ? extends List<? extends Number>> perRound) {
        DefaultCategoryDataset data = new DefaultCategoryDataset();
        perRound.forEach(
                (series, figures) -> {
                    for (int i = 0; i < figures.size(); i++) {
                        data.addValue(figures.get(i), series, "round " + (i + 1));
                    }
                });
        JFreeChart chart =
                ChartFactory.createBarChart(
                        title, "", unit, data, PlotOrientation.VERTICAL, true, false, false);
        CategoryPlot plot = chart.getCategoryPlot();
        BarRenderer bars = (BarRenderer) plot.getRenderer();
        bars.setBarPainter(new StandardBarPainter());
        bars.setShadowVisible(false);
        for (int i = 0; i < data.getRowCount(); i++) {
            bars.setSeriesPaint(i, COLOURS[i % COLOURS.length]);
        }
        return write(style(chart), name);
    }

    private static JFreeChart style(JFreeChart chart) {
        chart.setBackgroundPaint(Color.WHITE);
        chart.getTitle().setFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
        chart.getPlot().setBackgroundPaint(new Color(0xf7f8fb));
        return chart;
    }

    private static Path write(JFreeChart chart, String name) {
        SVGGraphics2D svg = new SVGGraphics2D(WIDTH, HEIGHT);
        chart.draw(svg, new Rectangle(0, 0, WIDTH, HEIGHT));
        Path directory =
                Path.of(System.getenv().getOrDefault("MT_BENCH_CHARTS", ".run/bench/charts"));
        Path file = directory.resolve(name + ".svg").toAbsolutePath();
        try {
            Files.createDirectories(directory);
            Files.writeString(file, svg.getSVGDocument());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the chart " + file, e);
        }
        System.out.println("chart: " + file);
        return file;
    }
}
