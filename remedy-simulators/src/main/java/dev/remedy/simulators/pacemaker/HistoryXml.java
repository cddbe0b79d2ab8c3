package dev.remedy.simulators.pacemaker;

import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.InputSource;
import org.xml.sax.SAXException;
import org.xml.sax.helpers.DefaultHandler;

/** Reads {@code stonith_admin --history … --output-as xml} (Pacemaker's {@code <pacemaker-result>} document). */
final class HistoryXml {

    private HistoryXml() {
    }

    /**
     * The events of the history, in the order printed (newest first).
     *
     * @throws IllegalArgumentException if the text is not such a document, its status code is not 0, or an event
     *     has an unknown status (the message quotes the document)
     */
    static List<FenceEvent> parse(String xml) {
        Document document = read(xml);
        Element root = document.getDocumentElement();
        if (!"pacemaker-result".equals(root.getTagName())) {
            throw new IllegalArgumentException("stonith_admin's history is not a <pacemaker-result> document:\n" + xml);
        }
        NodeList statuses = root.getElementsByTagName("status");
        if (statuses.getLength() != 1 || !"0".equals(((Element) statuses.item(0)).getAttribute("code"))) {
            throw new IllegalArgumentException("stonith_admin could not read the fencer's history:\n" + xml);
        }
        NodeList events = root.getElementsByTagName("fence_event");
        List<FenceEvent> history = new ArrayList<>(events.getLength());
        for (int i = 0; i < events.getLength(); i++) {
            Element event = (Element) events.item(i);
            history.add(new FenceEvent(event.getAttribute("action"), event.getAttribute("target"),
                    status(event.getAttribute("status"), xml), event.getAttribute("exit-reason"),
                    event.getAttribute("delegate"), event.getAttribute("client"), event.getAttribute("completed")));
        }
        return List.copyOf(history);
    }

    private static FenceEvent.Status status(String status, String xml) {
        return switch (status) {
            case "success" -> FenceEvent.Status.SUCCESS;
            case "failed" -> FenceEvent.Status.FAILED;
            case "pending" -> FenceEvent.Status.PENDING;
            default -> throw new IllegalArgumentException("unknown fence event status '" + status
                    + "' in stonith_admin's history:\n" + xml);
        };
    }

    private static Document read(String xml) {
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            factory.setXIncludeAware(false);
            factory.setExpandEntityReferences(false);
            DocumentBuilder builder = factory.newDocumentBuilder();
            builder.setErrorHandler(new DefaultHandler());
            return builder.parse(new InputSource(new StringReader(xml)));
        } catch (ParserConfigurationException | SAXException | IOException e) {
            throw new IllegalArgumentException("stonith_admin's history is not well-formed XML (" + e.getMessage()
                    + "):\n" + xml, e);
        }
    }
}
