package dev.remedy.fence.kube.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.fence.kube.config.internal.ProblemNote;
import dev.remedy.spi.config.ConfigProblem;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("ProblemNote")
class ProblemNoteTest {

    private static List<ConfigProblem> problems(int count, int length) {
        return IntStream.range(0, count).mapToObj(i -> ConfigProblem.in("fence.yaml", "nodes.n" + i,
                "x".repeat(length))).toList();
    }

    @Test
    @DisplayName("lists every problem whole when they fit")
    void fits() {
        assertThat(ProblemNote.of("refused", problems(2, 10))).isEqualTo(
                "refused (2 problems): fence.yaml:nodes.n0: xxxxxxxxxx; fence.yaml:nodes.n1: xxxxxxxxxx");
    }

    @Test
    @DisplayName("names every one of many long problems by its place within 1 KiB")
    void shortened() {
        String note = ProblemNote.of("refused", problems(20, 500));

        assertThat(note).hasSizeLessThanOrEqualTo(ProblemNote.MAX_LENGTH).startsWith("refused (20 problems): ");
        IntStream.range(0, 20).forEach(i -> assertThat(note).contains("fence.yaml:nodes.n" + i + ":"));
    }

    @Test
    @DisplayName("past what 1 KiB can name, counts the rest and points to the log")
    void counted() {
        String note = ProblemNote.of("refused", problems(200, 50));

        assertThat(note).hasSizeLessThanOrEqualTo(ProblemNote.MAX_LENGTH).contains("fence.yaml:nodes.n0:")
                .endsWith("more in the operator's log");
    }
}
