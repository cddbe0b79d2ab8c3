package dev.remedy.fence.clusterlabs.internal;

import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FencingKind;
import dev.remedy.spi.config.ParameterDescriptor;
import dev.remedy.spi.config.ParameterType;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * One installed ClusterLabs agent as remedy describes it: its parameters as {@link ParameterDescriptor}s made from
 * its metadata, the fence-agents option each one is written as on the agent's standard input, the actions remedy
 * can run with it and its fencing kind.
 *
 * <p>Left out of the parameters: {@code action} (remedy chooses it), the deprecated names of other parameters, the
 * options that make no sense when remedy runs the agent ({@code LEFT_OUT}), and every {@code *_script} option,
 * which runs a command through a shell ({@link #runsCommand}).
 *
 * @param agent       the agent's name
 * @param executable  its path
 * @param shortdesc   what its metadata says it fences
 * @param parameters  remedy's descriptors of its parameters, {@code agent} first
 * @param options     the fence-agents option of each parameter, by remedy name ({@code agent} has none)
 * @param actions     the actions remedy runs with it
 * @param kind        power, or fabric when the metadata marks {@code on} as automatic
 * @param listStatus  whether the agent has {@code list-status}, which lists each plug with its power state
 */
public record AgentDescription(String agent, Path executable, String shortdesc, List<ParameterDescriptor> parameters,
                               Map<String, String> options, Set<FenceAction> actions, FencingKind kind,
                               boolean listStatus) {

    /** The parameter that names the agent. */
    public static final String AGENT = "agent";

    /** Options of every agent that remedy does not pass: its own output, timing and parsing need them unset. */
    static final Set<String> LEFT_OUT = Set.of("action", "verbose", "verbose_level", "debug", "debug_file", "version",
            "help", "quiet", "separator", "plug_separator", "delay");

    private static final Pattern SECRET_NAME = Pattern.compile(
            "password|passwd|community|token|secret|apikey|hexadecimal_kg|.*passw.*|.*_key|.*_secret|.*_token"
                    + "|secret_.*");
    private static final Pattern PATH_NAME = Pattern.compile(".*_(file|path|uri|url|dir)");
    private static final Pattern REMEDY_NAME = Pattern.compile("[a-z][a-z0-9_]*");

    /** Copies the collections. */
    public AgentDescription {
        parameters = List.copyOf(parameters);
        options = Map.copyOf(options);
        actions = actions.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(actions));
    }

    /** Whether a fence-agents option of this name runs a command ({@code password_script}, {@code *_script}). */
    public static boolean runsCommand(String option) {
        return option.endsWith("_script") || option.endsWith("-script");
    }

    /** Whether a fence-agents option of this name holds a secret (a password, an SNMP community, a key or token). */
    static boolean isSecret(String option) {
        String name = option.toLowerCase(Locale.ROOT).replace('-', '_');
        return !PATH_NAME.matcher(name).matches() && SECRET_NAME.matcher(name).matches();
    }

    /** The description of {@code metadata}, the agent at {@code executable}, with {@code agentParameter} first. */
    public static AgentDescription of(Path executable, AgentMetadata metadata, ParameterDescriptor agentParameter) {
        List<ParameterDescriptor> parameters = new ArrayList<>(List.of(agentParameter));
        Map<String, String> options = new LinkedHashMap<>();
        for (AgentMetadata.Parameter p : metadata.parameters()) {
            String name = p.name().toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9_]", "_");
            if (p.deprecated() || LEFT_OUT.contains(name) || runsCommand(name) || !REMEDY_NAME.matcher(name).matches()
                    || name.equals(AGENT) || options.containsKey(name)) {
                continue;
            }
            parameters.add(descriptor(name, p));
            options.put(name, p.name());
        }
        return new AgentDescription(metadata.name(), executable, metadata.shortdesc(), parameters, options,
                actions(metadata), metadata.fabric() ? FencingKind.FABRIC : FencingKind.POWER,
                metadata.actions().contains("list-status"));
    }

    /**
     * The actions remedy runs: STATUS, MONITOR and LIST as the agent lists them; OFF and ON only with STATUS, which
     * confirms them; REBOOT (OFF confirmed, then ON) when all three are there and the agent is not fabric fencing.
     */
    private static Set<FenceAction> actions(AgentMetadata metadata) {
        Set<String> listed = metadata.actions();
        Set<FenceAction> actions = EnumSet.noneOf(FenceAction.class);
        boolean status = listed.contains("status");
        if (status) {
            actions.add(FenceAction.STATUS);
        }
        if (listed.contains("monitor")) {
            actions.add(FenceAction.MONITOR);
        }
        if (listed.contains("list") || listed.contains("list-status")) {
            actions.add(FenceAction.LIST);
        }
        if (status && listed.contains("off")) {
            actions.add(FenceAction.OFF);
        }
        if (status && listed.contains("on")) {
            actions.add(FenceAction.ON);
        }
        if (actions.containsAll(EnumSet.of(FenceAction.OFF, FenceAction.ON)) && !metadata.fabric()) {
            actions.add(FenceAction.REBOOT);
        }
        return actions;
    }

    private static ParameterDescriptor descriptor(String name, AgentMetadata.Parameter p) {
        boolean secret = isSecret(name);
        ParameterType type = secret ? ParameterType.STRING : switch (p.type()) {
            case "boolean" -> ParameterType.BOOLEAN;
            case "integer", "second" -> ParameterType.INTEGER;
            case "select" -> p.options().isEmpty() ? ParameterType.STRING : ParameterType.CHOICE;
            default -> ParameterType.STRING;
        };
        String description = p.shortdesc().isBlank() ? "the agent's option " + p.name() : p.shortdesc();
        if (p.type().equals("second")) {
            description += " (whole seconds)";
        }
        Optional<String> defaultValue = p.defaultValue().filter(d -> !d.isEmpty() && !secret && !p.required());
        if (defaultValue.isPresent()) {
            try {
                return builder(name, type, p, secret, description).defaultValue(defaultValue.get()).build();
            } catch (IllegalArgumentException badDefault) {
                // A default that does not fit (not a number, not one of the choices) is left out: the agent applies
                // its own.
            }
        }
        return builder(name, type, p, secret, description).build();
    }

    private static ParameterDescriptor.Builder builder(String name, ParameterType type, AgentMetadata.Parameter p,
            boolean secret, String description) {
        ParameterDescriptor.Builder builder = ParameterDescriptor.builder(name, type).description(description)
                .fenceAgentsName(p.name());
        if (type == ParameterType.CHOICE) {
            builder.allowedValues(p.options().toArray(String[]::new));
        }
        if (secret) {
            builder.secret();
        }
        if (p.required()) {
            builder.required();
        }
        return builder;
    }
}
