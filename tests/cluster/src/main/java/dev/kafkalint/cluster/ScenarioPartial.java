package dev.kafkalint.cluster;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;

/**
 * Scenario P (KRaft): a partial view never reads as healthy. Every node runs Kafka's
 * StandardAuthorizer with a SASL_PLAINTEXT listener (PLAIN) beside the seed's PLAINTEXT one;
 * `admin` is a super user, `bob` has no ACL. The same questions asked as each: the super user
 * gets the real answer (a no-go for broker 0: the seed's one-replica __consumer_offsets), bob
 * gets a partial view (the summary says what is missing, never "No problems found";
 * `--stopping` exits 2, never "can stop"). Then node 2 is killed: once the cluster no longer
 * lists it (Admin's describeCluster, the controllers' word), `kafkalint live` with the files
 * reports the declared broker that is not registered, as the super user and as bob.
 */
final class ScenarioPartial {
    static final String ADMIN_SECRET = "admin-plain-secret-5520";
    static final String BOB_SECRET = "bob-plain-secret-5520";
    static final String CAROL_SECRET = "carol-plain-secret-5520";

    final ClusterProof proof;

    ScenarioPartial(ClusterProof proof) {
        this.proof = proof;
    }

    void run(ClusterProof.Cluster cluster) throws Exception {
        ClusterProof.check(proof.mode.equals("kraft"), "scenario P runs StandardAuthorizer: KRaft only");
        int[] saslPorts = java.util.Arrays.copyOfRange(cluster.extraPorts, ClusterProof.NODES, 2 * ClusterProof.NODES);
        secure(cluster, saslPorts);
        proof.startWithGroup(cluster);
        proof.say("  StandardAuthorizer on every node, super.users=User:ANONYMOUS;User:admin, bob without ACL; "
                + "topic and group made as the PLAINTEXT (super) user");

        Path admin = login(cluster, "admin", ADMIN_SECRET);
        Path bob = login(cluster, "bob", BOB_SECRET);
        String bootstrap = "127.0.0.1:" + saslPorts[0];
        Path carol = login(cluster, "carol", CAROL_SECRET);
        List<String> secrets = List.of(ADMIN_SECRET, BOB_SECRET, CAROL_SECRET);

        // The super user: the whole view, and the real go/no-go.
        Path adminSnapshot = cluster.dir.resolve("admin.snapshot");
        ClusterProof.Command whole = live(secrets, "--bootstrap-server", bootstrap, "--command-config",
                admin.toString(), "--save-snapshot", adminSnapshot.toString());
        ClusterProof.check(!whole.stdout().contains("partial view") && !whole.stderr().contains("not known"),
                "the super user's view should be whole: " + whole.stdout() + whole.stderr());
        String operations = line(Files.readString(adminSnapshot), "cluster.operations=");
        ClusterProof.check(operations.contains("DESCRIBE,DESCRIBE_CONFIGS"),
                "the super user may DESCRIBE the cluster: " + operations);
        ClusterProof.Command adminStop = live(secrets, "--bootstrap-server", bootstrap, "--command-config",
                admin.toString(), "--stopping", "0");
        ClusterProof.check(adminStop.exit() == 1, "the super user's --stopping 0 should be a no-go (exit 1), got "
                + adminStop.exit() + ": " + adminStop.stderr());
        proof.say("  admin (super user): whole view (%s), --stopping 0 no-go (exit 1)", operations);

        // bob: shown nothing, told so.
        Path bobSnapshot = cluster.dir.resolve("bob.snapshot");
        ClusterProof.Command partial = live(secrets, "--bootstrap-server", bootstrap, "--command-config",
                bob.toString(), "--save-snapshot", bobSnapshot.toString());
        String summary = partial.stdout().strip().lines().reduce((a, b) -> b).orElse("");
        ClusterProof.check(!summary.contains("No problems") && summary.contains("a partial view, not known: "),
                "bob's summary should say the view is partial: " + summary);
        String saved = Files.readString(bobSnapshot);
        ClusterProof.check(saved.contains("\nunlisted-topic.__consumer_offsets=TOPIC_AUTHORIZATION_FAILED\n"),
                "bob's snapshot should say __consumer_offsets is hidden from him: " + saved);
        ClusterProof.check(saved.contains("\ncluster.operations=\n"), "bob may do nothing on the cluster: " + saved);
        ClusterProof.check(saved.contains(".unreached=") && saved.contains("CLUSTER_AUTHORIZATION_FAILED"),
                "bob's DescribeConfigs of the brokers should be refused: " + saved);
        proof.say("  bob (no ACL): exit %d, %s", partial.exit(), summary);
        ClusterProof.Command bobStop = live(secrets, "--bootstrap-server", bootstrap, "--command-config",
                bob.toString(), "--stopping", "0");
        ClusterProof.check(bobStop.exit() == 2, "bob's --stopping 0 should be no answer (exit 2), got "
                + bobStop.exit() + ": " + bobStop.stdout() + bobStop.stderr());
        ClusterProof.check(!(bobStop.stdout() + bobStop.stderr()).contains("can stop"), "bob was told broker 0 can stop");
        proof.say("  bob --stopping 0: exit 2, %s", ClusterProof.lastLine(bobStop.stderr().strip()));
        Map<?, ?> json = (Map<?, ?>) new ClusterProof.Json(live(secrets, "--bootstrap-server", bootstrap,
                "--command-config", bob.toString(), "--format", "json").stdout()).value();
        long missing = ((List<?>) json.get("not_checked")).stream()
                .filter(item -> "partial-view".equals(((Map<?, ?>) item).get("kind"))).count();
        ClusterProof.check(missing >= 3, "bob's JSON should list what is missing: " + json.get("not_checked"));
        proof.say("  bob --format json: %d not_checked entries of kind partial-view", missing);

        // carol may describe __consumer_offsets, not the group: FindCoordinator answers
        // GROUP_AUTHORIZATION_FAILED though its partition has a leader. Not "no coordinator".
        try (Admin superUser = cluster.admin()) {
            superUser.createAcls(List.of(new AclBinding(
                    new ResourcePattern(ResourceType.TOPIC, "__consumer_offsets", PatternType.LITERAL),
                    new AccessControlEntry("User:carol", "*", AclOperation.DESCRIBE, AclPermissionType.ALLOW))))
                    .all().get(30, TimeUnit.SECONDS);
        }
        ClusterProof.Command hidden = null;
        long aclDeadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (System.nanoTime() < aclDeadline) {
            hidden = live(secrets, "--bootstrap-server", bootstrap, "--command-config", carol.toString(), "--group",
                    ClusterProof.GROUP, "--format", "json");
            if (hidden.stdout().contains("live-internal-topic-replication")) {
                break;
            }
            Thread.sleep(500);
        }
        ClusterProof.check(hidden != null && hidden.stdout().contains("live-internal-topic-replication"),
                "carol should see __consumer_offsets once the ACL is in: " + (hidden == null ? "" : hidden.stderr()));
        ClusterProof.check(!hidden.stdout().contains("live-group-coordinator"),
                "carol's group is not one without a coordinator: " + hidden.stdout());
        ClusterProof.check(hidden.stderr().contains("not known: the coordinator of group " + ClusterProof.GROUP
                + ": GROUP_AUTHORIZATION_FAILED"), "carol should be told the group's coordinator is not known: "
                + hidden.stderr());
        proof.say("  carol (DESCRIBE on __consumer_offsets only) --group %s: no live-group-coordinator finding; "
                + "the group's coordinator not known (GROUP_AUTHORIZATION_FAILED)", ClusterProof.GROUP);

        // A declared broker that stopped.
        long t = System.nanoTime();
        cluster.kill(2);
        awaitUnlisted(cluster, 2);
        proof.say("  node 2 killed (SIGKILL); describeCluster no longer lists it after %s",
                ClusterProof.secs(System.nanoTime() - t));
        for (Path user : List.of(admin, bob)) {
            List<String> args = new ArrayList<>(List.of("live", "--bootstrap-server", bootstrap, "--command-config",
                    user.toString(), "--format", "json", cluster.config.toString()));
            ClusterProof.Verdict verdict = proof.verdict(args);
            ClusterProof.check(verdict.has("live-unregistered-broker", "warning", "server-2.properties", null)
                            && verdict.count("live-unregistered-broker") == 1,
                    user.getFileName() + ": node 2 should be reported as not registered: " + verdict.findings());
        }
        proof.say("  kafkalint live with the files, as admin and as bob: live-unregistered-broker on server-2.properties");
    }

    /** A SASL_PLAINTEXT listener with PLAIN users admin and bob, and StandardAuthorizer. */
    void secure(ClusterProof.Cluster cluster, int[] saslPorts) throws Exception {
        String jaas = "org.apache.kafka.common.security.plain.PlainLoginModule required user_admin=\"" + ADMIN_SECRET
                + "\" user_bob=\"" + BOB_SECRET + "\" user_carol=\"" + CAROL_SECRET + "\";";
        for (int id = 0; id < ClusterProof.NODES; id++) {
            Path file = cluster.config.resolve("server-" + id + ".properties");
            String text = Files.readString(file, StandardCharsets.ISO_8859_1);
            String plain = "PLAINTEXT://127.0.0.1:" + cluster.brokerPort(id);
            String sasl = ",SASL_PLAINTEXT://127.0.0.1:" + saslPorts[id];
            text = text.replace("listeners=" + plain + ",CONTROLLER", "listeners=" + plain + sasl + ",CONTROLLER")
                    .replace("advertised.listeners=" + plain + "\n", "advertised.listeners=" + plain + sasl + "\n")
                    .replace("listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT",
                            "listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT,"
                                    + "SASL_PLAINTEXT:SASL_PLAINTEXT");
            text += String.join("\n",
                    "sasl.enabled.mechanisms=PLAIN",
                    "listener.name.sasl_plaintext.plain.sasl.jaas.config=" + jaas,
                    "authorizer.class.name=org.apache.kafka.metadata.authorizer.StandardAuthorizer",
                    "super.users=User:ANONYMOUS;User:admin",
                    "");
            Files.writeString(file, text, StandardCharsets.ISO_8859_1);
        }
    }

    static Path login(ClusterProof.Cluster cluster, String user, String secret) throws Exception {
        Path file = cluster.dir.resolve(user + ".properties");
        Files.writeString(file, "security.protocol=SASL_PLAINTEXT\nsasl.mechanism=PLAIN\n"
                + "sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username=\""
                + user + "\" password=\"" + secret + "\";\n");
        return file;
    }

    /** `kafkalint live ARGS`: it ran (exit 0, 1 or 2) and printed no password. */
    ClusterProof.Command live(List<String> secrets, String... args) throws Exception {
        List<String> all = new ArrayList<>(List.of("live"));
        all.addAll(List.of(args));
        ClusterProof.Command c = proof.kafkalintRun(all);
        ClusterProof.check(c.exit() >= 0 && c.exit() <= 2, "kafkalint live crashed (exit " + c.exit() + "): " + c.stderr());
        for (String secret : secrets) {
            ClusterProof.check(!(c.stdout() + c.stderr()).contains(secret), "a password was printed");
        }
        return c;
    }

    static String line(String text, String prefix) {
        return text.lines().filter(l -> l.startsWith(prefix)).findFirst().orElse(prefix + "(none)");
    }

    /** Waits until the cluster's live brokers (describeCluster, as a super user) lack `id`. */
    static void awaitUnlisted(ClusterProof.Cluster cluster, int id) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        try (Admin admin = cluster.admin()) {
            while (System.nanoTime() < deadline) {
                Collection<Node> live = admin.describeCluster().nodes().get(10, TimeUnit.SECONDS);
                if (live.stream().noneMatch(node -> node.id() == id)) {
                    return;
                }
                Thread.sleep(500);
            }
        }
        throw new ClusterProof.Failure("node " + id + " still listed 90 s after it was killed");
    }
}
