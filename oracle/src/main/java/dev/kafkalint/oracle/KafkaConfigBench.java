package dev.kafkalint.oracle;

import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;

/**
 * Times the real start-up validation of many broker config files in one warm JVM, for
 * bench/run.sh: what a long-lived JVM service that validated configs with Kafka's own
 * {@code KafkaConfig} would spend per file once the JIT has done its work.
 *
 * <p>Usage: {@code KafkaConfigBench [--warmup N] [--runs N] LISTFILE}. Each pass judges every
 * file of the list exactly as {@link KafkaConfigOracle} does ({@code Utils.loadProps}, then
 * {@code KafkaConfig.fromProps(props, false)}); the first N passes (default 2) warm the JIT and
 * are not counted, the next runs (default 5) are timed. Standard output gets one line:
 *
 * <pre>
 * files=10000 accepted=10000 refused=0 warmup=2 runs=5 pass_ms=812.3,790.1,... median_pass_ms=795.0 median_file_us=79.5
 * </pre>
 *
 * <p>The accepted and refused counts are those of the last pass (every pass gives the same).
 */
public final class KafkaConfigBench {
    private KafkaConfigBench() {}

    public static void main(String[] args) throws Exception {
        java.io.PrintStream out = System.out;
        // Kafka's classes must not write to standard output, as in KafkaConfigOracle.
        System.setOut(System.err);

        int warmup = 2;
        int runs = 5;
        String listFile = null;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--warmup") && i + 1 < args.length) {
                warmup = Integer.parseInt(args[++i]);
            } else if (args[i].equals("--runs") && i + 1 < args.length) {
                runs = Integer.parseInt(args[++i]);
            } else if (listFile == null && !args[i].startsWith("--")) {
                listFile = args[i];
            } else {
                usage();
            }
        }
        if (listFile == null || runs < 1 || warmup < 0) usage();

        Method loadProps = Class.forName("org.apache.kafka.common.utils.Utils")
                .getMethod("loadProps", String.class);
        Method fromProps = Class.forName("kafka.server.KafkaConfig")
                .getMethod("fromProps", Properties.class, boolean.class);
        List<String> files = Files.readAllLines(Path.of(listFile), StandardCharsets.UTF_8)
                .stream().filter(file -> !file.isEmpty()).toList();

        for (int pass = 0; pass < warmup; pass++) {
            judgeAll(loadProps, fromProps, files);
        }
        double[] passMillis = new double[runs];
        int refused = 0;
        for (int pass = 0; pass < runs; pass++) {
            long start = System.nanoTime();
            refused = judgeAll(loadProps, fromProps, files);
            passMillis[pass] = (System.nanoTime() - start) / 1e6;
        }

        double[] sorted = passMillis.clone();
        Arrays.sort(sorted);
        double median = runs % 2 == 1
                ? sorted[runs / 2]
                : (sorted[runs / 2 - 1] + sorted[runs / 2]) / 2;
        StringBuilder passes = new StringBuilder();
        for (double millis : passMillis) {
            if (passes.length() > 0) passes.append(',');
            passes.append(String.format(java.util.Locale.ROOT, "%.1f", millis));
        }
        out.printf(java.util.Locale.ROOT,
                "files=%d accepted=%d refused=%d warmup=%d runs=%d pass_ms=%s median_pass_ms=%.1f median_file_us=%.1f%n",
                files.size(), files.size() - refused, refused, warmup, runs, passes, median,
                median * 1000 / Math.max(1, files.size()));
        out.flush();
    }

    /** Judges every file; returns how many Kafka refused. */
    private static int judgeAll(Method loadProps, Method fromProps, List<String> files) {
        int refused = 0;
        for (String file : files) {
            // KafkaConfig alone: what the benchmark compares kafkalint with.
            if (KafkaConfigOracle.judge(loadProps, fromProps, null, null, file) != null) refused++;
        }
        return refused;
    }

    private static void usage() {
        System.err.println("usage: KafkaConfigBench [--warmup N] [--runs N] LISTFILE");
        System.exit(2);
    }
}
