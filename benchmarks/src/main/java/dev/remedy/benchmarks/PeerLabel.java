package dev.remedy.benchmarks;

import dev.remedy.simulators.PeerCommand;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * How a benchmark says what it measured: a peer's exact command line (its environment and standard input
 * included) with the password masked, and the plain note that goes next to every ratio between remedy and a peer.
 */
final class PeerLabel {

    static final String MASK = "***";

    private PeerLabel() {
    }

    /**
     * The command line the peer ran, as a shell would show it: {@code NAME=*** program args} and, when it reads
     * standard input, {@code <<< 'line; line'}. Every environment value is masked (the peers get their password
     * there), and so is every occurrence of {@code secret} in the arguments and the input.
     */
    static String commandLine(PeerCommand command, String secret) {
        List<String> words = new ArrayList<>();
        new TreeMap<>(command.environment()).keySet().forEach(name -> words.add(name + "=" + MASK));
        command.command().forEach(word -> words.add(mask(word, secret)));
        String line = String.join(" ", words);
        if (!command.stdin().isEmpty()) {
            line += " <<< '" + String.join("; ", mask(command.stdin().strip(), secret).split("\n")) + "'";
        }
        return line;
    }

    /**
     * The note beside a ratio: remedy runs in this JVM on a warm client, the peer starts a process for every call,
     * so the ratio includes the peer's process start.
     */
    static String ratioNote(String peer) {
        return "(remedy in-process, warm client; " + peer + ": a new process per call)";
    }

    /** The name a peer is known by in the notes: its program. */
    static String program(PeerCommand command) {
        return command.command().get(0);
    }

    private static String mask(String text, String secret) {
        return secret.isEmpty() ? text : text.replace(secret, MASK);
    }
}
