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

        Process controller = addedController(cluster, clusterId, files);
        try {
            lostMargin(cluster, files);
        } finally {
            controller.destroyForcibly();
            controller.waitFor(10, TimeUnit.SECONDS);
            cluster.forget("controller-3", controller);
        }
        cluster.killAllNodes();
        single(cluster.dir.getParent().resolve(cluster.dir.getFileName() + "-single"));
    }

    /**
     * A fourth node, controller only, formatted --no-initial-controllers and started: the quorum
     * has it as an observer, which kafkalint reports against its file; Kafka's own tool then adds it
     * with the command kafkalint's help gives, and the quorum of four voters is reported as even.
     */
    Process addedController(ClusterProof.Cluster cluster, String clusterId, String files) throws Exception {
        int port = ClusterProof.freePorts(1)[0];
        Path file = cluster.config.resolve("controller-3.properties");
        Files.writeString(file, String.join("\n",
                "# Node 3: a controller only, joining the dynamic quorum of nodes 0 to 2.",
                "process.roles=controller",
                "node.id=3",
                bootstrapServers(cluster),
                "listeners=CONTROLLER://127.0.0.1:" + port,
                "advertised.listeners=CONTROLLER://127.0.0.1:" + port,
                "controller.listener.names=CONTROLLER",
                "listener.security.protocol.map=CONTROLLER:PLAINTEXT",
                "log.dirs=" + cluster.dir.resolve("data/node-3"),
                ""), StandardCharsets.ISO_8859_1);
        format(cluster, "controller-3", file, clusterId, "--no-initial-controllers");
        List<String> cmd = cluster.java("controller-3", "256m");
        cmd.add("kafka.Kafka");
        cmd.add(file.toString());
        Process controller = cluster.launch("controller-3", cmd);
        // Until it fetches, the quorum knows it not at all (a finding of its own); then as an observer.
        ClusterProof.Verdict observer = awaitVerdict(cluster, v -> v.findings().stream().anyMatch(
                f -> f.rule().equals("live-controller-quorum") && f.file().endsWith("/controller-3.properties")
                        && f.help() != null && f.help().contains("add-controller")), files);
        String help = observer.findings().stream().filter(f -> f.rule().equals("live-controller-quorum"))
                .map(ClusterProof.Finding::help).findFirst().orElse("");
        proof.say("  controller 3 started (formatted --no-initial-controllers): kafkalint live %s: exit %d, %s; help: %s",
                proof.rel(cluster.config), observer.exit(), observer.summary(), help);
        ClusterProof.check(help.contains("add-controller"), "the help should name add-controller");
        long deadline = System.nanoTime() + ClusterProof.DETECT_TIMEOUT.toNanos();
        while (true) {
            ClusterProof.Command added = cluster.tool("add-controller", "org.apache.kafka.tools.MetadataQuorumCommand",
                    "--bootstrap-controller", "127.0.0.1:" + cluster.controllerPorts[0], "--command-config",
                    file.toString(), "add-controller");
            if (added.exit() == 0) {
                proof.say("  kafka-metadata-quorum.sh --bootstrap-controller ... --command-config controller-3.properties "
                        + "add-controller: exit 0");
                break;
            }
            ClusterProof.check(System.nanoTime() < deadline, "add-controller kept failing: "
                    + ClusterProof.lastLine(added.stdout()));
            Thread.sleep(2000);
        }
        ClusterProof.Verdict even = awaitVerdict(cluster, v -> v.findings().stream().anyMatch(
                f -> f.rule().equals("live-controller-quorum") && f.help() != null && f.help().contains("odd number"))
                && !v.has("live-controller-quorum", "warning", "controller-3.properties", null), files);
        proof.say("  kafkalint live with four voters: exit %d, %s (an even quorum; controller 3 a voter)",
                even.exit(), even.summary());
        return controller;
    }

    /** One voter killed: the margin lost, another voter's stop a no-go, checked. */
    void lostMargin(ClusterProof.Cluster cluster, String files) throws Exception {
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
            admin.createTopics(List.of(new NewTopic("quorum-three-of-four", 1, (short) 1)))
                    .all().get(60, TimeUnit.SECONDS);
            proof.say("  with voters 1, 2 and 3 of four: createTopics quorum-three-of-four succeeds in %s",
                    ClusterProof.secs(System.nanoTime() - t));
        }
        // ...and no longer with one: the no-go, checked.
        cluster.kill(1);
        proof.say("  SIGKILL node 1 (the no-go checked)");
        try (Admin admin = admin(cluster, 2)) {
            long t = System.nanoTime();
            try {
                admin.createTopics(List.of(new NewTopic("quorum-two-of-four", 1, (short) 1)),
                        new CreateTopicsOptions().timeoutMs(15_000)).all().get(40, TimeUnit.SECONDS);
                throw new ClusterProof.Failure("createTopics succeeded with two voters of four");
            } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
                Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
                proof.say("  with voters 2 and 3 of four: createTopics quorum-two-of-four fails after %s (%s)",
                        ClusterProof.secs(System.nanoTime() - t), cause.getClass().getSimpleName());
            }
        }
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
        format(cluster, "node-" + id, cluster.config.resolve("server-" + id + ".properties"), clusterId, quorum);
    }

    void format(ClusterProof.Cluster cluster, String node, Path file, String clusterId, String... quorum)
            throws Exception {
        String name = "format-" + node;
        List<String> cmd = cluster.java(name, "128m");
        cmd.addAll(List.of("kafka.tools.StorageTool", "format", "-t", clusterId, "-c", file.toString()));
        cmd.addAll(List.of(quorum));
        Process p = cluster.launch(name, cmd);
        ClusterProof.check(p.waitFor(60, TimeUnit.SECONDS), "kafka-storage format of " + node + " took over 60 s");
        cluster.forget(name, p);
        ClusterProof.check(p.exitValue() == 0, "kafka-storage format of " + node + " failed: "
                + ClusterProof.tail(cluster.logs.resolve(name + ".out"), 20));
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
