package dev.kafkalint.oracle;

import java.io.File;
import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

/**
 * The start-up steps a node takes after its {@code KafkaConfig} is built that depend on the
 * configuration alone: the plugins it instantiates and the check of its log directories. Each
 * step calls the code the release runs at that point, by reflection, on the node roles that run
 * it; a step whose code the release lacks is passed over.
 *
 * <p>Storage and the network are assumed to be fine (formatted, free): the steps that read them
 * ({@code KafkaRaftServer.initializeLogDirs}, binding the listeners, connecting to ZooKeeper) are
 * not run, and a plugin is never started, only made and checked for its kind. Sources (tags
 * 3.9.2 and 4.4.0 of apache/kafka; for 4.4 read from its bytecode):
 *
 * <ul>
 *   <li>every node: {@code kafka.metrics.reporters}, from {@code KafkaMetricsReporter.startReporters}
 *       (core/src/main/scala/kafka/metrics/KafkaMetricsReporter.scala), which {@code
 *       KafkaRaftServer}'s and {@code KafkaServer}'s constructors call first;
 *   <li>brokers: {@code LogManager.apply} and {@code createAndValidateLogDirs}
 *       (core/src/main/scala/kafka/log/LogManager.scala in 3.9,
 *       storage/src/main/java/org/apache/kafka/storage/internals/log/LogManager.java in 4.4);
 *   <li>every node: {@code client.quota.callback.class}, {@code QuotaFactory.instantiate}
 *       (core/src/main/scala/kafka/server/QuotaFactory.scala; server/.../quota/QuotaFactory.java in
 *       4.4), which {@code BrokerServer}, {@code ControllerServer} and {@code KafkaServer} call;
 *   <li>brokers: {@code replica.selector.class}, {@code ReplicaManager.createReplicaSelector}
 *       (core/src/main/scala/kafka/server/ReplicaManager.scala);
 *   <li>every node: {@code principal.builder.class}, {@code ChannelBuilders.createPrincipalBuilder}
 *       (clients/src/main/java/org/apache/kafka/common/network/ChannelBuilders.java), which the
 *       socket server runs for each listener;
 *   <li>every node: {@code authorizer.class.name}, {@code KafkaConfig.createNewAuthorizer} and
 *       {@code AuthorizerUtils.createAuthorizer}
 *       (server/src/main/java/org/apache/kafka/security/authorizer/AuthorizerUtils.java);
 *   <li>controllers in KRaft, brokers in ZooKeeper mode: {@code create.topic.policy.class.name}
 *       and {@code alter.config.policy.class.name} ({@code ControllerServer.startup}, {@code
 *       ZkAdminManager});
 *   <li>every node: {@code metric.reporters}, {@code DynamicMetricReporterState.createReporters}
 *       (core/src/main/scala/kafka/server/DynamicBrokerConfig.scala).
 * </ul>
 *
 * <p>The group assignors need no step: {@code KafkaConfig}'s constructor builds the {@code
 * GroupCoordinatorConfig} that instantiates them, in 3.9 and 4.4 alike.
 */
final class StartupSteps {
    private final Method originals;
    private final Method values;
    private final Method getList;
    private final Method getBoolean;
    private final Method getString;
    private final Method getConfiguredInstance;
    private final Method getConfiguredInstances;
    private final Method newInstanceByName;
    private final Method createObject; // CoreUtils.createObject, up to 3.9; null after
    private final Constructor<?> verifiableProperties;
    private final Constructor<?> kafkaMetricsConfig;
    private final Class<?> kafkaMetricsReporter;
    private final Method extractLogConfigMap;
    private final Method remoteLogManagerConfig;
    private final Method validateBrokerLogConfigValues;
    private final Constructor<?> logConfig;
    private final Method logDirs;
    private final Constructor<?> kafkaException;
    private final Class<?> clientQuotaCallback;
    private final Method replicaSelectorClassName;
    private final Class<?> replicaSelector;
    private final Method createPrincipalBuilder;
    private final Method createAuthorizer; // AuthorizerUtils.createAuthorizer(String), up to 3.9
    private final Class<?> authorizer;
    private final Class<?> createTopicPolicy;
    private final Class<?> alterConfigPolicy;
    private final Class<?> metricsReporter;
    private final Method processRoles;
    private final Method scalaContains;
    private final Object brokerRole;
    private final Object controllerRole;
    /** An empty folder of this run under which the log directories are resolved. */
    private final File logDirRoot;

    private StartupSteps(File logDirRoot) throws ReflectiveOperationException {
        this.logDirRoot = logDirRoot;
        Class<?> abstractConfig = Class.forName("org.apache.kafka.common.config.AbstractConfig");
        Class<?> kafkaConfig = Class.forName("kafka.server.KafkaConfig");
        Class<?> utils = Class.forName("org.apache.kafka.common.utils.Utils");
        originals = abstractConfig.getMethod("originals");
        values = abstractConfig.getMethod("values");
        getList = abstractConfig.getMethod("getList", String.class);
        getBoolean = abstractConfig.getMethod("getBoolean", String.class);
        getString = abstractConfig.getMethod("getString", String.class);
        getConfiguredInstance = abstractConfig.getMethod("getConfiguredInstance", String.class, Class.class);
        getConfiguredInstances = abstractConfig.getMethod("getConfiguredInstances", List.class, Class.class, Map.class);
        newInstanceByName = utils.getMethod("newInstance", String.class, Class.class);
        createObject = method("kafka.utils.CoreUtils", "createObject", String.class,
                Class.forName("scala.collection.immutable.Seq"));
        Class<?> verifiable = Class.forName("kafka.utils.VerifiableProperties");
        verifiableProperties = verifiable.getConstructor(Properties.class);
        kafkaMetricsConfig = Class.forName("kafka.metrics.KafkaMetricsConfig").getConstructor(verifiable);
        kafkaMetricsReporter = Class.forName("kafka.metrics.KafkaMetricsReporter");
        extractLogConfigMap = kafkaConfig.getMethod("extractLogConfigMap");
        remoteLogManagerConfig = kafkaConfig.getMethod("remoteLogManagerConfig");
        Class<?> logConfigClass = Class.forName("org.apache.kafka.storage.internals.log.LogConfig");
        validateBrokerLogConfigValues = logConfigClass.getMethod("validateBrokerLogConfigValues", Map.class, boolean.class);
        logConfig = logConfigClass.getConstructor(Map.class);
        logDirs = kafkaConfig.getMethod("logDirs");
        kafkaException = Class.forName("org.apache.kafka.common.KafkaException").getConstructor(String.class);
        clientQuotaCallback = Class.forName("org.apache.kafka.server.quota.ClientQuotaCallback");
        replicaSelectorClassName = kafkaConfig.getMethod("replicaSelectorClassName");
        replicaSelector = Class.forName("org.apache.kafka.common.replica.ReplicaSelector");
        createPrincipalBuilder = Class.forName("org.apache.kafka.common.network.ChannelBuilders")
                .getMethod("createPrincipalBuilder", Map.class,
                        Class.forName("org.apache.kafka.common.security.kerberos.KerberosShortNamer"),
                        Class.forName("org.apache.kafka.common.security.ssl.SslPrincipalMapper"));
        createAuthorizer = method("org.apache.kafka.security.authorizer.AuthorizerUtils", "createAuthorizer", String.class);
        authorizer = Class.forName("org.apache.kafka.server.authorizer.Authorizer");
        createTopicPolicy = Class.forName("org.apache.kafka.server.policy.CreateTopicPolicy");
        alterConfigPolicy = Class.forName("org.apache.kafka.server.policy.AlterConfigPolicy");
        metricsReporter = Class.forName("org.apache.kafka.common.metrics.MetricsReporter");
        processRoles = kafkaConfig.getMethod("processRoles");
        scalaContains = Class.forName("scala.collection.immutable.Set").getMethod("contains", Object.class);
        brokerRole = processRole("BrokerRole");
        controllerRole = processRole("ControllerRole");
    }

    /**
     * A value of {@code KafkaConfig.processRoles}: the Java enum {@code org.apache.kafka.server.ProcessRole}
     * (server module, 3.8 on), or before it the Scala objects of {@code KafkaRaftServer}
     * (core/src/main/scala/kafka/server/KafkaRaftServer.scala at 3.6.2 and 3.7.0).
     */
    private static Object processRole(String name) throws ReflectiveOperationException {
        try {
            return Class.forName("org.apache.kafka.server.ProcessRole").getField(name).get(null);
        } catch (ClassNotFoundException e) {
            return Class.forName("kafka.server.KafkaRaftServer$" + name + "$").getField("MODULE$").get(null);
        }
    }

    /** Looks the steps up once, before the first file: a release without them is a broken run. */
    static StartupSteps load() throws ReflectiveOperationException, IOException {
        Path root = Files.createTempDirectory("kafkalint-oracle-logdirs-");
        root.toFile().deleteOnExit();
        return new StartupSteps(root.toFile().getCanonicalFile());
    }

    /** A public static method, or null when the release does not have it. */
    private static Method method(String className, String name, Class<?>... parameters) {
        try {
            return Class.forName(className).getMethod(name, parameters);
        } catch (ReflectiveOperationException e) {
            return null;
        }
    }

    /**
     * Runs the steps for one file's config, in the order a KRaft node takes them; throws what
     * Kafka would throw. {@link InvocationTargetException}s are the caller's to unwrap.
     */
    void run(Object config) throws Exception {
        boolean zooKeeper = isEmpty(processRoles.invoke(config));
        boolean broker = zooKeeper || (boolean) scalaContains.invoke(processRoles.invoke(config), brokerRole);
        boolean controller = !zooKeeper
                && (boolean) scalaContains.invoke(processRoles.invoke(config), controllerRole);

        kafkaMetricsReporters(config);
        if (broker) logManager(config);
        closeAll(List.of(orEmpty(getConfiguredInstance.invoke(config, "client.quota.callback.class", clientQuotaCallback))));
        if (broker) replicaSelector(config);
        principalBuilder(config);
        authorizer(config);
        if (controller || zooKeeper) {
            closeAll(List.of(orEmpty(getConfiguredInstance.invoke(config, "create.topic.policy.class.name", createTopicPolicy))));
            closeAll(List.of(orEmpty(getConfiguredInstance.invoke(config, "alter.config.policy.class.name", alterConfigPolicy))));
        }
        metricReporters(config);
    }

    /**
     * {@code KafkaMetricsReporter.startReporters}: each class of {@code kafka.metrics.reporters}
     * (as {@code KafkaMetricsConfig} parses it) made and used as a {@code KafkaMetricsReporter}:
     * {@code CoreUtils.createObject} and a cast up to 3.9, {@code Utils.newInstance(name,
     * KafkaMetricsReporter.class)} and a cast after. {@code startReporters} itself is not called:
     * it runs once per JVM and starts each reporter ({@code init}), which may start threads and
     * write files.
     */
    private void kafkaMetricsReporters(Object config) throws Exception {
        Properties props = new Properties();
        props.putAll((Map<?, ?>) originals.invoke(config));
        Object metricsConfig = kafkaMetricsConfig.newInstance(verifiableProperties.newInstance(props));
        Object names = metricsConfig.getClass().getMethod("reporters").invoke(metricsConfig);
        for (Object name : javaList(names)) {
            Object reporter = createObject != null
                    ? createObject.invoke(null, name, emptyScalaSeq())
                    : newInstanceByName.invoke(null, name, kafkaMetricsReporter);
            kafkaMetricsReporter.cast(reporter);
        }
    }

    /**
     * {@code LogManager.apply}: the broker's log settings checked as a log's defaults, then the
     * log directories of {@code config.logDirs}, each as {@code new File(dir).getAbsoluteFile},
     * compared by {@code getCanonicalPath} as {@code createAndValidateLogDirs} does ("Duplicate
     * log directory found: " and the directories, joined by ", "). The method itself creates the
     * missing directories, so only its comparison is run, on each path resolved under an empty
     * folder of this run: no directory is created, and the links of this machine play no part.
     */
    private void logManager(Object config) throws Exception {
        @SuppressWarnings("unchecked")
        Map<String, Object> defaults = (Map<String, Object>) extractLogConfigMap.invoke(config);
        boolean remoteStorage = remoteStorageEnabled(config);
        validateBrokerLogConfigValues.invoke(null, defaults, remoteStorage);
        logConfig.newInstance(defaults);

        List<File> dirs = new ArrayList<>();
        for (Object dir : javaList(logDirs.invoke(config))) {
            dirs.add(new File((String) dir).getAbsoluteFile());
        }
        Set<String> canonicalPaths = new HashSet<>();
        for (File dir : dirs) {
            String canonical = new File(logDirRoot, dir.getPath()).getCanonicalPath();
            if (!canonicalPaths.add(canonical)) {
                List<String> shown = new ArrayList<>();
                for (File d : dirs) shown.add(d.getPath());
                throw (Exception) kafkaException.newInstance(
                        "Duplicate log directory found: " + String.join(", ", shown));
            }
        }
    }

    /**
     * What {@code LogManager.apply} passes as tiered storage being on: {@code
     * config.isRemoteLogStorageSystemEnabled} at 3.6.2 and 3.7.0 (core/src/main/scala/kafka/log/
     * LogManager.scala), later {@code remoteLogManagerConfig.isRemoteStorageSystemEnabled}.
     */
    private boolean remoteStorageEnabled(Object config) throws Exception {
        try {
            return (boolean) config.getClass().getMethod("isRemoteLogStorageSystemEnabled").invoke(config);
        } catch (NoSuchMethodException e) {
            Object remote = remoteLogManagerConfig.invoke(config);
            return (boolean) remote.getClass().getMethod("isRemoteStorageSystemEnabled").invoke(remote);
        }
    }

    /**
     * {@code ReplicaManager.createReplicaSelector}: the class named, when the key is set (an
     * empty name too), made as a {@code ReplicaSelector} and configured with the originals.
     */
    private void replicaSelector(Object config) throws Exception {
        Object name = replicaSelectorClassName.invoke(config);
        if ((boolean) name.getClass().getMethod("isEmpty").invoke(name)) return;
        String className = (String) name.getClass().getMethod("get").invoke(name);
        Object selector = createObject != null
                ? replicaSelector.cast(createObject.invoke(null, className, emptyScalaSeq()))
                : newInstanceByName.invoke(null, className, replicaSelector);
        replicaSelector.getMethod("configure", Map.class).invoke(selector, originals.invoke(config));
        closeAll(List.of(selector));
    }

    /** {@code ChannelBuilders.createPrincipalBuilder} over the parsed values, as the socket server calls it. */
    private void principalBuilder(Object config) throws Exception {
        createPrincipalBuilder.invoke(null, values.invoke(config), null, null);
    }

    /**
     * {@code KafkaConfig.createNewAuthorizer}: none for an empty name; else {@code
     * AuthorizerUtils.createAuthorizer(name)} (3.9), whose {@code Utils.newInstance(name,
     * Authorizer.class)} 4.4 calls with metrics around it. The authorizer is not configured: the
     * ZooKeeper one connects to ZooKeeper in {@code configure}.
     */
    private void authorizer(Object config) throws Exception {
        String name = (String) getString.invoke(config, "authorizer.class.name");
        if (name == null || name.isEmpty()) return;
        Object made = createAuthorizer != null
                ? createAuthorizer.invoke(null, name)
                : newInstanceByName.invoke(null, name, authorizer);
        closeAll(List.of(made));
    }

    /**
     * {@code DynamicMetricReporterState}: the classes of {@code metric.reporters}, with {@code
     * JmxReporter} added while {@code auto.include.jmx.reporter} (3.x) is true, made and
     * configured by {@code KafkaConfig.getConfiguredInstances(names, MetricsReporter.class,
     * {broker.id})}; not added to a {@code Metrics}, so none is started.
     */
    private void metricReporters(Object config) throws Exception {
        List<String> names = new ArrayList<>();
        for (Object name : javaList(getList.invoke(config, "metric.reporters"))) names.add((String) name);
        String jmx = "org.apache.kafka.common.metrics.JmxReporter";
        if (autoIncludeJmx(config) && !names.contains(jmx)) names.add(jmx);
        Map<String, Object> overrides = new HashMap<>();
        Object id = config.getClass().getMethod("nodeId").invoke(config);
        overrides.put("broker.id", String.valueOf(id));
        overrides.put("node.id", String.valueOf(id));
        closeAll((List<?>) getConfiguredInstances.invoke(config, names, metricsReporter, overrides));
    }

    private boolean autoIncludeJmx(Object config) throws Exception {
        try {
            return Boolean.TRUE.equals(getBoolean.invoke(config, "auto.include.jmx.reporter"));
        } catch (InvocationTargetException e) {
            return false; // 4.0 removed the key (its ConfigException: "Unknown configuration")
        }
    }

    private static List<?> orEmpty(Object o) {
        return o == null ? List.of() : List.of(o);
    }

    /** Closes what a step made, so that nothing it holds outlives the file. */
    private static void closeAll(Collection<?> made) {
        for (Object o : made) {
            if (o instanceof List<?> list) {
                closeAll(list);
            } else if (o instanceof AutoCloseable closeable) {
                try {
                    closeable.close();
                } catch (Exception ignored) {
                    // Closing is this program's tidiness, not Kafka's verdict.
                }
            }
        }
    }

    private static boolean isEmpty(Object scalaIterable) throws ReflectiveOperationException {
        return (boolean) Class.forName("scala.collection.IterableOnceOps").getMethod("isEmpty").invoke(scalaIterable);
    }

    /** A Java list of a Java list or of a Scala collection. */
    private static List<?> javaList(Object collection) throws ReflectiveOperationException {
        if (collection == null) return List.of();
        if (collection instanceof List<?> list) return list;
        Class<?> converters = Class.forName("scala.jdk.javaapi.CollectionConverters");
        return (List<?>) converters.getMethod("asJava", Class.forName("scala.collection.Seq")).invoke(null, collection);
    }

    private static Object emptyScalaSeq() throws ReflectiveOperationException {
        return Class.forName("scala.collection.immutable.Nil$").getField("MODULE$").get(null);
    }
}
