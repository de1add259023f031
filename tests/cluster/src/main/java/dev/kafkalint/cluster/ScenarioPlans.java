package dev.kafkalint.cluster;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.config.ConfigResource;

/**
 * Scenario R: the plans of {@code kafkalint live --fix}, applied by Kafka's own reassignment tool.
 * Brokers 0, 1, 2 in racks a, b, b; the seed's {@code __consumer_offsets} on one replica a partition,
 * the files raised to 2.
 * <ol>
 * <li>Broker 2 stopped: the plan names live brokers only, leaves out (and names) the partitions whose
 * only replica is on broker 2 (offline, as the cluster shows), and the tool accepts it.</li>
 * <li>Broker 2 back, a throttled reassignment of another topic in progress: kafkalint reports it and
 * prints {@code --additional}; the plan puts broker 0 (rack a) beside each partition of broker 2
 * (rack b), and the tool applies it with the {@code --throttle} kafkalint printed: the brokers'
 * throttle is that rate while it runs, and {@code --verify} removes it.</li>
 * </ol>
 */
final class ScenarioPlans {
    private static final String[] RACKS = {"a", "b", "b"};
    private static final String THROTTLE = "1048576";
    private static final String MOVING = "proof-moving";

    private final ClusterProof proof;
    private final ClusterProof.Cluster cluster;

    ScenarioPlans(ClusterProof proof, ClusterProof.Cluster cluster) {
        this.proof = proof;
        this.cluster = cluster;
    }

    void run() throws Exception {
        for (int id = 0; id < ClusterProof.NODES; id++) {
            cluster.insertAfter(id, "num.partitions=1", "broker.rack=" + RACKS[id]);
        }
        proof.startWithGroup(cluster);
        for (int id = 0; id < ClusterProof.NODES; id++) {
            Path file = cluster.config.resolve("server-" + id + ".properties");
            String text = Files.readString(file, StandardCharsets.ISO_8859_1);
            Files.writeString(file, text.replace("offsets.topic.replication.factor=1\n",
                    "offsets.topic.replication.factor=2\n"), StandardCharsets.ISO_8859_1);
        }
        proof.say("  racks a, b, b; __consumer_offsets on 1 replica, the files raised to 2 (not restarted)");
        brokerDown();
        rackAwareAndThrottled();
        clusterWideMinIsr();
        partitionBeingMoved();
    }

    /**
     * The group's partition of __consumer_offsets grown to 3 MB and moved at 10 KB/s (in progress), the
     * files raised to 3: the plan leaves that partition out and names it, and the tool takes the rest.
     */
    private void partitionBeingMoved() throws Exception {
        int partition = ClusterProof.coordinatorPartition();
        String metadata = "m".repeat(4000);
        try (var consumer = cluster.consumer("proof-committer")) {
            for (int i = 0; i < 800; i++) {
                consumer.commitSync(Map.of(ClusterProof.PARTITION,
                        new org.apache.kafka.clients.consumer.OffsetAndMetadata(2, metadata)));
            }
        }
        try (Admin admin = cluster.admin()) {
            List<Integer> now = offsetsReplicas(admin).get(partition);
            ClusterProof.check(now.size() == 2, "__consumer_offsets-" + partition + " has " + now);
            int absent = java.util.stream.IntStream.range(0, ClusterProof.NODES).filter(id -> !now.contains(id))
                    .findFirst().orElseThrow();
            Path slow = cluster.dir.resolve("slow-offsets.json");
            Files.writeString(slow, "{\"version\":1,\"partitions\":[{\"topic\":\"__consumer_offsets\",\"partition\":"
                    + partition + ",\"replicas\":[" + now.get(0) + "," + absent + "]}]}\n");
            ClusterProof.Command started = cluster.tool("reassign-slow-offsets", ClusterProof.REASSIGN,
                    "--bootstrap-server", cluster.bootstrap(), "--reassignment-json-file", slow.toString(), "--execute",
                    "--throttle", "10240");
            ClusterProof.check(started.exit() == 0, "the slow move did not start: " + started.stdout());
            proof.say("  __consumer_offsets-%d (3 MB of commits) moving from %s to [%d, %d] at 10 KB/s", partition, now,
                    now.get(0), absent);
            for (int id = 0; id < ClusterProof.NODES; id++) {
                Path file = cluster.config.resolve("server-" + id + ".properties");
                String text = Files.readString(file, StandardCharsets.ISO_8859_1);
                Files.writeString(file, text.replace("offsets.topic.replication.factor=2\n",
                        "offsets.topic.replication.factor=3\n"), StandardCharsets.ISO_8859_1);
            }
            Path plan = cluster.dir.resolve("plan-moving.json");
            ClusterProof.Command wrote = fix(plan);
            for (String line : wrote.stderr().split("\n")) {
                proof.say("    | %s", line);
            }
            Map<Integer, List<Integer>> planned = planned(plan);
            ClusterProof.check(!planned.containsKey(partition), "the plan moves __consumer_offsets-" + partition
                    + " again, while its reassignment is in progress");
            // While it moves, Metadata lists its old and new replicas together (3 here), so it is not short;
            // had it been, the plan would leave it out as being moved. Either way it is named.
            ClusterProof.check(wrote.stderr().contains("1 reassignment in progress (__consumer_offsets-" + partition + ")"),
                    "the partition being moved is not named: " + wrote.stderr());
            ClusterProof.check(planned.size() == 49 && planned.values().stream().allMatch(r -> r.size() == 3),
                    "every other partition should be raised to 3: " + planned);
            apply(plan, List.of("--additional"));
            awaitReplicas(admin, planned);
            proof.say("  files raised to 3: the plan leaves __consumer_offsets-%d out (named as in progress); the tool, "
                    + "--additional, raised the other 49 to 3", partition);
            ClusterProof.Command cancel = cluster.tool("reassign-cancel-offsets", ClusterProof.REASSIGN,
                    "--bootstrap-server", cluster.bootstrap(), "--reassignment-json-file", slow.toString(), "--cancel");
            ClusterProof.check(cancel.exit() == 0, "--cancel failed: " + cancel.stdout());
        }
    }

    /**
     * The files say min.insync.replicas=2; the cluster runs the cluster-wide dynamic default that eligible
     * leader replicas keep (4.1+): live-config-drift's help is run as it is written, and Kafka accepts it.
     */
    private void clusterWideMinIsr() throws Exception {
        for (int id = 0; id < ClusterProof.NODES; id++) {
            cluster.insertAfter(id, "num.partitions=1", "min.insync.replicas=2");
        }
        List<String> args = List.of(cluster.config.toString());
        ClusterProof.Verdict drift = proof.live(cluster, args.toArray(String[]::new));
        ClusterProof.Finding finding = drift.findings().stream()
                .filter(f -> f.rule().equals("live-config-drift") && "min.insync.replicas".equals(f.key())
                        && f.help() != null && f.help().contains("--entity-default"))
                .findFirst().orElse(null);
        if (finding == null) {
            proof.say("  no cluster-wide min.insync.replicas override on this cluster: nothing to run (%s)",
                    drift.summary());
            return;
        }
        Matcher m = Pattern.compile("kafka-configs\\.sh (.*?--entity-default)").matcher(finding.help());
        ClusterProof.check(m.find(), "no kafka-configs.sh command in the help: " + finding.help());
        String command = m.group(1).replace("HOST:PORT", cluster.bootstrap());
        ClusterProof.check(command.contains("--add-config min.insync.replicas=2"),
                "the help should set the cluster-wide value, not delete it: " + finding.help());
        ClusterProof.Command deleted = cluster.tool("configs-delete-min-isr", proof.configCommand(),
                "--bootstrap-server", cluster.bootstrap(), "--alter", "--delete-config", "min.insync.replicas",
                "--entity-type", "brokers", "--entity-default");
        proof.say("  kafka-configs.sh --delete-config min.insync.replicas --entity-default: exit %d", deleted.exit());
        // Eligible leader replicas are on for clusters formatted by 4.1 and later: Kafka refuses the deletion.
        ClusterProof.check(proof.version.startsWith("3.") || deleted.exit() != 0,
                "Kafka " + proof.version + " accepted deleting the cluster-level min.insync.replicas");
        ClusterProof.Command ran = cluster.tool("configs-help-min-isr", proof.configCommand(), command.split(" "));
        ClusterProof.check(ran.exit() == 0, "Kafka refused the command live-config-drift suggests: kafka-configs.sh "
                + command + ": " + ran.stdout());
        ClusterProof.Verdict after = proof.live(cluster, args.toArray(String[]::new));
        ClusterProof.check(after.findings().stream().noneMatch(f -> "min.insync.replicas".equals(f.key())
                && f.rule().equals("live-config-drift")), "the drift remains after the suggested command");
        proof.say("  live-config-drift's help, run as written (kafka-configs.sh %s): accepted; the drift is gone",
                command.replace(cluster.bootstrap(), "HOST:PORT"));
    }

    /** Broker 2 stopped: a plan of live brokers, what it leaves out named, accepted by the tool. */
    private void brokerDown() throws Exception {
        cluster.kill(2);
        try (Admin admin = cluster.admin()) {
            awaitLive(admin, 2);
            Map<Integer, List<Integer>> before = offsetsReplicas(admin);
            Set<Integer> onlyOnTwo = new TreeSet<>();
            for (var entry : before.entrySet()) {
                if (entry.getValue().equals(List.of(2))) {
                    onlyOnTwo.add(entry.getKey());
                }
            }
            TopicDescription offsets = ClusterProof.describeOffsets(admin);
            for (TopicPartitionInfo p : offsets.partitions()) {
                if (onlyOnTwo.contains(p.partition())) {
                    ClusterProof.check(p.leader() == null || p.leader().id() < 0,
                            "partition " + p.partition() + " on broker 2 alone still has a leader");
                }
            }
            Path plan = cluster.dir.resolve("plan-down.json");
            ClusterProof.Command wrote = fix(plan);
            Map<Integer, List<Integer>> planned = planned(plan);
            proof.say("  broker 2 SIGKILLed; kafkalint live --fix: %d partitions planned, %d left out",
                    planned.size(), onlyOnTwo.size());
            for (String line : wrote.stderr().split("\n")) {
                proof.say("    | %s", line);
            }
            for (var entry : planned.entrySet()) {
                ClusterProof.check(!entry.getValue().contains(2), "the plan names broker 2, which is down: " + entry);
                ClusterProof.check(!onlyOnTwo.contains(entry.getKey()), "the plan holds partition " + entry.getKey()
                        + ", whose only replica is on broker 2");
                ClusterProof.check(entry.getValue().size() == 2, "partition " + entry.getKey() + " not raised to 2");
            }
            ClusterProof.check(planned.size() + onlyOnTwo.size() == before.size(),
                    "every partition not on broker 2 alone should be planned");
            String named = onlyOnTwo.stream().limit(5).map(String::valueOf).reduce((a, b) -> a + ", " + b).orElse("");
            ClusterProof.check(onlyOnTwo.isEmpty() || wrote.stderr().contains("left out partitions " + named)
                    || wrote.stderr().contains("left out partition " + named),
                    "the left-out partitions (" + named + ") are not named: " + wrote.stderr());
            ClusterProof.check(wrote.stderr().contains("only on broker(s) 2"), "broker 2 is not named");
            apply(plan, List.of());
            awaitReplicas(admin, planned);
            proof.say("  kafka-reassign-partitions.sh --execute accepted it; %d partitions on 2 replicas of live brokers",
                    planned.size());
        }
        cluster.startNode(2);
        try (Admin admin = cluster.admin()) {
            cluster.awaitBrokers(admin);
            proof.awaitInSync(admin);
        }
    }

    /** Racks first, the throttle kafkalint printed, and a reassignment in progress reported. */
    private void rackAwareAndThrottled() throws Exception {
        try (Admin admin = cluster.admin()) {
            startSlowReassignment(admin);
            Map<Integer, List<Integer>> before = offsetsReplicas(admin);
            Path plan = cluster.dir.resolve("plan-racks.json");
            ClusterProof.Command wrote = fix(plan, "--throttle", THROTTLE);
            for (String line : wrote.stderr().split("\n")) {
                proof.say("    | %s", line);
            }
            ClusterProof.check(wrote.stderr().contains("1 reassignment in progress (" + MOVING + "-0)"),
                    "the reassignment in progress is not reported: " + wrote.stderr());
            ClusterProof.check(wrote.stderr().contains("--execute --additional --throttle " + THROTTLE),
                    "the command should carry --additional and --throttle: " + wrote.stderr());
            Map<Integer, List<Integer>> planned = planned(plan);
            ClusterProof.check(!planned.isEmpty(), "nothing planned after broker 2 came back");
            for (var entry : planned.entrySet()) {
                Set<String> racks = new HashSet<>();
                entry.getValue().forEach(id -> racks.add(RACKS[id]));
                ClusterProof.check(racks.size() == 2, "partition " + entry.getKey() + " planned in one rack: "
                        + entry.getValue() + " (was " + before.get(entry.getKey()) + ")");
            }
            proof.say("  kafkalint live --fix --throttle %s: %d partitions, each in racks a and b", THROTTLE,
                    planned.size());
            apply(plan, List.of("--additional", "--throttle", THROTTLE));
            // The tool throttles the brokers that move replicas: those the plan names.
            Set<Integer> moving = new TreeSet<>();
            planned.values().forEach(moving::addAll);
            for (int id : moving) {
                String rate = brokerConfig(admin, id, "leader.replication.throttled.rate");
                ClusterProof.check(THROTTLE.equals(rate), "broker " + id + " leader.replication.throttled.rate is "
                        + rate + " while the reassignment runs, not " + THROTTLE);
            }
            proof.say("  the tool applied it with --throttle %s: leader.replication.throttled.rate of brokers %s is %s",
                    THROTTLE, moving, THROTTLE);
            awaitReplicas(admin, planned);
            // The tool keeps the throttles while any reassignment runs, its file's or not
            // (ReassignPartitionsCommand.findPartitionReassignmentStates, apache/kafka 3.9.0): the slow one,
            // now at the plan's rate too, finishes first.
            awaitNoReassignment(admin);
            verifyUntilDone(plan);
            for (int id = 0; id < ClusterProof.NODES; id++) {
                String rate = brokerConfig(admin, id, "leader.replication.throttled.rate");
                ClusterProof.check(rate == null, "the throttle outlived --verify on broker " + id + ": " + rate);
            }
            proof.say("  done (%s-0 too, at the plan's rate); --verify removed the throttle; every raised partition "
                    + "spans racks a and b", MOVING);
        }
    }

    /**
     * A reassignment that stays in progress: 4 MB on broker 1 copied to broker 2 at 10 KB/s, started by the
     * reassignment tool (its own --throttle).
     */
    private void startSlowReassignment(Admin admin) throws Exception {
        admin.createTopics(List.of(new NewTopic(MOVING, Map.of(0, List.of(1))))).all().get(30, TimeUnit.SECONDS);
        String value = "x".repeat(10_000);
        try (KafkaProducer<String, String> producer = cluster.producer()) {
            for (int i = 0; i < 400; i++) {
                producer.send(new ProducerRecord<>(MOVING, value));
            }
            producer.flush();
        }
        Path slow = cluster.dir.resolve("slow.json");
        Files.writeString(slow, "{\"version\":1,\"partitions\":[{\"topic\":\"" + MOVING
                + "\",\"partition\":0,\"replicas\":[1,2]}]}\n");
        ClusterProof.Command started = cluster.tool("reassign-slow", ClusterProof.REASSIGN, "--bootstrap-server",
                cluster.bootstrap(), "--reassignment-json-file", slow.toString(), "--execute", "--throttle", "10240");
        ClusterProof.check(started.exit() == 0, "the slow reassignment did not start: " + started.stdout());
        ClusterProof.check(!admin.listPartitionReassignments().reassignments().get(30, TimeUnit.SECONDS).isEmpty(),
                "the slow reassignment is not in progress");
        proof.say("  %s-0 (4 MB) reassigned from broker 1 to 1,2 at 10 KB/s: in progress", MOVING);
    }

    /** --verify until it reports every partition of the plan done (then it removes the throttles). */
    private void verifyUntilDone(Path plan) throws Exception {
        long deadline = System.nanoTime() + ClusterProof.RECOVER_TIMEOUT.toNanos();
        for (int round = 0; ; round++) {
            ClusterProof.Command verify = cluster.tool("reassign-verify-" + round, ClusterProof.REASSIGN,
                    "--bootstrap-server", cluster.bootstrap(), "--reassignment-json-file", plan.toString(), "--verify");
            ClusterProof.check(verify.exit() == 0, "--verify failed: " + verify.stdout());
            if (!verify.stdout().contains("in progress")) {
                return;
            }
            ClusterProof.check(System.nanoTime() < deadline, "--verify still says in progress: " + verify.stdout());
            Thread.sleep(1000);
        }
    }

    private ClusterProof.Command fix(Path plan, String... more) throws Exception {
        List<String> args = proof.liveArgs(cluster, "--fix", "--plan-file", plan.toString(), "--format", "json");
        args.addAll(List.of(more));
        args.add(cluster.config.toString());
        ClusterProof.Command wrote = proof.kafkalintRun(args);
        ClusterProof.check(wrote.exit() == 1, "kafkalint live --fix should exit 1: " + wrote.stderr());
        ClusterProof.check(Files.isRegularFile(plan), "kafkalint live --fix wrote no plan: " + wrote.stderr());
        return wrote;
    }

    private void apply(Path plan, List<String> more) throws Exception {
        List<String> args = new ArrayList<>(List.of("--bootstrap-server", cluster.bootstrap(),
                "--reassignment-json-file", plan.toString(), "--execute"));
        args.addAll(more);
        ClusterProof.Command execute = cluster.tool("reassign-" + plan.getFileName(), ClusterProof.REASSIGN,
                args.toArray(String[]::new));
        ClusterProof.check(execute.exit() == 0, "kafka-reassign-partitions.sh --execute refused kafkalint's plan: "
                + execute.stdout());
    }

    /** The plan file, read back: partition to replicas. */
    static Map<Integer, List<Integer>> planned(Path plan) throws Exception {
        Map<Integer, List<Integer>> planned = new java.util.TreeMap<>();
        Matcher m = Pattern.compile("\"partition\":(\\d+),\"replicas\":\\[([\\d,]*)]").matcher(Files.readString(plan));
        while (m.find()) {
            List<Integer> replicas = new ArrayList<>();
            for (String id : m.group(2).split(",")) {
                replicas.add(Integer.parseInt(id));
            }
            planned.put(Integer.parseInt(m.group(1)), replicas);
        }
        return planned;
    }

    static Map<Integer, List<Integer>> offsetsReplicas(Admin admin) throws Exception {
        Map<Integer, List<Integer>> replicas = new java.util.TreeMap<>();
        for (TopicPartitionInfo p : ClusterProof.describeOffsets(admin).partitions()) {
            replicas.put(p.partition(), p.replicas().stream().map(Node::id).toList());
        }
        return replicas;
    }

    /** Until Metadata lists `count` brokers: a killed broker is fenced once its session times out. */
    static void awaitLive(Admin admin, int count) throws Exception {
        long deadline = System.nanoTime() + ClusterProof.RECOVER_TIMEOUT.toNanos();
        while (admin.describeCluster().nodes().get(10, TimeUnit.SECONDS).size() != count) {
            ClusterProof.check(System.nanoTime() < deadline, "Metadata does not list " + count + " brokers");
            Thread.sleep(500);
        }
    }

    /** Until every planned partition has the planned replicas, all in sync. */
    static void awaitReplicas(Admin admin, Map<Integer, List<Integer>> planned) throws Exception {
        long deadline = System.nanoTime() + ClusterProof.RECOVER_TIMEOUT.toNanos();
        while (true) {
            boolean done = true;
            for (TopicPartitionInfo p : ClusterProof.describeOffsets(admin).partitions()) {
                List<Integer> want = planned.get(p.partition());
                if (want != null && (!new HashSet<>(p.replicas().stream().map(Node::id).toList())
                        .equals(new HashSet<>(want)) || p.isr().size() != want.size())) {
                    done = false;
                }
            }
            if (done) {
                return;
            }
            ClusterProof.check(System.nanoTime() < deadline, "the reassignment did not finish");
            Thread.sleep(500);
        }
    }

    static void awaitNoReassignment(Admin admin) throws Exception {
        long deadline = System.nanoTime() + ClusterProof.RECOVER_TIMEOUT.toNanos();
        while (!admin.listPartitionReassignments().reassignments().get(30, TimeUnit.SECONDS).isEmpty()) {
            ClusterProof.check(System.nanoTime() < deadline, "reassignments still in progress");
            Thread.sleep(500);
        }
    }

    static String brokerConfig(Admin admin, int id, String key) throws Exception {
        ConfigResource broker = new ConfigResource(ConfigResource.Type.BROKER, Integer.toString(id));
        Config config = admin.describeConfigs(List.of(broker)).all().get(30, TimeUnit.SECONDS).get(broker);
        ConfigEntry entry = config.get(key);
        return entry == null || entry.source() != ConfigEntry.ConfigSource.DYNAMIC_BROKER_CONFIG ? null : entry.value();
    }
}
