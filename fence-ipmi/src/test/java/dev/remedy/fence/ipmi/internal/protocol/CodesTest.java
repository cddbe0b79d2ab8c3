package dev.remedy.fence.ipmi.internal.protocol;

import static dev.remedy.fence.ipmi.internal.protocol.Hex.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class CodesTest {

    @Test
    @DisplayName("completion codes are classed as transient, unsupported or privilege problems")
    void completionCodes() {
        assertThat(CompletionCode.isTransient(CompletionCode.BUSY)).isTrue();
        assertThat(CompletionCode.isTransient(CompletionCode.INVALID_COMMAND)).isFalse();
        assertThat(CompletionCode.isUnsupported(CompletionCode.INVALID_COMMAND)).isTrue();
        assertThat(CompletionCode.isPrivilege(CompletionCode.INSUFFICIENT_PRIVILEGE)).isTrue();
        assertThat(CompletionCode.describe(0xD4)).isEqualTo("insufficient privilege level (0xd4)");
        assertThat(CompletionCode.describe(0x80)).isEqualTo("command-specific error (0x80)");
    }

    @Test
    @DisplayName("privilege levels read fence_ipmilan's privlvl names and order by power")
    void privileges() {
        assertThat(Privilege.named("Administrator")).isEqualTo(Privilege.ADMINISTRATOR);
        assertThat(Privilege.named("admin")).isEqualTo(Privilege.ADMINISTRATOR);
        assertThat(Privilege.named("operator").includes(Privilege.USER)).isTrue();
        assertThat(Privilege.USER.includes(Privilege.OPERATOR)).isFalse();
        assertThat(Privilege.of(3)).isEqualTo(Privilege.OPERATOR);
        assertThatThrownBy(() -> Privilege.named("root")).hasMessageContaining("callback, user, operator");
        assertThatThrownBy(() -> Privilege.of(5)).hasMessageContaining("is not one of");
    }

    @Test
    @DisplayName("chassis status reads the power bit and the fault bits of the first data byte")
    void chassisStatus() {
        assertThat(ChassisStatus.decode(bytes("01 00 00"))).isEqualTo(new ChassisStatus(true, false, false, false));
        assertThat(ChassisStatus.decode(bytes("1a"))).isEqualTo(new ChassisStatus(false, true, true, true));
        assertThatThrownBy(() -> ChassisStatus.decode(new byte[0])).isInstanceOf(MalformedPacketException.class);
    }

    @Test
    @DisplayName("commands know their response and the privilege they need")
    void commands() {
        IpmiMessage response = new IpmiMessage(0x81, 0x01, 0, 0x20, 9, 0, 0x02, new byte[] {0});
        assertThat(Command.CHASSIS_CONTROL.answeredBy(response, 9)).isTrue();
        assertThat(Command.CHASSIS_CONTROL.answeredBy(response, 8)).isFalse();
        assertThat(Command.GET_CHASSIS_STATUS.answeredBy(response, 9)).isFalse();
        assertThat(Command.CHASSIS_CONTROL.privilege()).isEqualTo(Privilege.OPERATOR);
        assertThat(ChassisControl.POWER_DOWN.data()).containsExactly(0);
        assertThat(ChassisControl.SOFT_SHUTDOWN.data()).containsExactly(5);
    }
}
