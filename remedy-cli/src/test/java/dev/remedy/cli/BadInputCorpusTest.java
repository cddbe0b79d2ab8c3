package dev.remedy.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.remedy.fence.ipmi.IpmiFenceAgentProvider;
import dev.remedy.fence.redfish.RedfishFenceAgentProvider;
import dev.remedy.fence.redfish.RedfishPduAgentProvider;
import dev.remedy.fence.snmp.SnmpFabricAgentProvider;
import dev.remedy.fence.snmp.SnmpFenceAgentProvider;
import dev.remedy.fence.ssh.SshFabricAgentProvider;
import dev.remedy.fence.ssh.SshFenceAgentProvider;
import dev.remedy.fence.ssh.SshHostAgentProvider;
import dev.remedy.spi.discovery.FenceAgentRegistry;
import dev.remedy.test.fake.FakeFenceAgentProvider;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The bad-input corpus: every case is a bad policy, fence configuration, scenario, device profile or command line,
 * and each must end in a clear error with exit code 3: stderr names the input (the file and the path in it, or the
 * option) with what is wrong, holds no stack trace, and never a secret the case wrote.
 *
 * <p>The cases are data. Each {@code bad-inputs/<kind>/<case>.yaml} starts with {@code # args:} (the command line,
 * {@code {file}} standing for the case's own file), {@code # expect:} lines (fragments stderr must contain) and
 * {@code # absent:} lines (fragments it must not). {@code bad-inputs/index.csv} holds the command-line cases and the
 * JSON files, which cannot carry a comment. Inputs too large or too strange to check in (a 50 MB line, a named pipe,
 * a device, binary bytes, a YAML bomb) are made by {@link #generated} in a temporary folder as the case runs. The
 * timeout of a case is a guard against a hang, not a measure of speed.
 */
@DisplayName("the bad-input corpus: every case exits 3 with a clear error naming the input")
class BadInputCorpusTest {

    private static final String FINGERPRINT = "SHA256:umBVQs9WkpT6FKOULFIjG+nTw89iZzUahu1YIyuZoIE";
    private static final String VALID_FENCE = """
            templates:
              bmc: {agent: ipmi, parameters: {username: admin}, secrets: {password: {env: BMC_PASSWORD}}}
            topologies:
              - name: default
                power_management: {levels: [[bmc]]}
            nodes:
              worker-1: {bmc: {ip: 10.0.0.11}}
            """;

    @TempDir
    private Path tmp;

    /**
     * One bad input.
     *
     * @param kind     what it is: fence, policies, scenarios, profiles or cli
     * @param name     what is wrong with it
     * @param args     the command line, placeholders resolved by {@link #resolve}
     * @param expected fragments stderr must contain
     * @param absent   fragments stderr and stdout must not contain
     * @param setup    makes the case's files in a temporary folder and returns the values of extra placeholders
     */
    record Case(String kind, String name, List<String> args, List<String> expected, List<String> absent,
                Function<Path, Map<String, String>> setup) {
    }

    static Stream<Arguments> corpus() throws IOException {
        List<Case> cases = new ArrayList<>();
        Path root = resource("bad-inputs");
        try (Stream<Path> files = Files.walk(root)) {
            files.filter(file -> file.toString().endsWith(".yaml")).sorted().forEach(file -> cases.add(fromFile(file)));
        }
        Files.readAllLines(root.resolve("index.csv")).stream().filter(line -> !line.isBlank() && !line.startsWith("#"))
                .map(BadInputCorpusTest::fromIndex).forEach(cases::add);
        cases.addAll(generated());
        Map<String, List<Case>> byKind = new LinkedHashMap<>();
        cases.forEach(c -> byKind.computeIfAbsent(c.kind(), k -> new ArrayList<>()).add(c));
        List<Arguments> arguments = new ArrayList<>();
        byKind.forEach((kind, ofKind) -> {
            for (int i = 0; i < ofKind.size(); i++) {
                Case c = ofKind.get(i);
                arguments.add(Arguments.of(kind + " " + (i + 1) + "/" + ofKind.size() + ": " + c.name(), c));
            }
        });
        return arguments.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("corpus")
    @Timeout(value = 10, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    @DisplayName("exits 3 with a clear error naming the input")
    void refused(String display, Case c) {
        Map<String, String> values = new LinkedHashMap<>(c.setup().apply(tmp));
        Path file = resource("bad-inputs").resolve(c.kind()).resolve(c.name() + ".yaml");
        values.put("{file}", file.toString());
        values.put("{tmp}", tmp.toString());
        CliRunner cli = new CliRunner().registry(FenceAgentRegistry.of(new IpmiFenceAgentProvider(),
                        new RedfishFenceAgentProvider(), new RedfishPduAgentProvider(), new SshFenceAgentProvider(),
                        new SshFabricAgentProvider(), new SshHostAgentProvider(), new SnmpFenceAgentProvider(),
                        new SnmpFabricAgentProvider(), new FakeFenceAgentProvider()))
                .variable("BMC_PASSWORD", "bmc-pw").variable("PDU_PASSWORD", "pdu-pw").variable("PW", "pw")
                .variable("EMPTY", "");

        CliRunner.Result result = cli.run(c.args().stream().map(arg -> resolve(arg, values)).toArray(String[]::new));

        assertThat(result.exitCode()).as(result.toString()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(result.err()).as(result.toString()).isNotBlank()
                .contains(c.expected().stream().map(fragment -> resolve(fragment, values)).toList())
                .doesNotContain("\tat ", "internal error")
                .doesNotContainPattern("\\b(java|javax|com|org|dev)\\.[\\w.]+\\.\\w*(Exception|Error)\\b");
        for (String fragment : c.absent()) {
            assertThat(result.printed()).as(result.toString()).doesNotContain(fragment);
        }
    }

    private static String resolve(String text, Map<String, String> values) {
        String resolved = text;
        for (Map.Entry<String, String> value : values.entrySet()) {
            resolved = resolved.replace(value.getKey(), value.getValue());
        }
        return resolved.replace("{bad-inputs}", resource("bad-inputs").toString())
                .replace("{resources}", resource("bad-inputs").getParent().toString())
                .replace("{valid-fence}", resource("check/fence.yaml").toString())
                .replace("{valid-policies}", resource("simulate/policies.yaml").toString())
                .replace("{valid-scenario}", resource("simulate/single-node-failure.yaml").toString())
                .replace("{valid-profiles}", resource("check/profiles.yaml").toString());
    }

    private static Case fromFile(Path file) {
        List<String> args = List.of();
        List<String> expected = new ArrayList<>();
        List<String> absent = new ArrayList<>();
        try {
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                if (line.startsWith("# args:")) {
                    args = words(line.substring("# args:".length()));
                } else if (line.startsWith("# expect:")) {
                    expected.add(line.substring("# expect:".length()).strip());
                } else if (line.startsWith("# absent:")) {
                    absent.add(line.substring("# absent:".length()).strip());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String name = file.getFileName().toString().replaceFirst("\\.yaml$", "");
        assertThat(args).as(file + " has '# args:'").isNotEmpty();
        assertThat(expected).as(file + " has '# expect:'").isNotEmpty();
        return new Case(file.getParent().getFileName().toString(), name, args, expected, absent, dir -> Map.of());
    }

    private static Case fromIndex(String line) {
        String[] fields = line.split("\\|", -1);
        assertThat(fields).as(line).hasSize(5);
        return new Case(fields[0].strip(), fields[1].strip(), words(fields[2]), fragments(fields[3]),
                fragments(fields[4]), dir -> Map.of());
    }

    private static List<String> words(String text) {
        return text.isBlank() ? List.of() : Arrays.asList(text.strip().split("\\s+"));
    }

    private static List<String> fragments(String text) {
        return text.isBlank() ? List.of() : Arrays.stream(text.split(";;")).map(String::strip).toList();
    }

    /** A case whose input is made in the temporary folder: {@code make} writes it and returns its path. */
    private static Case made(String kind, String name, String args, Function<Path, Path> make, String... expected) {
        return new Case(kind, name, words(args), List.of(expected), List.of(),
                dir -> Map.of("{made}", make.apply(dir).toString()));
    }

    private static Path write(Path file, String text) {
        try {
            return Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Path writeBytes(Path file, byte[] bytes) {
        try {
            return Files.write(file, bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code prefix}, then {@code count} copies of {@code repeated}, written in chunks: a large file, fast. */
    private static Path repeat(Path file, String prefix, String repeated, int count) {
        int perChunk = Math.max(1, (1 << 20) / repeated.length());
        byte[] chunk = repeated.repeat(perChunk).getBytes(StandardCharsets.UTF_8);
        try (OutputStream out = Files.newOutputStream(file)) {
            out.write(prefix.getBytes(StandardCharsets.UTF_8));
            for (int written = 0; written < count; written += perChunk) {
                int copies = Math.min(perChunk, count - written);
                out.write(chunk, 0, copies * repeated.getBytes(StandardCharsets.UTF_8).length);
            }
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Path directory(Path dir) {
        try {
            return Files.createDirectory(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Path fifo(Path file) {
        int exit;
        try {
            exit = new ProcessBuilder("mkfifo", file.toString()).start().waitFor();
        } catch (IOException e) {
            exit = -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            exit = -1;
        }
        assumeThat(exit).as("mkfifo made a named pipe").isZero();
        return file;
    }

    private static Path link(Path file, Path target) {
        assumeThat(target).exists();
        try {
            return Files.createSymbolicLink(file, target);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Nested YAML lists {@code depth} deep, or JSON ones. */
    private static String nested(int depth) {
        return "[".repeat(depth) + "]".repeat(depth);
    }

    /** A YAML bomb: ten levels of nine aliases each, a billion values once expanded. */
    private static String bomb() {
        StringBuilder yaml = new StringBuilder("policies: []\na: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
        for (char c = 'b'; c <= 'j'; c++) {
            yaml.append(c).append(": &").append(c).append(" [")
                    .append(String.join(", ", Collections.nCopies(9, "*" + (char) (c - 1)))).append("]\n");
        }
        return yaml.toString();
    }

    /** Inputs made as the case runs. */
    static List<Case> generated() {
        String made = "{made}";
        String fenceOn = "fence fake off -p plug=n1 --secret-file password=" + made;
        return List.of(
                made("fence", "generated: a 50 MB single-line scalar", "check " + made,
                        dir -> repeat(dir.resolve("huge.yaml"), "templates: ", "x", 50_000_000),
                        made + ": cannot read the file: it is larger than 8 MiB"),
                made("fence", "generated: 9 MiB of short lines", "check " + made,
                        dir -> repeat(dir.resolve("long.yaml"), VALID_FENCE, "# a comment of a line\n", 430_000),
                        made + ": cannot read the file: it is larger than 8 MiB"),
                made("fence", "generated: random bytes", "check " + made,
                        dir -> writeBytes(dir.resolve("random.yaml"), randomBytes()),
                        made + ": cannot read the file: it is not UTF-8 text"),
                made("fence", "generated: UTF-16 text", "check " + made,
                        dir -> writeBytes(dir.resolve("utf16.yaml"), VALID_FENCE.getBytes(StandardCharsets.UTF_16)),
                        made + ": cannot read the file: it is not UTF-8 text"),
                made("fence", "generated: a named pipe", "check " + made,
                        dir -> fifo(dir.resolve("pipe.yaml")), made + ": cannot read the file: it is not a regular file"),
                made("fence", "generated: /dev/zero", "check --fence-config " + made,
                        dir -> link(dir.resolve("zero.yaml"), Path.of("/dev/zero")),
                        made + ": cannot read the file: it is not a regular file"),
                made("fence", "generated: a directory", "check " + made,
                        dir -> directory(dir.resolve("conf.d.yaml")),
                        made + ": cannot read the file: it is a directory"),
                made("fence", "generated: an empty file", "check --fence-config " + made,
                        dir -> write(dir.resolve("empty.yaml"), ""), made + ": the document is empty"),
                made("fence", "generated: nesting 200 levels deep", "check " + made,
                        dir -> write(dir.resolve("deep.yaml"), VALID_FENCE + "extra: " + nested(200) + "\n"),
                        made + ": line 8", "deeper than 64 levels"),
                made("policies", "generated: a line of 200,000 characters", "check " + made,
                        dir -> write(dir.resolve("line.yaml"), "policies:\n  - name: " + "w".repeat(200_000) + "\n"),
                        made + ": line 2: the line is 200010 characters long", "65536 characters"),
                made("policies", "generated: a YAML bomb", "check " + made,
                        dir -> write(dir.resolve("bomb.yaml"), bomb()), made + ": line 3", "YAML alias"),
                made("policies", "generated: control characters", "check " + made,
                        dir -> write(dir.resolve("nul.yaml"), "policies:\u0000\u0001\u0002\n"),
                        made + ": ", "YAML syntax error"),
                made("policies", "generated: JSON nested 200 levels deep", "check " + made,
                        dir -> write(dir.resolve("deep.json"), "{\"policies\": " + nested(200) + "}"),
                        made + ": line 1", "deeper than 64 levels"),
                made("policies", "generated: a JSON number of 2,000 digits", "check " + made,
                        dir -> write(dir.resolve("number.json"), "{\"policies\": [" + "9".repeat(2_000) + "]}"),
                        made + ": ", "JSON syntax error", "Number value length (2000)"),
                made("scenarios", "generated: a value of 100,000 characters over many lines", "check " + made,
                        dir -> write(dir.resolve("value.yaml"), "nodes: 3\nname: |\n"
                                + ("  " + "n".repeat(98) + "\n").repeat(1_000)),
                        made + ": line 2", "a value of", "65536 characters"),
                made("scenarios", "generated: a file named .toml", "check --scenario " + made,
                        dir -> write(dir.resolve("scenario.toml"), "nodes = 3\n"),
                        made + ": the format is unknown; name the file .yaml, .yml or .json"),
                made("profiles", "generated: a line of 100,000 characters", "check --profiles " + made,
                        dir -> write(dir.resolve("line.yaml"), "profiles:\n  - {name: " + "p".repeat(100_000) + "}\n"),
                        made + ": line 2: the line is", "65536 characters"),
                made("profiles", "generated: 9 MiB of profiles", "check --profiles " + made,
                        dir -> repeat(dir.resolve("big.yaml"), "profiles:\n", "  - {name: p}\n", 700_000),
                        made + ": cannot read the file: it is larger than 8 MiB"),
                made("profiles", "generated: a named pipe", "check --profiles " + made,
                        dir -> fifo(dir.resolve("pipe.yml")), made + ": cannot read the file: it is not a regular file"),
                made("cli", "generated: --secret-file on a named pipe", fenceOn, dir -> fifo(dir.resolve("pw")),
                        "secret parameter 'password'", "'" + made + "'", "not a regular file"),
                made("cli", "generated: --secret-file of 70,000 bytes", fenceOn,
                        dir -> write(dir.resolve("pw"), "p".repeat(70_000)), "'" + made + "'", "larger than 64 KiB"),
                made("cli", "generated: an empty --secret-file", fenceOn, dir -> write(dir.resolve("pw"), ""),
                        "'" + made + "' is empty"),
                made("cli", "generated: a --secret-file of a line break", fenceOn,
                        dir -> write(dir.resolve("pw"), "\n"), "'" + made + "' is empty"));
    }

    private static byte[] randomBytes() {
        byte[] bytes = new byte[4096];
        new Random(13).nextBytes(bytes);
        bytes[0] = (byte) 0xff;
        return bytes;
    }

    private static Path resource(String name) {
        try {
            return Path.of(BadInputCorpusTest.class.getResource("/" + name).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
