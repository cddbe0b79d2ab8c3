package dev.remedy.test.fake;

import dev.remedy.spi.FenceAgentProvider;
import dev.remedy.spi.TimeSource;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.Secret;
import dev.remedy.test.FakeTimeSource;
import dev.remedy.test.PowerTarget;
import dev.remedy.test.conformance.FenceAgentConformanceKit;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;

/**
 * The built-in fake agent keeps the whole contract, on a fake clock that wraps around during the tests. The kit's
 * own tests reuse this set-up with deliberately broken wrappers of the agent on the same {@link #lab()} (they
 * override {@link #provider()}).
 */
public class FakeAgentConformanceTest extends FenceAgentConformanceKit {

    private static final String PASSWORD = "fake-password-for-the-kit";

    private final FakeTimeSource time = FakeTimeSource.nearOverflow(Duration.ofSeconds(3));
    private final String plug = "kit-" + UUID.randomUUID();
    private final FakePowerLab lab = new FakePowerLab();
    private final FakePowerTarget target = lab.create(plug, time).password(Secret.of(PASSWORD));

    /** The lab of this test's targets. */
    protected final FakePowerLab lab() {
        return lab;
    }

    @Override
    protected FenceAgentProvider provider() {
        return new FakeFenceAgentProvider(lab);
    }

    @Override
    protected AgentConfig reachableConfig() {
        return config(plug, PASSWORD);
    }

    @Override
    protected AgentConfig unreachableConfig() {
        return config(FakePowerLab.UNREACHABLE_PREFIX + "-" + plug, PASSWORD);
    }

    @Override
    protected Optional<AgentConfig> wrongCredentialsConfig() {
        return Optional.of(config(plug, "not-the-right-password"));
    }

    @Override
    protected PowerTarget target() {
        return target;
    }

    @Override
    protected TimeSource time() {
        return time;
    }

    private AgentConfig config(String name, String password) {
        return provider().configure().set("plug", name).secret("password", Secret.of(password)).build();
    }
}
