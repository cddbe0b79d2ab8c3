package dev.remedy.cli.fenceagents;

import dev.remedy.spi.FenceAgentProvider;
import dev.remedy.spi.config.ParameterDescriptor;
import dev.remedy.spi.config.ParameterType;
import java.util.Locale;

/** The {@code -h} text of a launcher, in the shape of {@code fencing.py}'s usage. */
final class Usage {

    private Usage() {
    }

    static String of(String name, FenceAgentProvider provider) {
        StringBuilder text = new StringBuilder();
        text.append("Usage:\n\t").append(name).append(" [options]\n");
        text.append("remedy's '").append(provider.type()).append("' agent: ").append(provider.description())
                .append("\nOptions on stdin as key=value lines (as Pacemaker gives them), or on the command line:\n");
        line(text, "-o, --action=[action]", "Action: " + String.join(", ", ProtocolActions.of(provider))
                + " (default reboot)");
        for (ParameterDescriptor p : provider.parameters()) {
            String option = "--" + p.fenceAgentsName().orElse(p.name()).replace('_', '-');
            String help = p.description() + p.defaultValue().map(d -> " (default " + d + ")").orElse("")
                    + (p.required() ? " (required)" : "")
                    + (p.secret() ? " (secret: give it on stdin; on the command line every user can read it)" : "");
            line(text, p.type() == ParameterType.BOOLEAN ? option : option + "=["
                    + p.type().name().toLowerCase(Locale.ROOT) + "]", help);
        }
        line(text, "--action-timeout=[seconds]", "deadline of the whole action (default "
                + FenceAgentProtocol.DEFAULT_TIMEOUT.toSeconds() + ")");
        if (FenceAgentProtocol.hasPortAsIp(provider)) {
            line(text, "--port-as-ip", "the plug (-n, port=) is the device's address");
        }
        line(text, "-v, --verbose", "print the agent's progress on stderr");
        line(text, "-q, --quiet", "no warnings on stderr");
        line(text, "-h, --help", "Display this help and exit");
        line(text, "-V, --version", "Display version information and exit");
        return text.toString();
    }

    private static void line(StringBuilder text, String option, String help) {
        text.append(String.format(Locale.ROOT, "   %-31s %s%n", option, help));
    }
}
