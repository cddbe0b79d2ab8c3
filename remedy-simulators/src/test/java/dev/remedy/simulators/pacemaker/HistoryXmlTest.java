package dev.remedy.simulators.pacemaker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remedy.simulators.pacemaker.FenceEvent.Status;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("stonith_admin's history in XML, as Pacemaker 2.1.5 prints it")
class HistoryXmlTest {

    // Printed by stonith_admin --history '*' --verbose --output-as xml after a success, a failure and a timeout.
    private static final String HISTORY = """
            <pacemaker-result api-version="2.25" request="stonith_admin --history * --verbose --output-as xml">
              <list name="fencing history" count="3">
                <fence_event action="off" target="node3" client="stonith_admin.28303" origin="node0" status="failed" \
            exit-reason="Fence agent did not complete within 10s" delegate="node0" completed="2026-11-26 06:02:11Z"/>
                <fence_event action="off" target="node2" client="stonith_admin.22875" origin="node0" status="failed" \
            delegate="node0" completed="2026-11-26 06:01:56Z"/>
                <fence_event action="off" target="node1" client="stonith_admin.22505" origin="node0" status="success" \
            delegate="node0" completed="2026-11-26 06:01:27Z"/>
              </list>
              <status code="0" message="OK"/>
            </pacemaker-result>
            """;

    @Test
    @DisplayName("every event with its action, target, status, reason, delegate, client and completion, in order")
    void events() {
        assertThat(HistoryXml.parse(HISTORY)).containsExactly(
                new FenceEvent("off", "node3", Status.FAILED, "Fence agent did not complete within 10s", "node0",
                        "stonith_admin.28303", "2026-11-26 06:02:11Z"),
                new FenceEvent("off", "node2", Status.FAILED, "", "node0", "stonith_admin.22875",
                        "2026-11-26 06:01:56Z"),
                new FenceEvent("off", "node1", Status.SUCCESS, "", "node0", "stonith_admin.22505",
                        "2026-11-26 06:01:27Z"));
    }

    @Test
    @DisplayName("an empty history is an empty list")
    void empty() {
        assertThat(HistoryXml.parse("""
                <pacemaker-result api-version="2.25" request="stonith_admin --history node1 --output-as xml">
                  <list name="fencing history" count="0"/>
                  <status code="0" message="OK"/>
                </pacemaker-result>
                """)).isEmpty();
    }

    @Test
    @DisplayName("a pending operation has no completion yet")
    void pending() {
        assertThat(HistoryXml.parse("""
                <pacemaker-result api-version="2.25" request="stonith_admin">
                  <list name="fencing history" count="1">
                    <fence_event action="reboot" target="n" client="c" origin="o" status="pending" extended-status="1"/>
                  </list>
                  <status code="0" message="OK"/>
                </pacemaker-result>
                """)).containsExactly(new FenceEvent("reboot", "n", Status.PENDING, "", "", "c", ""));
    }

    @Test
    @DisplayName("an error status, an unknown event status, text or a DTD are refused with the document quoted")
    void refuses() {
        assertThatThrownBy(() -> HistoryXml.parse("""
                <pacemaker-result api-version="2.25" request="stonith_admin">
                  <status code="102" message="Not connected"/>
                </pacemaker-result>
                """)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("could not read")
                .hasMessageContaining("Not connected");
        assertThatThrownBy(() -> HistoryXml.parse("""
                <pacemaker-result><list><fence_event status="maybe"/></list><status code="0"/></pacemaker-result>
                """)).hasMessageContaining("unknown fence event status 'maybe'");
        assertThatThrownBy(() -> HistoryXml.parse("1 event found")).hasMessageContaining("not well-formed")
                .hasMessageContaining("1 event found");
        assertThatThrownBy(() -> HistoryXml.parse("<?xml version=\"1.0\"?><!DOCTYPE r [<!ENTITY x \"y\">]>"
                + "<pacemaker-result><status code=\"0\"/></pacemaker-result>")).hasMessageContaining("not well-formed");
        assertThatThrownBy(() -> HistoryXml.parse("<other/>")).hasMessageContaining("not a <pacemaker-result>");
    }
}
