package dev.remedy.nodeagent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remedy.core.nodeagent.NodeAgentSettings;
import dev.remedy.core.nodeagent.WatchdogFallback;
import dev.remedy.core.nodeagent.WatchdogMode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The watchdog device and its fallbacks, on files the test reads: what was written is what the kernel would get. */
class DeviceWatchdogTest {

    @TempDir
    Path dir;

    private Path device(String name, String timeout) throws IOException {
        Path device = dir.resolve(name);
        Files.writeString(device, "");
        Path sysfs = Files.createDirectories(dir.resolve("sys").resolve(name.equals("watchdog") ? "watchdog0"
                : name));
        Files.writeString(sysfs.resolve("timeout"), timeout + "\n");
        return device;
    }

    @Test
    @DisplayName("the timeout is read from sysfs (watchdog0 for /dev/watchdog); each feed writes to the device")
    void feeds() throws IOException {
        Path device = device("watchdog", "30");
        DeviceWatchdog w = DeviceWatchdog.open(device, dir.resolve("sys"), true);
        assertThat(w.mode()).isEqualTo(WatchdogMode.ARMED);
        assertThat(w.timeout()).contains(Duration.ofSeconds(30));
        w.feed();
        w.feed();
        assertThat(Files.readString(device)).isEqualTo("11");
    }

    @Test
    @DisplayName("/dev/watchdog1 reads watchdog1's timeout")
    void numbered() throws IOException {
        Path device = device("watchdog1", "45");
        assertThat(DeviceWatchdog.open(device, dir.resolve("sys"), true).timeout()).contains(Duration.ofSeconds(45));
    }

    @Test
    @DisplayName("a clean shutdown of a healthy agent writes the magic V")
    void magicClose() throws IOException {
        Path device = device("watchdog", "30");
        DeviceWatchdog w = DeviceWatchdog.open(device, dir.resolve("sys"), true);
        w.feed();
        w.close(true);
        assertThat(Files.readString(device)).isEqualTo("1V");
    }

    @Test
    @DisplayName("after trigger: no feed, and no magic close even on a clean shutdown")
    void triggeredStaysArmed() throws IOException {
        Path device = device("watchdog", "30");
        DeviceWatchdog w = DeviceWatchdog.open(device, dir.resolve("sys"), true);
        w.feed();
        w.trigger();
        w.feed();
        w.close(true);
        assertThat(Files.readString(device)).isEqualTo("1");
    }

    @Test
    @DisplayName("the settings forbid the magic close, or the shutdown is not clean: the device stays armed")
    void noMagicClose() throws IOException {
        Path device = device("watchdog", "30");
        DeviceWatchdog.open(device, dir.resolve("sys"), false).close(true);
        Path other = device("watchdog2", "30");
        DeviceWatchdog.open(other, dir.resolve("sys"), true).close(false);
        assertThat(Files.readString(device)).isEmpty();
        assertThat(Files.readString(other)).isEmpty();
    }

    @Test
    @DisplayName("no sysfs timeout, or a bad one: refused, naming the file and what to do")
    void badTimeout() throws IOException {
        Path device = device("watchdog", "zero");
        assertThatThrownBy(() -> DeviceWatchdog.open(device, dir.resolve("sys"), true)).isInstanceOf(IOException.class)
                .hasMessageContaining("watchdog0/timeout").hasMessageContaining("not a positive number");
        assertThatThrownBy(() -> DeviceWatchdog.open(device, dir.resolve("nosys"), true))
                .isInstanceOf(IOException.class).hasMessageContaining("mount /sys");
    }

    @Test
    @DisplayName("no device, fallback software-reboot: trigger writes b to the sysrq trigger")
    void softwareReboot() throws IOException {
        Path sysrq = Files.writeString(dir.resolve("sysrq-trigger"), "");
        NodeAgentSettings settings = settings(WatchdogFallback.SOFTWARE_REBOOT, sysrq);
        Watchdog w = Watchdogs.open(settings, dir.resolve("sys"));
        assertThat(w.mode()).isEqualTo(WatchdogMode.SOFTWARE_REBOOT);
        assertThat(w.timeout()).isEmpty();
        w.feed();
        assertThat(Files.readString(sysrq)).isEmpty();
        w.trigger();
        w.trigger();
        assertThat(Files.readString(sysrq)).isEqualTo("b");
    }

    @Test
    @DisplayName("no device, fallback none: nothing is ever written, the mode says none")
    void none() throws IOException {
        Path sysrq = Files.writeString(dir.resolve("sysrq-trigger"), "");
        Watchdog w = Watchdogs.open(settings(WatchdogFallback.NONE, sysrq), dir.resolve("sys"));
        assertThat(w.mode()).isEqualTo(WatchdogMode.NONE);
        w.trigger();
        assertThat(Files.readString(sysrq)).isEmpty();
    }

    @Test
    @DisplayName("an existing device is opened whatever the fallback")
    void deviceWins() throws IOException {
        Path device = device("watchdog", "10");
        NodeAgentSettings d = NodeAgentSettings.ofDefaults();
        NodeAgentSettings s = new NodeAgentSettings(d.timings(), d.safeTime(), 1, 30_100, d.failureDomainLabels(),
                true, device, WatchdogFallback.NONE, d.sysrqTrigger(), true);
        assertThat(Watchdogs.open(s, dir.resolve("sys")).mode()).isEqualTo(WatchdogMode.ARMED);
    }

    @Test
    @DisplayName("the boot time is /proc/stat's btime")
    void bootTime() throws IOException {
        Path stat = Files.writeString(dir.resolve("stat"), "cpu  1 2 3\nbtime 1764000000\nprocesses 5\n");
        assertThat(BootTime.read(stat)).isEqualTo(java.time.Instant.ofEpochSecond(1_764_000_000L));
        Path bad = Files.writeString(dir.resolve("bad"), "cpu 1\n");
        assertThatThrownBy(() -> BootTime.read(bad)).isInstanceOf(IOException.class).hasMessageContaining("btime");
    }

    private NodeAgentSettings settings(WatchdogFallback fallback, Path sysrq) {
        NodeAgentSettings d = NodeAgentSettings.ofDefaults();
        return new NodeAgentSettings(d.timings(), d.safeTime(), 1, 30_100, d.failureDomainLabels(), true,
                dir.resolve("no-watchdog"), fallback, sysrq, true);
    }
}
