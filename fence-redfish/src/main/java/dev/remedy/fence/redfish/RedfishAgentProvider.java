package dev.remedy.fence.redfish;

import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceAgent;
import dev.remedy.spi.FenceAgentProvider;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.ConfigProblem;
import dev.remedy.spi.config.InvalidConfigurationException;
import dev.remedy.spi.config.ParameterDescriptor;
import dev.remedy.spi.config.ParameterType;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * What the two Redfish agent types share: the connection parameters, every action, and the HTTP transport their
 * agents use. Each subclass adds the parameters that choose its target and the target itself.
 */
abstract class RedfishAgentProvider implements FenceAgentProvider {

    /** The connection parameters the system and the PDU agent share. */
    static final List<ParameterDescriptor> CONNECTION = List.of(
            ParameterDescriptor.builder("ip", ParameterType.STRING).required().fenceAgentsName("ip")
                    .description("host name or address of the Redfish service (BMC)").build(),
            ParameterDescriptor.builder("ipport", ParameterType.INTEGER).defaultValue("443").fenceAgentsName("ipport")
                    .description("TCP port of the Redfish service").build(),
            ParameterDescriptor.builder("username", ParameterType.STRING).required().fenceAgentsName("username")
                    .description("Redfish account name").build(),
            ParameterDescriptor.builder("password", ParameterType.STRING).required().secret()
                    .fenceAgentsName("password").description("Redfish account password").build(),
            ParameterDescriptor.builder("ssl", ParameterType.BOOLEAN).defaultValue("true").fenceAgentsName("ssl")
                    .description("use HTTPS (false: plain HTTP, for test services only)").build(),
            ParameterDescriptor.builder("ssl_insecure", ParameterType.BOOLEAN).defaultValue("false")
                    .fenceAgentsName("ssl_insecure").description("skip TLS certificate verification (unsafe; "
                            + "warned on every use)").build(),
            ParameterDescriptor.builder("ca_file", ParameterType.STRING)
                    .description("PEM CA bundle to verify the service's certificate with").build(),
            ParameterDescriptor.builder("tls_fingerprint", ParameterType.STRING)
                    .description("SHA-256 fingerprint of the service's own certificate, trusted alone").build(),
            ParameterDescriptor.builder("auth", ParameterType.CHOICE).defaultValue("session")
                    .allowedValues("session", "basic").description("a SessionService session (logged out at the "
                            + "end; Basic if the service has none) or HTTP Basic on every request").build(),
            ParameterDescriptor.builder("power_timeout", ParameterType.DURATION).defaultValue("20s")
                    .fenceAgentsName("power_timeout").description("how long to poll PowerState for the new state")
                    .build(),
            ParameterDescriptor.builder("poll_interval", ParameterType.DURATION).defaultValue("500ms")
                    .description("time between PowerState polls").build(),
            ParameterDescriptor.builder("request_timeout", ParameterType.DURATION).defaultValue("10s")
                    .description("timeout of every HTTP request (less when the action's deadline is nearer)")
                    .build(),
            ParameterDescriptor.builder("max_response_size", ParameterType.INTEGER)
                    .defaultValue(Integer.toString(RedfishSettings.DEFAULT_MAX_RESPONSE_SIZE))
                    .description("largest response body read, in bytes (65536 to 268435456); a larger one is not read"
                            + " further and fails the action").build());

    private final String type;
    private final List<ParameterDescriptor> parameters;
    private final Supplier<RedfishTarget> target;
    private final RedfishTransport transport = new RedfishTransport();

    RedfishAgentProvider(String type, List<ParameterDescriptor> targetParameters, Supplier<RedfishTarget> target) {
        this.type = type;
        this.parameters = Stream.concat(CONNECTION.stream(), targetParameters.stream())
                .toList();
        this.target = target;
    }

    @Override
    public final String type() {
        return type;
    }

    @Override
    public final List<ParameterDescriptor> parameters() {
        return parameters;
    }

    @Override
    public final Set<FenceAction> supportedActions() {
        return EnumSet.allOf(FenceAction.class);
    }

    @Override
    public final FenceAgent create(AgentConfig config) {
        return transport.agent(RedfishSettings.of(config), target.get());
    }

    /** The checks of {@link #create}, without the HTTP client and threads an agent would take. */
    @Override
    public final List<ConfigProblem> validate(AgentConfig config) {
        try {
            RedfishSettings.of(config);
            return List.of();
        } catch (InvalidConfigurationException e) {
            return e.problems();
        }
    }
}
