package dev.remedy.fence.kube.config.internal;

import dev.remedy.fence.kube.events.KubeEvents;
import dev.remedy.spi.config.ConfigProblem;
import java.util.List;

/**
 * The sentence of a Warning about refused configuration: every problem named within a bound, each shortened to an
 * equal share of it when all do not fit (its place first), and only past a few dozen problems a count of the rest
 * (the log has them all). Problems hold no secret value, by the loaders' contract.
 */
public final class ProblemNote {

    /** The longest note: what {@link dev.remedy.fence.kube.events.KubeEvents.Note} keeps. */
    public static final int MAX_LENGTH = KubeEvents.NOTE_LIMIT;
    private static final int MIN_SHARE = 24;

    private ProblemNote() {
    }

    /** The note for {@code problems} (at least one), starting with {@code lead}. */
    public static String of(String lead, List<ConfigProblem> problems) {
        String head = lead + " (" + problems.size() + (problems.size() == 1 ? " problem): " : " problems): ");
        String whole = head + String.join("; ", problems.stream().map(ConfigProblem::toString).toList());
        if (whole.length() <= MAX_LENGTH) {
            return whole;
        }
        int room = MAX_LENGTH - head.length() - 32;
        int shown = Math.max(1, Math.min(problems.size(), room / MIN_SHARE));
        int share = room / shown - 2;
        StringBuilder note = new StringBuilder(head);
        for (int i = 0; i < shown; i++) {
            String text = problems.get(i).toString();
            note.append(i == 0 ? "" : "; ").append(text.length() <= share ? text
                    : text.substring(0, Math.max(1, share - 1)) + "…");
        }
        if (shown < problems.size()) {
            note.append("; and ").append(problems.size() - shown).append(" more in the operator's log");
        }
        return note.length() <= MAX_LENGTH ? note.toString() : note.substring(0, MAX_LENGTH - 1) + "…";
    }
}
