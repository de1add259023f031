package dev.kafkalint.cluster;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.NotEnoughReplicasException;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Scenario U: the cluster's own topics, racks, a failed log directory and drift, each finding of
 * kafkalint live checked against what the cluster does.
 *
 * <p>Nodes 0 and 1 are in rack-a, node 2 in rack-b; node 1 has a second log directory. Topics:
 * proof-single (6 partitions, 1 replica), proof-tight (replicas 0,2, min.insync.replicas=2),
 * proof-capped (replicas 1,2, min.insync.replicas=3), proof-racked (replicas 0,1: both in rack-a),
 * proof-disk (8 partitions on 1,2 and 2,1, spread over node 1's two directories).
 */
final class ScenarioTopics {
    static final String SECOND_DIR = "disk2";

    final ClusterProof proof;

    ScenarioTopics(ClusterProof proof) {
        this.proof = proof;
    }

    void run(ClusterProof.Cluster cluster) throws Exception {
        String files = cluster.config.toString();
        cluster.insertAfter(0, "num.partitions=1", "broker.rack=rack-a");
        cluster.insertAfter(1, "num.partitions=1", "broker.rack=rack-a");
        cluster.insertAfter(2, "num.partitions=1", "broker.rack=rack-b");
        Path second = cluster.dir.resolve("data/node-1-" + SECOND_DIR);
        addLogDir(cluster, 1, second);
        cluster.start();
        try (Admin admin = cluster.admin()) {
            cluster.awaitBrokers(admin);
            createTopics(admin);
            proof.awaitInSync(admin);
        }

        ClusterProof.Verdict first = proof.live(cluster, files);
        proof.say("  kafkalint live %s (racks, user topics): exit %d, %s", proof.rel(cluster.config), first.exit(),
                first.summary());
        ClusterProof.check(first.count("live-topic-replication") == 3,
                "three live-topic-replication findings expected (1 replica, no spare, min ISR above), got "
                        + first.count("live-topic-replication"));
        ClusterProof.check(first.has("live-topic-replication", "warning", null, null)
                        && first.has("live-topic-replication", "warning", null, "min.insync.replicas"),
                "the user topics' findings should be warnings, two of them on min.insync.replicas");
        ClusterProof.check(first.count("live-rack-spread") == 1, "one live-rack-spread finding expected, got "
                + first.count("live-rack-spread"));
        ClusterProof.check(first.count("live-log-dirs") == 0, "no log directory has failed yet");
        ClusterProof.check(first.count("live-config-drift") == 0, "no drift yet, got " + first.count("live-config-drift"));
        topicOverrides(cluster, files);

        cappedTakesAcksAll(cluster);
        failLogDir(cluster, files, second);
        drift(cluster, files);
        brokerStops(cluster);
    }

    /**
     * The configs set on each topic are saved with the snapshot, as DescribeConfigs answers them
     * (source DYNAMIC_TOPIC_CONFIG): proof-tight's and proof-capped's min.insync.replicas, given at
     * creation; none on proof-single, which takes every value from the brokers.
     */
    void topicOverrides(ClusterProof.Cluster cluster, String files) throws Exception {
        Path saved = cluster.dir.resolve("topics.snapshot");
        proof.live(cluster, "--save-snapshot", saved.toString(), files);
        String snapshot = Files.readString(saved);
        for (String line : List.of("\ntopic.proof-tight/min.insync.replicas=2\n",
                "\ntopic.proof-capped/min.insync.replicas=3\n")) {
            ClusterProof.check(snapshot.contains(line), "the snapshot should hold " + line.strip() + ":\n" + snapshot);
        }
        ClusterProof.check(snapshot.matches("(?s).*\ntopic\\.proof-single=[^\n]* overrides=0\n.*")
                        && !snapshot.contains("\ntopic.proof-single/"),
                "proof-single sets no config of its own:\n" + snapshot);
        proof.say("  the configs set on the topics are saved (topic.proof-tight/min.insync.replicas=2, "
                + "proof-single overrides=0)");
    }

    /** Node `id`'s log.dirs gains `added`, before the cluster is formatted and started. */
    static void addLogDir(ClusterProof.Cluster cluster, int id, Path added) throws Exception {
        Path file = cluster.config.resolve("server-" + id + ".properties");
        List<String> lines = new ArrayList<>();
        for (String line : Files.readAllLines(file, StandardCharsets.ISO_8859_1)) {
            lines.add(line.startsWith("log.dirs=") ? line + "," + added : line);
        }
        Files.write(file, lines, StandardCharsets.ISO_8859_1);
    }

    static void createTopics(Admin admin) throws Exception {
        List<NewTopic> topics = new ArrayList<>();
        topics.add(new NewTopic("proof-single", 6, (short) 1));
        topics.add(new NewTopic("proof-tight", Map.of(0, List.of(0, 2))).configs(Map.of("min.insync.replicas", "2")));
        topics.add(new NewTopic("proof-capped", Map.of(0, List.of(1, 2))).configs(Map.of("min.insync.replicas", "3")));
        topics.add(new NewTopic("proof-racked", Map.of(0, List.of(0, 1))));
        Map<Integer, List<Integer>> disk = new java.util.HashMap<>();
        for (int p = 0; p < 8; p++) {
            disk.put(p, p % 2 == 0 ? List.of(1, 2) : List.of(2, 1));
        }
        topics.add(new NewTopic("proof-disk", disk));
        admin.createTopics(topics).all().get(30, TimeUnit.SECONDS);
    }

    /** min.insync.replicas=3 on 2 replicas: brokers from 3.7 cap it, so acks=all is acknowledged. */
    void cappedTakesAcksAll(ClusterProof.Cluster cluster) throws Exception {
        try (KafkaProducer<String, String> producer = producer(cluster)) {
            producer.send(new ProducerRecord<>("proof-capped", "k", "v")).get(30, TimeUnit.SECONDS);
        }
        proof.say("  proof-capped (2 replicas, min.insync.replicas=3): an acks=all write is acknowledged "
                + "(Kafka %s caps the min ISR to the replicas)", proof.version);
    }

    /**
     * Node 1's second log directory is replaced by a plain file while it runs: its next
     * high-watermark checkpoint fails, and the broker takes the directory offline.
     */
    void failLogDir(ClusterProof.Cluster cluster, String files, Path second) throws Exception {
        String path = second.toAbsolutePath().toString();
        try (Admin admin = cluster.admin()) {
            LogDirDescription before = admin.describeLogDirs(List.of(1)).allDescriptions().get(30, TimeUnit.SECONDS)
                    .get(1).get(path);
            ClusterProof.check(before != null && before.error() == null && !before.replicaInfos().isEmpty(),
                    "node 1's second log directory should be online and hold replicas: " + before);
            try (var walk = Files.walk(second)) {
                for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
            Files.writeString(second, "not a directory\n");
            long failed = System.nanoTime();
            while (true) {
                LogDirDescription now = admin.describeLogDirs(List.of(1)).allDescriptions().get(30, TimeUnit.SECONDS)
                        .get(1).get(path);
                if (now != null && now.error() != null) {
                    proof.say("  node 1's log directory %s replaced by a file: describeLogDirs answers %s after %s",
                            second.getFileName(), now.error().getClass().getSimpleName(),
                            ClusterProof.secs(System.nanoTime() - failed));
                    break;
                }
                ClusterProof.check(System.nanoTime() - failed < ClusterProof.DETECT_TIMEOUT.toNanos(),
                        "node 1 did not take its failed log directory offline within "
                                + ClusterProof.DETECT_TIMEOUT.toSeconds() + " s");
                Thread.sleep(500);
            }
            cluster.checkAlive();
        }
        ClusterProof.Verdict disk = proof.live(cluster, files);
        proof.say("  kafkalint live: exit %d, %s", disk.exit(), disk.summary());
        ClusterProof.check(disk.exit() == 1 && disk.count("live-log-dirs") == 1 && disk.has("live-log-dirs", "error", null, null),
                "one live-log-dirs error expected for node 1, got " + disk.count("live-log-dirs"));
    }

    /**
     * Drift made three ways while the cluster runs: a key added to node 0's file, an override for
     * broker 2 of a key no file sets, a dynamic default for every broker. (Neither is a key the log
     * cleaner reconfigures with, such as log.cleaner.threads or message.max.bytes: changing one
     * restarts the cleaner, whose 128 MB dedupe buffer a node of this harness, at -Xmx320m, cannot
     * allocate twice in ZooKeeper mode.) Then the help of the two
     * dynamic findings is run as written (with the cluster's address): Kafka must accept it.
     */
    void drift(ClusterProof.Cluster cluster, String files) throws Exception {
        cluster.insertAfter(0, "num.partitions=1", "num.replica.fetchers=2");
        configs(cluster, "drift-broker", "--alter", "--entity-type", "brokers", "--entity-name", "2", "--add-config",
                "max.connections=5000");
        configs(cluster, "drift-default", "--alter", "--entity-type", "brokers", "--entity-default", "--add-config",
                "log.segment.delete.delay.ms=120000");
        awaitConfig(cluster, 2, "max.connections", "5000");
        for (int id = 0; id < ClusterProof.NODES; id++) {
            awaitConfig(cluster, id, "log.segment.delete.delay.ms", "120000");
        }
        proof.say("  server-0.properties gains num.replica.fetchers=2 (not restarted); kafka-configs.sh --alter: broker 2 "
                + "max.connections=5000, --entity-default log.segment.delete.delay.ms=120000");
        ClusterProof.Verdict drift = proof.live(cluster, files);
        proof.say("  kafkalint live: exit %d, %s", drift.exit(), drift.summary());
        ClusterProof.check(drift.count("live-config-drift") == 3,
                "three drifts expected (added, per-broker override, one cluster-wide default), got "
                        + drift.count("live-config-drift"));
        ClusterProof.check(drift.has("live-config-drift", "warning", "server-0.properties", "num.replica.fetchers"),
                "the key added to server-0.properties should be reported on it");
        ClusterProof.check(drift.has("live-config-drift", "warning", "server-2.properties", "max.connections"),
                "broker 2's override of a key its file does not set should be reported on its file");
        ClusterProof.check(drift.findings().stream().filter(f -> "log.segment.delete.delay.ms".equals(f.key())).count() == 1,
                "the dynamic default should be one finding, not one per broker");
        int ran = 0;
        for (ClusterProof.Finding finding : drift.findings()) {
            Optional<List<String>> command = configsCommand(finding.help(), cluster.bootstrap());
            if (finding.rule().equals("live-config-drift") && command.isPresent()) {
                configs(cluster, "drift-help-" + ran++, command.get().toArray(String[]::new));
            }
        }
        ClusterProof.check(ran == 2, "the two dynamic findings' help should each hold a kafka-configs.sh command, got " + ran);
        awaitConfig(cluster, 2, "max.connections", "2147483647");
        for (int id = 0; id < ClusterProof.NODES; id++) {
            awaitConfig(cluster, id, "log.segment.delete.delay.ms", "60000");
        }
        ClusterProof.Verdict after = proof.live(cluster, files);
        ClusterProof.check(after.count("live-config-drift") == 1
                        && after.has("live-config-drift", "warning", "server-0.properties", "num.replica.fetchers"),
                "after the help's kafka-configs.sh commands, only the added key should remain: " + after.summary());
        proof.say("  both kafka-configs.sh commands of the help accepted by Kafka; kafkalint live then: %s (the key "
                + "added to the file only)", after.summary());
    }

    /** Waits until broker `id` runs `key`=`value` (a dynamic change reaches the brokers a moment later). */
    static void awaitConfig(ClusterProof.Cluster cluster, int id, String key, String value) throws Exception {
        ConfigResource broker = new ConfigResource(ConfigResource.Type.BROKER, Integer.toString(id));
        long deadline = System.nanoTime() + ClusterProof.RECOVER_TIMEOUT.toNanos();
        try (Admin admin = cluster.admin()) {
            while (true) {
                Config config = admin.describeConfigs(List.of(broker)).all().get(30, TimeUnit.SECONDS).get(broker);
                if (config.get(key) != null && value.equals(config.get(key).value())) {
                    return;
                }
                ClusterProof.check(System.nanoTime() < deadline, "broker " + id + " does not run " + key + "=" + value);
                Thread.sleep(250);
            }
        }
    }

    /** `kafka-configs.sh ARGS` in a help text, HOST:PORT made the cluster's address. */
    static Optional<List<String>> configsCommand(String help, String bootstrap) {
        int at = help == null ? -1 : help.indexOf("kafka-configs.sh ");
        if (at < 0) {
            return Optional.empty();
        }
        int end = help.indexOf(')', at);
        String command = help.substring(at + "kafka-configs.sh ".length(), end < 0 ? help.length() : end);
        List<String> args = new ArrayList<>();
        for (String word : command.trim().split("\\s+")) {
            args.add(word.equals("HOST:PORT") ? bootstrap : word);
        }
        return Optional.of(args);
    }

    void configs(ClusterProof.Cluster cluster, String name, String... args) throws Exception {
        List<String> all = new ArrayList<>();
        if (!List.of(args).contains("--bootstrap-server")) {
            all.addAll(List.of("--bootstrap-server", cluster.bootstrap()));
        }
        all.addAll(List.of(args));
        ClusterProof.Command done = cluster.tool(name, proof.configCommand(), all.toArray(String[]::new));
        ClusterProof.check(done.exit() == 0, "kafka-configs.sh " + all + " failed: " + done.stdout());
    }

    /**
     * Broker 2 stops (SIGKILL): proof-single's partitions on it go offline, and proof-tight
     * (replicas 0,2, min.insync.replicas=2) refuses acks=all writes once broker 2 leaves its ISR.
     */
    void brokerStops(ClusterProof.Cluster cluster) throws Exception {
        List<Integer> onTwo;
        try (Admin admin = cluster.admin()) {
            onTwo = describe(admin, "proof-single").partitions().stream().filter(p -> p.replicas().get(0).id() == 2)
                    .map(TopicPartitionInfo::partition).toList();
        }
        ClusterProof.check(!onTwo.isEmpty(), "proof-single should have a partition on broker 2");
        long kill = System.nanoTime();
        cluster.kill(2);
        proof.say("  SIGKILL broker 2");
        try (Admin admin = cluster.admin(); KafkaProducer<String, String> producer = producer(cluster)) {
            while (true) {
                boolean offline = describe(admin, "proof-single").partitions().stream()
                        .filter(p -> onTwo.contains(p.partition())).allMatch(p -> p.leader() == null);
                boolean refused = false;
                try {
                    producer.send(new ProducerRecord<>("proof-tight", "k", "v")).get(15, TimeUnit.SECONDS);
                } catch (ExecutionException e) {
                    refused = e.getCause() instanceof NotEnoughReplicasException;
                } catch (java.util.concurrent.TimeoutException e) {
                    // not refused yet: the write waits for broker 2
                }
                if (offline && refused) {
                    proof.say("  %s after the kill: proof-single partitions %s have no leader; proof-tight refuses acks=all "
                            + "(NOT_ENOUGH_REPLICAS)", ClusterProof.secs(System.nanoTime() - kill), onTwo);
                    return;
                }
                ClusterProof.check(System.nanoTime() - kill < ClusterProof.DETECT_TIMEOUT.toNanos(),
                        "within " + ClusterProof.DETECT_TIMEOUT.toSeconds() + " s of broker 2's kill: offline=" + offline
                                + ", acks=all refused=" + refused);
                Thread.sleep(500);
            }
        }
    }

    static TopicDescription describe(Admin admin, String topic) throws Exception {
        return admin.describeTopics(List.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS).get(topic);
    }

    /** acks=all without retries, each send bounded: a refused write fails at once. */
    static KafkaProducer<String, String> producer(ClusterProof.Cluster cluster) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrap());
        p.put(ProducerConfig.CLIENT_ID_CONFIG, "proof-topics-producer");
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.RETRIES_CONFIG, "0");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "false");
        p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "5000");
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "10000");
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "10000");
        p.put(ProducerConfig.LINGER_MS_CONFIG, "0");
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        return new KafkaProducer<>(p);
    }

}
