package dev.kafkalint.oracle;

import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * Writes, for each container environment of a list, the {@code server.properties} that the
 * apache/kafka image's {@code kafka.docker.KafkaDockerWrapper setup} builds from it, as Kafka then
 * reads it.
 *
 * <p>Usage: {@code DockerWrapperOracle ENVFILE}. ENVFILE holds environments separated by an empty
 * line; each line of one is {@code NAME<TAB>VALUE}, the value in hex of its UTF-8 bytes. Standard
 * output gets, for each environment in order, a line {@code #N} (its index from 0), then one line
 * {@code KEY<TAB>VALUE} a property, both in hex of their UTF-8 bytes, sorted by key.
 *
 * <p>What runs is the wrapper's own {@code prepareServerConfigs(default, mounted, final, env)}, the
 * step of {@code setup} that writes the file (the image calls it with {@code /etc/kafka/docker},
 * {@code /mnt/shared/config} and {@code /opt/kafka/config}): here no file is mounted, and the
 * default folder holds a one-line {@code server.properties} ({@code kafkalint.default.sample=true})
 * that stands for the release's sample file the image falls back to when the environment writes
 * nothing. The result is read as {@code Utils.loadProps} reads a broker's file: {@code
 * Properties.load} on its bytes. {@code setup} then formats the storage, which is not run.
 *
 * <p>Kafka's classes (and Scala's, for the environment map) are reached by reflection, so this
 * class is compiled against the JDK alone, as {@link KafkaConfigOracle} is.
 */
public final class DockerWrapperOracle {
    private DockerWrapperOracle() {}

    public static void main(String[] args) throws Exception {
        PrintStream out = new PrintStream(
                new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 1 << 16),
                false, StandardCharsets.US_ASCII);
        System.setOut(System.err);
        if (args.length != 1) {
            System.err.println("usage: DockerWrapperOracle ENVFILE");
            System.exit(2);
        }

        Class<?> wrapperModule = Class.forName("kafka.docker.KafkaDockerWrapper$");
        Object wrapper = wrapperModule.getField("MODULE$").get(null);
        Class<?> scalaMap = Class.forName("scala.collection.immutable.Map");
        Method prepare = wrapperModule.getMethod(
                "prepareServerConfigs", Path.class, Path.class, Path.class, scalaMap);

        Path work = Files.createTempDirectory("docker-wrapper-oracle");
        Path defaults = Files.createDirectories(work.resolve("defaults"));
        Files.write(defaults.resolve("server.properties"),
                "kafkalint.default.sample=true\n".getBytes(StandardCharsets.UTF_8));
        Path mounted = work.resolve("mounted"); // never created: nothing is mounted
        HexFormat hex = HexFormat.of();
        try {
            List<Map<String, String>> environments = read(Path.of(args[0]));
            for (int index = 0; index < environments.size(); index++) {
                Path finals = Files.createDirectories(work.resolve("final-" + index));
                prepare.invoke(wrapper, defaults, mounted, finals, scala(environments.get(index)));
                Properties properties = new Properties();
                try (InputStream in = Files.newInputStream(finals.resolve("server.properties"))) {
                    properties.load(in);
                }
                TreeMap<String, String> sorted = new TreeMap<>();
                for (String key : properties.stringPropertyNames()) {
                    sorted.put(key, properties.getProperty(key));
                }
                out.println("#" + index);
                for (Map.Entry<String, String> property : sorted.entrySet()) {
                    out.println(hex.formatHex(property.getKey().getBytes(StandardCharsets.UTF_8))
                            + "\t"
                            + hex.formatHex(property.getValue().getBytes(StandardCharsets.UTF_8)));
                }
            }
        } finally {
            try (var paths = Files.walk(work)) {
                paths.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
        out.flush();
    }

    /** The environments of ENVFILE, in order, each name to its value. */
    private static List<Map<String, String>> read(Path file) throws Exception {
        List<Map<String, String>> environments = new ArrayList<>();
        Map<String, String> current = new LinkedHashMap<>();
        HexFormat hex = HexFormat.of();
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            if (line.isEmpty()) {
                environments.add(current);
                current = new LinkedHashMap<>();
                continue;
            }
            int tab = line.indexOf('\t');
            current.put(line.substring(0, tab),
                    new String(hex.parseHex(line.substring(tab + 1)), StandardCharsets.UTF_8));
        }
        if (!current.isEmpty()) {
            environments.add(current);
        }
        return environments;
    }

    /** A Scala immutable map of {@code environment}, as the wrapper's {@code sys.env} is one. */
    private static Object scala(Map<String, String> environment) throws Exception {
        Object asScala = Class.forName("scala.jdk.javaapi.CollectionConverters")
                .getMethod("asScala", java.util.Map.class)
                .invoke(null, environment);
        Class<?> mapCompanion = Class.forName("scala.collection.immutable.Map$");
        return mapCompanion
                .getMethod("from", Class.forName("scala.collection.IterableOnce"))
                .invoke(mapCompanion.getField("MODULE$").get(null), asScala);
    }
}
