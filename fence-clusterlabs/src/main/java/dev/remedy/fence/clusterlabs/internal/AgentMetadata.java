package dev.remedy.fence.clusterlabs.internal;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;
import org.xml.sax.helpers.DefaultHandler;

/**
 * What a ClusterLabs agent's {@code -o metadata} says about itself: the {@code <resource-agent>} document of
 * fence-agents' {@code fencing.py}, read with the JDK's DOM parser with document types, external entities and
 * external DTDs refused.
 *
 * @param name        the agent's name ({@code fence_ipmilan})
 * @param shortdesc   its one-line description
 * @param parameters  its parameters, in document order
 * @param actions     the actions it lists ({@code on}, {@code off}, {@code status}, {@code list-status}, …)
 * @param fabric      whether its {@code on} action is marked {@code automatic="1"}: fence-agents' mark of fabric fencing
 */
public record AgentMetadata(String name, String shortdesc, List<Parameter> parameters, Set<String> actions,
                            boolean fabric) {

    /** Copies the collections. */
    public AgentMetadata {
        parameters = List.copyOf(parameters);
        actions = Set.copyOf(actions);
    }

    /**
     * One {@code <parameter>} element.
     *
     * @param name         its name, as the agent reads it on standard input
     * @param type         the {@code content} type: {@code string}, {@code boolean}, {@code integer}, {@code second}
     *                     or {@code select}
     * @param required     whether {@code required="1"}
     * @param deprecated   whether {@code deprecated="1"} (an old name of another parameter)
     * @param defaultValue the {@code default} attribute, if any
     * @param options      the options of a {@code select}; empty otherwise
     * @param shortdesc    its one-line description
     */
    public record Parameter(String name, String type, boolean required, boolean deprecated,
                            Optional<String> defaultValue, List<String> options, String shortdesc) {

        /** Copies the options. */
        public Parameter {
            options = List.copyOf(options);
        }
    }

    /**
     * Parses a metadata document.
     *
     * @throws IllegalArgumentException if it is not well-formed XML, has a document type, or is not a
     *                                  {@code <resource-agent>} with a name
     */
    public static AgentMetadata parse(byte[] xml) {
        Document document;
        try {
            DocumentBuilder builder = factory().newDocumentBuilder();
            builder.setErrorHandler(new DefaultHandler());
            document = builder.parse(new ByteArrayInputStream(xml));
        } catch (SAXException e) {
            throw new IllegalArgumentException("is not well-formed XML without a document type: " + e.getMessage(), e);
        } catch (IOException | ParserConfigurationException e) {
            throw new IllegalArgumentException("cannot be read: " + e.getMessage(), e);
        }
        Element root = document.getDocumentElement();
        if (!"resource-agent".equals(root.getTagName()) || root.getAttribute("name").isBlank()) {
            throw new IllegalArgumentException("is not a <resource-agent name=\"...\"> document (its root is <"
                    + root.getTagName() + ">)");
        }
        List<Parameter> parameters = new ArrayList<>();
        for (Element list : children(root, "parameters")) {
            for (Element p : children(list, "parameter")) {
                parameters.add(parameter(p));
            }
        }
        Set<String> actions = new LinkedHashSet<>();
        boolean fabric = false;
        for (Element list : children(root, "actions")) {
            for (Element action : children(list, "action")) {
                actions.add(action.getAttribute("name"));
                fabric |= "on".equals(action.getAttribute("name")) && "1".equals(action.getAttribute("automatic"));
            }
        }
        return new AgentMetadata(root.getAttribute("name"), oneLine(root.getAttribute("shortdesc")), parameters,
                actions, fabric);
    }

    private static Parameter parameter(Element p) {
        String type = "string";
        Optional<String> defaultValue = Optional.empty();
        List<String> options = new ArrayList<>();
        for (Element content : children(p, "content")) {
            type = content.getAttribute("type").isBlank() ? "string" : content.getAttribute("type");
            if (content.hasAttribute("default")) {
                defaultValue = Optional.of(content.getAttribute("default"));
            }
            for (Element option : children(content, "option")) {
                options.add(option.getAttribute("value"));
            }
        }
        String shortdesc = children(p, "shortdesc").stream().findFirst().map(Element::getTextContent)
                .map(AgentMetadata::oneLine).orElse("");
        return new Parameter(p.getAttribute("name"), type, "1".equals(p.getAttribute("required")),
                "1".equals(p.getAttribute("deprecated")), defaultValue, options, shortdesc);
    }

    private static List<Element> children(Element parent, String tag) {
        List<Element> found = new ArrayList<>();
        NodeList nodes = parent.getChildNodes();
        for (int i = 0; i < nodes.getLength(); i++) {
            Node node = nodes.item(i);
            if (node instanceof Element element && tag.equals(element.getTagName())) {
                found.add(element);
            }
        }
        return found;
    }

    private static String oneLine(String text) {
        return text.replaceAll("\\s+", " ").trim();
    }

    private static DocumentBuilderFactory factory() throws ParserConfigurationException {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
        factory.setFeature("http://xml.org/sax/features/external-general-entities", false);
        factory.setFeature("http://xml.org/sax/features/external-parameter-entities", false);
        factory.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
        factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_DTD, "");
        factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
        factory.setXIncludeAware(false);
        factory.setExpandEntityReferences(false);
        factory.setNamespaceAware(false);
        return factory;
    }
}
