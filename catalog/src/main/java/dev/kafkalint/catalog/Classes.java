package dev.kafkalint.catalog;

import java.io.DataInputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The public top-level classes of Kafka's own packages ({@code org.apache.kafka.} and
 * {@code kafka.}) in the Kafka jars of the classpath: what a broker can load by name when a key
 * names a class (an authorizer, a metrics reporter, a callback handler). The broker's
 * {@code bin/kafka-run-class.sh} puts every jar of {@code libs/} on its classpath; the Kafka jars
 * here are those Maven resolves for {@code kafka_2.13}, {@code connect-runtime} and
 * {@code kafka-streams} of the release.
 *
 * <p>The classes are read from the jars' entries and their class files' access flags, without
 * loading them: loading would run Scala objects' initialisers and fail on classes whose optional
 * dependencies are not on the classpath.
 */
final class Classes {
    /** A jar of Maven's local repository: {@code .../org/apache/kafka/<artifact>/<version>/<file>.jar}. */
    private static final Pattern KAFKA_JAR =
            Pattern.compile(".*[/\\\\]org[/\\\\]apache[/\\\\]kafka[/\\\\]([^/\\\\]+)[/\\\\]([^/\\\\]+)[/\\\\][^/\\\\]+\\.jar$");

    /**
     * Artifacts left out although Maven may put them on the classpath, since the distribution's
     * {@code libs/} holds them in releases where Maven's classpath does not, and their classes
     * would seem to come and go between releases: {@code connect-mirror} and its client come only
     * through the {@code mirror} profile, which cannot be resolved for every release;
     * {@code kafka-tools} and {@code kafka-log4j-appender} are dependencies of {@code kafka_2.13}
     * up to 3.5 only. Their packages are in no dump, so a name in them is not judged.
     */
    private static final List<String> LEFT_OUT =
            List.of("connect-mirror", "connect-mirror-client", "kafka-log4j-appender", "kafka-tools");

    private static final int ACC_PUBLIC = 0x0001;

    private Classes() {}

    /** Adds {@code classes} (package to sorted simple names) and {@code class_artifacts}. */
    static void dump(Map<String, Object> doc, String version) throws IOException {
        Map<String, TreeSet<String>> byPackage = new TreeMap<>();
        TreeSet<String> artifacts = new TreeSet<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            Matcher jar = KAFKA_JAR.matcher(entry);
            if (!jar.matches() || LEFT_OUT.contains(jar.group(1))) continue;
            if (!jar.group(2).equals(version)) {
                throw new IllegalStateException(entry + " is not of Kafka " + version);
            }
            artifacts.add(jar.group(1));
            try (JarFile file = new JarFile(entry)) {
                Enumeration<JarEntry> entries = file.entries();
                while (entries.hasMoreElements()) {
                    JarEntry classFile = entries.nextElement();
                    String name = classFile.getName();
                    if (!name.endsWith(".class") || name.contains("$") || name.startsWith("META-INF/")) continue;
                    String className = name.substring(0, name.length() - ".class".length()).replace('/', '.');
                    if (!className.startsWith("org.apache.kafka.") && !className.startsWith("kafka.")) continue;
                    int dot = className.lastIndexOf('.');
                    String simpleName = className.substring(dot + 1);
                    if (simpleName.equals("package-info") || simpleName.equals("module-info")) continue;
                    try (InputStream in = file.getInputStream(classFile)) {
                        if ((accessFlags(in) & ACC_PUBLIC) == 0) continue;
                    }
                    byPackage.computeIfAbsent(className.substring(0, dot), p -> new TreeSet<>()).add(simpleName);
                }
            }
        }
        Map<String, Object> classes = new TreeMap<>();
        byPackage.forEach((pkg, names) -> classes.put(pkg, new ArrayList<>(names)));
        doc.put("classes", classes);
        doc.put("class_artifacts", new ArrayList<>(artifacts));
    }

    /** The access flags of a class file (JVMS 4.1): they follow the constant pool. */
    private static int accessFlags(InputStream stream) throws IOException {
        DataInputStream in = new DataInputStream(stream);
        if (in.readInt() != 0xCAFEBABE) throw new IOException("not a class file");
        in.readUnsignedShort(); // minor version
        in.readUnsignedShort(); // major version
        int count = in.readUnsignedShort();
        for (int index = 1; index < count; index++) {
            int tag = in.readUnsignedByte();
            switch (tag) {
                case 1 -> in.skipNBytes(in.readUnsignedShort()); // Utf8
                case 3, 4, 9, 10, 11, 12, 17, 18 -> in.skipNBytes(4);
                case 5, 6 -> {
                    in.skipNBytes(8); // Long and Double take two entries
                    index++;
                }
                case 7, 8, 16, 19, 20 -> in.skipNBytes(2);
                case 15 -> in.skipNBytes(3);
                default -> throw new IOException("unknown constant pool tag " + tag);
            }
        }
        return in.readUnsignedShort();
    }
}
