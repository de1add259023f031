package dev.kafkalint.catalog;

import static dev.kafkalint.catalog.Reflect.elements;
import static dev.kafkalint.catalog.Reflect.invoke;
import static dev.kafkalint.catalog.Reflect.module;
import static dev.kafkalint.catalog.Reflect.staticField;
import static dev.kafkalint.catalog.Reflect.stringMap;

import dev.kafkalint.catalog.Reflect.Candidate;
import dev.kafkalint.catalog.Reflect.Found;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Names Kafka maps to broker keys: the topic-level config each broker key is the default of
 * ({@code cleanup.policy} is set broker-wide as {@code log.cleanup.policy}), and the ZooKeeper
 * client system property each {@code zookeeper.ssl.*} broker key sets. People write the other
 * name in a broker file, where Kafka ignores it; with these maps a linter can name the right key.
 */
final class Synonyms {
    private static final String SYNONYMS = "org.apache.kafka.server.config.ServerTopicConfigSynonyms";

    private Synonyms() {}

    static void dump(Map<String, Object> doc) throws Exception {
        // Topic key to the one broker key that is its default.
        Found primary = Reflect.first("the topic config synonyms", List.of(
                new Candidate(SYNONYMS + ".TOPIC_CONFIG_SYNONYMS", () -> staticField(SYNONYMS, "TOPIC_CONFIG_SYNONYMS")),
                new Candidate("kafka.log.LogConfig$.MODULE$.TopicConfigSynonyms()",
                        () -> invoke(module("kafka.log.LogConfig$"), "TopicConfigSynonyms"))),
                "java.lang.Object");
        if (primary.value() != null) {
            doc.put("topic_config_synonyms", stringMap(primary.value()));
            doc.put("topic_config_synonyms_source", primary.source());
        }

        // Topic key to every broker key that can set its default, highest precedence first
        // (retention.ms: log.retention.ms, log.retention.minutes, log.retention.hours). 3.5 on.
        Found all = Reflect.firstQuietly(List.of(
                new Candidate(SYNONYMS + ".ALL_TOPIC_CONFIG_SYNONYMS", () -> staticField(SYNONYMS, "ALL_TOPIC_CONFIG_SYNONYMS"))),
                "java.util.Map");
        if (all.value() != null) {
            Map<String, Object> out = new TreeMap<>();
            for (Map.Entry<?, ?> e : ((Map<?, ?>) all.value()).entrySet()) {
                List<String> names = new ArrayList<>();
                for (Object synonym : elements(e.getValue())) names.add((String) invoke(synonym, "name"));
                out.put((String) e.getKey(), names);
            }
            doc.put("topic_config_synonyms_all", out);
            doc.put("topic_config_synonyms_all_source", all.source());
        }

        // Broker key to ZooKeeper client system property, in the releases with ZooKeeper (to 3.9).
        Found zk = Reflect.firstQuietly(List.of(
                new Candidate("org.apache.kafka.server.config.ZkConfigs.ZK_SSL_CONFIG_TO_SYSTEM_PROPERTY_MAP",
                        () -> staticField("org.apache.kafka.server.config.ZkConfigs", "ZK_SSL_CONFIG_TO_SYSTEM_PROPERTY_MAP")),
                new Candidate("kafka.server.KafkaConfig$.MODULE$.ZkSslConfigToSystemPropertyMap()",
                        () -> invoke(module("kafka.server.KafkaConfig$"), "ZkSslConfigToSystemPropertyMap"))),
                "java.lang.Object");
        if (zk.value() != null) {
            doc.put("zookeeper_system_properties", stringMap(zk.value()));
            doc.put("zookeeper_system_properties_source", zk.source());
        }
    }

    /** The broker keys of the ZooKeeper system property map, for the authorizer's prefix family. */
    @SuppressWarnings("unchecked")
    static List<String> zookeeperKeys(Map<String, Object> doc) {
        Object map = doc.get("zookeeper_system_properties");
        return map == null ? null : new ArrayList<>(((Map<String, String>) map).keySet());
    }
}
