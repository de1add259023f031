package dev.kafkalint.cluster;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.admin.UserScramCredentialAlteration;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.Utils;

/**
 * Starts real 3-node Kafka clusters on 127.0.0.1 from config files it writes, kills the broker that
 * coordinates a consumer group, and checks that what happens is what kafkalint said about the files.
 *
 * <pre>
 * ClusterProof --mode kraft|zookeeper --kafka-version X.Y.Z --classpath FILE --kafkalint BIN
 *              --work DIR --scenarios A,B,C
 * </pre>
 *
 * The classpath file holds the release's runtime classpath (the broker, its clients, ZooKeeper for
 * 3.9, a logging binding); this JVM runs on the same classpath, so its clients are the release's own.
 * Every child process is killed when the run ends, passes or fails (try/finally and a shutdown hook),
 * and its pid is kept in DIR/pids while it runs, so that the calling script can kill it too.
 */
public final class ClusterProof {
    /** The seed's group: Utils.abs("testGroup".hashCode()) % 50 = partition 49. */
    static final String GROUP = "testGroup";
    /** A topic the harness creates with 3 replicas: the producer's, which must keep working. */
    static final String TOPIC = "proof-orders";
    static final int NODES = 3;
    /**
     * The offset the group commits, named explicitly: a plain commitSync() commits the consumed
     * positions, and when the dead broker also led the topic's partition that position awaits
     * validation, so there is nothing to commit and the call returns without asking the coordinator.
     */
    static Map<TopicPartition, OffsetAndMetadata> commit(long offset) {
        return Map.of(PARTITION, new OffsetAndMetadata(offset));
    }

    static final TopicPartition PARTITION = new TopicPartition(TOPIC, 0);

    static final Duration START_TIMEOUT = Duration.ofSeconds(150);
    static final Duration DETECT_TIMEOUT = Duration.ofSeconds(90);
    static final Duration RECOVER_TIMEOUT = Duration.ofSeconds(90);
    /** How long, once the coordinator is gone, the group is tried and must not commit nor join. */
    static final Duration STUCK_WINDOW = Duration.ofSeconds(10);

    final String mode;
    final String version;
    final String minor;
    final String classpath;
    final Path kafkalint;
    final Path work;
    final Path pids;
    final List<Process> children = new CopyOnWriteArrayList<>();
    final List<String> timings = new ArrayList<>();

    ClusterProof(String mode, String version, String classpath, Path kafkalint, Path work) {
        this.mode = mode;
        this.version = version;
        this.minor = version.replaceAll("^(\\d+\\.\\d+)\\..*$", "$1");
        this.classpath = classpath;
        this.kafkalint = kafkalint;
        this.work = work;
        this.pids = work.resolve("pids");
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = new LinkedHashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            if (!args[i].startsWith("--")) {
                usage("unexpected argument " + args[i]);
            }
            opts.put(args[i].substring(2), args[i + 1]);
        }
        for (String key : List.of("mode", "kafka-version", "classpath", "kafkalint", "work", "scenarios")) {
            if (!opts.containsKey(key)) {
                usage("missing --" + key);
            }
        }
        String mode = opts.get("mode");
        if (!mode.equals("kraft") && !mode.equals("zookeeper")) {
            usage("--mode is kraft or zookeeper");
        }
        String classpath = Files.readString(Path.of(opts.get("classpath"))).trim();
        Path work = Path.of(opts.get("work")).toAbsolutePath();
        Files.createDirectories(work.resolve("pids"));
        ClusterProof proof = new ClusterProof(mode, opts.get("kafka-version"), classpath,
                Path.of(opts.get("kafkalint")).toAbsolutePath(), work);
        Thread hook = new Thread(proof::killAll, "kill-children");
        Runtime.getRuntime().addShutdownHook(hook);
        long started = System.nanoTime();
        boolean ok = true;
        try {
            for (String scenario : opts.get("scenarios").split(",")) {
                String name = scenario.trim();
                boolean passed = proof.run(name);
                if (!passed && proof.portRace(name)) {
                    proof.say("  a port picked for a node was taken before the node bound it: scenario %s once more",
                            name);
                    Path dir = work.resolve(mode + "-" + name);
                    Files.move(dir, dir.resolveSibling(dir.getFileName() + "-port-race"));
                    passed = proof.run(name);
                }
                ok &= passed;
            }
        } finally {
            proof.killAll();
        }
        proof.say("");
        proof.say("times (%s %s):", mode, proof.version);
        for (String line : proof.timings) {
            proof.say("  %s", line);
        }
        proof.say("  all scenarios: %s", secs(System.nanoTime() - started));
        proof.say(ok ? "PASS" : "FAIL");
        System.out.flush();
        System.exit(ok ? 0 : 1);
    }

    static void usage(String message) {
        System.err.println("ClusterProof: " + message);
        System.err.println("usage: ClusterProof --mode kraft|zookeeper --kafka-version X.Y.Z --classpath FILE"
                + " --kafkalint BIN --work DIR --scenarios A,B,C");
        System.exit(2);
    }

    // ------------------------------------------------------------------------------------------
    // Scenarios

    boolean run(String scenario) {
        say("");
        Cluster cluster = null;
        try {
            switch (scenario) {
                case "A" -> {
                    say("[%s %s] scenario A: the seed, internal topics on one replica", mode, version);
                    cluster = new Cluster(work.resolve(mode + "-A"));
                    cluster.writeSeed();
                    scenarioA(cluster);
                }
                case "B" -> {
                    say("[%s %s] scenario B: the same files after kafkalint check --fix --unsafe-fixes", mode, version);
                    cluster = new Cluster(work.resolve(mode + "-B"));
                    cluster.writeSeed();
                    scenarioB(cluster);
                }
                case "C" -> {
                    say("[%s %s] scenario C: the files raised to 3 replicas, the topic left as it was", mode, version);
                    cluster = new Cluster(work.resolve(mode + "-C"));
                    cluster.writeSeed();
                    scenarioC(cluster);
                }
                case "D" -> {
                    say("[%s %s] scenario D: kafkalint live on the running cluster (the seed completed, drift, --stopping)",
                            mode, version);
                    cluster = new Cluster(work.resolve(mode + "-D"));
                    cluster.writeSeed();
                    scenarioD(cluster);
                }
                case "S" -> {
                    say("[%s %s] scenario S: kafkalint live over SSL, SASL PLAIN and SCRAM listeners; bad addresses",
                            mode, version);
                    cluster = new Cluster(work.resolve(mode + "-S"));
                    cluster.writeSeed();
                    scenarioS(cluster);
                }
                case "P" -> {
                    say("[%s %s] scenario P: a partial view (an authorizer, a user without ACL), a stopped broker",
                            mode, version);
                    cluster = new Cluster(work.resolve(mode + "-P"));
                    cluster.writeSeed();
                    new ScenarioPartial(this).run(cluster);
                }
                case "R" -> {
                    say("[%s %s] scenario R: kafkalint live --fix with a broker down, racks, a throttle, a reassignment "
                            + "in progress; each plan applied by kafka-reassign-partitions.sh", mode, version);
                    cluster = new Cluster(work.resolve(mode + "-R"));
                    cluster.writeSeed();
                    new ScenarioPlans(this, cluster).run();
                }
                case "Q" -> {
                    say("[%s %s] scenario Q: the controller quorum (dynamic, three voters; one voter)", mode, version);
                    cluster = new Cluster(work.resolve(mode + "-Q"));
                    new ScenarioQuorum(this).run(cluster);
                }
                case "U" -> {
                    say("[%s %s] scenario U: user topics, racks, a failed log directory, drift", mode, version);
                    cluster = new Cluster(work.resolve(mode + "-U"));
                    cluster.writeSeed();
                    new ScenarioTopics(this).run(cluster);
                }
                case "V" -> {
                    say("[%s %s] scenario V: topic declarations, kafkalint's verdicts against CreateTopics (validateOnly)",
                            mode, version);
                    new ScenarioTopicVerdicts(this).run();
                }
                case "T" -> {
                    say("[%s %s] scenario T: kafkalint live over mutual TLS, the system trust store and OAUTHBEARER",
                            mode, version);
                    cluster = new Cluster(work.resolve(mode + "-T"));
                    cluster.writeSeed();
                    new ScenarioSecure(this, cluster).run();
                }
                default -> throw new Failure("no scenario " + scenario);
            }
            say("  PASS scenario %s", scenario);
            return true;
        } catch (Throwable failure) {
            say("  FAIL scenario %s: %s", scenario, describe(failure));
            failure.printStackTrace(System.out);
            if (cluster != null) {
                cluster.printLogTails();
            }
            return false;
        } finally {
            if (cluster != null) {
                cluster.killAllNodes();
            }
        }
    }

    /**
     * Whether a node of the scenario's run could not bind a port picked for it. Ports are picked
     * by binding port 0 and released for Kafka, so another process can take one in between (the
     * more so on a busy machine): such a run says nothing of kafkalint, and is run once more.
     */
    boolean portRace(String scenario) throws IOException {
        Path dir = work.resolve(mode + "-" + scenario);
        if (!Files.isDirectory(dir)) {
            return false;
        }
        try (var files = Files.walk(dir)) {
            return files.filter(file -> file.toString().endsWith(".log")).anyMatch(file -> {
                try {
                    return new String(Files.readAllBytes(file), java.nio.charset.StandardCharsets.ISO_8859_1)
                            .contains("Address already in use");
                } catch (IOException unreadable) {
                    return false;
                }
            });
        }
    }

    /** The seed: the group stops when its coordinator's broker dies; a producer does not. */
    void scenarioA(Cluster cluster) throws Exception {
        Verdict verdict = kafkalint(cluster.config);
        say("  kafkalint check %s: exit %d, %s", rel(cluster.config), verdict.exit, verdict.summary);
        check(verdict.exit == 1, "kafkalint check should exit 1 on the seed, got " + verdict.exit);
        for (int id = 0; id < NODES; id++) {
            String file = "server-" + id + ".properties";
            check(verdict.has("internal-topic-replication", "error", file, "offsets.topic.replication.factor"),
                    "kafkalint should report internal-topic-replication on offsets.topic.replication.factor of " + file);
        }
        say("  kafkalint: internal-topic-replication error on offsets.topic.replication.factor of all 3 files");

        cluster.start();
        try (Admin admin = cluster.admin()) {
            cluster.awaitBrokers(admin);
            createTopic(admin, cluster);
            try (KafkaConsumer<String, String> consumer = cluster.consumer("proof-consumer-1")) {
                joinAndCommit(cluster, consumer);
                int coordinator = coordinatorOf(admin, cluster, 1);

                long kill = System.nanoTime();
                cluster.kill(coordinator);
                say("  SIGKILL broker %d (the coordinator of %s)", coordinator, GROUP);

                long acked = produce(cluster, kill, coordinator);
                timings.add(String.format(Locale.ROOT, "A: producer acked (acks=all, RF 3) %s after the kill", secs(acked)));

                int survivor = cluster.survivor(coordinator);
                long detected = awaitFindCoordinator(cluster, survivor, kill, coordinator, true);
                timings.add(String.format(Locale.ROOT,
                        "A: FindCoordinator answered COORDINATOR_NOT_AVAILABLE %s after the kill", secs(detected)));

                // The group stays stuck: the member that was in it cannot commit...
                long t = System.nanoTime();
                Throwable commit = null;
                try {
                    consumer.commitSync(commit(2), STUCK_WINDOW);
                } catch (Exception e) {
                    commit = e;
                }
                check(commit != null, "commitSync succeeded with the coordinator's broker dead");
                say("  commitSync(%s=2, %ds) fails after %s: %s", TOPIC + "-0", STUCK_WINDOW.toSeconds(), secs(System.nanoTime() - t),
                        describe(commit));
                // ...and a new member cannot join.
                try (KafkaConsumer<String, String> newcomer = cluster.consumer("proof-consumer-2")) {
                    newcomer.subscribe(List.of(TOPIC));
                    long deadline = System.nanoTime() + STUCK_WINDOW.toNanos();
                    while (System.nanoTime() < deadline && newcomer.assignment().isEmpty()) {
                        newcomer.poll(Duration.ofMillis(500));
                    }
                    check(newcomer.assignment().isEmpty(), "a new consumer joined " + GROUP + " with its coordinator dead");
                    say("  a new consumer of %s gets no partitions in %ds (it cannot join)", GROUP, STUCK_WINDOW.toSeconds());
                    newcomer.close(Duration.ofSeconds(2));
                }
                int[] still = findCoordinator(cluster.brokerPort(survivor), GROUP);
                check(still[0] == 15, "FindCoordinator no longer answers 15 but " + still[0]);
                say("  FindCoordinator still answers error 15 COORDINATOR_NOT_AVAILABLE %s after the kill",
                        secs(System.nanoTime() - kill));
                consumer.close(Duration.ofSeconds(2));
            }
        }
    }

    /** The fix: kafkalint --fix on the same files; a fresh cluster from them survives the same kill. */
    void scenarioB(Cluster cluster) throws Exception {
        Command fix = kafkalintRun(List.of("check", "--fix", "--unsafe-fixes", "--format", "concise", cluster.config.toString()));
        say("  kafkalint check --fix --unsafe-fixes %s: exit %d, %s", rel(cluster.config), fix.exit, lastLine(fix.stderr));
        check(fix.exit == 0 || fix.exit == 1, "kafkalint --fix failed: " + fix.stderr);
        for (int id = 0; id < NODES; id++) {
            Properties props = cluster.read(id);
            check("3".equals(props.getProperty("offsets.topic.replication.factor")),
                    "--fix should set offsets.topic.replication.factor=3 in server-" + id + ".properties");
        }
        Verdict afterFix = kafkalint(cluster.config);
        check(afterFix.errors() == 0, "errors remain after --fix: " + afterFix.summary);
        check(afterFix.count("internal-topic-replication") == 0 && afterFix.count("min-isr-headroom") == 0,
                "internal-topic-replication or min-isr-headroom remain after --fix");
        // --fix changes only what has one right fix; what is left are warnings whose help names the
        // setting to add. Follow it, as a user would, until kafkalint has nothing to say.
        Map<String, String> advice = Map.of("auto-create-single-replica", "default.replication.factor=3",
                "min-isr-one", "min.insync.replicas=2");
        // Notes are left alone: a checkout under /tmp puts the harness's log dirs there, which
        // log-dirs-in-tmp rightly notes, and the assertion below is on errors and warnings.
        Verdict verdict = afterFix;
        for (int round = 0; round < advice.size() && verdict.errors() + verdict.warnings() > 0; round++) {
            Set<String> rules = new java.util.TreeSet<>();
            for (Finding left : verdict.findings) {
                if (!left.severity.equals("info")) {
                    rules.add(left.rule);
                }
            }
            for (String rule : rules) {
                Finding left = verdict.findings.stream().filter(f -> f.rule.equals(rule)).findFirst().orElseThrow();
                check(advice.containsKey(rule), "no advice to follow for " + rule + ": " + left.help);
                say("  left: %s %s (%d files), help: %s", left.severity, rule, verdict.count(rule), left.help);
                for (int id = 0; id < NODES; id++) {
                    cluster.insertAfter(id, "num.partitions=1", advice.get(rule));
                }
                say("  following it: %s added to every file", advice.get(rule));
            }
            verdict = kafkalint(cluster.config);
        }
        say("  kafkalint check %s: exit %d, %s", rel(cluster.config), verdict.exit, verdict.summary);
        check(verdict.exit == 0, "kafkalint check should exit 0 on the fixed files, got " + verdict.exit);
        check(verdict.errors() == 0 && verdict.warnings() == 0, "findings remain: " + verdict.summary);

        cluster.start();
        try (Admin admin = cluster.admin()) {
            cluster.awaitBrokers(admin);
            createTopic(admin, cluster);
            try (KafkaConsumer<String, String> consumer = cluster.consumer("proof-consumer-1")) {
                joinAndCommit(cluster, consumer);
                int coordinator = coordinatorOf(admin, cluster, 3);

                long kill = System.nanoTime();
                cluster.kill(coordinator);
                say("  SIGKILL broker %d (the coordinator of %s)", coordinator, GROUP);

                long acked = produce(cluster, kill, coordinator);
                timings.add(String.format(Locale.ROOT, "B: producer acked (acks=all, RF 3) %s after the kill", secs(acked)));

                int survivor = cluster.survivor(coordinator);
                long moved = awaitFindCoordinator(cluster, survivor, kill, coordinator, false);
                timings.add(String.format(Locale.ROOT, "B: FindCoordinator named a live broker %s after the kill", secs(moved)));

                long committed = commitAfter(consumer, kill);
                say("  commitSync(proof-orders-0=2) succeeds %s after the kill", secs(committed));
                timings.add(String.format(Locale.ROOT, "B: group committed again %s after the kill", secs(committed)));
                Node now = admin.describeConsumerGroups(List.of(GROUP)).describedGroups().get(GROUP)
                        .get(30, TimeUnit.SECONDS).coordinator();
                check(now.id() != coordinator, "the coordinator is still the dead broker");
                say("  new coordinator of %s: broker %d", GROUP, now.id());
                // The member leaves; a new one joins the group and reads the offset committed after the kill.
                consumer.close(Duration.ofSeconds(5));
                try (KafkaConsumer<String, String> newcomer = cluster.consumer("proof-consumer-2")) {
                    newcomer.subscribe(List.of(TOPIC));
                    long t = System.nanoTime();
                    long joinDeadline = t + RECOVER_TIMEOUT.toNanos();
                    while (System.nanoTime() < joinDeadline && newcomer.assignment().isEmpty()) {
                        newcomer.poll(Duration.ofMillis(500));
                    }
                    check(!newcomer.assignment().isEmpty(), "a new consumer did not join " + GROUP + " within "
                            + RECOVER_TIMEOUT.toSeconds() + " s");
                    OffsetAndMetadata offset = newcomer.committed(Set.of(PARTITION), Duration.ofSeconds(30))
                            .get(PARTITION);
                    check(offset != null && offset.offset() == 2, "the committed offset is " + offset + ", not 2");
                    say("  a new consumer joins %s in %s and reads the offset committed after the kill, %d", GROUP,
                            secs(System.nanoTime() - t), offset.offset());
                    newcomer.close(Duration.ofSeconds(5));
                }
            }
        }
    }

    /** The second trap: raising the factor in the files leaves the existing topic on one replica. */
    void scenarioC(Cluster cluster) throws Exception {
        startWithGroup(cluster);
        try (Admin admin = cluster.admin()) {
            Map<Integer, Integer> before = replicaCounts(admin);
            check(before.values().stream().allMatch(n -> n == 1), "__consumer_offsets was not created with 1 replica");
            say("  __consumer_offsets created: %d partitions, 1 replica each", before.size());
        }
        long stop = System.nanoTime();
        cluster.stopAll();
        say("  all brokers stopped (SIGTERM) in %s", secs(System.nanoTime() - stop));

        Command fix = kafkalintRun(List.of("check", "--fix", "--unsafe-fixes", "--format", "concise", cluster.config.toString()));
        say("  kafkalint check --fix --unsafe-fixes %s: exit %d, %s", rel(cluster.config), fix.exit, lastLine(fix.stderr));
        for (int id = 0; id < NODES; id++) {
            check("3".equals(cluster.read(id).getProperty("offsets.topic.replication.factor")),
                    "--fix should set offsets.topic.replication.factor=3");
        }
        Verdict verdict = kafkalint(cluster.config);
        say("  kafkalint check %s: exit %d, %s", rel(cluster.config), verdict.exit, verdict.summary);
        check(verdict.count("internal-topic-replication") == 0 && verdict.errors() == 0,
                "the edited files should have no internal-topic-replication finding");
        say("  the files now say offsets.topic.replication.factor=3; kafkalint reads files, not the live topic");

        cluster.start();
        try (Admin admin = cluster.admin()) {
            cluster.awaitBrokers(admin);
            Map<Integer, Integer> after = replicaCounts(admin);
            check(after.size() == 50, "__consumer_offsets should still have 50 partitions, has " + after.size());
            check(after.values().stream().allMatch(n -> n == 1),
                    "__consumer_offsets should keep 1 replica after the restart, has " + after);
            say("  restarted on the same log dirs: describeTopics(__consumer_offsets) still shows 1 replica on each of "
                    + "%d partitions (partition %d: %s)", after.size(), coordinatorPartition(),
                    describeOffsets(admin).partitions().get(coordinatorPartition()).replicas().stream()
                            .map(n -> "broker " + n.id()).collect(Collectors.toList()));
            say("  the factor applies when the topic is created: raise it with kafka-reassign-partitions.sh");
        }
    }

    /**
     * The seed completed (issue of the live check): the files raised to 3 and every broker restarted,
     * {@code kafkalint check} is clean while {@code __consumer_offsets} keeps one replica; {@code kafkalint
     * live} reports it and writes a reassignment, kafka-reassign-partitions.sh applies it, kafkalint live is
     * then clean, and the group survives its coordinator's SIGKILL. On the way: {@code --stopping} answers
     * no-go then go, and drift (a dynamic override, a file edited without a restart) is reported.
     */
    void scenarioD(Cluster cluster) throws Exception {
        String files = cluster.config.toString();
        startWithGroup(cluster);
        Verdict seed = live(cluster, files);
        say("  kafkalint live %s (seed files, RF 1): exit %d, %s", rel(cluster.config), seed.exit, seed.summary);
        check(seed.exit == 1 && seed.has("live-internal-topic-replication", "error", null, "offsets.topic.replication.factor"),
                "kafkalint live should report __consumer_offsets on one replica");

        cluster.stopAll();
        Command fix = kafkalintRun(List.of("check", "--fix", "--unsafe-fixes", "--format", "concise", files));
        check(fix.exit == 0 || fix.exit == 1, "kafkalint check --fix failed: " + fix.stderr);
        Verdict checked = kafkalint(cluster.config);
        check(checked.count("internal-topic-replication") == 0,
                "kafkalint check should have no internal-topic-replication finding on the raised files");
        say("  files raised by kafkalint check --fix --unsafe-fixes, every broker restarted; kafkalint check: %s, no "
                + "internal-topic-replication", checked.summary);
        cluster.start();
        int coordinator;
        try (Admin admin = cluster.admin()) {
            cluster.awaitBrokers(admin);
            coordinator = coordinatorOf(admin, cluster, 1);
        }

        try (Admin admin = cluster.admin()) {
            awaitInSync(admin);
        }
        Command before = kafkalintRun(liveArgs(cluster, "--group", GROUP, "--color", "never", files));
        transcript("before the reassignment", before);
        long t = System.nanoTime();
        Verdict raised = live(cluster, "--group", GROUP, files);
        long took = System.nanoTime() - t;
        String ms = String.format(Locale.ROOT, "%d ms", TimeUnit.NANOSECONDS.toMillis(took));
        timings.add("D: kafkalint live against the 3-broker cluster (the whole run, process start to exit): " + ms);
        say("  kafkalint live --group %s %s: exit %d, %s (%s)", GROUP, rel(cluster.config), raised.exit, raised.summary,
                ms);
        check(raised.exit == 1, "kafkalint live should exit 1, got " + raised.exit);
        check(raised.has("live-internal-topic-replication", "error", null, "offsets.topic.replication.factor"),
                "kafkalint live should report __consumer_offsets' real replication factor against the files' 3");
        check(raised.count("live-config-drift") == 0, "every broker was restarted after the edit: no drift expected");
        check(raised.has("live-group-coordinator", "warning", null, null), "the group's coordinator is alone");

        Verdict noGo = live(cluster, "--stopping", Integer.toString(coordinator));
        say("  kafkalint live --stopping %d: exit %d, %s", coordinator, noGo.exit, noGo.summary);
        check(noGo.exit == 1 && noGo.has("live-stopping-broker", "error", null, null),
                "--stopping the coordinator should be a no-go");
        // The no-go, checked: with the coordinator stopped, the group finds none; then it returns.
        long stopped = System.nanoTime();
        cluster.kill(coordinator);
        say("  SIGKILL broker %d (the no-go checked)", coordinator);
        awaitFindCoordinator(cluster, cluster.survivor(coordinator), stopped, coordinator, true);
        cluster.startNode(coordinator);
        try (Admin admin = cluster.admin()) {
            cluster.awaitBrokers(admin);
            awaitInSync(admin);
        }

        Path plan = cluster.dir.resolve("reassignment.json");
        Command wrote = kafkalintRun(liveArgs(cluster, "--fix", "--plan-file", plan.toString(), "--format", "json", files));
        check(Files.isRegularFile(plan), "kafkalint live --fix wrote no plan: " + wrote.stderr);
        say("  kafkalint live --fix: %s", lastLine(wrote.stderr.lines().filter(l -> l.startsWith("Wrote")).findFirst()
                .orElse(wrote.stderr)));
        Command execute = cluster.tool("reassign-execute", REASSIGN, "--bootstrap-server", cluster.bootstrap(),
                "--reassignment-json-file", plan.toString(), "--execute");
        check(execute.exit == 0, "kafka-reassign-partitions.sh --execute failed: " + execute.stdout);
        long reassigned = System.nanoTime();
        try (Admin admin = cluster.admin()) {
            long deadline = reassigned + RECOVER_TIMEOUT.toNanos();
            while (true) {
                TopicDescription offsets = describeOffsets(admin);
                boolean done = offsets.partitions().stream().allMatch(p -> p.replicas().size() == NODES && p.isr().size() == NODES);
                if (done) {
                    break;
                }
                check(System.nanoTime() < deadline, "the reassignment did not finish within " + RECOVER_TIMEOUT.toSeconds() + " s");
                Thread.sleep(500);
            }
        }
        Command verify = cluster.tool("reassign-verify", REASSIGN, "--bootstrap-server", cluster.bootstrap(),
                "--reassignment-json-file", plan.toString(), "--verify");
        check(verify.exit == 0, "kafka-reassign-partitions.sh --verify failed: " + verify.stdout);
        say("  kafka-reassign-partitions.sh --execute applied it: 50 partitions on 3 in-sync replicas in %s",
                secs(System.nanoTime() - reassigned));

        Command after = kafkalintRun(liveArgs(cluster, "--group", GROUP, "--color", "never", files));
        transcript("after the reassignment", after);
        Verdict clean = live(cluster, "--group", GROUP, files);
        check(clean.exit == 0 && clean.errors() == 0 && clean.warnings() == 0,
                "kafkalint live should be clean after the reassignment: " + clean.summary);
        Verdict go = live(cluster, "--stopping", Integer.toString(coordinator));
        say("  kafkalint live --stopping %d: exit %d, %s", coordinator, go.exit, go.summary);
        check(go.exit == 0, "--stopping the coordinator should be a go after the reassignment");

        // Drift: a dynamic per-broker override, and a file edited without a restart.
        Command alter = cluster.tool("configs-alter", configCommand(), "--bootstrap-server", cluster.bootstrap(),
                "--alter", "--entity-type", "brokers", "--entity-name", "1", "--add-config", "num.io.threads=4");
        check(alter.exit == 0, "kafka-configs.sh --alter failed: " + alter.stdout);
        Path file2 = cluster.config.resolve("server-2.properties");
        String text = Files.readString(file2, StandardCharsets.ISO_8859_1);
        check(text.contains("log.retention.hours=168\n"), "server-2.properties has no log.retention.hours=168");
        Files.writeString(file2, text.replace("log.retention.hours=168\n", "log.retention.hours=72\n"),
                StandardCharsets.ISO_8859_1);
        say("  kafka-configs.sh --alter broker 1 num.io.threads=4; server-2.properties edited to log.retention.hours=72, "
                + "not restarted");
        Verdict drift = live(cluster, files);
        say("  kafkalint live %s: exit %d, %s", rel(cluster.config), drift.exit, drift.summary);
        check(drift.count("live-config-drift") == 2, "two drifts expected, got " + drift.count("live-config-drift"));
        check(drift.has("live-config-drift", "warning", "server-1.properties", "num.io.threads"),
                "the dynamic override of broker 1 should be reported on its file");
        check(drift.has("live-config-drift", "warning", "server-2.properties", "log.retention.hours"),
                "the edited file of broker 2 should be reported");

        // The go, checked: the coordinator dies and the group moves on.
        try (Admin admin = cluster.admin(); KafkaConsumer<String, String> consumer = cluster.consumer("proof-consumer-1")) {
            joinAndCommit(cluster, consumer);
            int now = coordinatorOf(admin, cluster, NODES);
            long kill = System.nanoTime();
            cluster.kill(now);
            say("  SIGKILL broker %d (the coordinator of %s)", now, GROUP);
            awaitFindCoordinator(cluster, cluster.survivor(now), kill, now, false);
            long committed = commitAfter(consumer, kill);
            say("  the group commits again %s after its coordinator's SIGKILL", secs(committed));
        }
    }

    /** Waits until every replica of every topic is in sync, as an operator does after a restart. */
    void awaitInSync(Admin admin) throws Exception {
        long deadline = System.nanoTime() + RECOVER_TIMEOUT.toNanos();
        while (true) {
            Collection<TopicDescription> topics = admin.describeTopics(admin.listTopics(
                    new org.apache.kafka.clients.admin.ListTopicsOptions().listInternal(true)).names().get(30, TimeUnit.SECONDS))
                    .allTopicNames().get(30, TimeUnit.SECONDS).values();
            if (topics.stream().flatMap(t -> t.partitions().stream()).allMatch(p -> p.isr().size() == p.replicas().size())) {
                return;
            }
            check(System.nanoTime() < deadline, "replicas not in sync within " + RECOVER_TIMEOUT.toSeconds() + " s");
            Thread.sleep(500);
        }
    }

    /**
     * The member commits offset 2 again after its coordinator's kill (rejoining first if the move
     * cost it its generation); returns the time since the kill.
     */
    long commitAfter(KafkaConsumer<String, String> consumer, long kill) {
        long deadline = kill + RECOVER_TIMEOUT.toNanos();
        Throwable last = null;
        while (System.nanoTime() < deadline) {
            consumer.poll(Duration.ofMillis(200));
            try {
                consumer.commitSync(commit(2), Duration.ofSeconds(5));
                return System.nanoTime() - kill;
            } catch (Exception e) {
                last = e;
            }
        }
        throw new Failure("the group did not commit within " + RECOVER_TIMEOUT.toSeconds() + " s of the kill; "
                + "last error: " + describe(last));
    }

    /** The reassignment tool, the same class in 3.9 and 4.x. */
    static final String REASSIGN = "org.apache.kafka.tools.reassign.ReassignPartitionsCommand";

    /** kafka-configs.sh: the broker's Scala tool in 3.x, moved to the tools in 4.0. */
    String configCommand() {
        return version.startsWith("3.") ? "kafka.admin.ConfigCommand" : "org.apache.kafka.tools.ConfigCommand";
    }

    List<String> liveArgs(Cluster cluster, String... args) {
        List<String> all = new ArrayList<>(List.of("live", "--bootstrap-server", cluster.bootstrap()));
        all.addAll(List.of(args));
        return all;
    }

    /** kafkalint live --format json against the cluster, with more arguments. */
    Verdict live(Cluster cluster, String... args) throws Exception {
        List<String> all = liveArgs(cluster, args);
        all.addAll(1, List.of("--format", "json"));
        return verdict(all);
    }

    /** What kafkalint live printed, kept for the manual's transcript (docs/src/live.md). */
    void transcript(String when, Command command) throws IOException {
        say("  kafkalint live --group %s config/ (%s): exit %d", GROUP, when, command.exit);
        for (String line : command.stdout.split("\n")) {
            say("    | %s", line);
        }
    }

    /**
     * kafkalint live over every listener kind of a KRaft cluster: SSL (a CA and a broker certificate
     * made here with keytool, the CA given as PEM), SASL_PLAINTEXT and SASL_SSL with PLAIN,
     * SCRAM-SHA-256 and SCRAM-SHA-512; a wrong password, a TLS listener reached as PLAINTEXT, an address
     * nobody listens on: each a clear error, exit 2, within its bound, no password printed.
     */
    void scenarioS(Cluster cluster) throws Exception {
        Path tls = cluster.dir.resolve("tls");
        Files.createDirectories(tls);
        String storePass = "proof-store-pass-7431";
        String keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
        List<List<String>> steps = List.of(
                List.of("-genkeypair", "-alias", "ca", "-keyalg", "RSA", "-keysize", "2048", "-dname", "CN=proof-ca",
                        "-ext", "bc:c", "-validity", "2", "-keystore", "ca.p12", "-storetype", "PKCS12"),
                List.of("-exportcert", "-rfc", "-alias", "ca", "-keystore", "ca.p12", "-file", "ca.pem"),
                List.of("-genkeypair", "-alias", "broker", "-keyalg", "RSA", "-keysize", "2048", "-dname",
                        "CN=127.0.0.1", "-validity", "2", "-keystore", "broker.p12", "-storetype", "PKCS12"),
                List.of("-certreq", "-alias", "broker", "-keystore", "broker.p12", "-file", "broker.csr"),
                List.of("-gencert", "-alias", "ca", "-keystore", "ca.p12", "-infile", "broker.csr", "-outfile",
                        "broker.pem", "-rfc", "-ext", "SAN=ip:127.0.0.1,dns:localhost", "-ext", "EKU=serverAuth",
                        "-validity", "2"),
                List.of("-importcert", "-alias", "ca", "-keystore", "broker.p12", "-file", "ca.pem", "-noprompt"),
                List.of("-importcert", "-alias", "broker", "-keystore", "broker.p12", "-file", "broker.pem"));
        for (List<String> step : steps) {
            List<String> cmd = new ArrayList<>(List.of(keytool));
            cmd.addAll(step);
            cmd.addAll(List.of("-storepass", storePass, "-keypass", storePass));
            Process p = new ProcessBuilder(cmd).directory(tls.toFile()).redirectErrorStream(true).start();
            String out = readAll(p.getInputStream());
            check(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0, "keytool " + step.get(0) + " failed: " + out);
        }
        say("  keytool: a CA, and a broker certificate for 127.0.0.1 it signed (PKCS12 key store, CA as PEM)");

        int[] ports = cluster.extraPorts;
        String jaas = "org.apache.kafka.common.security.plain.PlainLoginModule required user_alice=\"alice-plain-secret\";";
        String scramServer = "org.apache.kafka.common.security.scram.ScramLoginModule required;";
        for (int id = 0; id < NODES; id++) {
            int ssl = ports[id], saslPlain = ports[NODES + id], saslSsl = ports[2 * NODES + id];
            Path file = cluster.config.resolve("server-" + id + ".properties");
            String text = Files.readString(file, StandardCharsets.ISO_8859_1);
            String plain = "PLAINTEXT://127.0.0.1:" + cluster.brokerPort(id);
            String more = ",SSL://127.0.0.1:" + ssl + ",SASL_PLAINTEXT://127.0.0.1:" + saslPlain + ",SASL_SSL://127.0.0.1:"
                    + saslSsl;
            text = text.replace("listeners=" + plain + ",CONTROLLER", "listeners=" + plain + more + ",CONTROLLER")
                    .replace("advertised.listeners=" + plain + "\n", "advertised.listeners=" + plain + more + "\n")
                    .replace("listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT",
                            "listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT,SSL:SSL,"
                                    + "SASL_PLAINTEXT:SASL_PLAINTEXT,SASL_SSL:SASL_SSL");
            text += String.join("\n",
                    "sasl.enabled.mechanisms=PLAIN,SCRAM-SHA-256,SCRAM-SHA-512",
                    "listener.name.sasl_plaintext.plain.sasl.jaas.config=" + jaas,
                    "listener.name.sasl_ssl.plain.sasl.jaas.config=" + jaas,
                    "listener.name.sasl_plaintext.scram-sha-256.sasl.jaas.config=" + scramServer,
                    "listener.name.sasl_plaintext.scram-sha-512.sasl.jaas.config=" + scramServer,
                    "listener.name.sasl_ssl.scram-sha-256.sasl.jaas.config=" + scramServer,
                    "listener.name.sasl_ssl.scram-sha-512.sasl.jaas.config=" + scramServer,
                    "ssl.keystore.type=PKCS12",
                    "ssl.keystore.location=" + tls.resolve("broker.p12"),
                    "ssl.keystore.password=" + storePass,
                    "ssl.key.password=" + storePass,
                    "");
            Files.writeString(file, text, StandardCharsets.ISO_8859_1);
        }
        cluster.start();
        try (Admin admin = cluster.admin()) {
            cluster.awaitBrokers(admin);
            // One mechanism a request: Kafka refuses two alterations of one user in one request.
            for (ScramMechanism mechanism : List.of(ScramMechanism.SCRAM_SHA_256, ScramMechanism.SCRAM_SHA_512)) {
                List<UserScramCredentialAlteration> user = List.of(new UserScramCredentialUpsertion("alice",
                        new ScramCredentialInfo(mechanism, 4096), "alice-scram-secret"));
                admin.alterUserScramCredentials(user).all().get(30, TimeUnit.SECONDS);
            }
        }
        say("  listeners SSL, SASL_PLAINTEXT, SASL_SSL on every node; SCRAM users made with alterUserScramCredentials");

        record Client(String name, int[] port, String properties) {}
        String trust = "ssl.truststore.type=PEM\nssl.truststore.location=" + tls.resolve("ca.pem") + "\n";
        String scram = "sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required "
                + "username=\"alice\" password=\"alice-scram-secret\";\n";
        String plainLogin = "sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required "
                + "username=\"alice\" password=\"alice-plain-secret\";\n";
        int[] sslPorts = java.util.Arrays.copyOfRange(ports, 0, NODES);
        int[] saslPlainPorts = java.util.Arrays.copyOfRange(ports, NODES, 2 * NODES);
        int[] saslSslPorts = java.util.Arrays.copyOfRange(ports, 2 * NODES, 3 * NODES);
        List<Client> clients = List.of(
                new Client("ssl", sslPorts, "security.protocol=SSL\n" + trust),
                new Client("sasl-plaintext-plain", saslPlainPorts,
                        "security.protocol=SASL_PLAINTEXT\nsasl.mechanism=PLAIN\n" + plainLogin),
                new Client("sasl-plaintext-scram-sha-512", saslPlainPorts,
                        "security.protocol=SASL_PLAINTEXT\nsasl.mechanism=SCRAM-SHA-512\n" + scram),
                new Client("sasl-ssl-scram-sha-256", saslSslPorts,
                        "security.protocol=SASL_SSL\nsasl.mechanism=SCRAM-SHA-256\n" + scram + trust),
                new Client("sasl-ssl-plain", saslSslPorts,
                        "security.protocol=SASL_SSL\nsasl.mechanism=PLAIN\n" + plainLogin + trust));
        List<String> secrets = List.of(storePass, "alice-scram-secret", "alice-plain-secret");
        for (Client client : clients) {
            Path properties = cluster.dir.resolve(client.name + ".properties");
            Files.writeString(properties, client.properties);
            Path snapshot = cluster.dir.resolve(client.name + ".snapshot");
            Command c = kafkalintRun(List.of("live", "--bootstrap-server", "127.0.0.1:" + client.port[0],
                    "--command-config", properties.toString(), "--save-snapshot", snapshot.toString(), "--format",
                    "json"));
            check(c.exit == 0 || c.exit == 1, client.name + ": kafkalint live failed (exit " + c.exit + "): " + c.stderr);
            String saved = Files.readString(snapshot);
            for (int id = 0; id < NODES; id++) {
                check(saved.contains("broker." + id + "=127.0.0.1:" + client.port[id] + "\n"),
                        client.name + ": broker " + id + " should be listed on this listener's port");
                check(saved.contains("config." + id + ".static.sasl.enabled.mechanisms="),
                        client.name + ": broker " + id + "'s own settings should be read");
            }
            for (String secret : secrets) {
                check(!(c.stdout + c.stderr + saved).contains(secret), client.name + ": a password was printed");
            }
            say("  %s: kafkalint live reads 3 brokers and their settings over it (exit %d), no password printed",
                    client.name, c.exit);
        }

        record Refused(String name, List<String> args, String expected) {}
        Path wrong = cluster.dir.resolve("wrong-password.properties");
        Files.writeString(wrong, "security.protocol=SASL_SSL\nsasl.mechanism=SCRAM-SHA-512\n" + trust
                + scram.replace("alice-scram-secret", "not-alice-secret"));
        Path plainClient = cluster.dir.resolve("plaintext.properties");
        Files.writeString(plainClient, "security.protocol=PLAINTEXT\n");
        int nobody = freePorts(1)[0];
        List<Refused> refused = List.of(
                new Refused("a wrong SCRAM password",
                        List.of("--bootstrap-server", "127.0.0.1:" + saslSslPorts[0], "--command-config", wrong.toString()),
                        "refused the SASL login"),
                new Refused("a TLS listener reached as PLAINTEXT",
                        List.of("--bootstrap-server", "127.0.0.1:" + sslPorts[0], "--command-config", plainClient.toString(),
                                "--timeout", "5"),
                        "it speaks TLS"),
                new Refused("an address nobody listens on",
                        List.of("--bootstrap-server", "127.0.0.1:" + nobody), "cannot connect to 127.0.0.1:" + nobody));
        for (Refused r : refused) {
            List<String> args = new ArrayList<>(List.of("live"));
            args.addAll(r.args);
            long t = System.nanoTime();
            Command c = kafkalintRun(args);
            long took = System.nanoTime() - t;
            check(c.exit == 2, r.name + ": exit 2 expected, got " + c.exit + ": " + c.stderr);
            check(c.stderr.contains(r.expected) && c.stderr.strip().lines().count() == 1,
                    r.name + ": one line naming it expected, got: " + c.stderr);
            check(took < Duration.ofSeconds(30).toNanos(), r.name + ": took " + secs(took));
            check(!c.stderr.contains("not-alice-secret"), r.name + ": the password was printed");
            say("  %s: exit 2 in %s: %s", r.name, secs(took), c.stderr.strip());
        }
    }

    // ------------------------------------------------------------------------------------------
    // Client steps

    /** Starts the cluster, creates the topic, and the group joins, reads and commits, then leaves. */
    void startWithGroup(Cluster cluster) throws Exception {
        cluster.start();
        try (Admin admin = cluster.admin()) {
            cluster.awaitBrokers(admin);
            createTopic(admin, cluster);
            try (KafkaConsumer<String, String> consumer = cluster.consumer("proof-consumer-1")) {
                joinAndCommit(cluster, consumer);
                consumer.close(Duration.ofSeconds(5));
            }
        }
    }

    void createTopic(Admin admin, Cluster cluster) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (true) {
            try {
                admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) NODES))).all().get(30, TimeUnit.SECONDS);
                return;
            } catch (ExecutionException e) {
                if (e.getCause() instanceof TopicExistsException) {
                    return;
                }
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                cluster.checkAlive();
                Thread.sleep(500);
            }
        }
    }

    void joinAndCommit(Cluster cluster, KafkaConsumer<String, String> consumer) throws Exception {
        try (KafkaProducer<String, String> producer = cluster.producer()) {
            producer.send(new ProducerRecord<>(TOPIC, "order-1", "before")).get(60, TimeUnit.SECONDS);
        }
        consumer.subscribe(List.of(TOPIC));
        long t = System.nanoTime();
        long deadline = t + Duration.ofSeconds(60).toNanos();
        int records = 0;
        while (System.nanoTime() < deadline && (consumer.assignment().isEmpty() || records == 0)) {
            records += consumer.poll(Duration.ofMillis(500)).count();
            cluster.checkAlive();
        }
        check(!consumer.assignment().isEmpty() && records > 0, "the consumer did not join " + GROUP + " and read within 60 s");
        consumer.commitSync(commit(1), Duration.ofSeconds(30));
        say("  group %s joined, read %d record, committed (%s)", GROUP, records, secs(System.nanoTime() - t));
    }

    /** The group's coordinator, checked against kafkalint coordinator and the topic's leader. */
    int coordinatorOf(Admin admin, Cluster cluster, int replicas) throws Exception {
        ConsumerGroupDescription group = admin.describeConsumerGroups(List.of(GROUP)).describedGroups().get(GROUP)
                .get(30, TimeUnit.SECONDS);
        int coordinator = group.coordinator().id();
        int partition = coordinatorPartition();
        Command lint = kafkalintRun(List.of("coordinator", GROUP, cluster.config.toString()));
        Matcher m = Pattern.compile("__consumer_offsets partition (\\d+) \\(of (\\d+)\\)").matcher(lint.stdout);
        check(lint.exit == 0 && m.find(), "kafkalint coordinator printed no partition: " + lint.stdout + lint.stderr);
        check(Integer.parseInt(m.group(1)) == partition, "kafkalint coordinator says partition " + m.group(1)
                + ", Utils.abs(hashCode) % 50 = " + partition);
        TopicPartitionInfo info = describeOffsets(admin).partitions().get(partition);
        check(info.leader() != null && info.leader().id() == coordinator, "the leader of __consumer_offsets-" + partition
                + " is " + info.leader() + ", the coordinator " + coordinator);
        check(info.replicas().size() == replicas, "__consumer_offsets-" + partition + " has " + info.replicas().size()
                + " replicas, expected " + replicas);
        say("  describeConsumerGroups: coordinator broker %d = leader of __consumer_offsets-%d (kafkalint coordinator: "
                + "partition %s), replicas %s", coordinator, partition, m.group(1),
                info.replicas().stream().map(Node::id).collect(Collectors.toList()));
        return coordinator;
    }

    static int coordinatorPartition() {
        return Utils.abs(GROUP.hashCode()) % 50;
    }

    /** Sends one record (acks=all) to the 3-replica topic after the kill; returns when it was acked. */
    long produce(Cluster cluster, long kill, int dead) throws Exception {
        try (KafkaProducer<String, String> producer = cluster.producer()) {
            RecordMetadata meta = producer.send(new ProducerRecord<>(TOPIC, "order-2", "after the kill"))
                    .get(RECOVER_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            long acked = System.nanoTime() - kill;
            say("  producer (acks=all) to %s (3 replicas): acked at offset %d, %s after the kill", TOPIC, meta.offset(),
                    secs(acked));
            return acked;
        }
    }

    /**
     * Asks a surviving broker FindCoordinator for the group until it answers COORDINATOR_NOT_AVAILABLE
     * ({@code unavailable}) or names a live broker; returns the time since the kill.
     */
    long awaitFindCoordinator(Cluster cluster, int survivor, long kill, int dead, boolean unavailable) throws Exception {
        long deadline = kill + DETECT_TIMEOUT.toNanos();
        String seen = "nothing";
        while (System.nanoTime() < deadline) {
            try {
                int[] answer = findCoordinator(cluster.brokerPort(survivor), GROUP);
                seen = answer[0] == 0 ? "broker " + answer[1] : "error " + answer[0];
                if (unavailable ? answer[0] == 15 : answer[0] == 0 && answer[1] != dead) {
                    long at = System.nanoTime() - kill;
                    say("  FindCoordinator(%s) to broker %d: %s, %s after the kill", GROUP, survivor,
                            answer[0] == 15 ? "error 15 COORDINATOR_NOT_AVAILABLE" : "coordinator broker " + answer[1],
                            secs(at));
                    return at;
                }
            } catch (IOException e) {
                seen = e.toString();
            }
            Thread.sleep(250);
        }
        throw new Failure("FindCoordinator did not answer " + (unavailable ? "COORDINATOR_NOT_AVAILABLE" : "a live broker")
                + " within " + DETECT_TIMEOUT.toSeconds() + " s of the kill; last answer: " + seen);
    }

    /**
     * One FindCoordinator request (API key 10, version 1, key type 0 = group) over a plain socket, so
     * that the broker's own error code is seen rather than a client's retries: {error code, node id}.
     */
    static int[] findCoordinator(int port, String group) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 3000);
            socket.setSoTimeout(5000);
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            DataOutputStream req = new DataOutputStream(bytes);
            req.writeShort(10); // FindCoordinator
            req.writeShort(1);
            req.writeInt(7); // correlation id
            writeString(req, "kafkalint-proof");
            writeString(req, group);
            req.writeByte(0); // key type: group
            DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            out.writeInt(bytes.size());
            bytes.writeTo(out);
            out.flush();
            DataInputStream in = new DataInputStream(socket.getInputStream());
            byte[] body = new byte[in.readInt()];
            in.readFully(body);
            DataInputStream resp = new DataInputStream(new java.io.ByteArrayInputStream(body));
            if (resp.readInt() != 7) {
                throw new IOException("FindCoordinator: wrong correlation id");
            }
            resp.readInt(); // throttle time
            short error = resp.readShort();
            short messageLength = resp.readShort();
            if (messageLength > 0) {
                resp.skipBytes(messageLength);
            }
            int node = resp.readInt();
            return new int[] {error, node};
        }
    }

    static void writeString(DataOutputStream out, String s) throws IOException {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        out.writeShort(b.length);
        out.write(b);
    }

    static TopicDescription describeOffsets(Admin admin) throws Exception {
        return admin.describeTopics(List.of("__consumer_offsets")).allTopicNames().get(30, TimeUnit.SECONDS)
                .get("__consumer_offsets");
    }

    static Map<Integer, Integer> replicaCounts(Admin admin) throws Exception {
        Map<Integer, Integer> counts = new LinkedHashMap<>();
        for (TopicPartitionInfo p : describeOffsets(admin).partitions()) {
            counts.put(p.partition(), p.replicas().size());
        }
        return counts;
    }

    // ------------------------------------------------------------------------------------------
    // kafkalint

    record Finding(String rule, String severity, String file, String key, String help) {}

    record Verdict(int exit, String summary, List<Finding> findings) {
        boolean has(String rule, String severity, String file, String key) {
            return findings.stream().anyMatch(f -> f.rule.equals(rule) && f.severity.equals(severity)
                    && (file == null || f.file.endsWith("/" + file)) && (key == null || key.equals(f.key)));
        }

        long count(String rule) {
            return findings.stream().filter(f -> f.rule.equals(rule)).count();
        }

        long errors() {
            return findings.stream().filter(f -> f.severity.equals("error")).count();
        }

        long warnings() {
            return findings.stream().filter(f -> f.severity.equals("warning")).count();
        }
    }

    record Command(int exit, String stdout, String stderr) {}

    /** kafkalint check --format json on a folder, read with a small reader of its own JSON. */
    Verdict kafkalint(Path folder) throws Exception {
        return verdict(List.of("check", "--kafka-version", minor, "--format", "json", folder.toString()));
    }

    /** A kafkalint run with --format json, read with a small reader of its own JSON. */
    Verdict verdict(List<String> args) throws Exception {
        Command c = kafkalintRun(args);
        check(c.exit == 0 || c.exit == 1, "kafkalint " + args.get(0) + " failed (exit " + c.exit + "): " + c.stderr);
        Object doc = new Json(c.stdout).value();
        List<Finding> findings = new ArrayList<>();
        for (Object d : (List<?>) ((Map<?, ?>) doc).get("diagnostics")) {
            Map<?, ?> m = (Map<?, ?>) d;
            findings.add(new Finding((String) m.get("rule"), (String) m.get("severity"), (String) m.get("file"),
                    (String) m.get("key"), (String) m.get("help")));
            // The same finding on other nodes is one, with their places in also_on: a finding
            // each here, as the one-line formats list them.
            Object alsoOn = m.get("also_on");
            if (alsoOn != null) {
                for (Object a : (List<?>) alsoOn) {
                    findings.add(new Finding((String) m.get("rule"), (String) m.get("severity"),
                            (String) ((Map<?, ?>) a).get("file"), (String) m.get("key"), (String) m.get("help")));
                }
            }
        }
        Map<?, ?> s = (Map<?, ?>) ((Map<?, ?>) doc).get("summary");
        String summary = String.format(Locale.ROOT, "%s errors, %s warnings, %s infos", s.get("errors"),
                s.get("warnings"), s.get("infos"));
        return new Verdict(c.exit, summary, findings);
    }

    Command kafkalintRun(List<String> args) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(kafkalint.toString());
        cmd.addAll(args);
        Process p = new ProcessBuilder(cmd).start();
        children.add(p);
        try {
            var out = java.util.concurrent.CompletableFuture.supplyAsync(() -> readAll(p.getInputStream()));
            var err = java.util.concurrent.CompletableFuture.supplyAsync(() -> readAll(p.getErrorStream()));
            check(p.waitFor(60, TimeUnit.SECONDS), "kafkalint did not finish within 60 s: " + cmd);
            return new Command(p.exitValue(), out.get(10, TimeUnit.SECONDS), err.get(10, TimeUnit.SECONDS));
        } finally {
            p.destroyForcibly();
            children.remove(p);
        }
    }

    static String readAll(java.io.InputStream in) {
        try {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    // ------------------------------------------------------------------------------------------
    // The cluster

    final class Cluster {
        final Path dir;
        final Path config;
        final Path logs;
        final int[] brokerPorts = new int[NODES];
        final int[] controllerPorts = new int[NODES];
        int zkPort;
        /** JVM options of every node (system properties a scenario needs). */
        final List<String> nodeOptions = new ArrayList<>();
        /** Three ports per node for the listeners scenario S adds. */
        final int[] extraPorts;
        final Process[] nodes = new Process[NODES];
        Process zookeeper;
        boolean formatted;

        Cluster(Path dir) throws IOException {
            this.dir = dir;
            this.config = dir.resolve("config");
            this.logs = dir.resolve("logs");
            Files.createDirectories(config);
            Files.createDirectories(logs);
            Files.createDirectories(dir.resolve("support"));
            // Chosen together, so that none is handed out twice: the listeners of every node, and
            // three more per node for the listeners scenario S adds (SSL, SASL_PLAINTEXT, SASL_SSL).
            int[] ports = freePorts(5 * NODES + 1);
            for (int i = 0; i < NODES; i++) {
                brokerPorts[i] = ports[i];
                controllerPorts[i] = ports[NODES + i];
            }
            zkPort = ports[2 * NODES];
            extraPorts = java.util.Arrays.copyOfRange(ports, 2 * NODES + 1, 5 * NODES + 1);
        }

        int brokerPort(int id) {
            return brokerPorts[id];
        }

        String bootstrap() {
            List<String> all = new ArrayList<>();
            for (int p : brokerPorts) {
                all.add("127.0.0.1:" + p);
            }
            return String.join(",", all);
        }

        /** The config files as the seed had them: internal topics on one replica. */
        void writeSeed() throws IOException {
            for (int id = 0; id < NODES; id++) {
                String text = mode.equals("kraft") ? kraftFile(id) : zookeeperFile(id);
                Files.writeString(config.resolve("server-" + id + ".properties"), text, StandardCharsets.ISO_8859_1);
            }
            Path support = dir.resolve("support");
            if (mode.equals("zookeeper")) {
                Files.writeString(support.resolve("zookeeper.properties"), String.join("\n",
                        "dataDir=" + dir.resolve("data/zookeeper"),
                        "clientPort=" + zkPort,
                        "clientPortAddress=127.0.0.1",
                        "maxClientCnxns=0",
                        "admin.enableServer=false",
                        ""));
            }
            if (version.startsWith("3.")) {
                Files.writeString(support.resolve("log4j.properties"), String.join("\n",
                        "log4j.rootLogger=INFO, file",
                        "log4j.appender.file=org.apache.log4j.FileAppender",
                        "log4j.appender.file.File=${kafka.proof.log}",
                        "log4j.appender.file.layout=org.apache.log4j.PatternLayout",
                        "log4j.appender.file.layout.ConversionPattern=[%d] %p %m (%c)%n",
                        ""));
            } else {
                Files.writeString(support.resolve("log4j2.properties"), String.join("\n",
                        "status = error",
                        "appender.file.type = File",
                        "appender.file.name = file",
                        "appender.file.fileName = ${sys:kafka.proof.log}",
                        "appender.file.layout.type = PatternLayout",
                        "appender.file.layout.pattern = [%d] %p %m (%c)%n",
                        "rootLogger.level = info",
                        "rootLogger.appenderRef.file.ref = file",
                        ""));
            }
        }

        String kraftFile(int id) {
            String voters = java.util.stream.IntStream.range(0, NODES)
                    .mapToObj(i -> i + "@127.0.0.1:" + controllerPorts[i]).collect(Collectors.joining(","));
            return String.join("\n",
                    "# Node " + id + " of a three-node KRaft cluster (Kafka 4.x): broker and controller in one process,",
                    "# laid out as the server.properties that ships with Kafka 4, with a static quorum.",
                    "",
                    "############################# Server Basics #############################",
                    "",
                    "process.roles=broker,controller",
                    "node.id=" + id,
                    "controller.quorum.voters=" + voters,
                    "",
                    "############################# Socket Server Settings #############################",
                    "",
                    "listeners=PLAINTEXT://127.0.0.1:" + brokerPorts[id] + ",CONTROLLER://127.0.0.1:" + controllerPorts[id],
                    "inter.broker.listener.name=PLAINTEXT",
                    "advertised.listeners=PLAINTEXT://127.0.0.1:" + brokerPorts[id],
                    "controller.listener.names=CONTROLLER",
                    "listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT",
                    "",
                    "num.network.threads=3",
                    "num.io.threads=8",
                    "socket.send.buffer.bytes=102400",
                    "socket.receive.buffer.bytes=102400",
                    "socket.request.max.bytes=104857600",
                    "",
                    "############################# Log Basics #############################",
                    "",
                    "log.dirs=" + dir.resolve("data/node-" + id),
                    "num.partitions=1",
                    "num.recovery.threads.per.data.dir=1",
                    "",
                    "############################# Internal Topic Settings #############################",
                    "# The stock file keeps the group, share-group and transaction metadata topics on a single",
                    "# replica so that a one-node trial works. Anything else needs more, e.g. 3.",
                    "offsets.topic.replication.factor=1",
                    "share.coordinator.state.topic.replication.factor=1",
                    "share.coordinator.state.topic.min.isr=1",
                    "transaction.state.log.replication.factor=1",
                    "transaction.state.log.min.isr=1",
                    "",
                    "############################# Log Retention Policy #############################",
                    "",
                    "log.retention.hours=168",
                    "log.segment.bytes=1073741824",
                    "log.retention.check.interval.ms=300000",
                    "",
                    "############################# Group Coordinator Settings #############################",
                    "",
                    "group.initial.rebalance.delay.ms=0",
                    "");
        }

        String zookeeperFile(int id) {
            return String.join("\n",
                    "# Broker " + id + " of a three-broker cluster in ZooKeeper mode (Kafka 3.x), started from the",
                    "# server.properties that ships with Kafka.",
                    "",
                    "############################# Server Basics #############################",
                    "",
                    "broker.id=" + id,
                    "",
                    "############################# Socket Server Settings #############################",
                    "",
                    "listeners=PLAINTEXT://127.0.0.1:" + brokerPorts[id],
                    "",
                    "num.network.threads=3",
                    "num.io.threads=8",
                    "socket.send.buffer.bytes=102400",
                    "socket.receive.buffer.bytes=102400",
                    "socket.request.max.bytes=104857600",
                    "",
                    "############################# Log Basics #############################",
                    "",
                    "log.dirs=" + dir.resolve("data/broker-" + id),
                    "num.partitions=1",
                    "num.recovery.threads.per.data.dir=1",
                    "",
                    "############################# Internal Topic Settings #############################",
                    "# The stock file keeps the group and transaction metadata topics on a single replica so that a",
                    "# one-broker trial works. Anything else needs more, e.g. 3.",
                    "offsets.topic.replication.factor=1",
                    "transaction.state.log.replication.factor=1",
                    "transaction.state.log.min.isr=1",
                    "",
                    "############################# Log Retention Policy #############################",
                    "",
                    "log.retention.hours=168",
                    "log.segment.bytes=1073741824",
                    "log.retention.check.interval.ms=300000",
                    "",
                    "############################# Zookeeper #############################",
                    "",
                    "zookeeper.connect=127.0.0.1:" + zkPort,
                    "zookeeper.connection.timeout.ms=18000",
                    "",
                    "############################# Group Coordinator Settings #############################",
                    "",
                    "group.initial.rebalance.delay.ms=0",
                    "");
        }

        Properties read(int id) throws IOException {
            Properties props = new Properties();
            try (var in = Files.newInputStream(config.resolve("server-" + id + ".properties"))) {
                props.load(in);
            }
            return props;
        }

        void insertAfter(int id, String line, String added) throws IOException {
            Path file = config.resolve("server-" + id + ".properties");
            String text = Files.readString(file, StandardCharsets.ISO_8859_1);
            check(text.contains(line + "\n"), file + " has no line " + line);
            Files.writeString(file, text.replace(line + "\n", line + "\n" + added + "\n"), StandardCharsets.ISO_8859_1);
        }

        List<String> java(String log, String heap) {
            String logConfig = version.startsWith("3.")
                    ? "-Dlog4j.configuration=file:" + dir.resolve("support/log4j.properties")
                    : "-Dlog4j2.configurationFile=" + dir.resolve("support/log4j2.properties");
            List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xms64m", "-Xmx" + heap, "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xshare:auto",
                    "-Djava.awt.headless=true", "-Dkafka.proof.log=" + logs.resolve(log + ".log"), logConfig));
            command.addAll(nodeOptions);
            command.addAll(List.of("-cp", classpath));
            return command;
        }

        Process launch(String name, List<String> cmd) throws IOException {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(logs.resolve(name + ".out").toFile())).start();
            children.add(p);
            Files.writeString(pids.resolve(dir.getFileName() + "-" + name + ".pid"), Long.toString(p.pid()));
            return p;
        }

        void forget(String name, Process p) {
            children.remove(p);
            try {
                Files.deleteIfExists(pids.resolve(dir.getFileName() + "-" + name + ".pid"));
            } catch (IOException ignored) {
                // the pid file only helps the calling script; the process is gone
            }
        }

        /** Formats storage (KRaft, once) and starts the nodes; returns when every process runs. */
        void start() throws Exception {
            long t = System.nanoTime();
            if (mode.equals("zookeeper")) {
                // ZooKeeper is started once and keeps running while the brokers restart.
                if (zookeeper == null) {
                    List<String> cmd = java("zookeeper", "128m");
                    cmd.add("org.apache.zookeeper.server.ZooKeeperServerMain");
                    cmd.add(dir.resolve("support/zookeeper.properties").toString());
                    zookeeper = launch("zookeeper", cmd);
                    awaitPort(zkPort, zookeeper, "zookeeper");
                    say("  ZooKeeper (ZooKeeperServerMain) listening on 127.0.0.1:%d in %s", zkPort, secs(System.nanoTime() - t));
                }
            } else if (!formatted) {
                String clusterId = Uuid.randomUuid().toString();
                List<Process> formats = new ArrayList<>();
                for (int id = 0; id < NODES; id++) {
                    List<String> cmd = java("format-" + id, "128m");
                    cmd.addAll(List.of("kafka.tools.StorageTool", "format", "-t", clusterId, "-c",
                            config.resolve("server-" + id + ".properties").toString()));
                    formats.add(launch("format-" + id, cmd));
                }
                for (int id = 0; id < NODES; id++) {
                    Process p = formats.get(id);
                    check(p.waitFor(60, TimeUnit.SECONDS), "kafka-storage format of node " + id + " took over 60 s");
                    forget("format-" + id, p);
                    check(p.exitValue() == 0, "kafka-storage format of node " + id + " failed: "
                            + tail(logs.resolve("format-" + id + ".out"), 20));
                }
                formatted = true;
                say("  storage formatted (kafka-storage format -t %s, static voters) in %s", clusterId,
                        secs(System.nanoTime() - t));
            }
            long launched = System.nanoTime();
            for (int id = 0; id < NODES; id++) {
                List<String> cmd = java("node-" + id, "320m");
                cmd.add("kafka.Kafka");
                cmd.add(config.resolve("server-" + id + ".properties").toString());
                nodes[id] = launch("node-" + id, cmd);
            }
            startedAt = launched;
            starts++;
        }

        /** Starts one node again, on its log directories (after a kill). */
        void startNode(int id) throws Exception {
            List<String> cmd = java("node-" + id, "320m");
            cmd.add("kafka.Kafka");
            cmd.add(config.resolve("server-" + id + ".properties").toString());
            nodes[id] = launch("node-" + id, cmd);
            startedAt = System.nanoTime();
            starts++;
        }

        long startedAt;
        int starts;

        void awaitBrokers(Admin admin) throws Exception {
            long deadline = startedAt + START_TIMEOUT.toNanos();
            int seen = 0;
            while (System.nanoTime() < deadline) {
                checkAlive();
                try {
                    Collection<Node> live = admin.describeCluster().nodes().get(5, TimeUnit.SECONDS);
                    seen = live.size();
                    if (seen == NODES) {
                        long up = System.nanoTime() - startedAt;
                        say("  3 brokers up (describeCluster) %s after launch, ports %s", secs(up), bootstrap());
                        timings.add(String.format(Locale.ROOT, "%s: 3 brokers up in %s%s", dir.getFileName(), secs(up),
                                starts > 1 ? " (restart on the same log dirs)" : ""));
                        return;
                    }
                } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
                    // not listening yet
                }
                Thread.sleep(500);
            }
            throw new Failure(seen + " of 3 brokers up after " + START_TIMEOUT.toSeconds() + " s");
        }

        void checkAlive() {
            for (int id = 0; id < NODES; id++) {
                if (nodes[id] != null && !nodes[id].isAlive()) {
                    throw new Failure("node " + id + " exited with " + nodes[id].exitValue());
                }
            }
            if (zookeeper != null && !zookeeper.isAlive()) {
                throw new Failure("zookeeper exited with " + zookeeper.exitValue());
            }
        }

        /** SIGKILL: Process.destroyForcibly on the node's own JVM. */
        void kill(int id) throws InterruptedException {
            nodes[id].destroyForcibly();
            check(nodes[id].waitFor(10, TimeUnit.SECONDS), "node " + id + " outlived SIGKILL by 10 s");
            forget("node-" + id, nodes[id]);
            nodes[id] = null;
        }

        int survivor(int dead) {
            for (int id = 0; id < NODES; id++) {
                if (id != dead && nodes[id] != null) {
                    return id;
                }
            }
            throw new Failure("no live broker");
        }

        /** SIGTERM to every node (a clean shutdown), SIGKILL for any still running after 30 s. */
        void stopAll() throws InterruptedException {
            for (Process p : nodes) {
                if (p != null) {
                    p.destroy();
                }
            }
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            for (int id = 0; id < NODES; id++) {
                if (nodes[id] == null) {
                    continue;
                }
                long left = Math.max(0, deadline - System.nanoTime());
                if (!nodes[id].waitFor(left, TimeUnit.NANOSECONDS)) {
                    say("  node %d did not stop on SIGTERM within 30 s: SIGKILL", id);
                    nodes[id].destroyForcibly();
                    nodes[id].waitFor(10, TimeUnit.SECONDS);
                }
                forget("node-" + id, nodes[id]);
                nodes[id] = null;
            }
        }

        void killAllNodes() {
            for (int id = 0; id < NODES; id++) {
                if (nodes[id] != null) {
                    nodes[id].destroyForcibly();
                    try {
                        nodes[id].waitFor(10, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    forget("node-" + id, nodes[id]);
                    nodes[id] = null;
                }
            }
            if (zookeeper != null) {
                zookeeper.destroyForcibly();
                try {
                    zookeeper.waitFor(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                forget("zookeeper", zookeeper);
                zookeeper = null;
            }
        }

        void printLogTails() {
            try (var files = Files.list(logs)) {
                for (Path log : files.sorted().collect(Collectors.toList())) {
                    say("  --- last lines of %s", log);
                    say("%s", tail(log, 25));
                }
            } catch (IOException e) {
                say("  (no logs: %s)", e);
            }
        }

        /** One of Kafka's command-line tools (its main class), as its script runs it; output kept in logs/. */
        Command tool(String name, String mainClass, String... args) throws Exception {
            List<String> cmd = java(name, "256m");
            cmd.add(mainClass);
            cmd.addAll(List.of(args));
            Process p = launch(name, cmd);
            try {
                check(p.waitFor(60, TimeUnit.SECONDS), name + " did not finish within 60 s");
                String out = Files.readString(logs.resolve(name + ".out"));
                return new Command(p.exitValue(), out, "");
            } finally {
                p.destroyForcibly();
                forget(name, p);
            }
        }

        Admin admin() {
            Properties p = new Properties();
            p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap());
            p.put(AdminClientConfig.CLIENT_ID_CONFIG, "proof-admin");
            p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000");
            p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "30000");
            return Admin.create(p);
        }

        KafkaConsumer<String, String> consumer(String clientId) {
            Properties p = new Properties();
            p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap());
            p.put(ConsumerConfig.GROUP_ID_CONFIG, GROUP);
            p.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
            p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
            p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
            p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
            p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
            return new KafkaConsumer<>(p);
        }

        KafkaProducer<String, String> producer() {
            Properties p = new Properties();
            p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap());
            p.put(ProducerConfig.CLIENT_ID_CONFIG, "proof-producer");
            p.put(ProducerConfig.ACKS_CONFIG, "all");
            p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
            p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
            return new KafkaProducer<>(p);
        }
    }

    // ------------------------------------------------------------------------------------------
    // Support

    /** Ports the kernel hands out for 127.0.0.1:0, all held open until every one is chosen. */
    static int[] freePorts(int count) throws IOException {
        List<ServerSocket> held = new ArrayList<>();
        try {
            int[] ports = new int[count];
            for (int i = 0; i < count; i++) {
                ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                held.add(s);
                ports[i] = s.getLocalPort();
            }
            return ports;
        } finally {
            for (ServerSocket s : held) {
                s.close();
            }
        }
    }

    static void awaitPort(int port, Process owner, String name) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            check(owner.isAlive(), name + " exited with " + (owner.isAlive() ? "" : owner.exitValue()));
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1000);
                return;
            } catch (IOException e) {
                Thread.sleep(200);
            }
        }
        throw new Failure(name + " not listening on 127.0.0.1:" + port + " within 60 s");
    }

    void killAll() {
        for (Process p : children) {
            p.destroyForcibly();
        }
        for (Process p : children) {
            try {
                p.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        children.clear();
    }

    static String tail(Path file, int lines) {
        try {
            List<String> all = Files.readAllLines(file, StandardCharsets.ISO_8859_1);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(unreadable: " + e + ")";
        }
    }

    static String lastLine(String text) {
        String[] lines = text.strip().split("\n");
        return lines.length == 0 ? "" : lines[lines.length - 1];
    }

    String rel(Path p) {
        return work.relativize(p).toString();
    }

    static String secs(long nanos) {
        return String.format(Locale.ROOT, "%.1f s", nanos / 1e9);
    }

    static String describe(Throwable t) {
        if (t == null) {
            return "none";
        }
        StringBuilder sb = new StringBuilder(t.getClass().getSimpleName() + ": " + t.getMessage());
        Set<Throwable> seen = new java.util.HashSet<>();
        for (Throwable c = t.getCause(); c != null && seen.add(c); c = c.getCause()) {
            sb.append(" (caused by ").append(c.getClass().getSimpleName()).append(": ").append(c.getMessage()).append(')');
        }
        return sb.toString();
    }

    void say(String format, Object... args) {
        System.out.println(String.format(Locale.ROOT, format, args));
        System.out.flush();
    }

    static void check(boolean condition, String message) {
        if (!condition) {
            throw new Failure(message);
        }
    }

    static final class Failure extends RuntimeException {
        Failure(String message) {
            super(message);
        }
    }

    /** Just enough JSON for kafkalint's own output: objects, arrays, strings, numbers, literals. */
    static final class Json {
        final String s;
        int i;

        Json(String s) {
            this.s = s;
        }

        Object value() {
            skip();
            char c = s.charAt(i);
            switch (c) {
                case '{': {
                    i++;
                    Map<String, Object> m = new LinkedHashMap<>();
                    skip();
                    if (s.charAt(i) == '}') {
                        i++;
                        return m;
                    }
                    while (true) {
                        skip();
                        String k = string();
                        skip();
                        expect(':');
                        m.put(k, value());
                        skip();
                        if (s.charAt(i++) == '}') {
                            return m;
                        }
                    }
                }
                case '[': {
                    i++;
                    List<Object> l = new ArrayList<>();
                    skip();
                    if (s.charAt(i) == ']') {
                        i++;
                        return l;
                    }
                    while (true) {
                        l.add(value());
                        skip();
                        if (s.charAt(i++) == ']') {
                            return l;
                        }
                    }
                }
                case '"':
                    return string();
                default: {
                    int start = i;
                    while (i < s.length() && ",}] \n\r\t".indexOf(s.charAt(i)) < 0) {
                        i++;
                    }
                    String word = s.substring(start, i);
                    return switch (word) {
                        case "true" -> Boolean.TRUE;
                        case "false" -> Boolean.FALSE;
                        case "null" -> null;
                        default -> Double.valueOf(word).longValue();
                    };
                }
            }
        }

        String string() {
            expect('"');
            StringBuilder sb = new StringBuilder();
            while (true) {
                char c = s.charAt(i++);
                if (c == '"') {
                    return sb.toString();
                }
                if (c == '\\') {
                    char e = s.charAt(i++);
                    switch (e) {
                        case 'n' -> sb.append('\n');
                        case 't' -> sb.append('\t');
                        case 'r' -> sb.append('\r');
                        case 'b' -> sb.append('\b');
                        case 'f' -> sb.append('\f');
                        case 'u' -> {
                            sb.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
                            i += 4;
                        }
                        default -> sb.append(e);
                    }
                } else {
                    sb.append(c);
                }
            }
        }

        void expect(char c) {
            if (s.charAt(i++) != c) {
                throw new IllegalArgumentException("JSON: expected " + c + " at " + (i - 1));
            }
        }

        void skip() {
            while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
                i++;
            }
        }
    }
}
