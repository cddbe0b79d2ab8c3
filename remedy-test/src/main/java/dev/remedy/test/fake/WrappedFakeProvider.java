package dev.remedy.test.fake;

import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceAgent;
import dev.remedy.spi.FenceAgentProvider;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.ParameterDescriptor;
import java.util.List;
import java.util.Set;

/**
 * The fake agent under another type id, with each agent passed through {@link #wrap}: the way to inject faults
 * (lies, delays, leaks) into an otherwise honest agent, to test the code that relies on agents. Like
 * {@link FakeFenceAgentProvider}, it fences the targets of the lab it is given, or of a lab of its own.
 */
public abstract class WrappedFakeProvider implements FenceAgentProvider {

    private final FakeFenceAgentProvider fake;

    /** Wraps fake agents of a new lab of its own (for a subclass that {@link java.util.ServiceLoader} creates). */
    protected WrappedFakeProvider() {
        this(new FakePowerLab());
    }

    /** Wraps fake agents that fence the targets of {@code lab}. */
    protected WrappedFakeProvider(FakePowerLab lab) {
        this.fake = new FakeFenceAgentProvider(lab);
    }

    /** The lab whose targets the wrapped agents fence. */
    public FakePowerLab lab() {
        return fake.lab();
    }

    /** Wraps the honest fake agent created for {@code config}. */
    protected abstract FenceAgent wrap(FenceAgent honest, AgentConfig config);

    @Override
    public String description() {
        return "the fake agent, wrapped by a test";
    }

    @Override
    public List<ParameterDescriptor> parameters() {
        return fake.parameters();
    }

    @Override
    public Set<FenceAction> supportedActions() {
        return fake.supportedActions();
    }

    @Override
    public FenceAgent create(AgentConfig config) {
        return wrap(fake.create(config), config);
    }
}
