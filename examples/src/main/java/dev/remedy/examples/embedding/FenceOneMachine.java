package dev.remedy.examples.embedding;

import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceAgent;
import dev.remedy.spi.FenceAgentProvider;
import dev.remedy.spi.FenceContext;
import dev.remedy.spi.FenceOutcome;
import dev.remedy.spi.FenceRequest;
import dev.remedy.spi.TimeSource;
import dev.remedy.spi.config.AgentConfig;
import dev.remedy.spi.config.Secret;
import dev.remedy.spi.discovery.FenceAgentRegistry;
import java.time.Duration;
import org.slf4j.LoggerFactory;

/** The README's embedding example: power a machine off through whichever agent the configuration names. */
public final class FenceOneMachine {

    private FenceOneMachine() {
    }

    /**
     * Powers off {@code plug} through agent {@code type} of {@code agents} ({@link FenceAgentRegistry#load()} finds
     * every agent on the class path); the outcome says whether OFF was confirmed.
     */
    public static FenceOutcome powerOff(FenceAgentRegistry agents, String type, String plug, Secret password,
                                        TimeSource time) throws InterruptedException {
        FenceAgentProvider provider = agents.provider(type);                    // by id; duplicates are an error
        AgentConfig config = provider.configure()
                .set("plug", plug)
                .secret("password", password)                                   // masked in every text
                .build();
        try (FenceAgent agent = agents.create(config)) {                        // masks what a device echoes
            FenceContext context = FenceContext.start(time, Duration.ofSeconds(60),
                    progress -> LoggerFactory.getLogger("fencing").info(progress));
            return agent.execute(new FenceRequest(FenceAction.OFF, "my-operator"), context);
        }
    }
}
