package dev.kafkalint.cluster;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.CreateTopicsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.Uuid;

/**
 * Scenario Q (KRaft): the controller quorum, on a dynamic quorum (KIP-853): three combined nodes
 * whose files name {@code controller.quorum.bootstrap.servers}, their storage formatted with
 * {@code --initial-controllers} (each node its own directory id). One voter is killed: kafkalint
 * live must report the majority with nothing to spare, and {@code --stopping} another voter must
 * be a no-go; then that voter is killed too, and topic creation must time out, as kafkalint said.
 * Last, one node formatted {@code --standalone}: a single-voter quorum.
 */
final class ScenarioQuorum {
    private final ClusterProof proof;

    ScenarioQuorum(ClusterProof proof) {
        this.proof = proof;
    }

    void run(ClusterProof.Cluster cluster) throws Exception {
        cluster.writeSeed();
        String[] directories = new String[ClusterProof.NODES];
        for (int id = 0; id < ClusterProof.NODES; id++) {
            directories[id] = Uuid.randomUuid().toString();
            dynamic(cluster, id);
        }
        String initial = IntStream.range(0, ClusterProof.NODES)
                .mapToObj(id -> id + "@127.0.0.1:" + cluster.controllerPorts[id] + ":" + directories[id])
                .collect(Collectors.joining(","));
        String clusterId = Uuid.randomUuid().toString();
        for (int id = 0; id < ClusterProof.NODES; id++) {
            format(cluster, id, clusterId, "--initial-controllers", initial);
        }
        cluster.formatted = true;
        proof.say("  storage formatted for a dynamic quorum (kafka-storage format --initial-controllers %s)", initial);
        cluster.start();
        String files = cluster.config.toString();
        try (Admin admin = cluster.admin()) {
            cluster.awaitBrokers(admin);
        }

        Path saved = cluster.dir.resolve("healthy.snapshot");
        ClusterProof.Verdict healthy = awaitVerdict(cluster, v -> v.count("live-controller-quorum") == 0,
                "--save-snapshot", saved.toString(), files);
        String snapshot = Files.readString(saved, StandardCharsets.ISO_8859_1);
        for (int id = 0; id < ClusterProof.NODES; id++) {
            ClusterProof.check(snapshot.contains("quorum.voter." + id + "=") && snapshot.contains("directory="
                    + directories[id]), "the snapshot should list voter " + id + " with its directory id");
        }
        proof.say("  kafkalint live: exit %d, %s; the snapshot lists voters 0, 1, 2 with their directory ids",
                healthy.exit(), healthy.summary());
        ClusterProof.Verdict go = proof.live(cluster, "--stopping", "1");
        proof.say("  kafkalint live --stopping 1 (three voters in sync): exit %d, %s", go.exit(), go.summary());
        ClusterProof.check(go.exit() == 0, "--stopping a voter of three in sync should be a go");

        long killed = System.nanoTime();
        cluster.kill(0);
        proof.say("  SIGKILL node 0 (a voter)");
        Path down = cluster.dir.resolve("voter-down.snapshot");
        ClusterProof.Verdict lost = awaitVerdict(cluster,
                v -> v.has("live-controller-quorum", "error", null, null), "--save-snapshot", down.toString(), files);
        long detected = System.nanoTime() - killed;
        proof.say("  kafkalint live: exit %d, %s, %s after the kill: live-controller-quorum error (no majority to spare)",
                lost.exit(), lost.summary(), ClusterProof.secs(detected));
        proof.timings.add("Q: voter 0 killed to kafkalint live reporting the quorum's lost margin: "
                + ClusterProof.secs(detected));
        ClusterProof.check(lost.exit() == 1, "kafkalint live should exit 1 with a voter down");
        ClusterProof.Verdict noGo = proof.live(cluster, "--stopping", "1");
        proof.say("  kafkalint live --stopping 1: exit %d, %s", noGo.exit(), noGo.summary());
        // What an operator reads, from the answers saved when the margin was seen lost.
        for (String stopping : List.of("", "1")) {
            List<String> args = new ArrayList<>(List.of("live", "--snapshot", down.toString(), "--format", "concise"));
            if (!stopping.isEmpty()) {
                args.addAll(List.of("--stopping", stopping));
            }
            ClusterProof.Command said = proof.kafkalintRun(args);
            for (String line : said.stdout().split("\n")) {
                if (line.contains("[live-")) {
                    proof.say("    | %s", line.replaceAll("^.*?: (error|warning|info)", "$1"));
                }
            }
        }
        ClusterProof.check(noGo.exit() == 1 && noGo.has("live-stopping-broker", "error", null, null),
                "--stopping a second voter should be a no-go");

        // The cluster still changes its metadata with two voters of three...
        try (Admin admin = admin(cluster, 2)) {
            long t = System.nanoTime();
            admin.createTopics(List.of(new NewTopic("quorum-two-of-three", 1, (short) 1)))
                    .all().get(60, TimeUnit.SECONDS);
            proof.say("  with voters 1 and 2: createTopics quorum-two-of-three succeeds in %s",
                    ClusterProof.secs(System.nanoTime() - t));
        }
        // ...and no longer with one: the no-go, checked.
        cluster.kill(1);
        proof.say("  SIGKILL node 1 (the no-go checked)");
        try (Admin admin = admin(cluster, 2)) {
            long t = System.nanoTime();
            try {
                admin.createTopics(List.of(new NewTopic("quorum-one-of-three", 1, (short) 1)),
                        new CreateTopicsOptions().timeoutMs(15_000)).all().get(40, TimeUnit.SECONDS);
                throw new ClusterProof.Failure("createTopics succeeded with one voter of three");
            } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
                Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
                proof.say("  with voter 2 alone: createTopics quorum-one-of-three fails after %s (%s)",
                        ClusterProof.secs(System.nanoTime() - t), cause.getClass().getSimpleName());
            }
        }
        cluster.killAllNodes();
        single(cluster.dir.getParent().resolve(cluster.dir.getFileName() + "-single"));
    }

    /** A single node formatted --standalone: a quorum of one voter. */
    void single(Path dir) throws Exception {
        ClusterProof.Cluster one = proof.new Cluster(dir);
        try {
            one.writeSeed();
            dynamic(one, 0);
            Path file = one.config.resolve("server-0.properties");
            String text = Files.readString(file, StandardCharsets.ISO_8859_1)
                    .replace(bootstrapServers(one), "controller.quorum.bootstrap.servers=127.0.0.1:" + one.controllerPorts[0]);
            for (int id = 1; id < ClusterProof.NODES; id++) {
                Files.delete(one.config.resolve("server-" + id + ".properties"));
            }
            Files.writeString(file, text, StandardCharsets.ISO_8859_1);
            format(one, 0, Uuid.randomUuid().toString(), "--standalone");
            List<String> cmd = one.java("node-0", "320m");
            cmd.add("kafka.Kafka");
            cmd.add(file.toString());
            one.nodes[0] = one.launch("node-0", cmd);
            long t = System.nanoTime();
            try (Admin admin = admin(one, 0)) {
                while (true) {
                    one.checkAlive();
                    ClusterProof.check(System.nanoTime() - t < ClusterProof.START_TIMEOUT.toNanos(),
                            "the single node did not come up");
                    try {
                        Collection<Node> nodes = admin.describeCluster().nodes().get(5, TimeUnit.SECONDS);
                        if (nodes.size() == 1) {
                            break;
                        }
                    } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
                        // not up yet
                    }
                    Thread.sleep(500);
                }
            }
            proof.say("  a single node formatted --standalone up in %s", ClusterProof.secs(System.nanoTime() - t));
            List<String> args = new ArrayList<>(List.of("live", "--format", "json", "--bootstrap-server",
                    "127.0.0.1:" + one.brokerPort(0), one.config.toString()));
            ClusterProof.Verdict alone = proof.verdict(args);
            proof.say("  kafkalint live (one voter): exit %d, %s", alone.exit(), alone.summary());
            ClusterProof.check(alone.has("live-controller-quorum", "warning", null, null),
                    "kafkalint live should report the single-voter quorum");
        } finally {
            one.killAllNodes();
        }
    }

    /** The node's file with a dynamic quorum: bootstrap servers, and its controller endpoint advertised. */
    void dynamic(ClusterProof.Cluster cluster, int id) throws Exception {
        Path file = cluster.config.resolve("server-" + id + ".properties");
        String text = Files.readString(file, StandardCharsets.ISO_8859_1);
        String voters = text.lines().filter(line -> line.startsWith("controller.quorum.voters="))
                .findFirst().orElseThrow();
        String advertised = "advertised.listeners=PLAINTEXT://127.0.0.1:" + cluster.brokerPorts[id];
        text = text.replace(voters, bootstrapServers(cluster))
                .replace("with a static quorum.", "with a dynamic quorum (KIP-853).")
                .replace(advertised + "\n", advertised + ",CONTROLLER://127.0.0.1:" + cluster.controllerPorts[id] + "\n");
        Files.writeString(file, text, StandardCharsets.ISO_8859_1);
    }

    static String bootstrapServers(ClusterProof.Cluster cluster) {
        return "controller.quorum.bootstrap.servers=" + IntStream.range(0, ClusterProof.NODES)
                .mapToObj(i -> "127.0.0.1:" + cluster.controllerPorts[i]).collect(Collectors.joining(","));
    }

    /** kafka-storage format of one node, with the quorum arguments given. */
    void format(ClusterProof.Cluster cluster, int id, String clusterId, String... quorum) throws Exception {
        List<String> cmd = cluster.java("format-" + id, "128m");
        cmd.addAll(List.of("kafka.tools.StorageTool", "format", "-t", clusterId, "-c",
                cluster.config.resolve("server-" + id + ".properties").toString()));
        cmd.addAll(List.of(quorum));
        Process p = cluster.launch("format-" + id, cmd);
        ClusterProof.check(p.waitFor(60, TimeUnit.SECONDS), "kafka-storage format of node " + id + " took over 60 s");
        cluster.forget("format-" + id, p);
        ClusterProof.check(p.exitValue() == 0, "kafka-storage format of node " + id + " failed: "
                + ClusterProof.tail(cluster.logs.resolve("format-" + id + ".out"), 20));
    }

    /** An admin client of node {@code id} alone. */
    static Admin admin(ClusterProof.Cluster cluster, int id) {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + cluster.brokerPort(id));
        p.put(AdminClientConfig.CLIENT_ID_CONFIG, "proof-admin-quorum");
        p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000");
        p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "30000");
        return Admin.create(p);
    }

    /** kafkalint live (JSON) every second until {@code wanted} holds, within the detection timeout. */
    ClusterProof.Verdict awaitVerdict(ClusterProof.Cluster cluster,
            java.util.function.Predicate<ClusterProof.Verdict> wanted, String... args) throws Exception {
        long deadline = System.nanoTime() + ClusterProof.DETECT_TIMEOUT.toNanos();
        ClusterProof.Verdict last = null;
        while (System.nanoTime() < deadline) {
            last = proof.live(cluster, args);
            if (wanted.test(last)) {
                return last;
            }
            Thread.sleep(1000);
        }
        throw new ClusterProof.Failure(String.format(Locale.ROOT, "kafkalint live did not say what was expected in %s: %s",
                ClusterProof.secs(ClusterProof.DETECT_TIMEOUT.toNanos()), last == null ? "no run" : last.summary()));
    }
}
