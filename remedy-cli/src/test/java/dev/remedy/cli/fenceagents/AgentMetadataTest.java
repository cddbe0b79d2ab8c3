package dev.remedy.cli.fenceagents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.remedy.simulators.PeerPrograms;
import dev.remedy.spi.FenceAgentProvider;
import dev.remedy.spi.discovery.FenceAgentRegistry;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

@DisplayName("the -o metadata document of a launcher")
class AgentMetadataTest {

    private static final Path DTD = Path.of("/usr/share/resource-agents/ra-api-1.dtd");
    private static final Path RNG = Path.of("/usr/share/resource-agents/metadata.rng");

    /**
     * What ra-api-1.dtd (OCF 1.0's, older than the fence agents) cannot express, and nothing else: the fence actions
     * and fence-agents' content types {@code select} (with options) and {@code second}. fence_ipmilan's own metadata
     * fails it in some 270 places.
     */
    private static final List<Pattern> FENCE_VOCABULARY = Stream.of(
            "Value \"(on|off|reboot|list|list-status|metadata)\" for attribute name of action is not among the "
                    + "enumerated set",
            "Value \"(select|second)\" for attribute type of content is not among the enumerated set",
            "Element content was declared EMPTY this one has content",
            "No declaration for (element option|attribute value of element option)")
            .map(Pattern::compile).toList();

    @TempDir
    private Path dir;

    static Stream<Arguments> agents() {
        return FenceAgentRegistry.load().providers().stream()
                .map(agent -> Arguments.of(Named.of(agent.type(), agent)));
    }

    private static Document parse(String xml) throws Exception {
        return DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
    }

    private static Element parameter(Document doc, String name) {
        return IntStream.range(0, doc.getElementsByTagName("parameter").getLength())
                .mapToObj(i -> (Element) doc.getElementsByTagName("parameter").item(i))
                .filter(e -> e.getAttribute("name").equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no parameter " + name));
    }

    @Test
    @DisplayName("ipmi: fence-agents names, types, defaults, required, select options, secrets marked, the actions")
    void ipmi() throws Exception {
        Document doc = parse(AgentMetadata.of(FenceAgentRegistry.load().provider("ipmi")));

        assertThat(doc.getDocumentElement().getAttribute("name")).isEqualTo("fence_remedy_ipmi");
        Element ip = parameter(doc, "ip");
        assertThat(ip.getAttribute("required")).isEqualTo("1");
        Element content = (Element) parameter(doc, "ipport").getElementsByTagName("content").item(0);
        assertThat(content.getAttribute("type")).isEqualTo("integer");
        assertThat(content.getAttribute("default")).isEqualTo("623");
        Element privlvl = (Element) parameter(doc, "privlvl").getElementsByTagName("content").item(0);
        assertThat(privlvl.getAttribute("type")).isEqualTo("select");
        assertThat(privlvl.getElementsByTagName("option").getLength()).isEqualTo(4);
        Element powerTimeout = (Element) parameter(doc, "power_timeout").getElementsByTagName("content").item(0);
        assertThat(powerTimeout.getAttribute("type")).isEqualTo("second");
        assertThat(powerTimeout.getAttribute("default")).isEqualTo("20");
        assertThat(parameter(doc, "lanplus").getElementsByTagName("content").item(0).getAttributes()
                .getNamedItem("type").getNodeValue()).isEqualTo("boolean");
        Element password = parameter(doc, "password");
        assertThat(password.getElementsByTagName("shortdesc").item(0).getTextContent()).contains("secret");
        assertThat(((Element) password.getElementsByTagName("content").item(0)).getAttribute("type"))
                .isEqualTo("string");
        assertThat(parameter(doc, "port_as_ip").getElementsByTagName("content").item(0).getAttributes()
                .getNamedItem("type").getNodeValue()).isEqualTo("boolean");
        List<String> actions = IntStream.range(0, doc.getElementsByTagName("action").getLength())
                .mapToObj(i -> ((Element) doc.getElementsByTagName("action").item(i)).getAttribute("name")).toList();
        assertThat(actions).containsExactly("on", "off", "reboot", "status", "monitor", "metadata", "validate-all");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("agents")
    @DisplayName("every agent's document validates against metadata.rng, and fails ra-api-1.dtd only where the DTD "
            + "has no fence vocabulary")
    void validates(FenceAgentProvider agent) throws Exception {
        PeerPrograms.require("xmllint", "libxml2-utils");
        requireSchemas();
        Path file = dir.resolve(Launchers.name(agent.type()) + ".xml");
        Files.writeString(file, AgentMetadata.of(agent));

        Lint rng = lint("--relaxng", RNG.toString(), file);
        Lint dtd = lint("--dtdvalid", DTD.toString(), file);

        assertThat(rng.exitCode()).as(rng.output()).isZero();
        assertThat(rng.output()).contains("validates");
        List<String> dtdErrors = dtd.output().lines().filter(l -> l.contains("validity error")).toList();
        assertThat(dtdErrors).as("only the fence vocabulary fails the DTD (the action 'metadata' always):\n"
                + dtd.output()).isNotEmpty().allMatch(line -> FENCE_VOCABULARY.stream().anyMatch(p -> p.matcher(line).find()));
        assertThat(dtd.output()).as("the document is well formed").doesNotContain("parser error");
    }

    private record Lint(int exitCode, String output) {
    }

    /** Skips the test without the schemas, or fails it in CI, as {@link PeerPrograms#require} does for programs. */
    private static void requireSchemas() {
        if (Files.isRegularFile(DTD) && Files.isRegularFile(RNG)) {
            return;
        }
        String message = DTD + " or " + RNG + " is missing: apt-get install -y resource-agents";
        if ("true".equalsIgnoreCase(System.getenv("CI"))) {
            throw new IllegalStateException(message + " (CI must install every peer: see .ci/run)");
        }
        assumeThat(false).as(message + " to check the metadata against them").isTrue();
    }

    private static Lint lint(String option, String schema, Path file) throws IOException {
        List<String> command = List.of("xmllint", "--noout", option, schema, file.toString());
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError("xmllint did not end within 30 s");
            }
            return new Lint(process.exitValue(), new String(process.getInputStream().readAllBytes(),
                    StandardCharsets.UTF_8));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }
}
