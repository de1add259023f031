package dev.kafkalint.cluster;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.CreateTopicsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.ConfigDef;

/**
 * Scenario V: kafkalint's "Kafka refuses" verdicts on declared topics against Kafka's own.
 *
 * <p>A fixed-seed generator makes a few hundred topic declarations (factors, partitions, names,
 * min.insync.replicas, configurations drawn from the release's topic ConfigDef, tiered storage). Each
 * is sent to real clusters as CreateTopics with validateOnly=true, which runs every check of a real
 * creation and writes nothing: in KRaft, ReplicationControlManager.createTopics builds the records
 * and, when the request is validateOnly, returns the results with an empty record list
 * (apache/kafka, metadata/src/main/java/org/apache/kafka/controller/ReplicationControlManager.java,
 * createTopics, tag 3.9.0); in ZooKeeper mode ZkAdminManager.createTopics only calls
 * AdminZkClient.validateTopicCreate when validateOnly is set (core/src/main/scala/kafka/server/
 * ZkAdminManager.scala, 3.9.0). The same declarations are written one a line to
 * config/create-topics.sh as kafka-topics.sh --create commands beside the cluster's files, and
 * kafkalint check reads that folder: kafkalint refuses a case iff an error finding points at its
 * line. Any false refusal (kafkalint refuses, Kafka accepts) fails the scenario, and so does any
 * miss (Kafka refuses, kafkalint does not) outside {@link #UNKNOWABLE}.
 *
 * <p>Clusters (one start each): KRaft without tiered storage, KRaft with
 * remote.log.storage.system.enable=true, KRaft with broker.rack on every node; ZooKeeper mode
 * without tiered storage. TOPIC_VERDICTS_REPORT_ONLY=1 prints the comparison without failing.
 */
final class ScenarioTopicVerdicts {
    static final long SEED = 36L;
    /** The one topic created for real: the target of the "already exists" and collision cases. */
    static final String EXISTING = "proof_verdicts_existing";
    static final String SCRIPT = "create-topics.sh";
    /** The first line of the script that holds a case; the lines above are its header. */
    static final int FIRST_CASE_LINE = 4;

    /**
     * Kinds of case whose refusal kafkalint check cannot know from files: a miss on these is
     * reported, not failed.
     * <ul>
     * <li>{@code name-exists-live}: the topic already runs on the cluster (TopicExistsException);
     * kafkalint check reads files, the running topics are kafkalint live's to see.
     * <li>{@code name-collides-live}: the name collides, once '.' and '_' are alike, with a topic
     * that runs on the cluster but is declared nowhere (InvalidTopicException); the same.
     * </ul>
     */
    static final Set<String> UNKNOWABLE = Set.of("name-exists-live", "name-collides-live");

    /**
     * Kinds of case kafkalint does not judge, each for a reason: a miss on these is reported,
     * not failed.
     * <ul>
     * <li>{@code partitions-large}: 10,000 partitions or more in one topic. The KRaft controller
     * refuses a request that would write more than 10,000 metadata records
     * ({@code QuorumController.MAX_RECORDS_PER_USER_OP}, a BoundedList: "Unable to perform
     * excessively large batch operation.") or hold more than 10,000 partitions, and ZooKeeper mode
     * refuses some counts while assigning replicas; the limits were not read for every release,
     * so kafkalint says nothing of such counts.
     * </ul>
     * A {@code name-internal} case refused with TopicExistsException is the internal topic
     * running on that cluster (the tiered cluster's {@code __remote_log_metadata}): what runs is
     * kafkalint live's to see, as for {@code name-exists-live}.
     */
    static final Set<String> NOT_JUDGED = Set.of("partitions-large");

    /**
     * Keys Kafka 4.0 removed from the topic ConfigDef, deprecated in 3.x (the old message formats,
     * KIP-724; the timestamp difference, KIP-937): a 4.x ConfigDef cannot list them, so they are named
     * here. 3.9's ConfigDef still has them (kind config-deprecated there).
     */
    static final List<String[]> REMOVED_IN_4 = List.of(
            new String[] {"message.format.version", "3.0-IV1"},
            new String[] {"message.timestamp.difference.max.ms", "86400000"},
            new String[] {"message.downconversion.enable", "false"});

    final ClusterProof proof;

    ScenarioTopicVerdicts(ClusterProof proof) {
        this.proof = proof;
    }

    /** One declared topic; -1 for partitions or factor leaves the flag out (the broker's default). */
    record Case(int id, String kind, String name, int partitions, int factor, Map<String, String> configs) {
        NewTopic newTopic() {
            Optional<Integer> p = partitions == -1 ? Optional.empty() : Optional.of(partitions);
            Optional<Short> r = factor == -1 ? Optional.empty() : Optional.of((short) factor);
            return new NewTopic(name, p, r).configs(configs);
        }

        /** The kafka-topics.sh command an operator writes for it, shell-quoted. */
        String command() {
            StringBuilder sb = new StringBuilder("kafka-topics.sh --bootstrap-server localhost:9092 --create --topic ");
            sb.append(shellQuote(name));
            if (partitions != -1) {
                sb.append(" --partitions ").append(partitions);
            }
            if (factor != -1) {
                sb.append(" --replication-factor ").append(factor);
            }
            for (Map.Entry<String, String> e : configs.entrySet()) {
                sb.append(" --config ").append(shellQuote(e.getKey() + "=" + e.getValue()));
            }
            return sb.toString();
        }

        String describe() {
            return "--topic " + name + (partitions == -1 ? "" : " -p " + partitions)
                    + (factor == -1 ? "" : " -r " + factor) + (configs.isEmpty() ? "" : " " + configs);
        }
    }

    static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9._,:/@%+=-]+");

    static String shellQuote(String s) {
        if (PLAIN.matcher(s).matches()) {
            return s;
        }
        return "'" + s.replace("'", "'\\''") + "'";
    }

    /** Kafka's verdict: accepted, or the exception's class and message. */
    record KafkaVerdict(boolean accepted, String error, String message) {}

    /** kafkalint's findings on one case's line. */
    record LintVerdict(Set<String> errors, Set<String> warnings) {
        boolean refuses() {
            return !errors.isEmpty();
        }
    }

    /** A cluster: its name, its nodes' added lines, and the topics it creates itself. */
    record Variant(String name, String title, List<String> nodeLines, List<String> runningTopics) {}

    List<Variant> variants(Path dir) {
        if (proof.mode.equals("zookeeper")) {
            return List.of(new Variant("plain", "ZooKeeper mode, no tiered storage", List.of(), List.of()));
        }
        Path remote = dir.resolve("tiered/data/remote-storage");
        return List.of(
                new Variant("plain", "KRaft, no tiered storage", List.of(), List.of()),
                // LocalTieredStorage (kafka-storage test fixtures) keeps segments in a local folder:
                // enough for a broker that starts with the system flag on. The metadata manager is
                // Kafka's default (TopicBasedRemoteLogMetadataManager), reached over PLAINTEXT. The
                // nodes are combined: the controller's own flag is what validates remote.storage.enable
                // (ControllerConfigurationValidator.validate calls LogConfig.validate with
                // remoteLogManagerConfig.isRemoteStorageSystemEnabled(), core/src/main/scala/kafka/
                // server/ControllerConfigurationValidator.scala, 3.9.0).
                new Variant("tiered", "KRaft, remote.log.storage.system.enable=true", List.of(
                        "remote.log.storage.system.enable=true",
                        "remote.log.storage.manager.class.name=org.apache.kafka.server.log.remote.storage.LocalTieredStorage",
                        "rsm.config.dir=" + remote,
                        "remote.log.metadata.manager.listener.name=PLAINTEXT",
                        "rlmm.config.remote.log.metadata.topic.num.partitions=5"), List.of("__remote_log_metadata")),
                new Variant("racks", "KRaft, broker.rack on every node", List.of("broker.rack=RACK"), List.of()));
    }

    void run() throws Exception {
        long started = System.nanoTime();
        boolean reportOnly = "1".equals(System.getenv("TOPIC_VERDICTS_REPORT_ONLY"));
        Path dir = proof.work.resolve(proof.mode + "-V");
        Files.createDirectories(dir);
        List<Case> cases = generate(topicConfigDef());
        proof.say("  %d cases (seed %d) from the topic ConfigDef of Kafka %s", cases.size(), SEED, proof.version);
        List<String> tsv = new ArrayList<>();
        tsv.add(String.join("\t", "variant", "case", "kind", "line", "kafka", "kafka_error", "kafka_message",
                "kafkalint_errors", "kafkalint_warnings", "outcome", "declaration"));
        int failures = 0;
        for (Variant variant : variants(dir)) {
            failures += runVariant(variant, dir, cases, tsv);
        }
        Files.write(dir.resolve("verdicts.tsv"), tsv, StandardCharsets.UTF_8);
        proof.say("  per-case results: %s", proof.rel(dir.resolve("verdicts.tsv")));
        proof.timings.add(String.format(Locale.ROOT, "V: %d cases on %d cluster(s) in %s", cases.size(),
                variants(dir).size(), ClusterProof.secs(System.nanoTime() - started)));
        if (failures > 0 && reportOnly) {
            proof.say("  TOPIC_VERDICTS_REPORT_ONLY=1: %d disagreement(s) reported, not failed", failures);
        } else {
            ClusterProof.check(failures == 0, failures + " disagreement(s) between kafkalint and Kafka (see the table)");
        }
    }

    /** One cluster: files and script written, kafkalint run, cluster started, every case sent. */
    int runVariant(Variant variant, Path dir, List<Case> cases, List<String> tsv) throws Exception {
        proof.say("  --- %s", variant.title);
        ClusterProof.Cluster cluster = proof.new Cluster(dir.resolve(variant.name));
        try {
            cluster.writeSeed();
            for (int id = 0; id < ClusterProof.NODES; id++) {
                for (String line : variant.nodeLines) {
                    // Racks a, a, b: uneven, as ScenarioTopics has them.
                    cluster.insertAfter(id, "num.partitions=1", line.replace("RACK", id < 2 ? "rack-a" : "rack-b"));
                }
            }
            Map<Integer, LintVerdict> lint = kafkalintVerdicts(cluster, cases);
            cluster.start();
            Map<Integer, KafkaVerdict> kafka;
            try (Admin admin = cluster.admin()) {
                cluster.awaitBrokers(admin);
                admin.createTopics(List.of(new NewTopic(EXISTING, 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
                proof.say("  created %s (1 partition, 1 replica): the running topic of the exists and collision cases",
                        EXISTING);
                Set<String> before = awaitTopics(admin, variant.runningTopics);
                long t = System.nanoTime();
                kafka = kafkaVerdicts(admin, cases);
                proof.say("  %d CreateTopics (validateOnly) answered in %s", cases.size(),
                        ClusterProof.secs(System.nanoTime() - t));
                Set<String> created = new TreeSet<>(topics(admin));
                created.removeAll(before);
                created.retainAll(cases.stream().map(Case::name).toList());
                ClusterProof.check(created.isEmpty(), "validateOnly CreateTopics created " + created);
                proof.say("  topics before and after: %s (no case's topic created)", before);
            }
            return compare(variant, cases, kafka, lint, tsv);
        } catch (Throwable failure) {
            cluster.printLogTails();
            throw failure;
        } finally {
            cluster.killAllNodes();
        }
    }

    // ------------------------------------------------------------------------------------------
    // Kafka's side

    /**
     * The cluster's topics once those it must run are listed: the topic created for real, and the
     * remote log metadata topic the tiered cluster creates at start; the cases' verdicts on those
     * names must not depend on when the request comes.
     */
    static Set<String> awaitTopics(Admin admin, List<String> expected) throws Exception {
        long deadline = System.nanoTime() + ClusterProof.START_TIMEOUT.toNanos();
        Set<String> wanted = new TreeSet<>(expected);
        wanted.add(EXISTING);
        while (true) {
            Set<String> now = topics(admin);
            if (now.containsAll(wanted)) {
                return now;
            }
            ClusterProof.check(System.nanoTime() < deadline, "topics " + wanted + " not all listed, only " + now);
            Thread.sleep(200);
        }
    }

    /** Every topic of the cluster, internal ones included. */
    static Set<String> topics(Admin admin) throws Exception {
        return new TreeSet<>(admin.listTopics(new org.apache.kafka.clients.admin.ListTopicsOptions().listInternal(true))
                .names().get(30, TimeUnit.SECONDS));
    }

    Map<Integer, KafkaVerdict> kafkaVerdicts(Admin admin, List<Case> cases) throws Exception {
        Map<Integer, KafkaVerdict> verdicts = new TreeMap<>();
        CreateTopicsOptions validateOnly = new CreateTopicsOptions().validateOnly(true);
        for (Case c : cases) {
            // One request a case: two topics of one request with the same name would both fail.
            var future = admin.createTopics(List.of(c.newTopic()), validateOnly).values().get(c.name);
            try {
                future.get(30, TimeUnit.SECONDS);
                verdicts.put(c.id, new KafkaVerdict(true, "", ""));
            } catch (ExecutionException e) {
                Throwable cause = e.getCause() == null ? e : e.getCause();
                verdicts.put(c.id, new KafkaVerdict(false, cause.getClass().getSimpleName(),
                        String.valueOf(cause.getMessage())));
            }
        }
        return verdicts;
    }

    // ------------------------------------------------------------------------------------------
    // kafkalint's side

    Map<Integer, LintVerdict> kafkalintVerdicts(ClusterProof.Cluster cluster, List<Case> cases) throws Exception {
        List<String> script = new ArrayList<>(List.of(
                "#!/usr/bin/env bash",
                "# The topics of this cluster, created before the applications start.",
                ""));
        Map<Integer, Integer> caseOfLine = new TreeMap<>();
        for (Case c : cases) {
            caseOfLine.put(script.size() + 1, c.id);
            script.add(c.command());
        }
        ClusterProof.check(caseOfLine.keySet().iterator().next() == FIRST_CASE_LINE, "script header changed");
        Files.write(cluster.config.resolve(SCRIPT), script, StandardCharsets.UTF_8);

        List<String> args = List.of("check", "--kafka-version", proof.minor, "--format", "json",
                cluster.config.toString());
        ClusterProof.Command run = proof.kafkalintRun(args);
        ClusterProof.check(run.exit() == 0 || run.exit() == 1,
                "kafkalint check failed (exit " + run.exit() + "): " + run.stderr());
        Map<Integer, LintVerdict> verdicts = lintVerdicts(run.stdout(), caseOfLine);
        long onScript = verdicts.values().stream().filter(v -> !v.errors.isEmpty() || !v.warnings.isEmpty()).count();
        proof.say("  kafkalint check %s: exit %d, findings on %d of %d lines of %s", proof.rel(cluster.config),
                run.exit(), onScript, cases.size(), SCRIPT);
        return verdicts;
    }

    /**
     * The rules of kafkalint's error and warning findings per case, from its JSON: a finding is on a
     * case when its place, or one of its also_on places, is the case's line of the script.
     */
    static Map<Integer, LintVerdict> lintVerdicts(String json, Map<Integer, Integer> caseOfLine) {
        Map<Integer, LintVerdict> verdicts = new TreeMap<>();
        for (int id : caseOfLine.values()) {
            verdicts.put(id, new LintVerdict(new TreeSet<>(), new TreeSet<>()));
        }
        Object doc = new ClusterProof.Json(json).value();
        for (Object d : (List<?>) ((Map<?, ?>) doc).get("diagnostics")) {
            Map<?, ?> m = (Map<?, ?>) d;
            List<Map<?, ?>> places = new ArrayList<>();
            places.add(m);
            Object alsoOn = m.get("also_on");
            if (alsoOn != null) {
                for (Object a : (List<?>) alsoOn) {
                    places.add((Map<?, ?>) a);
                }
            }
            for (Map<?, ?> place : places) {
                String file = String.valueOf(place.get("file"));
                if (!file.equals(SCRIPT) && !file.endsWith("/" + SCRIPT)) {
                    continue;
                }
                Integer id = caseOfLine.get(((Number) place.get("line")).intValue());
                if (id == null) {
                    continue;
                }
                LintVerdict v = verdicts.get(id);
                String rule = String.valueOf(m.get("rule"));
                switch (String.valueOf(m.get("severity"))) {
                    case "error" -> v.errors.add(rule);
                    case "warning" -> v.warnings.add(rule);
                    default -> { }
                }
            }
        }
        return verdicts;
    }

    // ------------------------------------------------------------------------------------------
    // The comparison

    int compare(Variant variant, List<Case> cases, Map<Integer, KafkaVerdict> kafka, Map<Integer, LintVerdict> lint,
            List<String> tsv) {
        int agree = 0;
        List<String> falseRefusals = new ArrayList<>();
        List<String> misses = new ArrayList<>();
        List<String> allowedMisses = new ArrayList<>();
        List<String> warned = new ArrayList<>();
        Map<String, Integer> refusedBy = new TreeMap<>();
        for (Case c : cases) {
            KafkaVerdict k = kafka.get(c.id);
            LintVerdict l = lint.get(c.id);
            String outcome;
            if (!k.accepted) {
                refusedBy.merge(k.error, 1, Integer::sum);
            }
            String line = String.format(Locale.ROOT, "#%d %s (line %d): %s", c.id, c.kind, lineOf(c),
                    k.accepted ? "accepted" : k.error + ": " + k.message);
            if (k.accepted == !l.refuses()) {
                agree++;
                outcome = "agree";
                if (k.accepted && !l.warnings.isEmpty()) {
                    warned.add(line + " -- kafkalint warns " + l.warnings);
                }
            } else if (k.accepted) {
                outcome = "FALSE-REFUSAL";
                falseRefusals.add(line + " -- kafkalint " + l.errors);
            } else if (UNKNOWABLE.contains(c.kind) || NOT_JUDGED.contains(c.kind)
                    || (c.kind.equals("name-internal") && "TopicExistsException".equals(k.error))) {
                outcome = "miss-unknowable";
                allowedMisses.add(line);
            } else {
                outcome = "MISS";
                misses.add(line);
            }
            tsv.add(String.join("\t", variant.name, Integer.toString(c.id), c.kind, Integer.toString(lineOf(c)),
                    k.accepted ? "accepted" : "refused", k.error, tsvField(k.message), String.join(",", l.errors),
                    String.join(",", l.warnings), outcome, tsvField(c.describe())));
        }
        int refused = refusedBy.values().stream().mapToInt(Integer::intValue).sum();
        proof.say("  %-18s %5s %13s %6s %14s %6s %14s %15s", "cluster", "cases", "Kafka refuses", "agree",
                "false refusals", "misses", "misses allowed", "accepted, warns");
        proof.say("  %-18s %5d %13d %6d %14d %6d %14d %15d", proof.mode + "-" + variant.name, cases.size(), refused,
                agree, falseRefusals.size(), misses.size(), allowedMisses.size(), warned.size());
        proof.say("  Kafka refused %d of %d: %s", refused, cases.size(), refusedBy);
        printList("false refusals (kafkalint refuses, Kafka accepts)", falseRefusals);
        printList("misses (Kafka refuses, kafkalint does not)", misses);
        printList("misses allowed (kafkalint check cannot know, or does not judge)", allowedMisses);
        printList("Kafka accepts, kafkalint warns", warned);
        return falseRefusals.size() + misses.size();
    }

    void printList(String title, List<String> lines) {
        if (lines.isEmpty()) {
            return;
        }
        proof.say("  %s: %d", title, lines.size());
        int shown = 0;
        for (String line : lines) {
            if (shown++ == 15) {
                proof.say("    ... %d more in verdicts.tsv", lines.size() - 15);
                break;
            }
            proof.say("    %s", printable(line));
        }
    }

    static int lineOf(Case c) {
        return FIRST_CASE_LINE + c.id;
    }

    /** Control characters shown escaped, so that a name or message cannot break a line of output. */
    static String printable(String s) {
        StringBuilder sb = new StringBuilder();
        for (char ch : s.toCharArray()) {
            if (ch < 0x20 || ch == 0x7f) {
                sb.append(String.format(Locale.ROOT, "\\u%04x", (int) ch));
            } else {
                sb.append(ch);
            }
        }
        return sb.toString();
    }

    static String tsvField(String s) {
        return printable(s.replace("\t", " "));
    }

    // ------------------------------------------------------------------------------------------
    // The cases

    /**
     * The release's topic ConfigDef, read from its jar: LogConfig moved to the storage module in 3.5
     * (apache/kafka storage/src/main/java/org/apache/kafka/storage/internals/log/LogConfig.java) and
     * 3.9 and 4.x both have configDefCopy(). Reflection, as the harness compiles against one release.
     */
    static ConfigDef topicConfigDef() throws Exception {
        Class<?> logConfig = Class.forName("org.apache.kafka.storage.internals.log.LogConfig");
        return (ConfigDef) logConfig.getMethod("configDefCopy").invoke(null);
    }

    /** The cases, in a fixed order, numbered from 0. */
    static List<Case> generate(ConfigDef def) {
        Generator g = new Generator(def);
        g.factorsAndPartitions();
        g.minInsyncReplicas();
        g.configValues();
        g.configKeys();
        g.crossField();
        g.tiered();
        g.names();
        g.combinations();
        return g.cases;
    }

    static final class Generator {
        final Random random = new Random(SEED);
        final TreeMap<String, ConfigDef.ConfigKey> keys = new TreeMap<>();
        final List<Case> cases = new ArrayList<>();

        Generator(ConfigDef def) {
            keys.putAll(def.configKeys());
        }

        /** Settings in the order written: the script's --config flags follow it. */
        static Map<String, String> kv(String... pairs) {
            Map<String, String> map = new LinkedHashMap<>();
            for (int i = 0; i + 1 < pairs.length; i += 2) {
                map.put(pairs[i], pairs[i + 1]);
            }
            return map;
        }

        void add(String kind, String name, int partitions, int factor, Map<String, String> configs) {
            cases.add(new Case(cases.size(), kind, name, partitions, factor, new LinkedHashMap<>(configs)));
        }

        /** A fresh legal name for a case whose name is not what it tests. */
        String name() {
            return String.format(Locale.ROOT, "verdict-%03d", cases.size());
        }

        void add(String kind, int partitions, int factor, Map<String, String> configs) {
            add(kind, name(), partitions, factor, configs);
        }

        void add(String kind, Map<String, String> configs) {
            add(kind, 3, 3, configs);
        }

        void factorsAndPartitions() {
            for (int factor : new int[] {1, 2, 3, 4, 5, 0, -1}) {
                add("factor", 3, factor, kv());
            }
            for (int partitions : new int[] {1, 0, -1, 12, 9000}) {
                add("partitions", partitions, 3, kv());
            }
            for (int partitions : new int[] {10000, 10001, 50000}) {
                add("partitions-large", partitions, 3, kv());
            }
            add("partitions-large", 50000, 4, kv());
            add("factor", -1, -1, kv());
        }

        /** Kafka never compares min.insync.replicas with the factor (accepted; kafkalint warns). */
        void minInsyncReplicas() {
            for (int factor : new int[] {1, 2, 3, -1}) {
                for (int minIsr = 1; minIsr <= 4; minIsr++) {
                    add("min-isr", 3, factor, kv("min.insync.replicas", Integer.toString(minIsr)));
                }
            }
        }

        /** Per key of the ConfigDef: its default, valid values, values out of range, wrong types. */
        void configValues() {
            for (Map.Entry<String, ConfigDef.ConfigKey> e : keys.entrySet()) {
                String key = e.getKey();
                ConfigDef.ConfigKey k = e.getValue();
                String kindPrefix = k.internalConfig ? "config-internal-" : "config-";
                String def = render(k.defaultValue);
                if (def != null && !def.isEmpty()) {
                    add(kindPrefix + "default", kv(key, def));
                }
                Values v = values(k);
                for (String valid : v.valid) {
                    if (!valid.equals(def)) {
                        add(kindPrefix + "valid", kv(key, valid));
                    }
                }
                for (String variant : v.caseVariants) {
                    add(kindPrefix + "case", kv(key, variant));
                }
                for (String out : v.outOfRange) {
                    add(kindPrefix + "out-of-range", kv(key, out));
                }
                for (String wrong : v.wrongType) {
                    add(kindPrefix + "wrong-type", kv(key, wrong));
                }
            }
        }

        /** Values a key's validator accepts, the same in capitals, values past it, values of another type. */
        record Values(List<String> valid, List<String> caseVariants, List<String> outOfRange, List<String> wrongType) {}

        /** Values for a key, from its type and its validator's own description of what it accepts. */
        static Values values(ConfigDef.ConfigKey k) {
            List<String> valid = new ArrayList<>();
            List<String> capitals = new ArrayList<>();
            List<String> out = new ArrayList<>();
            List<String> wrong = new ArrayList<>();
            String described = k.validator == null ? "" : k.validator.toString().trim();
            Range range = Range.parse(described);
            List<String> allowed = range == null ? enumerated(described) : List.of();
            switch (k.type) {
                case INT, SHORT, LONG -> {
                    if (range != null && range.min != null) {
                        valid.add(range.min);
                        out.add(minusOne(range.min));
                    } else {
                        valid.add("1");
                    }
                    if (range != null && range.max != null) {
                        out.add(plusOne(range.max));
                    }
                    // A unit written into the value, as people do, else a word; and one past the type.
                    wrong.add(k.name.endsWith(".ms") ? "7d" : k.name.endsWith(".bytes") ? "1GB" : "ten");
                    wrong.add(k.type == ConfigDef.Type.LONG ? "9223372036854775808" : "2147483648");
                }
                case DOUBLE -> {
                    if (range != null && range.min != null) {
                        valid.add(range.min);
                        out.add(Double.toString(Double.parseDouble(range.min) - 0.1));
                    }
                    if (range != null && range.max != null) {
                        out.add(Double.toString(Double.parseDouble(range.max) + 0.5));
                    }
                    wrong.add("half");
                }
                case BOOLEAN -> {
                    valid.add("true");
                    valid.add("false");
                    capitals.add("TRUE");
                    wrong.add("yes");
                }
                case STRING, LIST -> {
                    valid.addAll(allowed);
                    if (!allowed.isEmpty()) {
                        String upper = allowed.get(0).toUpperCase(Locale.ROOT);
                        if (!upper.equals(allowed.get(0))) {
                            capitals.add(upper);
                        }
                        out.add(allowed.get(0) + "x");
                        if (k.type == ConfigDef.Type.LIST && allowed.size() > 1) {
                            valid.add(allowed.get(0) + "," + allowed.get(1));
                            out.add(allowed.get(0) + ",bogus");
                        }
                    }
                }
                default -> { }
            }
            return new Values(dedupe(valid), dedupe(capitals), dedupe(out), dedupe(wrong));
        }

        static List<String> dedupe(List<String> values) {
            return new ArrayList<>(new java.util.LinkedHashSet<>(values));
        }

        record Range(String min, String max) {
            /** ConfigDef.Range describes itself as [min,...], [...,max] or [min,...,max]. */
            static Range parse(String s) {
                if (!s.startsWith("[") || !s.endsWith("]") || !s.contains("...")) {
                    return null;
                }
                String[] parts = s.substring(1, s.length() - 1).split(",");
                String min = parts[0].equals("...") ? null : parts[0].trim();
                String last = parts[parts.length - 1].trim();
                String max = last.equals("...") ? null : last;
                return new Range(min, max);
            }
        }

        /** The values of a ValidString, ValidList or enum validator: "[a, b, c]". */
        static List<String> enumerated(String s) {
            if (!s.startsWith("[") || !s.endsWith("]")) {
                return List.of();
            }
            List<String> values = new ArrayList<>();
            for (String part : s.substring(1, s.length() - 1).split(",")) {
                String v = part.trim();
                if (!v.isEmpty() && v.matches("[A-Za-z0-9._-]+")) {
                    values.add(v);
                }
            }
            return values;
        }

        static String minusOne(String n) {
            return new java.math.BigDecimal(n).subtract(java.math.BigDecimal.ONE).toPlainString();
        }

        static String plusOne(String n) {
            return new java.math.BigDecimal(n).add(java.math.BigDecimal.ONE).toPlainString();
        }

        /** A default as kafka-topics.sh --config takes it; null when there is none to write. */
        static String render(Object value) {
            if (value == null || value == ConfigDef.NO_DEFAULT_VALUE) {
                return null;
            }
            if (value instanceof List<?> list) {
                return String.join(",", list.stream().map(String::valueOf).toList());
            }
            if (value instanceof Class<?> c) {
                return c.getName();
            }
            return String.valueOf(value);
        }

        /** Keys the topic ConfigDef does not have: typos of its keys, broker spellings, removed keys. */
        void configKeys() {
            List<String> names = new ArrayList<>(keys.keySet());
            for (int i = 0; i < 12; i++) {
                String key = names.get(random.nextInt(names.size()));
                String typo = typo(key, i % 4);
                if (!keys.containsKey(typo)) {
                    add("config-typo", kv(typo, validValue(key)));
                }
            }
            for (String key : List.of("retention.ms", "segment.bytes", "cleanup.policy", "min.insync.replicas")) {
                // The broker's spelling of a topic key (log.retention.ms for retention.ms).
                String broker = "log." + key;
                if (!keys.containsKey(broker) && keys.containsKey(key)) {
                    add("config-broker-key", kv(broker, validValue(key)));
                }
            }
            add("config-unknown", kv("my.custom.setting", "1"));
            for (String[] removed : REMOVED_IN_4) {
                add(keys.containsKey(removed[0]) ? "config-deprecated" : "config-removed", kv(removed[0], removed[1]));
            }
        }

        /** Four kinds of typo: two letters swapped, one dropped, '.' written '_', a capital. */
        static String typo(String key, int how) {
            return switch (how) {
                case 0 -> {
                    int at = key.length() / 2;
                    yield key.substring(0, at - 1) + key.charAt(at) + key.charAt(at - 1) + key.substring(at + 1);
                }
                case 1 -> key.substring(0, key.length() - 1);
                case 2 -> key.replace('.', '_');
                default -> Character.toUpperCase(key.charAt(0)) + key.substring(1);
            };
        }

        String validValue(String key) {
            ConfigDef.ConfigKey k = keys.get(key);
            String def = render(k.defaultValue);
            if (def != null && !def.isEmpty()) {
                return def;
            }
            List<String> valid = values(k).valid;
            return valid.isEmpty() ? "1" : valid.get(0);
        }

        /** LogConfig.validateValues and what it leaves alone. */
        void crossField() {
            add("cross-compaction-lag", kv("min.compaction.lag.ms", "100000", "max.compaction.lag.ms", "1000"));
            add("cross-compaction-lag", kv("min.compaction.lag.ms", "1000", "max.compaction.lag.ms", "1000"));
            add("cross-compaction-lag", kv("min.compaction.lag.ms", "1000", "max.compaction.lag.ms", "100000"));
            add("cross-compaction-lag", kv("cleanup.policy", "compact", "min.compaction.lag.ms", "86400000",
                    "max.compaction.lag.ms", "3600000"));
            add("cross-max-message-above-segment", kv("segment.bytes", "1048576", "max.message.bytes", "2097152"));
            add("cross-max-message-above-segment", kv("segment.bytes", "16777216", "max.message.bytes", "16777217"));
            add("cross-segment-floor", kv("segment.bytes", "524288"));
            add("cross-segment-floor", kv("segment.bytes", "1048576"));
            add("cross-retention", kv("retention.ms", "-1", "retention.bytes", "-1"));
            add("cross-retention", kv("segment.ms", "604800000", "retention.ms", "3600000"));
        }

        /** remote.storage.enable and what Kafka checks with it (accepted only with the system flag). */
        void tiered() {
            add("tiered", kv("remote.storage.enable", "true"));
            add("tiered", kv("remote.storage.enable", "false"));
            add("tiered-compact", kv("remote.storage.enable", "true", "cleanup.policy", "compact"));
            add("tiered-compact", kv("remote.storage.enable", "true", "cleanup.policy", "compact,delete"));
            add("tiered-compact", kv("remote.storage.enable", "true", "cleanup.policy", "delete"));
            add("tiered-local-retention", kv("remote.storage.enable", "true", "retention.ms", "86400000",
                    "local.retention.ms", "3600000"));
            add("tiered-local-retention", kv("remote.storage.enable", "true", "retention.ms", "3600000",
                    "local.retention.ms", "86400000"));
            add("tiered-local-retention", kv("remote.storage.enable", "true", "retention.ms", "3600000",
                    "local.retention.ms", "-1"));
            add("tiered-local-retention", kv("remote.storage.enable", "true", "retention.ms", "-1",
                    "local.retention.ms", "-1"));
            add("tiered-local-retention", kv("remote.storage.enable", "true", "retention.ms", "3600000",
                    "local.retention.ms", "-2"));
            add("tiered-local-retention", kv("remote.storage.enable", "true", "retention.bytes", "1073741824",
                    "local.retention.bytes", "2147483648"));
            add("tiered-local-retention", kv("remote.storage.enable", "true", "retention.bytes", "1073741824",
                    "local.retention.bytes", "-1"));
            add("tiered-local-retention", kv("remote.storage.enable", "false", "retention.ms", "3600000",
                    "local.retention.ms", "86400000"));
            add("tiered-local-retention", kv("retention.ms", "3600000", "local.retention.ms", "86400000"));
            if (keys.containsKey("remote.log.copy.disable")) {
                add("tiered", kv("remote.log.copy.disable", "true"));
                add("tiered", kv("remote.storage.enable", "true", "remote.log.copy.disable", "true"));
            }
            if (keys.containsKey("remote.log.delete.on.disable")) {
                add("tiered", kv("remote.storage.enable", "false", "remote.log.delete.on.disable", "true"));
            }
        }

        void names() {
            for (String legal : List.of("orders", "orders.v1", "orders_v1", "Orders-2024", "__my_topic", "a")) {
                add("name-legal", legal, 3, 3, kv());
            }
            for (String illegal : List.of("orders v1", "orders/v1", "orders:v1", "orders$", "caf\u00e9", "a*b",
                    "orders,v1", "it's", "tab\there")) {
                add("name-illegal-characters", illegal, 3, 3, kv());
            }
            add("name-dots", ".", 3, 3, kv());
            add("name-dots", "..", 3, 3, kv());
            add("name-dots", "...", 3, 3, kv());
            add("name-length", "t".repeat(249), 3, 3, kv());
            add("name-length", "t".repeat(250), 3, 3, kv());
            add("name-empty", "", 3, 3, kv());
            for (String internal : List.of("__consumer_offsets", "__transaction_state", "__cluster_metadata",
                    "__share_group_state", "__remote_log_metadata")) {
                add("name-internal", internal, 3, 3, kv());
            }
            add("name-exists-live", EXISTING, 3, 3, kv());
            add("name-collides-live", EXISTING.replace('_', '.'), 3, 3, kv());
        }

        /** Several valid settings together, as topics are declared: drawn with the fixed seed. */
        void combinations() {
            List<String> names = new ArrayList<>();
            for (Map.Entry<String, ConfigDef.ConfigKey> e : keys.entrySet()) {
                if (!e.getValue().internalConfig && !e.getKey().startsWith("remote.")) {
                    names.add(e.getKey());
                }
            }
            int[] factors = {1, 2, 3, 3, 3, -1};
            int[] partitions = {1, 3, 6, 12, 50, -1};
            for (int i = 0; i < 40; i++) {
                Map<String, String> configs = new TreeMap<>();
                int n = 1 + random.nextInt(3);
                while (configs.size() < n) {
                    String key = names.get(random.nextInt(names.size()));
                    List<String> valid = new ArrayList<>(values(keys.get(key)).valid);
                    String def = render(keys.get(key).defaultValue);
                    if (def != null && !def.isEmpty()) {
                        valid.add(def);
                    }
                    if (!valid.isEmpty()) {
                        configs.put(key, valid.get(random.nextInt(valid.size())));
                    }
                }
                add("combination", partitions[random.nextInt(partitions.length)], factors[random.nextInt(factors.length)],
                        configs);
            }
        }
    }

    /** Prints the cases of the release on the classpath, one command a line (for reading them). */
    public static void main(String[] args) throws Exception {
        for (Case c : generate(topicConfigDef())) {
            System.out.println(c.id + "\t" + c.kind + "\t" + c.command());
        }
    }
}
