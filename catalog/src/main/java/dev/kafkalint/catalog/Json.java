package dev.kafkalint.catalog;

import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;

/**
 * A tiny, deterministic JSON writer.
 *
 * <p>Values are {@code null}, {@link Boolean}, {@link Number} (integral types and finite doubles),
 * {@link CharSequence}, {@link Map} (keys are written sorted) and {@link Collection} (written in
 * iteration order). The layout is the one of Python's {@code json.dumps(value, indent=2,
 * sort_keys=True)}: two-space indent, {@code ": "} between key and value, {@code ","} at line ends,
 * {@code []} / {@code {}} for empty containers, and every character outside printable ASCII written
 * as a {@code \}{@code uXXXX} escape.
 */
final class Json {
    private Json() {}

    static String write(Object value) {
        StringBuilder out = new StringBuilder();
        write(out, value, 0);
        out.append('\n');
        return out.toString();
    }

    private static void write(StringBuilder out, Object value, int depth) {
        if (value == null) {
            out.append("null");
        } else if (value instanceof Boolean) {
            out.append(((Boolean) value) ? "true" : "false");
        } else if (value instanceof Double || value instanceof Float) {
            double d = ((Number) value).doubleValue();
            if (Double.isNaN(d) || Double.isInfinite(d)) {
                throw new IllegalArgumentException("not representable in JSON: " + d);
            }
            out.append(Double.toString(d));
        } else if (value instanceof Number) {
            out.append(value.toString());
        } else if (value instanceof CharSequence) {
            string(out, value.toString());
        } else if (value instanceof Map) {
            Map<String, Object> sorted = new TreeMap<>();
            for (Map.Entry<?, ?> e : ((Map<?, ?>) value).entrySet()) {
                sorted.put((String) e.getKey(), e.getValue());
            }
            if (sorted.isEmpty()) {
                out.append("{}");
                return;
            }
            out.append('{');
            boolean first = true;
            for (Map.Entry<String, Object> e : sorted.entrySet()) {
                if (!first) out.append(',');
                first = false;
                newline(out, depth + 1);
                string(out, e.getKey());
                out.append(": ");
                write(out, e.getValue(), depth + 1);
            }
            newline(out, depth);
            out.append('}');
        } else if (value instanceof Collection) {
            Collection<?> items = (Collection<?>) value;
            if (items.isEmpty()) {
                out.append("[]");
                return;
            }
            out.append('[');
            boolean first = true;
            for (Object item : items) {
                if (!first) out.append(',');
                first = false;
                newline(out, depth + 1);
                write(out, item, depth + 1);
            }
            newline(out, depth);
            out.append(']');
        } else {
            throw new IllegalArgumentException("no JSON form for " + value.getClass().getName());
        }
    }

    private static void newline(StringBuilder out, int depth) {
        out.append('\n');
        for (int i = 0; i < depth; i++) out.append("  ");
    }

    private static void string(StringBuilder out, String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"': out.append("\\\""); break;
                case '\\': out.append("\\\\"); break;
                case '\n': out.append("\\n"); break;
                case '\r': out.append("\\r"); break;
                case '\t': out.append("\\t"); break;
                case '\b': out.append("\\b"); break;
                case '\f': out.append("\\f"); break;
                default:
                    if (c < 0x20 || c > 0x7e) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
            }
        }
        out.append('"');
    }
}
