package dev.kafkalint.oracle;

import java.io.BufferedOutputStream;
import java.io.FileOutputStream;
import java.io.FileDescriptor;
import java.io.InputStream;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;

/**
 * Tells, for each broker config file of a list, whether the Kafka release on the classpath would
 * refuse it at start-up, by running the broker's own start-up path on it.
 *
 * <p>Usage: {@code KafkaConfigOracle [--expect-version X.Y.Z] LISTFILE}. LISTFILE holds one path a
 * line (UTF-8; empty lines are passed over). Standard output gets one JSON object a line, in the
 * order of the list:
 *
 * <pre>
 * {"file":"a.properties","accepted":true}
 * {"file":"b.properties","accepted":false,"stage":"config","exception":"org.apache.kafka.common.config.ConfigException","message":"..."}
 * </pre>
 *
 * <p>What is run is what {@code kafka.Kafka.main} does before it touches storage or the network, in
 * 3.x and 4.x alike: {@code Utils.loadProps(path)} ({@code Properties.load} on the file's bytes),
 * then {@code KafkaConfig.fromProps(props, false)}, whose constructor parses every key of the
 * ConfigDef and runs {@code validateValues()}; for a KRaft node of 3.8 and later, the voters as
 * {@code KafkaRaftServer}'s constructor parses them again, routable addresses only ({@code
 * QuorumConfig.parseVoterConnections}; the constructor reads the storage first, which is not
 * run); then the later steps that need neither storage nor the network ({@link StartupSteps}:
 * the plugins the node makes, its log directories). A refusal's {@code stage} says which:
 * {@code config} up to the voters, {@code startup} after. Anything thrown there, for one file, is that file's
 * refusal; the next file still runs. Only {@link VirtualMachineError}s stop the run, since an out
 * of memory error says nothing about the file.
 *
 * <p>Every Kafka class is reached by reflection, so this class is compiled once against the JDK
 * alone and runs unchanged against the jars of any release. Kafka's own logging must not reach
 * standard output: {@code System.out} is pointed at standard error before any Kafka class loads,
 * and the JSON lines go to the original standard output stream.
 */
public final class KafkaConfigOracle {
    private KafkaConfigOracle() {}

    public static void main(String[] args) throws Exception {
        PrintStream json = new PrintStream(
                new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 1 << 16),
                false, StandardCharsets.US_ASCII);
        System.setOut(System.err);

        String expectVersion = null;
        String listFile = null;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--expect-version") && i + 1 < args.length) {
                expectVersion = args[++i];
            } else if (listFile == null && !args[i].startsWith("--")) {
                listFile = args[i];
            } else {
                System.err.println("usage: KafkaConfigOracle [--expect-version X.Y.Z] LISTFILE");
                System.exit(2);
            }
        }
        if (listFile == null) {
            System.err.println("usage: KafkaConfigOracle [--expect-version X.Y.Z] LISTFILE");
            System.exit(2);
        }

        String version = kafkaVersion();
        if (expectVersion != null && !expectVersion.equals(version)) {
            System.err.println("KafkaConfigOracle: classpath holds Kafka " + version
                    + ", expected " + expectVersion);
            System.exit(2);
        }

        // Looked up once, before the first file: a classpath without them is a broken run, not a
        // refusal of every file.
        Method loadProps = Class.forName("org.apache.kafka.common.utils.Utils")
                .getMethod("loadProps", String.class);
        Method fromProps = Class.forName("kafka.server.KafkaConfig")
                .getMethod("fromProps", Properties.class, boolean.class);
        Method parseVoters = routableVoterParser();
        StartupSteps steps = StartupSteps.load();

        List<String> files = Files.readAllLines(Path.of(listFile), StandardCharsets.UTF_8);
        StringBuilder line = new StringBuilder();
        for (String file : files) {
            if (file.isEmpty()) continue;
            line.setLength(0);
            line.append("{\"file\":");
            Json.string(line, file);
            Refusal refused = judge(loadProps, fromProps, parseVoters, steps, file);
            if (refused == null) {
                line.append(",\"accepted\":true}");
            } else {
                line.append(",\"accepted\":false,\"stage\":");
                Json.string(line, refused.stage());
                line.append(",\"exception\":");
                Json.string(line, refused.cause().getClass().getName());
                line.append(",\"message\":");
                Json.string(line, refused.cause().getMessage());
                line.append('}');
            }
            json.println(line);
        }
        json.flush();
        if (json.checkError()) {
            System.err.println("KafkaConfigOracle: writing standard output failed");
            System.exit(1);
        }
        // A plugin made for a file may have left a thread behind; the answers are all written.
        System.exit(0);
    }

    /**
     * Where Kafka refused a file: {@code "config"} while loading the file, building its
     * KafkaConfig or parsing the voters; {@code "startup"} in the later steps of {@link
     * StartupSteps}.
     */
    record Refusal(String stage, Throwable cause) {}

    /**
     * What Kafka threw for this file, or null when its KafkaConfig was built, for a KRaft node
     * the server's own parse of the voters passed, and the start-up steps passed (none when
     * {@code steps} is null).
     */
    static Refusal judge(Method loadProps, Method fromProps, Method parseVoters, StartupSteps steps,
            String file) {
        Object config;
        try {
            // false, as in kafka.Kafka: it only turns off the INFO dump of every value.
            Properties props = (Properties) loadProps.invoke(null, file);
            config = fromProps.invoke(null, props, false);
            // KafkaRaftServer's constructor (kafka.Kafka builds one for a node with roles)
            // parses the voters again, with routable addresses only, before it starts anything
            // but its storage: QuorumConfig.parseVoterConnections, from 3.8.
            if (parseVoters != null && kraft(config)) {
                Object voters = config.getClass().getMethod("getList", String.class)
                        .invoke(config, "controller.quorum.voters");
                parseVoters.invoke(null, voters);
            }
        } catch (InvocationTargetException e) {
            return new Refusal("config", cause(e));
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot call Kafka for " + file, e);
        }
        if (steps == null) return null;
        try {
            // What the node makes of its config before it starts: plugins, log directories.
            steps.run(config);
            return null;
        } catch (InvocationTargetException e) {
            return new Refusal("startup", cause(e));
        } catch (RuntimeException e) {
            // Thrown by a step's own code (a cast, say), not through reflection.
            return new Refusal("startup", e);
        } catch (Exception e) {
            throw new IllegalStateException("cannot call Kafka for " + file, e);
        }
    }

    private static Throwable cause(InvocationTargetException e) {
        Throwable cause = e.getCause() == null ? e : e.getCause();
        if (cause instanceof VirtualMachineError vme) throw vme;
        return cause;
    }

    /** {@code QuorumConfig.parseVoterConnections(List)} of 3.8 and later; null before. */
    private static Method routableVoterParser() throws NoSuchMethodException {
        try {
            return Class.forName("org.apache.kafka.raft.QuorumConfig")
                    .getMethod("parseVoterConnections", List.class);
        } catch (ClassNotFoundException e) {
            return null; // RaftConfig (3.0 to 3.7) takes 0.0.0.0:0 as unknown, any other as an address
        }
    }

    /** Whether {@code kafka.Kafka} runs the config as a KRaft server: its roles are not empty. */
    private static boolean kraft(Object config) throws ReflectiveOperationException {
        Object roles = config.getClass().getMethod("processRoles").invoke(config);
        return !(boolean) Class.forName("scala.collection.IterableOnceOps")
                .getMethod("isEmpty").invoke(roles);
    }

    private static String kafkaVersion() throws Exception {
        ClassLoader loader = KafkaConfigOracle.class.getClassLoader();
        try (InputStream in = loader.getResourceAsStream("kafka/kafka-version.properties")) {
            if (in != null) {
                Properties p = new Properties();
                p.load(in);
                String v = p.getProperty("version");
                if (v != null && !v.isEmpty()) return v.trim();
            }
        }
        Class<?> info = Class.forName("org.apache.kafka.common.utils.AppInfoParser");
        return (String) info.getMethod("getVersion").invoke(null);
    }

    /** The JSON string forms this program writes: ASCII only, so any byte of a message survives. */
    static final class Json {
        private Json() {}

        static void string(StringBuilder out, String s) {
            if (s == null) {
                out.append("null");
                return;
            }
            out.append('"');
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                switch (c) {
                    case '"' -> out.append("\\\"");
                    case '\\' -> out.append("\\\\");
                    case '\n' -> out.append("\\n");
                    case '\r' -> out.append("\\r");
                    case '\t' -> out.append("\\t");
                    default -> {
                        if (c < 0x20 || c > 0x7e) {
                            out.append(String.format("\\u%04x", (int) c));
                        } else {
                            out.append(c);
                        }
                    }
                }
            }
            out.append('"');
        }
    }
}
