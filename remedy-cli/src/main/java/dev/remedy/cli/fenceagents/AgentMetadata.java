package dev.remedy.cli.fenceagents;

import dev.remedy.spi.FenceAgentProvider;
import dev.remedy.spi.config.ParameterDescriptor;
import dev.remedy.spi.config.ParameterType;
import dev.remedy.spi.config.Durations;
import java.time.Duration;
import java.util.Optional;

/**
 * The {@code -o metadata} XML of a launcher: the {@code <resource-agent>} document that Pacemaker's fencer and pcs read
 * (parameters with their types, defaults and whether they are required; the actions, among them {@code reboot},
 * {@code on} and {@code list} whose presence Pacemaker checks). Its shape is the one of
 * {@code /usr/share/resource-agents/metadata.rng} (a version, long and short descriptions as elements, a long
 * description for each parameter, a timeout for each action), which it validates against; against the older
 * {@code ra-api-1.dtd}, which predates fence agents, only the fence-agents vocabulary fails: the action names
 * {@code on}, {@code off}, {@code reboot}, {@code list}, {@code list-status} and {@code metadata}, and the content types
 * {@code select} (with its options) and {@code second}.
 *
 * <p>Neither schema can mark a secret: a secret parameter says so in its descriptions, with content type
 * {@code string}.
 */
final class AgentMetadata {

    /** What each action's {@code timeout} attribute says: Pacemaker's default {@code stonith-timeout}. */
    static final String ACTION_TIMEOUT = "60s";

    private AgentMetadata() {
    }

    /** The document for the launcher of {@code provider}. */
    static String of(FenceAgentProvider provider) {
        String name = Launchers.name(provider.type());
        StringBuilder xml = new StringBuilder();
        xml.append("<?xml version=\"1.0\" ?>\n");
        xml.append("<resource-agent name=\"").append(escape(name)).append("\">\n");
        xml.append("<version>1.0</version>\n");
        xml.append("<longdesc lang=\"en\">").append(escape(name + " runs remedy's '" + provider.type()
                + "' agent (" + provider.description() + ") for Pacemaker. OFF succeeds only once the device reads"
                + " OFF, a timeout is a failure, reboot is OFF confirmed then ON. Give options on stdin, where"
                + " Pacemaker puts them: secrets never belong on the command line.")).append("</longdesc>\n");
        xml.append("<shortdesc lang=\"en\">").append(escape("remedy's '" + provider.type() + "' agent: "
                + provider.description())).append("</shortdesc>\n");
        xml.append("<parameters>\n");
        parameter(xml, "action", true, "Fencing action", "the action: " + String.join(", ",
                ProtocolActions.of(provider)) + " (option is its old name)", "string", Optional.of("reboot"));
        for (ParameterDescriptor p : provider.parameters()) {
            parameter(xml, p);
        }
        parameter(xml, FenceAgentProtocol.ACTION_TIMEOUT, false, "Deadline of the whole action, in seconds",
                "remedy ends the action as failed at this deadline (a timeout is never a success); keep it below "
                        + "Pacemaker's timeout of the operation", "second",
                Optional.of(Long.toString(FenceAgentProtocol.DEFAULT_TIMEOUT.toSeconds())));
        if (FenceAgentProtocol.hasPortAsIp(provider)) {
            parameter(xml, FenceAgentProtocol.PORT_AS_IP, false, "Make \"port/plug\" to be an alias to IP address",
                    "the plug Pacemaker sends (the node's name, or what pcmk_host_map maps it to) is the device's "
                            + "address, as with fence_ipmilan: one device for every node", "boolean", Optional.empty());
        }
        parameter(xml, "verbose", false, "Print the agent's progress on stderr", "print each step of the agent "
                + "on stderr, as remedy fence --verbose does", "boolean", Optional.empty());
        xml.append("</parameters>\n");
        xml.append("<actions>\n");
        for (String action : ProtocolActions.of(provider)) {
            xml.append("\t<action name=\"").append(action).append("\" timeout=\"").append(ACTION_TIMEOUT)
                    .append("\" />\n");
        }
        xml.append("</actions>\n");
        xml.append("</resource-agent>\n");
        return xml.toString();
    }

    private static void parameter(StringBuilder xml, ParameterDescriptor p) {
        String name = p.fenceAgentsName().orElse(p.name());
        String shortdesc = p.description().isEmpty() ? p.name() : p.description();
        String longdesc = shortdesc + (name.equals(p.name()) ? "" : " (remedy's name: " + p.name() + ")");
        if (p.secret()) {
            shortdesc += " (secret: give it on stdin, never on the command line)";
            longdesc += ". A secret: give it on stdin, as Pacemaker does; on the command line every user of the "
                    + "machine can read it";
        }
        if (p.type() == ParameterType.DURATION) {
            longdesc += ". A duration: seconds, or 500ms, 30s, 2m";
        }
        xml.append("\t<parameter name=\"").append(escape(name)).append("\" unique=\"0\" required=\"")
                .append(p.required() ? "1" : "0").append("\">\n");
        xml.append("\t\t<longdesc lang=\"en\">").append(escape(longdesc)).append("</longdesc>\n");
        xml.append("\t\t<shortdesc lang=\"en\">").append(escape(shortdesc)).append("</shortdesc>\n");
        String type = switch (p.type()) {
            case STRING -> "string";
            case INTEGER -> "integer";
            case BOOLEAN -> "boolean";
            case DURATION -> "second";
            case CHOICE -> "select";
        };
        String defaultValue = p.defaultValue().map(d -> p.type() == ParameterType.DURATION ? seconds(d) : d)
                .map(d -> " default=\"" + escape(d) + "\"").orElse("");
        if (p.type() == ParameterType.CHOICE) {
            xml.append("\t\t<content type=\"select\"").append(defaultValue).append(">\n");
            p.allowedValues().forEach(v -> xml.append("\t\t\t<option value=\"").append(escape(v)).append("\" />\n"));
            xml.append("\t\t</content>\n");
        } else {
            xml.append("\t\t<content type=\"").append(type).append('"').append(defaultValue).append(" />\n");
        }
        xml.append("\t</parameter>\n");
    }

    private static void parameter(StringBuilder xml, String name, boolean required, String shortdesc, String longdesc,
                                  String type, Optional<String> defaultValue) {
        xml.append("\t<parameter name=\"").append(name).append("\" unique=\"0\" required=\"")
                .append(required ? "1" : "0").append("\">\n");
        xml.append("\t\t<longdesc lang=\"en\">").append(escape(longdesc)).append("</longdesc>\n");
        xml.append("\t\t<shortdesc lang=\"en\">").append(escape(shortdesc)).append("</shortdesc>\n");
        xml.append("\t\t<content type=\"").append(type).append('"')
                .append(defaultValue.map(d -> " default=\"" + escape(d) + "\"").orElse("")).append(" />\n");
        xml.append("\t</parameter>\n");
    }

    /** A duration default in whole seconds, as fence-agents' {@code second} type has it, when it is whole. */
    private static String seconds(String duration) {
        Duration d = Durations.parse(duration);
        return d.toMillis() % 1000 == 0 ? Long.toString(d.toSeconds()) : duration;
    }

    /** Text escaped for an attribute or element of XML, as {@code fencing.py} escapes it. */
    static String escape(String text) {
        return text.replace("&", "&amp;").replace("\"", "&quot;").replace("<", "&lt;").replace(">", "&gt;")
                .replace("'", "&apos;");
    }
}
