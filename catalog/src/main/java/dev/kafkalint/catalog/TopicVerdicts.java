package dev.kafkalint.catalog;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;

/**
 * Kafka's own verdict on topic configs: for each line of standard input,
 * {@code id|remote.log.storage.system.enable|zookeeper|key=value;key=value}, calls the release's
 * {@code LogConfig.validate} (what CreateTopics runs on a topic's configs) and prints
 * {@code id<TAB>OK} or {@code id<TAB>REFUSED: <Kafka's message>}. An id starting with
 * {@code open_} asks instead what a broker does when it opens the topic's log
 * ({@code LogConfig.fromProps}).
 *
 * <p>The cluster's log settings are Kafka's defaults (the ConfigDef's), as on a broker that sets
 * none. kafkalint's tests compare its own verdicts with the ones this prints for every release.
 */
public final class TopicVerdicts {
    private TopicVerdicts() {}

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        String line;
        while ((line = in.readLine()) != null) {
            if (line.isBlank() || line.startsWith("#")) continue;
            String[] parts = line.split("\\|", -1);
            boolean system = parts[1].equals("true");
            boolean zk = parts[2].equals("true");
            Map<String, String> props = new LinkedHashMap<>();
            if (!parts[3].isEmpty()) for (String kv : parts[3].split(";")) {
                int eq = kv.indexOf('=');
                props.put(kv.substring(0, eq), kv.substring(eq + 1));
            }
            String verdict;
            try {
                if (parts[0].startsWith("open_")) open(props);
                else validate(props, system, zk);
                verdict = "OK";
            } catch (InvocationTargetException e) {
                verdict = "REFUSED: " + e.getCause().getMessage();
            }
            System.out.println(parts[0] + "\t" + verdict);
        }
    }

    /** What a broker does when it opens the topic's log: LogConfig.fromProps(defaults, topic's configs). */
    static void open(Map<String, String> props) throws Exception {
        Properties p = new Properties();
        p.putAll(props);
        Class<?> java;
        try {
            java = Class.forName("org.apache.kafka.storage.internals.log.LogConfig");
        } catch (ClassNotFoundException e) {
            Class<?> scala = Class.forName("kafka.log.LogConfig$");
            Object module = scala.getField("MODULE$").get(null);
            scala.getMethod("fromProps", Map.class, Properties.class).invoke(module, new HashMap<>(), p);
            return;
        }
        java.getMethod("fromProps", Map.class, Properties.class).invoke(null, new HashMap<>(), p);
    }

    static void validate(Map<String, String> props, boolean system, boolean zk) throws Exception {
        Properties p = new Properties();
        p.putAll(props);
        Class<?> java;
        try {
            java = Class.forName("org.apache.kafka.storage.internals.log.LogConfig");
        } catch (ClassNotFoundException e) {
            Class<?> scala = Class.forName("kafka.log.LogConfig$");
            Object module = scala.getField("MODULE$").get(null);
            scala.getMethod("validate", Properties.class).invoke(module, p);
            return;
        }
        // The broker's configured log map: the ConfigDef defaults (a broker with default settings).
        Object def = java.getMethod("configDefCopy").invoke(null);
        @SuppressWarnings("unchecked")
        Map<String, Object> configured = new HashMap<>((Map<String, Object>) def.getClass().getMethod("defaultValues").invoke(def));
        configured.values().removeIf(Objects::isNull);
        Method best = null;
        for (Method m : java.getMethods()) {
            if (m.getName().equals("validate") && Modifier.isStatic(m.getModifiers())
                    && (best == null || m.getParameterCount() > best.getParameterCount())) best = m;
        }
        Class<?>[] types = best.getParameterTypes();
        switch (best.getParameterCount()) {
            case 1 -> best.invoke(null, types[0] == Properties.class ? p : props);
            case 3 -> best.invoke(null, types[0] == Properties.class ? p : props, configured, system);
            case 4 -> best.invoke(null, Map.of(), types[1] == Properties.class ? p : props, configured, system);
            case 5 -> best.invoke(null, Map.of(), types[1] == Properties.class ? p : props, configured, system, zk);
            default -> throw new IllegalStateException(best.toString());
        }
    }
}
