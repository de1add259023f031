package dev.kafkalint.catalog;

import static dev.kafkalint.catalog.Reflect.configKeys;
import static dev.kafkalint.catalog.Reflect.field;
import static dev.kafkalint.catalog.Reflect.first;
import static dev.kafkalint.catalog.Reflect.invoke;
import static dev.kafkalint.catalog.Reflect.invokeStatic;
import static dev.kafkalint.catalog.Reflect.module;
import static dev.kafkalint.catalog.Reflect.optionalField;
import static dev.kafkalint.catalog.Reflect.staticField;

import dev.kafkalint.catalog.Reflect.Candidate;
import dev.kafkalint.catalog.Reflect.Found;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Dumps the broker ConfigDef of the Kafka release found on the classpath as one JSON document,
 * with what else a broker file may hold: the keys of other components ({@link Components}), the
 * prefix families ({@link Families}), the topic and ZooKeeper synonyms ({@link Synonyms}) and the
 * classes of Kafka's own packages ({@link Classes}).
 *
 * <p>Usage: {@code DumpBrokerConfig [--expect-version X.Y.Z] [--unresolved GROUP:ARTIFACT:VERSION]...
 * [--out FILE]}. Without {@code --out} the document goes to standard output. {@code --unresolved}
 * names an artifact that could not be put on the classpath, so that the components it holds are
 * reported missing for that reason.
 *
 * <p>Every Kafka class is reached by reflection, so this class is compiled once against the JDK
 * alone and runs unchanged against the jars of any Kafka release from 2.8 on. Where a piece of
 * information lives differs between releases; for each piece a list of known locations is tried
 * in order, and the one that answered is recorded in the output. When no location yields the
 * broker ConfigDef the run fails.
 */
public final class DumpBrokerConfig {
    private static final String CONFIG_DEF = Reflect.CONFIG_DEF;
    private static final String VALIDATOR = CONFIG_DEF + "$Validator";

    /** {@code Object.toString()}'s form: carries an identity hash, so it is not data. */
    private static final Pattern IDENTITY_TO_STRING = Pattern.compile("^[\\w.$/]+@[0-9a-f]+$");

    /**
     * A doc string that says its own key is deprecated: it opens with the word ("DEPRECATED:",
     * "[DEPRECATED]", "Deprecated.") or says "this config(uration) is / has been deprecated". A doc
     * that only mentions something else being deprecated (a JAAS option, an old interface) does not
     * count.
     */
    private static final Pattern DEPRECATED_OPENING =
            Pattern.compile("^\\W*deprecated\\b", Pattern.CASE_INSENSITIVE);
    private static final Pattern DEPRECATED_SELF = Pattern.compile("\\b(?:this|the)\\s+"
            + "(?:config|configuration|property|setting)\\s+(?:is|has\\s+been|was)\\s+deprecated\\b",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern HTML_TAG = Pattern.compile("<[^>]*>");

    /** A run of the characters config names are made of. */
    private static final Pattern NAME_RUN = Pattern.compile("[A-Za-z0-9._-]+");

    private DumpBrokerConfig() {}

    public static void main(String[] args) throws Exception {
        String expectVersion = null;
        Path out = null;
        List<String> unresolved = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--expect-version" -> expectVersion = args[++i];
                case "--unresolved" -> unresolved.add(args[++i]);
                case "--out" -> out = Path.of(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument: " + args[i]);
            }
        }

        String version = kafkaVersion();
        if (expectVersion != null && !expectVersion.equals(version)) {
            throw new IllegalStateException(
                    "classpath holds Kafka " + version + ", expected " + expectVersion);
        }

        Map<String, Object> doc = dump(version, unresolved);
        String json = Json.write(doc);
        if (out == null) {
            System.out.print(json);
            System.out.flush();
        } else {
            Files.writeString(out, json, StandardCharsets.US_ASCII);
        }
        @SuppressWarnings("unchecked")
        List<Object> configs = (List<Object>) doc.get("configs");
        System.err.println("kafka " + version + ": " + configs.size() + " broker configs, ConfigDef from "
                + doc.get("config_def_source"));
    }

    // ------------------------------------------------------------------------------------------
    // The document

    private static Map<String, Object> dump(String version, List<String> unresolved) throws Exception {
        Found configDef = first("the broker ConfigDef", List.of(
                new Candidate("kafka.server.KafkaConfig.configDef()",
                        () -> invokeStatic("kafka.server.KafkaConfig", "configDef")),
                new Candidate("kafka.server.KafkaConfig$.MODULE$.configDef()",
                        () -> invoke(module("kafka.server.KafkaConfig$"), "configDef")),
                new Candidate("kafka.server.KafkaConfig$.MODULE$.configDef (field)",
                        () -> field(module("kafka.server.KafkaConfig$"), "configDef")),
                new Candidate("org.apache.kafka.server.config.AbstractKafkaConfig.CONFIG_DEF",
                        () -> staticField("org.apache.kafka.server.config.AbstractKafkaConfig", "CONFIG_DEF"))),
                CONFIG_DEF);
        if (configDef.value() == null) {
            throw new IllegalStateException("no known location holds the broker ConfigDef of Kafka " + version
                    + "; tried " + String.join(", ", configDef.tried()));
        }
        Map<String, Object> keys = configKeys(configDef.value());

        Found modes = first("the dynamic update modes", List.of(
                new Candidate("kafka.server.DynamicBrokerConfig$.MODULE$.dynamicConfigUpdateModes()",
                        () -> invoke(module("kafka.server.DynamicBrokerConfig$"), "dynamicConfigUpdateModes")),
                new Candidate("kafka.server.DynamicBrokerConfig.dynamicConfigUpdateModes()",
                        () -> invokeStatic("kafka.server.DynamicBrokerConfig", "dynamicConfigUpdateModes")),
                new Candidate("org.apache.kafka.server.config.DynamicBrokerConfig.dynamicConfigUpdateModes()",
                        () -> invokeStatic("org.apache.kafka.server.config.DynamicBrokerConfig",
                                "dynamicConfigUpdateModes"))),
                "java.util.Map");
        Map<String, String> updateModes = null;
        if (modes.value() != null) {
            updateModes = new TreeMap<>();
            for (Map.Entry<?, ?> e : ((Map<?, ?>) modes.value()).entrySet()) {
                updateModes.put((String) e.getKey(), (String) e.getValue());
            }
        }

        Found dynamicDef = first("the dynamic broker ConfigDef (DynamicConfig.Broker)", List.of(
                new Candidate("kafka.server.DynamicConfig$Broker$.MODULE$.configKeys()",
                        () -> invoke(module("kafka.server.DynamicConfig$Broker$"), "configKeys")),
                new Candidate("kafka.server.DynamicConfig$Broker$.MODULE$.brokerConfigDef()",
                        () -> invoke(invoke(module("kafka.server.DynamicConfig$Broker$"), "brokerConfigDef"),
                                "configKeys")),
                new Candidate("org.apache.kafka.server.config.DynamicConfig$Broker.configKeys()",
                        () -> invokeStatic("org.apache.kafka.server.config.DynamicConfig$Broker", "configKeys"))),
                "java.util.Map");

        Map<String, Object> dynamicKeys = new TreeMap<>();
        if (dynamicDef.value() != null) {
            for (Map.Entry<?, ?> e : ((Map<?, ?>) dynamicDef.value()).entrySet()) {
                if (!keys.containsKey((String) e.getKey())) dynamicKeys.put((String) e.getKey(), e.getValue());
            }
        }
        // The names a doc string can mention as another broker config: the ConfigDef's keys and
        // the dynamic-only ones.
        Set<String> brokerNames = new TreeSet<>(keys.keySet());
        brokerNames.addAll(dynamicKeys.keySet());

        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("kafka_version", version);
        doc.put("config_def_source", configDef.source());

        List<Object> configs = new ArrayList<>();
        for (Map.Entry<String, Object> e : new TreeMap<>(keys).entrySet()) {
            Map<String, Object> entry = configKey(e.getValue(), brokerNames);
            if (updateModes != null) {
                entry.put("dynamic_update_mode", updateModes.getOrDefault(e.getKey(), "read-only"));
            }
            configs.add(entry);
        }
        doc.put("configs", configs);

        if (updateModes != null) {
            doc.put("dynamic_update_mode_source", modes.source());
            List<String> notInDef = new ArrayList<>();
            for (String name : updateModes.keySet()) {
                if (!keys.containsKey(name)) notInDef.add(name);
            }
            doc.put("dynamic_update_modes_not_in_config_def", notInDef);
        } else {
            doc.put("dynamic_update_mode_note",
                    "no known location of the dynamic update modes answered in this release; tried "
                            + String.join(", ", modes.tried()));
        }

        if (dynamicDef.value() != null) {
            List<Object> dynamicOnly = new ArrayList<>();
            for (Object key : dynamicKeys.values()) dynamicOnly.add(configKey(key, brokerNames));
            doc.put("dynamic_only_configs", dynamicOnly);
            doc.put("dynamic_only_configs_source", dynamicDef.source());
        } else {
            doc.put("dynamic_only_configs_note",
                    "no known location of DynamicConfig.Broker answered in this release; tried "
                            + String.join(", ", dynamicDef.tried()));
        }

        // What else a broker file may legitimately hold, and where a misplaced key belongs.
        // Artifacts generate.sh could not put on the classpath (connect-mirror is not on Maven
        // Central for every release) are recorded: their components are missing for that reason.
        unresolved.sort(null);
        doc.put("unresolved_artifacts", unresolved);
        Components.dump(doc, unresolved);
        Synonyms.dump(doc);
        doc.put("prefix_families", Families.dump(keys.keySet(), Synonyms.zookeeperKeys(doc)));
        // The classes a key can name: a class of Kafka's own packages that the release lacks
        // stops the broker when a key it loads at start-up names it.
        Classes.dump(doc, version);
        return doc;
    }

    private static Map<String, Object> configKey(Object key, Set<String> brokerNames) throws Exception {
        Class<?> configDefClass = Class.forName(CONFIG_DEF);
        Object noDefault = configDefClass.getField("NO_DEFAULT_VALUE").get(null);

        Map<String, Object> entry = new LinkedHashMap<>();
        String name = (String) field(key, "name");
        Object type = field(key, "type");
        Object defaultValue = field(key, "defaultValue");
        entry.put("name", name);
        entry.put("type", ((Enum<?>) type).name());
        if (defaultValue == noDefault) {
            entry.put("required", true);
            entry.put("default", null);
        } else {
            entry.put("required", false);
            Method convert = configDefClass.getMethod("convertToString", Object.class, type.getClass());
            entry.put("default", convert.invoke(null, defaultValue, type));
        }
        Object importance = field(key, "importance");
        entry.put("importance", importance == null ? null : ((Enum<?>) importance).name());
        Object internal = optionalField(key, "internalConfig");
        entry.put("internal", internal != null && (Boolean) internal);
        entry.put("validator", validator(field(key, "validator")));

        // Read from the doc string, which itself is not copied: whether it calls the key
        // deprecated, and which other broker configs it names (the replacement, usually).
        String documentation = (String) optionalField(key, "documentation");
        String text = documentation == null ? "" : HTML_TAG.matcher(documentation).replaceAll(" ");
        entry.put("deprecated", DEPRECATED_OPENING.matcher(text).find() || DEPRECATED_SELF.matcher(text).find());
        Set<String> mentions = new TreeSet<>();
        Matcher run = NAME_RUN.matcher(text);
        while (run.find()) {
            // "see log.dirs." ends a sentence: dots and dashes at either end are not part of a name.
            String candidate = run.group().replaceAll("^[.-]+|[.-]+$", "");
            if (!candidate.equals(name) && brokerNames.contains(candidate)) mentions.add(candidate);
        }
        entry.put("doc_mentions", new ArrayList<>(mentions));
        return entry;
    }

    /** The validator's class, its toString(), and for the validators of ConfigDef its parameters. */
    static Map<String, Object> validator(Object v) throws Exception {
        if (v == null) return null;
        Map<String, Object> out = new LinkedHashMap<>();
        String cls = v.getClass().getName();
        boolean lambda = v.getClass().isSynthetic() || cls.contains("$$Lambda");
        out.put("class", lambda ? "<lambda>" : cls);
        String text;
        try {
            text = String.valueOf(v);
        } catch (RuntimeException e) {
            text = null;
        }
        if (text != null && IDENTITY_TO_STRING.matcher(text).matches()) text = null;
        out.put("string", text);

        String kind;
        switch (cls) {
            case CONFIG_DEF + "$Range" -> {
                kind = "range";
                out.put("min", number(field(v, "min")));
                out.put("max", number(field(v, "max")));
            }
            case CONFIG_DEF + "$ValidString" -> {
                kind = "valid_string";
                out.put("valid_values", strings(field(v, "validStrings"), false));
            }
            case CONFIG_DEF + "$CaseInsensitiveValidString" -> {
                kind = "case_insensitive_valid_string";
                out.put("valid_values", strings(field(v, "validStrings"), true));
            }
            case CONFIG_DEF + "$ValidList" -> {
                kind = "valid_list";
                Object validString = field(v, "validString");
                out.put("valid_values", validString == null ? null : strings(field(validString, "validStrings"), false));
                Object emptyAllowed = optionalField(v, "isEmptyAllowed");
                if (emptyAllowed != null) out.put("empty_allowed", emptyAllowed);
                Object nullAllowed = optionalField(v, "isNullAllowed");
                if (nullAllowed != null) out.put("null_allowed", nullAllowed);
            }
            case CONFIG_DEF + "$ListSize" -> {
                kind = "list_size";
                out.put("max_size", number(field(v, "maxSize")));
            }
            case CONFIG_DEF + "$CompositeValidator" -> {
                kind = "composite";
                List<Object> parts = new ArrayList<>();
                for (Object part : (Collection<?>) field(v, "validators")) parts.add(validator(part));
                out.put("validators", parts);
            }
            case CONFIG_DEF + "$NonEmptyString" -> kind = "non_empty_string";
            case CONFIG_DEF + "$NonNullValidator" -> kind = "non_null";
            case CONFIG_DEF + "$NonEmptyStringWithoutControlChars" -> kind = "non_empty_string_without_control_chars";
            case CONFIG_DEF + "$LambdaValidator" -> {
                kind = "lambda";
                // A lambda's description is written for Kafka's documentation (some are whole
                // sentences); it is not data, and documentation text is not copied.
                out.put("string", null);
            }
            default -> kind = "other";
        }
        out.put("kind", kind);
        return out;
    }

    private static Object number(Object n) {
        if (n == null) return null;
        if (n instanceof Byte || n instanceof Short || n instanceof Integer || n instanceof Long) {
            return ((Number) n).longValue();
        }
        if (n instanceof Float || n instanceof Double) return ((Number) n).doubleValue();
        throw new IllegalStateException("unexpected bound type " + n.getClass().getName());
    }

    private static List<String> strings(Object collection, boolean sort) {
        Collection<String> values = sort ? new TreeSet<>() : new ArrayList<>();
        for (Object o : (Collection<?>) collection) values.add((String) o);
        return new ArrayList<>(values);
    }

    // ------------------------------------------------------------------------------------------
    // Where things are

    private static String kafkaVersion() throws Exception {
        ClassLoader loader = DumpBrokerConfig.class.getClassLoader();
        try (InputStream in = loader.getResourceAsStream("kafka/kafka-version.properties")) {
            if (in != null) {
                Properties p = new Properties();
                p.load(in);
                String v = p.getProperty("version");
                if (v != null && !v.isEmpty()) return v.trim();
            }
        }
        for (String cls : List.of("org.apache.kafka.common.utils.AppInfoParser",
                "org.apache.kafka.common.utils.internals.AppInfoParser")) {
            try {
                return (String) invokeStatic(cls, "getVersion");
            } catch (ClassNotFoundException e) {
                // try the next one
            }
        }
        throw new IllegalStateException("cannot tell the Kafka version of the classpath");
    }
}
