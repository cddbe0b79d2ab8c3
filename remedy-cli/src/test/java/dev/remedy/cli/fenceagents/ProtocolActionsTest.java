package dev.remedy.cli.fenceagents;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.fence.ipmi.IpmiFenceAgentProvider;
import dev.remedy.fence.ssh.SshFabricAgentProvider;
import dev.remedy.fence.ssh.SshHostAgentProvider;
import dev.remedy.spi.FencingKind;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("the fence-agents actions of a remedy agent")
class ProtocolActionsTest {

    @Test
    @DisplayName("a power agent with OFF and ON reboots as OFF, confirmed, then ON")
    void power() {
        assertThat(ProtocolActions.of(new IpmiFenceAgentProvider())).containsExactly("on", "off", "reboot", "status",
                "monitor", "metadata", "validate-all");
        assertThat(ProtocolActions.rebootsByOffOn(new IpmiFenceAgentProvider())).isTrue();
    }

    @Test
    @DisplayName("a fabric agent has no reboot: ON right after OFF would undo the isolation it just set up")
    void fabric() {
        SshFabricAgentProvider fabric = new SshFabricAgentProvider();

        assertThat(fabric.fencingKind()).isEqualTo(FencingKind.FABRIC);
        assertThat(ProtocolActions.of(fabric)).contains("on", "off").doesNotContain("reboot");
        assertThat(ProtocolActions.rebootsByOffOn(fabric)).isFalse();
    }

    @Test
    @DisplayName("a soft agent reboots by itself and has no on or off")
    void soft() {
        SshHostAgentProvider soft = new SshHostAgentProvider();

        assertThat(ProtocolActions.of(soft)).contains("reboot").doesNotContain("on", "off");
        assertThat(ProtocolActions.rebootsByOffOn(soft)).isFalse();
    }
}
