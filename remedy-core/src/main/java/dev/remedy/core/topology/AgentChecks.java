package dev.remedy.core.topology;

import static dev.remedy.config.ConfigNames.child;

import dev.remedy.config.ConfigProblems;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.ConfigProblem;
import dev.remedy.spi.config.Secret;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Checks the methods of a fence configuration with their agents' own checks
 * ({@link dev.remedy.spi.FenceAgentProvider#validate}) as the file is loaded, so that a value an agent refuses (a
 * port out of range, a cipher suite that authenticates nobody, a plug that could smuggle a command in) is reported
 * with the file, not found when a node that is already cordoned is fenced. A refused value is reported where it is
 * written: the node's parameter, else the template's; a problem with no one place (a default, or two parameters
 * that exclude each other) at the method. Each problem once, however many nodes share it.
 *
 * <p>Secrets are references until a node's plan is built, so each is given to the agent as a placeholder, and the
 * agent's problems with one wait for {@link FenceConfiguration#planFor}, which reads it. A value that already has a
 * problem (a malformed number) is left out, so that it does not hide the agent's other checks.
 *
 * <p>One instance checks one document.
 */
final class AgentChecks {

    /** What the agent sees of a secret at load time; its problems with it are not reported then. */
    private static final Secret PLACEHOLDER = Secret.of("secret-read-later");

    private final ConfigProblems problems;
    private final Set<String> earlier;
    private final Set<String> reported = new HashSet<>();

    /** Checks that add to {@code problems}, whose values with problems found so far are left out. */
    AgentChecks(ConfigProblems problems) {
        this.problems = problems;
        this.earlier = problems.list().stream().map(ConfigProblem::path).collect(Collectors.toSet());
    }

    /**
     * Checks {@code template}'s method with {@code own} parameters over the template's, which give every required
     * parameter; {@code methodPath} is where the method is written: {@code nodes.N.T}, or {@code templates.T} for
     * the template alone (with {@link MethodParameters#NONE}).
     */
    void check(MethodTemplate template, MethodParameters own, String methodPath) {
        MethodParameters merged = template.parameters().overriddenBy(own);
        Set<String> leftOut = new HashSet<>();
        AgentConfig.Builder builder = template.provider().configure();
        merged.values().forEach((name, value) -> {
            if (earlier.contains(place(name, template, own, methodPath))) {
                leftOut.add(name);
            } else {
                builder.set(name, value);
            }
        });
        merged.secrets().keySet().forEach(name -> builder.secret(name, PLACEHOLDER));
        for (ConfigProblem problem : template.provider().validate(builder.build())) {
            String name = problem.path();
            if (leftOut.contains(name) || merged.secrets().containsKey(name)) {
                continue;
            }
            String place = place(name, template, own, methodPath);
            String message = "agent '" + template.agentType() + "': " + (place == null ? problem : problem.message());
            String path = place == null ? methodPath : place;
            if (reported.add(path + "\n" + message)) {
                problems.add(path, message);
            }
        }
    }

    /**
     * Where parameter {@code name} of a method is written: under the node's own parameters ({@code methodPath}),
     * else under the template's {@code parameters} or {@code secrets}; {@code null} when it is not written (a
     * default, or a parameter that is missing).
     */
    static String place(String name, MethodTemplate template, MethodParameters own, String methodPath) {
        if (own.gives(name)) {
            return child(methodPath, own.keyOf(name));
        }
        MethodParameters shared = template.parameters();
        String templatePath = child("templates", template.name());
        if (shared.values().containsKey(name)) {
            return child(child(templatePath, "parameters"), shared.keyOf(name));
        }
        if (shared.secrets().containsKey(name)) {
            return child(child(templatePath, "secrets"), shared.keyOf(name));
        }
        return null;
    }
}
