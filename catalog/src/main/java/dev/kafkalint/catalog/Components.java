package dev.kafkalint.catalog;

import static dev.kafkalint.catalog.Reflect.configKeys;
import static dev.kafkalint.catalog.Reflect.invoke;
import static dev.kafkalint.catalog.Reflect.invokeStatic;
import static dev.kafkalint.catalog.Reflect.keyConstants;
import static dev.kafkalint.catalog.Reflect.module;
import static dev.kafkalint.catalog.Reflect.staticField;

import dev.kafkalint.catalog.Reflect.Candidate;
import dev.kafkalint.catalog.Reflect.Found;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The config keys of the Kafka components other than the broker whose keys show up in broker
 * files: the clients, Connect, MirrorMaker 2, Streams, topic-level configs, and the plugins the
 * broker ships and configures from its own file (authorizers, the JMX reporter, the remote log
 * metadata manager). A broker does not know these keys, but a linter that reports unknown keys
 * must tell them apart from typos: they belong elsewhere, or are read by a plugin.
 *
 * <p>Each component maps key name to ConfigDef type, or to null when Kafka keeps the keys only as
 * constants. A component none of whose locations answers in a release is left out of it.
 */
final class Components {
    private static final String MIRROR = "org.apache.kafka.connect.mirror.";

    private Components() {}

    /** A component, the Maven artifact (of group org.apache.kafka) that holds it, and its locations. */
    private record Component(String name, String artifact, List<Candidate> candidates) {}

    /** What is read of each key of a ConfigDef: its type, or its default. */
    private interface KeyReader {
        Map<String, Object> read(Object configDef) throws Exception;
    }

    /**
     * The components whose defaults and validators are dumped too ({@code other_components_defaults},
     * {@code other_components_validators}): Connect, MirrorMaker 2 and Streams create
     * topics of their own (Connect's config, offset and status topics, MirrorMaker 2's heartbeats,
     * checkpoints and offset syncs, Streams' changelog and repartition topics), and a linter needs
     * each release's default replication factor of those; the topic-level ConfigDef
     * ({@code LogConfig}) validates every config of a topic created or altered, and a linter checks
     * a declared topic's configs the way it does.
     */
    private static final Set<String> WITH_DEFAULTS =
            Set.of("connect-distributed", "mirror-maker", "mirror-connector", "streams", "topic");

    /** The components, each with the locations that hold its keys in some release. */
    private static List<Component> components() {
        return components(Components::types);
    }

    /** The components, each key read with {@code reader}; the constants-only ones read as names. */
    private static List<Component> components(KeyReader reader) {
        String clients = "org.apache.kafka.clients.";
        String connect = "org.apache.kafka.connect.runtime.";
        String distributed = connect + "distributed.DistributedConfig";
        return List.of(
                new Component("producer", "kafka-clients",
                        List.of(staticDef(clients + "producer.ProducerConfig", "configDef", reader))),
                new Component("consumer", "kafka-clients",
                        List.of(staticDef(clients + "consumer.ConsumerConfig", "configDef", reader))),
                new Component("admin", "kafka-clients",
                        List.of(staticDef(clients + "admin.AdminClientConfig", "configDef", reader))),
                new Component("connect-distributed", "connect-runtime", List.of(
                        // Later releases build the ConfigDef for a given provider of crypto algorithms.
                        new Candidate(distributed + ".config(Crypto.SYSTEM)",
                                () -> reader.read(invokeStatic(distributed, "config", connect + "distributed.Crypto",
                                        staticField(connect + "distributed.Crypto", "SYSTEM")))),
                        staticDefField(distributed, "CONFIG", reader))),
                new Component("connect-standalone", "connect-runtime",
                        List.of(staticDefField(connect + "standalone.StandaloneConfig", "CONFIG", reader))),
                new Component("mirror-maker", "connect-mirror", List.of(
                        staticDef(MIRROR + "MirrorMakerConfig", "config", reader),
                        staticDefField(MIRROR + "MirrorMakerConfig", "CONFIG_DEF", reader))),
                new Component("mirror-connector", "connect-mirror", List.of(
                        // Later releases have one ConfigDef per connector; earlier ones one for all three.
                        new Candidate(MIRROR + "Mirror{Source,Checkpoint,Heartbeat}Config.CONNECTOR_CONFIG_DEF",
                                () -> union(reader, staticField(MIRROR + "MirrorSourceConfig", "CONNECTOR_CONFIG_DEF"),
                                        staticField(MIRROR + "MirrorCheckpointConfig", "CONNECTOR_CONFIG_DEF"),
                                        staticField(MIRROR + "MirrorHeartbeatConfig", "CONNECTOR_CONFIG_DEF"))),
                        staticDefField(MIRROR + "MirrorConnectorConfig", "CONNECTOR_CONFIG_DEF", reader))),
                new Component("streams", "kafka-streams",
                        List.of(staticDef("org.apache.kafka.streams.StreamsConfig", "configDef", reader))),
                new Component("topic", "kafka_2.13", List.of(
                        staticDef("org.apache.kafka.storage.internals.log.LogConfig", "configDefCopy", reader),
                        new Candidate("kafka.log.LogConfig$.MODULE$.configDefCopy()",
                                () -> reader.read(invoke(module("kafka.log.LogConfig$"), "configDefCopy"))),
                        constants("org.apache.kafka.common.config.TopicConfig"))),
                // The TopicBasedRemoteLogMetadataManager's own keys; the broker hands them over
                // from its file under the prefix remote.log.metadata.manager.impl.prefix (rlmm.config.).
                new Component("remote-log-metadata-manager", "kafka_2.13", List.of(staticDefField(
                        "org.apache.kafka.server.log.remote.metadata.storage.TopicBasedRemoteLogMetadataManagerConfig",
                        "CONFIG", reader))),
                new Component("standard-authorizer", "kafka_2.13",
                        List.of(constants("org.apache.kafka.metadata.authorizer.StandardAuthorizer"))),
                new Component("acl-authorizer", "kafka_2.13",
                        List.of(constants("kafka.security.authorizer.AclAuthorizer$"))),
                new Component("jmx-reporter", "kafka-clients",
                        List.of(constants("org.apache.kafka.common.metrics.JmxReporter"))));
    }

    /**
     * Adds {@code other_components} (component, key, type), {@code other_components_source} and, for
     * the components absent from this release, {@code other_components_missing} (what was tried).
     */
    static void dump(Map<String, Object> doc, List<String> unresolved) {
        Map<String, Object> keys = new TreeMap<>();
        Map<String, Object> sources = new TreeMap<>();
        Map<String, Object> missing = new TreeMap<>();
        for (Component c : components()) {
            Found found = Reflect.firstQuietly(c.candidates(), "java.util.Map");
            if (found.value() == null || ((Map<?, ?>) found.value()).isEmpty()) {
                String artifact = "org.apache.kafka:" + c.artifact() + ":";
                boolean notResolved = unresolved.stream().anyMatch(a -> a.startsWith(artifact));
                String why = notResolved ? artifact + doc.get("kafka_version") + " could not be resolved"
                        : "no location answered in this release";
                missing.put(c.name(), why + "; tried " + String.join(", ", found.tried()));
            } else {
                keys.put(c.name(), found.value());
                sources.put(c.name(), found.source());
            }
        }
        doc.put("other_components", keys);
        doc.put("other_components_source", sources);
        doc.put("other_components_missing", missing);

        // The same locations, read for each key's default: the first that answers is the one
        // whose keys were dumped above.
        Map<String, Object> defaults = new TreeMap<>();
        for (Component c : components(Components::defaults)) {
            if (!WITH_DEFAULTS.contains(c.name()) || !keys.containsKey(c.name())) continue;
            Found found = Reflect.firstQuietly(c.candidates(), "java.util.Map");
            if (found.value() != null) defaults.put(c.name(), found.value());
        }
        doc.put("other_components_defaults", defaults);

        // And for each key its validator, as the broker's are dumped: a linter checks a value
        // the way the component's ConfigDef parses it when the component starts.
        Map<String, Object> validators = new TreeMap<>();
        for (Component c : components(Components::validators)) {
            if (!WITH_DEFAULTS.contains(c.name()) || !keys.containsKey(c.name())) continue;
            Found found = Reflect.firstQuietly(c.candidates(), "java.util.Map");
            if (found.value() != null) validators.put(c.name(), found.value());
        }
        doc.put("other_components_validators", validators);
    }

    private static Candidate staticDef(String className, String method, KeyReader reader) {
        return new Candidate(className + "." + method + "()", () -> reader.read(invokeStatic(className, method)));
    }

    private static Candidate staticDefField(String className, String field, KeyReader reader) {
        return new Candidate(className + "." + field, () -> reader.read(staticField(className, field)));
    }

    private static Candidate constants(String className) {
        return new Candidate(className + " (String constants)", () -> {
            Map<String, Object> out = new TreeMap<>();
            for (String key : keyConstants(className)) out.put(key, null);
            return out;
        });
    }

    /** Key name to type name, for the keys of a ConfigDef. */
    static Map<String, Object> types(Object configDef) throws Exception {
        if (configDef == null || !Class.forName(Reflect.CONFIG_DEF).isInstance(configDef)) return null;
        Map<String, Object> out = new TreeMap<>();
        for (Map.Entry<String, Object> e : configKeys(configDef).entrySet()) {
            out.put(e.getKey(), ((Enum<?>) Reflect.field(e.getValue(), "type")).name());
        }
        return out;
    }

    /**
     * Key name to default, for the keys of a ConfigDef: the text {@code ConfigDef.convertToString}
     * gives (as a properties file would set it), or null for a key without one (no default, or a
     * null default).
     */
    static Map<String, Object> defaults(Object configDef) throws Exception {
        Class<?> configDefClass = Class.forName(Reflect.CONFIG_DEF);
        if (configDef == null || !configDefClass.isInstance(configDef)) return null;
        Object noDefault = configDefClass.getField("NO_DEFAULT_VALUE").get(null);
        Class<?> typeClass = Class.forName(Reflect.CONFIG_DEF + "$Type");
        java.lang.reflect.Method convert = configDefClass.getMethod("convertToString", Object.class, typeClass);
        Map<String, Object> out = new TreeMap<>();
        for (Map.Entry<String, Object> e : configKeys(configDef).entrySet()) {
            Object value = Reflect.field(e.getValue(), "defaultValue");
            Object type = Reflect.field(e.getValue(), "type");
            out.put(e.getKey(), value == noDefault ? null : convert.invoke(null, value, type));
        }
        return out;
    }

    /** Key name to validator (see {@code DumpBrokerConfig.validator}), for the keys of a ConfigDef. */
    static Map<String, Object> validators(Object configDef) throws Exception {
        if (configDef == null || !Class.forName(Reflect.CONFIG_DEF).isInstance(configDef)) return null;
        Map<String, Object> out = new TreeMap<>();
        for (Map.Entry<String, Object> e : configKeys(configDef).entrySet()) {
            out.put(e.getKey(), DumpBrokerConfig.validator(Reflect.field(e.getValue(), "validator")));
        }
        return out;
    }

    private static Map<String, Object> union(KeyReader reader, Object... configDefs) throws Exception {
        Map<String, Object> out = new LinkedHashMap<>();
        for (Object def : configDefs) {
            Map<String, Object> t = reader.read(def);
            if (t == null) return null;
            t.forEach(out::putIfAbsent);
        }
        return new TreeMap<>(out);
    }
}
