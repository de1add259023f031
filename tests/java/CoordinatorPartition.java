import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * For each line of a UTF-8 file: the id's String.hashCode() and the coordinator partition among
 * 50 and among 7, with Kafka's Utils.abs (Math.abs, but 0 for Integer.MIN_VALUE), as
 * GroupCoordinator and TransactionStateManager place a group or transactional id.
 */
public class CoordinatorPartition {
    static int kafkaAbs(int n) {
        return n == Integer.MIN_VALUE ? 0 : Math.abs(n);
    }

    public static void main(String[] args) throws Exception {
        StringBuilder out = new StringBuilder();
        for (String id : Files.readAllLines(Path.of(args[0]), StandardCharsets.UTF_8)) {
            int hash = id.hashCode();
            out.append(hash).append(' ').append(kafkaAbs(hash) % 50).append(' ')
                    .append(kafkaAbs(hash) % 7).append('\n');
        }
        System.out.print(out);
    }
}
