package dev.kafkalint.catalog;

import java.io.DataInputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.HashMap;
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
    private static final int ACC_INTERFACE = 0x0200;
    private static final int ACC_ABSTRACT = 0x0400;

    /**
     * The types a key that names a class requires of it, whose implementations among Kafka's own
     * classes are dumped: the second argument of the {@code Utils.newInstance(name, X.class)},
     * {@code getConfiguredInstance(key, X.class)} or {@code CoreUtils.createObject[X]} call that
     * loads each such key (see README.md, Implementations). A type missing from a release is left
     * out of its dump.
     */
    static final List<String> REQUIRED_TYPES = List.of(
            "kafka.metrics.KafkaMetricsReporter",
            "kafka.security.auth.Authorizer",
            "org.apache.kafka.common.config.provider.ConfigProvider",
            "org.apache.kafka.common.metrics.MetricsReporter",
            "org.apache.kafka.common.replica.ReplicaSelector",
            "org.apache.kafka.common.security.auth.AuthenticateCallbackHandler",
            "org.apache.kafka.common.security.auth.KafkaPrincipalBuilder",
            "org.apache.kafka.common.security.auth.KafkaPrincipalSerde",
            "org.apache.kafka.common.security.auth.Login",
            "org.apache.kafka.common.security.auth.SslEngineFactory",
            "org.apache.kafka.common.security.oauthbearer.JwtRetriever",
            "org.apache.kafka.common.security.oauthbearer.JwtValidator",
            "org.apache.kafka.coordinator.group.api.assignor.ConsumerGroupPartitionAssignor",
            "org.apache.kafka.coordinator.group.api.assignor.ShareGroupPartitionAssignor",
            "org.apache.kafka.coordinator.group.api.streams.StreamsGroupTopologyDescriptionPlugin",
            "org.apache.kafka.coordinator.group.api.streams.assignor.TaskAssignor",
            "org.apache.kafka.coordinator.group.assignor.ConsumerGroupPartitionAssignor",
            "org.apache.kafka.coordinator.group.assignor.PartitionAssignor",
            "org.apache.kafka.server.authorizer.Authorizer",
            "org.apache.kafka.server.log.remote.storage.RemoteLogMetadataManager",
            "org.apache.kafka.server.log.remote.storage.RemoteStorageManager",
            "org.apache.kafka.server.policy.AlterConfigPolicy",
            "org.apache.kafka.server.policy.CreateTopicPolicy",
            "org.apache.kafka.server.quota.ClientQuotaCallback",
            "org.apache.kafka.server.share.dlq.ShareGroupDLQManager",
            "org.apache.kafka.server.share.persister.Persister");

    /** What the header of a class file says: its access flags and its direct supertypes. */
    private record Header(int flags, List<String> supertypes) {}

    private Classes() {}

    /**
     * Adds {@code classes} (package to sorted simple names), {@code class_artifacts} and
     * {@code implementations} (see {@link #implementations}).
     */
    static void dump(Map<String, Object> doc, String version) throws IOException {
        Map<String, TreeSet<String>> byPackage = new TreeMap<>();
        // Every class of the Kafka jars, nested and not public ones too: a public class can
        // implement an interface through them.
        Map<String, Header> headers = new TreeMap<>();
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
                    if (!name.endsWith(".class") || name.startsWith("META-INF/")) continue;
                    String className = name.substring(0, name.length() - ".class".length()).replace('/', '.');
                    if (!className.startsWith("org.apache.kafka.") && !className.startsWith("kafka.")) continue;
                    int dot = className.lastIndexOf('.');
                    String simpleName = className.substring(dot + 1);
                    if (simpleName.equals("package-info") || simpleName.equals("module-info")) continue;
                    Header header;
                    try (InputStream in = file.getInputStream(classFile)) {
                        header = header(in);
                    }
                    headers.put(className, header);
                    if (simpleName.contains("$") || (header.flags() & ACC_PUBLIC) == 0) continue;
                    byPackage.computeIfAbsent(className.substring(0, dot), p -> new TreeSet<>()).add(simpleName);
                }
            }
        }
        Map<String, Object> classes = new TreeMap<>();
        byPackage.forEach((pkg, names) -> classes.put(pkg, new ArrayList<>(names)));
        doc.put("classes", classes);
        doc.put("class_artifacts", new ArrayList<>(artifacts));
        doc.put("implementations", implementations(byPackage, headers));
    }

    /**
     * For each of {@link #REQUIRED_TYPES} the release has: {@code concrete}, the public top-level
     * classes of {@code classes} that are assignable to it and can be instantiated (neither an
     * interface nor abstract), and {@code abstract}, those assignable to it that cannot (the type
     * itself, its sub-interfaces, abstract classes). Any other class of {@code classes} is no
     * such type: a key that requires it and names that class stops the node.
     */
    private static Map<String, Object> implementations(
            Map<String, TreeSet<String>> byPackage, Map<String, Header> headers) {
        Map<String, Object> out = new TreeMap<>();
        for (String type : REQUIRED_TYPES) {
            if (!headers.containsKey(type)) continue;
            List<String> concrete = new ArrayList<>();
            List<String> notInstantiable = new ArrayList<>();
            Map<String, Boolean> memo = new HashMap<>();
            byPackage.forEach((pkg, names) -> {
                for (String simple : names) {
                    String name = pkg + "." + simple;
                    if (!assignable(name, type, headers, memo)) continue;
                    int flags = headers.get(name).flags();
                    boolean instantiable = (flags & (ACC_INTERFACE | ACC_ABSTRACT)) == 0;
                    (instantiable ? concrete : notInstantiable).add(name);
                }
            });
            Map<String, Object> entry = new TreeMap<>();
            entry.put("concrete", concrete);
            entry.put("abstract", notInstantiable);
            out.put(type, entry);
        }
        return out;
    }

    /**
     * Whether {@code name} is {@code type} or has it among its supertypes, as far as the Kafka
     * jars tell: a supertype outside them (the JDK's, Scala's) cannot be a Kafka type.
     */
    private static boolean assignable(
            String name, String type, Map<String, Header> headers, Map<String, Boolean> memo) {
        if (name.equals(type)) return true;
        Boolean known = memo.get(name);
        if (known != null) return known;
        memo.put(name, false); // no cycles in a valid hierarchy; this only ends a broken one
        Header header = headers.get(name);
        boolean result = false;
        if (header != null) {
            for (String supertype : header.supertypes()) {
                if (assignable(supertype, type, headers, memo)) {
                    result = true;
                    break;
                }
            }
        }
        memo.put(name, result);
        return result;
    }

    /**
     * The access flags, super class and interfaces of a class file (JVMS 4.1): they follow the
     * constant pool, whose Class entries name them through Utf8 entries.
     */
    private static Header header(InputStream stream) throws IOException {
        DataInputStream in = new DataInputStream(stream);
        if (in.readInt() != 0xCAFEBABE) throw new IOException("not a class file");
        in.readUnsignedShort(); // minor version
        in.readUnsignedShort(); // major version
        int count = in.readUnsignedShort();
        String[] utf8 = new String[count];
        int[] classNameIndex = new int[count];
        for (int index = 1; index < count; index++) {
            int tag = in.readUnsignedByte();
            switch (tag) {
                case 1 -> utf8[index] = in.readUTF();
                case 7 -> classNameIndex[index] = in.readUnsignedShort();
                case 3, 4, 9, 10, 11, 12, 17, 18 -> in.skipNBytes(4);
                case 5, 6 -> {
                    in.skipNBytes(8); // Long and Double take two entries
                    index++;
                }
                case 8, 16, 19, 20 -> in.skipNBytes(2);
                case 15 -> in.skipNBytes(3);
                default -> throw new IOException("unknown constant pool tag " + tag);
            }
        }
        int flags = in.readUnsignedShort();
        in.readUnsignedShort(); // this class
        List<String> supertypes = new ArrayList<>();
        int superClass = in.readUnsignedShort();
        if (superClass != 0) supertypes.add(utf8[classNameIndex[superClass]].replace('/', '.'));
        int interfaces = in.readUnsignedShort();
        for (int i = 0; i < interfaces; i++) {
            supertypes.add(utf8[classNameIndex[in.readUnsignedShort()]].replace('/', '.'));
        }
        return new Header(flags, supertypes);
    }
}
