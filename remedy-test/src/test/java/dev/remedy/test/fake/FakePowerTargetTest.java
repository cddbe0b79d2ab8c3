package dev.remedy.test.fake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remedy.spi.FenceAction;
import dev.remedy.spi.FenceContext;
import dev.remedy.spi.FenceOutcome;
import dev.remedy.spi.FenceRequest;
import dev.remedy.spi.FenceStatus;
import dev.remedy.spi.PowerState;
import dev.remedy.spi.config.InvalidConfigurationException;
import dev.remedy.spi.config.Secret;
import dev.remedy.test.FakeTimeSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class FakePowerTargetTest {

    private final FakeTimeSource time = new FakeTimeSource();
    private final String name = "target-" + UUID.randomUUID();
    private final FakePowerLab lab = new FakePowerLab();

    @Test
    @DisplayName("a power command takes the transition time, and the history records each state entered")
    void commandTakesTransitionTime() {
        FakePowerTarget target = lab.create(name, time).transitionTime(Duration.ofSeconds(2));
        target.command(PowerState.OFF);
        assertThat(target.power()).isEqualTo(PowerState.ON);
        assertThat(target.pending()).contains(PowerState.OFF);
        time.advance(Duration.ofSeconds(2));
        assertThat(target.power()).isEqualTo(PowerState.OFF);
        assertThat(target.pending()).isEmpty();
        assertThat(target.history()).containsExactly(PowerState.OFF);
    }

    @Test
    @DisplayName("targets are created on first use, powered on; names starting with 'unreachable' never answer")
    void labCreatesOnDemand() {
        assertThat(lab.target(name, time).power()).isEqualTo(PowerState.ON);
        assertThat(lab.target(name, time).reachable()).isTrue();
        assertThat(lab.target(FakePowerLab.UNREACHABLE_PREFIX + name, time).reachable()).isFalse();
        assertThat(lab.find(name)).isPresent();
        lab.remove(name);
        assertThat(lab.find(name)).isEmpty();
    }

    @Test
    @DisplayName("labs share nothing: an agent fences its provider's lab only; a provider made without one has its own")
    void labsShareNothing() throws InterruptedException {
        FakePowerTarget mine = lab.create(name, time);
        FakePowerTarget another = new FakePowerLab().create(name, time);

        FenceOutcome outcome = agent("a-long-password").execute(FenceRequest.of(FenceAction.OFF),
                FenceContext.start(time, Duration.ofSeconds(20)));

        assertThat(outcome.status()).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(mine.power()).isEqualTo(PowerState.OFF);
        assertThat(another.power()).isEqualTo(PowerState.ON);
        FakeFenceAgentProvider loaded = new FakeFenceAgentProvider();
        assertThat(loaded.lab()).isNotSameAs(new FakeFenceAgentProvider().lab());
        assertThat(loaded.lab().targets()).isEmpty();
    }

    @Test
    @DisplayName("the fake agent polls until the target reads OFF and reports each poll as progress")
    void agentPollsUntilConfirmed() throws InterruptedException {
        lab.create(name, time).transitionTime(Duration.ofSeconds(3));
        List<String> progress = new ArrayList<>();
        FenceOutcome outcome = agent("a-long-password").execute(FenceRequest.of(FenceAction.OFF),
                FenceContext.start(time, Duration.ofSeconds(20), progress::add));
        assertThat(outcome.status()).isEqualTo(FenceStatus.SUCCEEDED);
        assertThat(outcome.detail()).contains("confirmed after 4 status polls");
        assertThat(progress).anyMatch(m -> m.contains("status poll 3"));
        assertThat(outcome.elapsed()).isEqualTo(Duration.ofMillis(3500));
    }

    @Test
    @DisplayName("OFF that is not reached before the deadline is TIMED_OUT, and says what it last read")
    void agentTimesOutWhenTargetIsSlow() throws InterruptedException {
        lab.create(name, time).transitionTime(Duration.ofMinutes(5));
        FenceOutcome outcome = agent("a-long-password").execute(FenceRequest.of(FenceAction.OFF),
                FenceContext.start(time, Duration.ofSeconds(10)));
        assertThat(outcome.status()).isEqualTo(FenceStatus.TIMED_OUT);
        assertThat(outcome.detail()).contains("still read ON", "not confirmed");
        assertThat(time.elapsed()).isEqualTo(Duration.ofSeconds(10));
    }

    @Test
    @DisplayName("a wrong password fails at once, names the user and does not touch power")
    void wrongPasswordFails() throws InterruptedException {
        FakePowerTarget target = lab.create(name, time).password(Secret.of("the-right-password"));
        FenceOutcome outcome = agent("the-wrong-password").execute(FenceRequest.of(FenceAction.OFF),
                FenceContext.start(time, Duration.ofSeconds(10)));
        assertThat(outcome.status()).isEqualTo(FenceStatus.FAILED);
        assertThat(outcome.detail()).contains("refused the login of user 'admin'");
        assertThat(outcome.attempts()).isEqualTo(1);
        assertThat(target.power()).isEqualTo(PowerState.ON);
    }

    @Test
    @DisplayName("LIST reports the lab's targets with their power")
    void listReportsTargets() throws InterruptedException {
        lab.create(name, time).power(PowerState.OFF);
        FenceOutcome outcome = agent("a-long-password").execute(FenceRequest.of(FenceAction.LIST),
                FenceContext.start(time, Duration.ofSeconds(10)));
        assertThat(outcome.plugs()).anySatisfy(p -> {
            assertThat(p.id()).isEqualTo(name);
            assertThat(p.power()).isEqualTo(PowerState.OFF);
        });
    }

    @Test
    @DisplayName("a zero login timeout or poll interval is refused, both named, instead of spinning")
    void zeroIntervalsRefused() {
        FakeFenceAgentProvider provider = new FakeFenceAgentProvider(lab);
        var config = provider.configure().set("plug", name).secret("password", Secret.of("a-long-password"))
                .set("login_timeout", "0s").set("poll_interval", "0").build();
        assertThatThrownBy(() -> provider.create(config)).isInstanceOf(InvalidConfigurationException.class)
                .hasMessageContaining("login_timeout").hasMessageContaining("poll_interval");
    }

    private dev.remedy.spi.FenceAgent agent(String password) {
        FakeFenceAgentProvider provider = new FakeFenceAgentProvider(lab);
        return provider.create(provider.configure().set("plug", name).secret("password", Secret.of(password))
                .build());
    }
}
