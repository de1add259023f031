package dev.kafkalint.catalog;

import static dev.kafkalint.catalog.Reflect.elements;
import static dev.kafkalint.catalog.Reflect.invoke;
import static dev.kafkalint.catalog.Reflect.invokeStatic;
import static dev.kafkalint.catalog.Reflect.keyConstants;
import static dev.kafkalint.catalog.Reflect.module;
import static dev.kafkalint.catalog.Reflect.staticField;

import dev.kafkalint.catalog.Reflect.Candidate;
import dev.kafkalint.catalog.Reflect.Found;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The prefix families: keys outside the broker ConfigDef that the broker reads from its own file
 * under a prefix, such as {@code listener.name.<listener>.ssl.keystore.location} or
 * {@code config.providers.<name>.class}.
 *
 * <p>Each family is a {@code pattern}, literal text with {@code {segment}} placeholders that each
 * stand for one non-empty, dot-free name, followed by a {@code rest} that says what may follow:
 * {@code {"kind": "components", "components": [...]}} (any key of those components, "broker" being
 * the broker ConfigDef), {@code {"kind": "keys", "keys": [...]}}, or {@code {"kind": "any"}} (a
 * plugin's own keys, which Kafka cannot know). Every prefix and key list is read from Kafka's
 * classes; where the shape of a key is only a fact of Kafka's code, the family's {@code source}
 * names the class whose code it is.
 */
final class Families {
    private static final String LISTENER_NAME = "org.apache.kafka.common.network.ListenerName";
    private static final String ABSTRACT_CONFIG = "org.apache.kafka.common.config.AbstractConfig";
    private static final String RLM_CONFIG = "org.apache.kafka.server.log.remote.storage.RemoteLogManagerConfig";
    private static final String TBRLMM_CONFIG =
            "org.apache.kafka.server.log.remote.metadata.storage.TopicBasedRemoteLogMetadataManagerConfig";

    /** Probe names fed to Kafka's prefix builders, then replaced by placeholders. */
    private static final String LISTENER_PROBE = "ListenerProbe";
    private static final String MECHANISM_PROBE = "Mechanism-Probe";
    private static final String PROVIDER_PROBE = "providerprobe";

    private Families() {}

    static List<Object> dump(Set<String> brokerKeys, List<String> zookeeperKeys) throws Exception {
        List<Map<String, Object>> families = new ArrayList<>();
        listener(families, brokerKeys);
        configProviders(families);
        metricsContext(families);
        remoteStorage(families);
        authorizerZookeeper(families, zookeeperKeys);
        families.sort((a, b) -> ((String) a.get("id")).compareTo((String) b.get("id")));
        return new ArrayList<>(families);
    }

    // ------------------------------------------------------------------------------------------

    /**
     * {@code listener.name.<listener>.<broker key>}: the broker builds each listener's config with
     * AbstractConfig.valuesWithPrefixOverride, which takes any broker key under the listener prefix;
     * under {@code listener.name.<listener>.<mechanism>.} it reads the per-mechanism SASL keys.
     */
    private static void listener(List<Map<String, Object>> families, Set<String> brokerKeys) throws Exception {
        Object probe;
        try {
            probe = Class.forName(LISTENER_NAME).getConstructor(String.class).newInstance(LISTENER_PROBE);
        } catch (ClassNotFoundException e) {
            return;
        }
        String listenerPrefix = (String) invoke(probe, "configPrefix");
        Map<String, Object> listener = family("listener",
                placeholders(listenerPrefix), LISTENER_NAME + ".configPrefix()");
        listener.put("rest", Map.of("kind", "components", "components", List.of("broker")));
        listener.put("segments", Map.of("listener", segment(listenerPrefix, LISTENER_PROBE)));

        // The broker keys Kafka actually reads per listener: those of its security config classes
        // (the channel builders take them per listener) and the socket server's per-listener ones.
        Set<String> effective = new TreeSet<>();
        List<String> sources = new ArrayList<>();
        String config = "org.apache.kafka.common.config.";
        for (String cls : List.of(config + "SslConfigs", config + "SaslConfigs", config + "internals.BrokerSecurityConfigs")) {
            for (String key : keyConstants(cls)) {
                if (brokerKeys.contains(key)) effective.add(key);
            }
            sources.add(cls + " (String constants)");
        }
        for (Found found : List.of(
                Reflect.firstQuietly(List.of(
                        new Candidate("org.apache.kafka.network.SocketServer.LISTENER_RECONFIGURABLE_CONFIGS",
                                () -> staticField("org.apache.kafka.network.SocketServer", "LISTENER_RECONFIGURABLE_CONFIGS")),
                        new Candidate("kafka.network.SocketServer$.MODULE$.ListenerReconfigurableConfigs()",
                                () -> invoke(module("kafka.network.SocketServer$"), "ListenerReconfigurableConfigs"))),
                        "java.lang.Object"),
                Reflect.firstQuietly(List.of(
                        new Candidate("kafka.network.DataPlaneAcceptor$.MODULE$.ListenerReconfigurableConfigs()",
                                () -> invoke(module("kafka.network.DataPlaneAcceptor$"), "ListenerReconfigurableConfigs"))),
                        "java.lang.Object"))) {
            if (found.value() == null) continue;
            for (Object key : elements(found.value())) effective.add((String) key);
            sources.add(found.source());
        }
        listener.put("effective_keys", new ArrayList<>(effective));
        listener.put("effective_keys_source", String.join(", ", sources));
        families.add(listener);

        Found mechanismKeys = Reflect.first("the per-mechanism listener configs", List.of(
                new Candidate("org.apache.kafka.server.config.DynamicBrokerConfig.LISTENER_MECHANISM_CONFIGS",
                        () -> staticField("org.apache.kafka.server.config.DynamicBrokerConfig", "LISTENER_MECHANISM_CONFIGS")),
                new Candidate("kafka.server.DynamicBrokerConfig$.MODULE$.ListenerMechanismConfigs()",
                        () -> invoke(module("kafka.server.DynamicBrokerConfig$"), "ListenerMechanismConfigs"))),
                "java.lang.Object");
        if (mechanismKeys.value() != null) {
            String mechanismPrefix = (String) invoke(probe, "saslMechanismConfigPrefix", MECHANISM_PROBE);
            Map<String, Object> mechanism = family("listener-mechanism",
                    placeholders(mechanismPrefix), LISTENER_NAME + ".saslMechanismConfigPrefix(String)");
            mechanism.put("rest", keys(elements(mechanismKeys.value())));
            mechanism.put("rest_source", mechanismKeys.source());
            Map<String, Object> segments = new TreeMap<>();
            segments.put("listener", segment(mechanismPrefix, LISTENER_PROBE));
            segments.put("mechanism", segment(mechanismPrefix, MECHANISM_PROBE));
            mechanism.put("segments", segments);
            families.add(mechanism);
        }
    }

    /**
     * {@code config.providers.<name>.class} and {@code config.providers.<name>.param.<param>}, read by
     * AbstractConfig for every Kafka config, the broker's included.
     */
    private static void configProviders(List<Map<String, Object>> families) throws Exception {
        String base = (String) staticField(ABSTRACT_CONFIG, "CONFIG_PROVIDERS_CONFIG");
        String classKey;
        String classSource;
        try {
            classKey = (String) invokeStatic(ABSTRACT_CONFIG, "providerClassProperty", "java.lang.String", PROVIDER_PROBE);
            classSource = ABSTRACT_CONFIG + ".providerClassProperty(String)";
        } catch (NoSuchMethodException e) {
            // 2.8 and 3.0 build the same key inline, in AbstractConfig.instantiateConfigProviders.
            classKey = base + "." + PROVIDER_PROBE + ".class";
            classSource = ABSTRACT_CONFIG + ".CONFIG_PROVIDERS_CONFIG; the .class suffix is AbstractConfig's code"
                    + " (clients/src/main/java/org/apache/kafka/common/config/AbstractConfig.java)";
        }
        int end = classKey.indexOf(PROVIDER_PROBE) + PROVIDER_PROBE.length() + 1;
        Map<String, Object> cls = family("config-provider",
                classKey.substring(0, end).replace(PROVIDER_PROBE, "{provider}"), classSource);
        cls.put("rest", keys(List.of(classKey.substring(end))));
        cls.put("segments", Map.of("provider", Map.of("lowercase", false)));
        families.add(cls);

        String param = (String) staticField(ABSTRACT_CONFIG, "CONFIG_PROVIDERS_PARAM");
        Map<String, Object> params = family("config-provider-param", base + ".{provider}" + param,
                ABSTRACT_CONFIG + ".CONFIG_PROVIDERS_CONFIG, " + ABSTRACT_CONFIG + ".CONFIG_PROVIDERS_PARAM");
        params.put("rest", Map.of("kind", "any"));
        params.put("segments", Map.of("provider", Map.of("lowercase", false)));
        families.add(params);
    }

    /** {@code metrics.context.<label>}: labels the broker hands to its metrics reporters. */
    private static void metricsContext(List<Map<String, Object>> families) throws Exception {
        String cls = "org.apache.kafka.clients.CommonClientConfigs";
        Object prefix;
        try {
            prefix = staticField(cls, "METRICS_CONTEXT_PREFIX");
        } catch (NoSuchFieldException e) {
            return;
        }
        Map<String, Object> f = family("metrics-context", (String) prefix, cls + ".METRICS_CONTEXT_PREFIX");
        f.put("rest", Map.of("kind", "any"));
        families.add(f);
    }

    /**
     * Tiered storage: the broker hands the keys under two configurable prefixes (defaults
     * {@code rlmm.config.} and {@code rsm.config.}) to the remote log metadata manager and the remote
     * storage manager. For the default metadata manager (TopicBasedRemoteLogMetadataManager) the
     * keys under the prefix are its own ConfigDef and, under sub-prefixes, its clients' keys. There
     * is no family before the release whose RemoteLogManagerConfig has a default prefix (3.6): the
     * broker had no remote log manager to hand the keys to.
     */
    private static void remoteStorage(List<Map<String, Object>> families) throws Exception {
        String rlmm;
        String rsm;
        try {
            rlmm = (String) staticField(RLM_CONFIG, "DEFAULT_REMOTE_LOG_METADATA_MANAGER_CONFIG_PREFIX");
            rsm = (String) staticField(RLM_CONFIG, "DEFAULT_REMOTE_STORAGE_MANAGER_CONFIG_PREFIX");
        } catch (ClassNotFoundException | NoSuchFieldException e) {
            return;
        }
        Map<String, Object> metadata = family("remote-log-metadata-manager", rlmm,
                RLM_CONFIG + ".DEFAULT_REMOTE_LOG_METADATA_MANAGER_CONFIG_PREFIX");
        metadata.put("prefix_key", staticField(RLM_CONFIG, "REMOTE_LOG_METADATA_MANAGER_CONFIG_PREFIX_PROP"));
        metadata.put("rest", Map.of("kind", "any"));
        metadata.put("plugin_component", "remote-log-metadata-manager");
        families.add(metadata);

        Map<String, Object> storage = family("remote-storage-manager", rsm,
                RLM_CONFIG + ".DEFAULT_REMOTE_STORAGE_MANAGER_CONFIG_PREFIX");
        storage.put("prefix_key", staticField(RLM_CONFIG, "REMOTE_STORAGE_MANAGER_CONFIG_PREFIX_PROP"));
        storage.put("rest", Map.of("kind", "any"));
        families.add(storage);

        // The default metadata manager's client prefixes, under the metadata manager's prefix.
        Map<String, List<String>> clients = new LinkedHashMap<>();
        clients.put("COMMON_CLIENT", List.of("admin", "consumer", "producer"));
        clients.put("PRODUCER", List.of("producer"));
        clients.put("CONSUMER", List.of("consumer"));
        clients.put("ADMIN", List.of("admin"));
        for (Map.Entry<String, List<String>> e : clients.entrySet()) {
            String constant = "REMOTE_LOG_METADATA_" + e.getKey() + "_PREFIX";
            String sub;
            try {
                sub = (String) staticField(TBRLMM_CONFIG, constant);
            } catch (ClassNotFoundException | NoSuchFieldException absent) {
                continue;
            }
            String id = "remote-log-metadata-manager-" + e.getKey().toLowerCase(Locale.ROOT).replace('_', '-');
            Map<String, Object> f = family(id, rlmm + sub, RLM_CONFIG + ".DEFAULT_REMOTE_LOG_METADATA_MANAGER_CONFIG_PREFIX, "
                            + TBRLMM_CONFIG + "." + constant);
            f.put("prefix_key", metadata.get("prefix_key"));
            f.put("rest", Map.of("kind", "components", "components", e.getValue()));
            families.add(f);
        }
    }

    /**
     * {@code authorizer.<zookeeper ssl key>}: AclAuthorizer (ZooKeeper mode, to 3.9) lets each
     * ZooKeeper TLS key of the broker be overridden for its own ZooKeeper connection.
     */
    private static void authorizerZookeeper(List<Map<String, Object>> families, List<String> zookeeperKeys)
            throws Exception {
        if (zookeeperKeys == null) return;
        Object prefix;
        try {
            prefix = invoke(module("kafka.security.authorizer.AclAuthorizer$"), "configPrefix");
        } catch (ClassNotFoundException e) {
            return;
        }
        Map<String, Object> f = family("authorizer-zookeeper", (String) prefix,
                "kafka.security.authorizer.AclAuthorizer$.MODULE$.configPrefix();"
                        + " AclAuthorizer.zkClientConfigFromKafkaConfigAndMap reads it before each key of the"
                        + " ZooKeeper system property map"
                        + " (core/src/main/scala/kafka/security/authorizer/AclAuthorizer.scala)");
        f.put("rest", keys(new ArrayList<>(zookeeperKeys)));
        families.add(f);
    }

    // ------------------------------------------------------------------------------------------

    private static Map<String, Object> family(String id, String pattern, String source) {
        Map<String, Object> f = new TreeMap<>();
        f.put("id", id);
        f.put("pattern", pattern);
        f.put("source", source);
        return f;
    }

    private static Map<String, Object> keys(List<Object> keys) {
        List<String> sorted = new ArrayList<>();
        for (Object k : keys) sorted.add((String) k);
        sorted.sort(null);
        return Map.of("kind", "keys", "keys", sorted);
    }

    /** Kafka's prefix for the probe names, with each probe replaced by its placeholder. */
    private static String placeholders(String prefix) {
        return replaceProbe(replaceProbe(prefix, LISTENER_PROBE, "{listener}"), MECHANISM_PROBE, "{mechanism}");
    }

    private static String replaceProbe(String prefix, String probe, String placeholder) {
        for (String form : forms(probe)) {
            if (prefix.contains(form)) return prefix.replace(form, placeholder);
        }
        return prefix;
    }

    /** The probe as given, lower-cased and upper-cased: how Kafka may have written it. */
    private static List<String> forms(String probe) {
        return List.of(probe, probe.toLowerCase(Locale.ROOT), probe.toUpperCase(Locale.ROOT));
    }

    /** How Kafka writes a name into the prefix: {@code lowercase} when it lowercases it. */
    private static Map<String, Object> segment(String prefix, String probe) {
        if (forms(probe).stream().noneMatch(prefix::contains)) {
            throw new IllegalStateException("prefix " + prefix + " does not hold the probe " + probe);
        }
        return Map.of("lowercase", !prefix.contains(probe) && prefix.contains(probe.toLowerCase(Locale.ROOT)));
    }
}
