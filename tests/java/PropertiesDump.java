import java.io.BufferedReader;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Map;
import java.util.Properties;

/**
 * Loads each file named in the list file (one path a line) the way Kafka's Utils.loadProps does,
 * with Properties.load(InputStream), and prints what it holds. Every character outside printable
 * ASCII, and the backslash, is written as \\uXXXX so the output is plain ASCII.
 *
 * Output, per file: "FILE <n>", then "ERROR <exception class>" or one "K <key>" / "V <value>" pair
 * per entry, in no particular order.
 */
public final class PropertiesDump {
    public static void main(String[] args) throws Exception {
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.US_ASCII);
        try (BufferedReader list = Files.newBufferedReader(Paths.get(args[0]), StandardCharsets.UTF_8)) {
            String line;
            int n = 0;
            while ((line = list.readLine()) != null) {
                out.println("FILE " + n++);
                Properties props = new Properties();
                try (InputStream in = Files.newInputStream(Path.of(line))) {
                    props.load(in);
                } catch (IllegalArgumentException e) {
                    out.println("ERROR " + e.getClass().getName());
                    continue;
                }
                for (Map.Entry<Object, Object> entry : props.entrySet()) {
                    out.println("K " + escape((String) entry.getKey()));
                    out.println("V " + escape((String) entry.getValue()));
                }
            }
        }
        out.flush();
    }

    static String escape(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c >= 0x20 && c < 0x7f && c != '\\') {
                b.append(c);
            } else {
                b.append(String.format("\\u%04X", (int) c));
            }
        }
        return b.toString();
    }
}
