package dev.kafkalint.catalog;

import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Reaching Kafka's classes by reflection. The dumper is compiled against the JDK alone, so every
 * Kafka (and Scala) class, field and method is looked up by name at run time; private members are
 * read too, because much of what Kafka knows about its configs lives in private constants.
 */
final class Reflect {
    static final String CONFIG_DEF = "org.apache.kafka.common.config.ConfigDef";

    /** What a constant holding a config key looks like: dotted words, not a prefix ending in a dot. */
    private static final Pattern KEY_SHAPE = Pattern.compile("^[a-z][A-Za-z0-9]*(\\.[A-Za-z0-9-]+)+$");

    /** Names of constants that hold documentation, defaults or prefixes rather than a key. */
    private static final Pattern NOT_A_KEY_CONSTANT = Pattern.compile("(?i).*(doc|default|prefix|property)$");

    private Reflect() {}

    /** One way to reach a value in some Kafka releases. */
    interface Lookup {
        Object get() throws Exception;
    }

    record Candidate(String source, Lookup lookup) {}

    record Found(String source, Object value, List<String> tried) {}

    /**
     * The first candidate that yields a non-null instance of {@code expectedType}; when none does,
     * a {@code Found} whose value is null and which lists what was tried.
     */
    static Found first(String what, List<Candidate> candidates, String expectedType) {
        Found found = firstQuietly(candidates, expectedType);
        if (found.value() == null) {
            System.err.println("warning: nothing found for " + what + "; tried: " + String.join(", ", found.tried()));
        }
        return found;
    }

    /** {@link #first} without the warning: for things that are legitimately absent from some releases. */
    static Found firstQuietly(List<Candidate> candidates, String expectedType) {
        Class<?> expected;
        try {
            expected = Class.forName(expectedType);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("class " + expectedType + " is not on the classpath", e);
        }
        List<String> tried = new ArrayList<>();
        for (Candidate c : candidates) {
            try {
                Object value = c.lookup().get();
                if (value != null && expected.isInstance(value)) {
                    return new Found(c.source(), value, tried);
                }
                tried.add(c.source() + " (" + (value == null ? "null" : value.getClass().getName()) + ")");
            } catch (Throwable t) {
                Throwable cause = t instanceof InvocationTargetException && t.getCause() != null ? t.getCause() : t;
                tried.add(c.source() + " (" + cause.getClass().getSimpleName() + ")");
            }
        }
        return new Found(null, null, tried);
    }

    static Object module(String className) throws Exception {
        return staticField(className, "MODULE$");
    }

    static Object staticField(String className, String name) throws Exception {
        Field f = Class.forName(className).getDeclaredField(name);
        if (!Modifier.isStatic(f.getModifiers())) throw new NoSuchFieldException(name + " is not static");
        f.setAccessible(true);
        return f.get(null);
    }

    static Object invokeStatic(String className, String name) throws Exception {
        Method m = Class.forName(className).getDeclaredMethod(name);
        if (!Modifier.isStatic(m.getModifiers())) throw new NoSuchMethodException(name + " is not static");
        m.setAccessible(true);
        return m.invoke(null);
    }

    /** Calls a static one-argument method whose parameter type is named {@code argType}. */
    static Object invokeStatic(String className, String name, String argType, Object arg) throws Exception {
        Method m = Class.forName(className).getDeclaredMethod(name, Class.forName(argType));
        if (!Modifier.isStatic(m.getModifiers())) throw new NoSuchMethodException(name + " is not static");
        m.setAccessible(true);
        return m.invoke(null, arg);
    }

    /** Calls a no-argument method, public or not, declared by the object's class or a superclass. */
    static Object invoke(Object target, String name) throws Exception {
        for (Class<?> c = target.getClass(); c != null; c = c.getSuperclass()) {
            for (Method m : c.getDeclaredMethods()) {
                if (m.getName().equals(name) && m.getParameterCount() == 0 && !Modifier.isStatic(m.getModifiers())) {
                    m.setAccessible(true);
                    return m.invoke(target);
                }
            }
        }
        throw new NoSuchMethodException(target.getClass().getName() + "." + name + "()");
    }

    /** Calls a public method that takes one String, e.g. {@code ListenerName.saslMechanismConfigPrefix}. */
    static Object invoke(Object target, String name, String arg) throws Exception {
        Method m = target.getClass().getMethod(name, String.class);
        m.setAccessible(true);
        return m.invoke(target, arg);
    }

    /** Reads an instance field, public or not, declared by the object's class or a superclass. */
    static Object field(Object target, String name) throws Exception {
        for (Class<?> c = target.getClass(); c != null; c = c.getSuperclass()) {
            try {
                Field f = c.getDeclaredField(name);
                if (Modifier.isStatic(f.getModifiers())) continue;
                f.setAccessible(true);
                return f.get(target);
            } catch (NoSuchFieldException e) {
                // look in the superclass
            }
        }
        throw new NoSuchFieldException(target.getClass().getName() + "." + name);
    }

    static Object optionalField(Object target, String name) throws Exception {
        try {
            return field(target, name);
        } catch (NoSuchFieldException e) {
            return null;
        }
    }

    /** The keys of a ConfigDef, by name. */
    static Map<String, Object> configKeys(Object configDef) throws Exception {
        Map<?, ?> raw = (Map<?, ?>) invoke(configDef, "configKeys");
        Map<String, Object> keys = new TreeMap<>();
        for (Map.Entry<?, ?> e : raw.entrySet()) keys.put((String) e.getKey(), e.getValue());
        return keys;
    }

    /**
     * The elements of a Java collection or a Scala one (Scala's {@code Set}s and {@code Map}s hold
     * much of the broker's knowledge in 2.8 to 4.2). A map's elements are its entries, each turned
     * into a two-element list.
     */
    static List<Object> elements(Object collection) throws Exception {
        List<Object> out = new ArrayList<>();
        if (collection instanceof Map<?, ?> map) {
            for (Map.Entry<?, ?> e : map.entrySet()) out.add(List.of(e.getKey(), e.getValue()));
            return out;
        }
        if (collection instanceof Collection<?> c) {
            out.addAll(c);
            return out;
        }
        // A Scala collection: walk its scala.collection.Iterator.
        Object it = publicMethod(collection, "iterator").invoke(collection);
        Method hasNext = publicMethod(it, "hasNext");
        Method next = publicMethod(it, "next");
        while ((Boolean) hasNext.invoke(it)) {
            Object element = next.invoke(it);
            if (element != null && element.getClass().getName().startsWith("scala.Tuple2")) {
                element = List.of(publicMethod(element, "_1").invoke(element), publicMethod(element, "_2").invoke(element));
            }
            out.add(element);
        }
        return out;
    }

    /** A Java or Scala map as a sorted Java map of strings. */
    static Map<String, String> stringMap(Object map) throws Exception {
        Map<String, String> out = new TreeMap<>();
        for (Object e : elements(map)) {
            List<?> pair = (List<?>) e;
            out.put((String) pair.get(0), (String) pair.get(1));
        }
        return out;
    }

    /**
     * The values of the static String constants of a class (or Scala object) that hold config keys:
     * for components that have no ConfigDef, such as the authorizers, whose keys Kafka keeps only as
     * constants. Constants named like documentation, defaults or prefixes are left out.
     */
    static List<String> keyConstants(String className) throws Exception {
        List<String> keys = new ArrayList<>();
        // Scala 2.13 compiles an object's vals to static fields of its class Foo$, like Java's.
        for (Field f : Class.forName(className).getDeclaredFields()) {
            if (f.getType() != String.class || !Modifier.isStatic(f.getModifiers())) continue;
            // Scala mangles the names of constants used from other classes: a$b$$ZkUrlProp.
            String name = f.getName().substring(f.getName().lastIndexOf('$') + 1);
            if (NOT_A_KEY_CONSTANT.matcher(name).matches()) continue;
            f.setAccessible(true);
            Object value = f.get(null);
            if (value instanceof String s && KEY_SHAPE.matcher(s).matches()) keys.add(s);
        }
        keys.sort(null);
        return keys;
    }

    private static Method publicMethod(Object target, String name) throws Exception {
        Method m = target.getClass().getMethod(name);
        m.setAccessible(true);
        return m;
    }
}
