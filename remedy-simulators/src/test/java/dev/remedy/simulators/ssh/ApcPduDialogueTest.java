package dev.remedy.simulators.ssh;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remedy.spi.PowerState;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class ApcPduDialogueTest {

    private static final String PROMPT = "\r\napc>";
    private static final String BANNER = "\r\n"
            + "American Power Conversion               Network Management Card AOS      v6.9.6\r\n"
            + "(c) Copyright 2020 All Rights Reserved  RPDU 2g v6.9.6\r\n"
            + "-------------------------------------------------------------------------------\r\n"
            + "Name      : remedy-sim-pdu                            Date : 11/22/2026\r\n"
            + "Contact   : Unknown                                   Time : 10:00:00\r\n"
            + "Location  : Unknown                                   User : Administrator\r\n"
            + "Up Time   : 0 Days 1 Hour 2 Minutes                   Stat : P+ N+ A+\r\n"
            + "\r\n"
            + "Type ? for command listing\r\n"
            + "Use tcpip command for IP address(-i), subnet(-s), and gateway(-g)\r\n"
            + "\r\n";
    private static final String MORE = "--More-- (press <SPACE> to continue, q to quit)";

    @RegisterExtension
    static final TestSsh ssh = new TestSsh();

    @Test
    void printsTheBannerThenThePromptAndAnswersStatus() throws IOException {
        try (SshDeviceSimulator sim = SshDeviceSimulator.start(SshDeviceSpec.builder()
                .portNames(Map.of("3", "node-3")).build());
                TestTerminal t = ssh.shell(sim)) {
            assertThat(t.expect("apc>")).isEqualTo(BANNER + "apc>");
            assertThat(t.command("olStatus 3", PROMPT)).isEqualTo("E000: Success\r\n 3: node-3: On\r\n" + PROMPT);
            assertThat(t.command("olStatus 2", PROMPT)).isEqualTo("E000: Success\r\n 2: Outlet 2: On\r\n" + PROMPT);
        }
    }

    @Test
    void switchesOutletsOffAndOn() throws IOException {
        try (SshDeviceSimulator sim = SshDeviceSimulator.start(SshDeviceSpec.builder().build());
                TestTerminal t = ssh.shell(sim)) {
            t.expect("apc>");
            assertThat(t.command("olOff 5", PROMPT)).isEqualTo("E000: Success\r\n" + PROMPT);
            assertThat(sim.device().port("5").power()).isEqualTo(PowerState.OFF);
            assertThat(t.command("olStatus 5", PROMPT)).isEqualTo("E000: Success\r\n 5: Outlet 5: Off\r\n" + PROMPT);
            assertThat(t.command("olOn 5", PROMPT)).isEqualTo("E000: Success\r\n" + PROMPT);
            assertThat(sim.device().port("5").history()).containsExactly(PowerState.OFF, PowerState.ON);
            sim.device().port("1").power(PowerState.OFF);
            assertThat(t.command("olstatus 1", PROMPT)).contains(" 1: Outlet 1: Off\r\n");
            assertThat(sim.commandLog()).containsExactly("olOff 5", "olStatus 5", "olOn 5", "olstatus 1");
        }
    }

    @Test
    void listsEveryOutletAndReadsLinesEndedByCrLfCrOrLf() throws IOException {
        try (SshDeviceSimulator sim = SshDeviceSimulator.start(SshDeviceSpec.builder().ports(3).build());
                TestTerminal t = ssh.shell(sim)) {
            t.expect("apc>");
            sim.device().port("2").power(PowerState.OFF);
            t.send("olStatus all\r\n");
            assertThat(t.expect(PROMPT)).isEqualTo("olStatus all\r\nE000: Success\r\n 1: Outlet 1: On\r\n"
                    + " 2: Outlet 2: Off\r\n 3: Outlet 3: On\r\n" + PROMPT);
            t.send("olStatus 1\nolStatus 9\r");
            assertThat(t.expect(PROMPT)).isEqualTo("olStatus 1\r\nE000: Success\r\n 1: Outlet 1: On\r\n" + PROMPT);
            assertThat(t.expect(PROMPT)).isEqualTo("olStatus 9\r\nE102: Parameter Error\r\n" + PROMPT);
            assertThat(sim.commandLog()).containsExactly("olStatus all", "olStatus 1", "olStatus 9");
        }
    }

    @Test
    void pagesTheListingWithSpaceAndStopsWithQ() throws IOException {
        try (SshDeviceSimulator sim = SshDeviceSimulator.start(SshDeviceSpec.builder().ports(5).pageLength(2)
                .build());
                TestTerminal t = ssh.shell(sim)) {
            t.expect("apc>");
            String erase = "\r" + " ".repeat(MORE.length()) + "\r";
            t.send("olStatus all\r");
            assertThat(t.expect(MORE)).isEqualTo("olStatus all\r\nE000: Success\r\n 1: Outlet 1: On\r\n" + MORE);
            t.send(" ");
            assertThat(t.expect(MORE)).isEqualTo(erase + " 2: Outlet 2: On\r\n 3: Outlet 3: On\r\n" + MORE);
            t.send(" ");
            assertThat(t.expect(PROMPT)).isEqualTo(erase + " 4: Outlet 4: On\r\n 5: Outlet 5: On\r\n" + PROMPT);
            t.send("olStatus all\r");
            t.expect(MORE);
            t.send("q");
            assertThat(t.expect(PROMPT)).isEqualTo(erase + PROMPT);
            assertThat(t.command("olStatus 4", PROMPT)).isEqualTo("E000: Success\r\n 4: Outlet 4: On\r\n" + PROMPT);
        }
    }

    @Test
    void asksForConfirmationAndCancelsOnAnythingButYes() throws IOException {
        try (SshDeviceSimulator sim = SshDeviceSimulator.start(SshDeviceSpec.builder().confirmations(true).build());
                TestTerminal t = ssh.shell(sim)) {
            t.expect("apc>");
            String question = "Enter 'YES' to continue or <ENTER> to cancel : ";
            assertThat(t.command("olOff 2", question)).isEqualTo(question);
            assertThat(t.command("YES", PROMPT)).isEqualTo("E000: Success\r\n" + PROMPT);
            assertThat(sim.device().port("2").power()).isEqualTo(PowerState.OFF);
            t.command("olOn 2", question);
            assertThat(t.command("", PROMPT)).isEqualTo("Command cancelled.\r\n" + PROMPT);
            t.command("olOn 2", question);
            assertThat(t.command("yes please", PROMPT)).isEqualTo("Command cancelled.\r\n" + PROMPT);
            assertThat(sim.device().port("2").power()).isEqualTo(PowerState.OFF);
            assertThat(t.command("olOn 99", PROMPT)).isEqualTo("E102: Parameter Error\r\n" + PROMPT);
        }
    }

    @Test
    void rebootsAnOutletOffThenOnAfterTheRebootTime() throws IOException {
        AtomicLong clock = new AtomicLong();
        try (SshDeviceSimulator sim = SshDeviceSimulator.start(SshDeviceSpec.builder().nanoClock(clock::get)
                .powerDelay(Duration.ofSeconds(1)).build());
                TestTerminal t = ssh.shell(sim)) {
            t.expect("apc>");
            assertThat(t.command("olReboot 4", PROMPT)).isEqualTo("E000: Success\r\n" + PROMPT);
            assertThat(sim.device().port("4").power()).isEqualTo(PowerState.ON);
            clock.addAndGet(Duration.ofSeconds(1).toNanos());
            assertThat(t.command("olStatus 4", PROMPT)).contains(" 4: Outlet 4: Off");
            clock.addAndGet(SshDeviceSpec.DEFAULT_APC_REBOOT_TIME.toNanos());
            assertThat(sim.device().port("4").history()).containsExactly(PowerState.OFF, PowerState.ON);
        }
    }

    @Test
    void answersErrorsForBadOutletsAndUnknownCommandsAndSaysByeOnExit() throws IOException {
        try (SshDeviceSimulator sim = SshDeviceSimulator.start(SshDeviceSpec.builder().build());
                TestTerminal t = ssh.shell(sim)) {
            t.expect("apc>");
            for (String bad : new String[] {"olOff 0", "olOn 9", "olStatus x", "olReboot", "olStatus 1 2"}) {
                assertThat(t.command(bad, PROMPT)).as(bad).isEqualTo("E102: Parameter Error\r\n" + PROMPT);
            }
            assertThat(t.command("reboot", PROMPT)).isEqualTo("E101: Command Not Found\r\n" + PROMPT);
            assertThat(t.command("", PROMPT)).isEqualTo(PROMPT);
            t.send("olStatux\b\bus 1\r");
            assertThat(t.expect(PROMPT)).isEqualTo("olStatux\b \b\b \bus 1\r\nE000: Success\r\n 1: Outlet 1: On\r\n"
                    + PROMPT);
            t.send("exit\r");
            assertThat(t.expect("Bye.\r\n")).isEqualTo("exit\r\nBye.\r\n");
            assertThat(t.closedWithin(TestSsh.TIMEOUT)).isTrue();
        }
    }
}
