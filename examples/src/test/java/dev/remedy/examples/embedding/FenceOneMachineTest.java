package dev.remedy.examples.embedding;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.spi.FenceOutcome;
import dev.remedy.spi.FenceStatus;
import dev.remedy.spi.PowerState;
import dev.remedy.spi.config.Secret;
import dev.remedy.spi.discovery.FenceAgentRegistry;
import dev.remedy.test.FakeTimeSource;
import dev.remedy.test.fake.FakeFenceAgentProvider;
import dev.remedy.test.fake.FakePowerTarget;
import java.util.UUID;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class FenceOneMachineTest {

    @Test
    @DisplayName("the README's embedding example powers a fake machine off and the outcome confirms it")
    void powersOff() throws InterruptedException {
        FakeTimeSource time = new FakeTimeSource();
        String plug = "readme-" + UUID.randomUUID();
        FakeFenceAgentProvider fake = new FakeFenceAgentProvider();
        FakePowerTarget machine = fake.lab().create(plug, time);

        FenceOutcome outcome = FenceOneMachine.powerOff(FenceAgentRegistry.of(fake), "fake", plug,
                Secret.of("readme-password"), time);

        assertThat(outcome.status()).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(outcome.power()).isEqualTo(PowerState.OFF);
        assertThat(machine.power()).isEqualTo(PowerState.OFF);
    }
}
