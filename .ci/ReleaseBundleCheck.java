import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipInputStream;

import javax.xml.parsers.DocumentBuilderFactory;

import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * Checks a Central bundle (a zip in Maven repository layout) against the BOM inside it: every
 * artifact the BOM manages is there at the BOM's version with its jar, sources jar, Javadoc jar and
 * POM; the POMs those need as parents are there; nothing else is; every file has matching MD5 and
 * SHA-1 checksums (and a signature, once any file is signed); and every POM, with what it inherits
 * from its parents in the bundle, has the elements Central requires. Run by .ci/release-dry-run as
 * {@code java .ci/ReleaseBundleCheck.java BUNDLE_ZIP GROUP_ID:BOM_ARTIFACT_ID}; exits 1 with the list
 * of problems, or prints what it checked.
 */
public final class ReleaseBundleCheck {

    private static final List<String> JAR_FILES = List.of(".jar", "-sources.jar", "-javadoc.jar", ".pom");

    private final Map<String, byte[]> files = new LinkedHashMap<>();
    private final List<String> problems = new ArrayList<>();
    private final Set<String> expected = new TreeSet<>();

    public static void main(String[] args) throws Exception {
        if (args.length != 2 || !args[1].contains(":")) {
            System.err.println("usage: java ReleaseBundleCheck.java BUNDLE_ZIP GROUP_ID:BOM_ARTIFACT_ID");
            System.exit(2);
        }
        ReleaseBundleCheck check = new ReleaseBundleCheck(Path.of(args[0]));
        String[] bom = args[1].split(":", 2);
        int artifacts = check.run(bom[0], bom[1]);
        if (!check.problems.isEmpty()) {
            System.err.println("release bundle " + args[0] + " is not ready for Central:");
            check.problems.forEach(problem -> System.err.println("  - " + problem));
            System.exit(1);
        }
        System.out.println("release bundle OK: " + artifacts + " artifacts, " + check.files.size()
                + " files (jar, sources, Javadoc, POM metadata, checksums"
                + (check.signed() ? ", signatures" : "; unsigned: no key configured") + ")");
    }

    private ReleaseBundleCheck(Path bundle) throws IOException {
        try (ZipFile zip = new ZipFile(bundle.toFile())) {
            for (ZipEntry entry : zip.stream().filter(entry -> !entry.isDirectory()).toList()) {
                try (InputStream in = zip.getInputStream(entry)) {
                    files.put(entry.getName(), in.readAllBytes());
                }
            }
        }
    }

    /** Runs every check and returns how many artifacts (coordinates) the bundle should hold. */
    private int run(String groupId, String bomArtifactId) throws Exception {
        Optional<String> bomPom = files.keySet().stream()
                .filter(name -> name.startsWith(directory(groupId, bomArtifactId)) && name.endsWith(".pom"))
                .findFirst();
        if (bomPom.isEmpty()) {
            problems.add("no POM of the BOM " + groupId + ":" + bomArtifactId);
            return 0;
        }
        Document bom = parse(bomPom.get());
        String version = text(bom.getDocumentElement(), "version");
        expectPom(groupId, bomArtifactId, version);

        int artifacts = 1;
        Element management = child(bom.getDocumentElement(), "dependencyManagement");
        Element dependencies = management == null ? null : child(management, "dependencies");
        if (dependencies == null) {
            problems.add("the BOM manages no dependencies");
            return artifacts;
        }
        for (Element dependency : children(dependencies, "dependency")) {
            String artifactId = text(dependency, "artifactId");
            String managedVersion = text(dependency, "version");
            if (!"${project.version}".equals(managedVersion) && !version.equals(managedVersion)) {
                problems.add("the BOM pins " + artifactId + " at " + managedVersion + ", not at its own version " + version);
            }
            artifacts += expectArtifact(groupId, artifactId, version);
        }
        files.keySet().stream()
                .filter(name -> !expected.contains(name))
                .forEach(name -> problems.add("unexpected file (not a published artifact): " + name));
        return artifacts;
    }

    /** Expects the artifact's files (by its POM's packaging) and its parent POMs; returns how many artifacts that is. */
    private int expectArtifact(String groupId, String artifactId, String version) throws Exception {
        String pomName = file(groupId, artifactId, version, ".pom");
        if (!files.containsKey(pomName)) {
            problems.add("missing " + pomName + " (" + artifactId + " is in the BOM)");
            return 1;
        }
        String packaging = Optional.ofNullable(text(parse(pomName).getDocumentElement(), "packaging")).orElse("jar");
        if (!"jar".equals(packaging)) {
            return expectPom(groupId, artifactId, version);
        }
        boolean complete = true;
        for (String suffix : JAR_FILES) {
            complete &= expectFile(file(groupId, artifactId, version, suffix));
        }
        if (complete) {
            checkJarContents(groupId, artifactId, version);
        }
        return checkPomAndParents(pomName) + 1;
    }

    /** Expects a POM-only artifact and its parents; returns how many artifacts that is. */
    private int expectPom(String groupId, String artifactId, String version) throws Exception {
        String pomName = file(groupId, artifactId, version, ".pom");
        if (!expectFile(pomName)) {
            return 1;
        }
        return checkPomAndParents(pomName) + 1;
    }

    /**
     * Checks the POM's metadata and expects its parent POM: Central resolves a parent from the bundle
     * or from Central itself, so ours must be in the bundle. Returns how many parent artifacts that adds.
     */
    private int checkPomAndParents(String pomName) throws Exception {
        checkMetadata(pomName);
        Element parent = child(parse(pomName).getDocumentElement(), "parent");
        if (parent == null) {
            return 0;
        }
        String parentPom = file(text(parent, "groupId"), text(parent, "artifactId"), text(parent, "version"), ".pom");
        if (expected.contains(parentPom)) {
            return 0;
        }
        if (!files.containsKey(parentPom)) {
            problems.add("missing parent " + parentPom + " of " + pomName);
            return 0;
        }
        return expectPom(text(parent, "groupId"), text(parent, "artifactId"), text(parent, "version"));
    }

    private boolean expectFile(String name) {
        if (!files.containsKey(name)) {
            problems.add("missing " + name);
            return false;
        }
        expected.add(name);
        checkChecksum(name, ".md5", "MD5");
        checkChecksum(name, ".sha1", "SHA-1");
        if (signed()) {
            expectAlso(name + ".asc");
        }
        return true;
    }

    private void checkChecksum(String name, String suffix, String algorithm) {
        if (!expectAlso(name + suffix)) {
            return;
        }
        String recorded = new String(files.get(name + suffix), StandardCharsets.US_ASCII).trim();
        String actual = digest(algorithm, files.get(name));
        if (!recorded.startsWith(actual)) {
            problems.add(name + suffix + " does not match the file (" + recorded + " recorded, " + actual + " computed)");
        }
    }

    private boolean expectAlso(String name) {
        if (!files.containsKey(name)) {
            problems.add("missing " + name);
            return false;
        }
        expected.add(name);
        return true;
    }

    /** A module with classes needs their sources and an API page; a module without (a starter) has empty jars. */
    private void checkJarContents(String groupId, String artifactId, String version) throws IOException {
        Set<String> classes = entries(file(groupId, artifactId, version, ".jar"));
        Set<String> sources = entries(file(groupId, artifactId, version, "-sources.jar"));
        Set<String> javadoc = entries(file(groupId, artifactId, version, "-javadoc.jar"));
        classes.stream()
                .filter(name -> name.endsWith(".class") && !name.contains("$") && !name.endsWith("package-info.class"))
                .map(name -> name.substring(0, name.length() - ".class".length()) + ".java")
                .filter(source -> !sources.contains(source))
                .forEach(source -> problems.add(artifactId + "-sources.jar lacks " + source));
        boolean hasClasses = classes.stream().anyMatch(name -> name.endsWith(".class"));
        if (hasClasses && !javadoc.contains("index.html")) {
            problems.add(artifactId + "-javadoc.jar has no index.html");
        }
    }

    private Set<String> entries(String jarName) throws IOException {
        Set<String> names = new TreeSet<>();
        try (ZipInputStream in = new ZipInputStream(new ByteArrayInputStream(files.get(jarName)))) {
            for (ZipEntry entry = in.getNextEntry(); entry != null; entry = in.getNextEntry()) {
                names.add(entry.getName());
            }
        }
        if (names.isEmpty()) {
            problems.add(jarName + " is not a jar");
        }
        return names;
    }

    /**
     * Central's required POM elements: name and description in the POM itself; url, license, developer
     * and scm in it or inherited from a parent in the bundle.
     */
    private void checkMetadata(String pomName) throws Exception {
        Element project = parse(pomName).getDocumentElement();
        for (String own : List.of("name", "description")) {
            if (blank(text(project, own))) {
                problems.add(pomName + " has no <" + own + ">");
            }
        }
        List<Element> lineage = lineage(pomName);
        requireInherited(pomName, lineage, "url", p -> text(p, "url"));
        requireInherited(pomName, lineage, "licenses/license with name and url",
                p -> first(p, "licenses", "license").filter(l -> !blank(text(l, "name")) && !blank(text(l, "url")))
                        .map(l -> text(l, "name")).orElse(null));
        requireInherited(pomName, lineage, "developers/developer with a name",
                p -> first(p, "developers", "developer").map(d -> text(d, "name")).orElse(null));
        requireInherited(pomName, lineage, "scm with connection, developerConnection and url",
                p -> Optional.ofNullable(child(p, "scm"))
                        .filter(s -> !blank(text(s, "connection")) && !blank(text(s, "developerConnection"))
                                && !blank(text(s, "url")))
                        .map(s -> text(s, "url")).orElse(null));
    }

    private void requireInherited(String pomName, List<Element> lineage, String what,
                                  Function<Element, String> value) {
        if (lineage.stream().map(value).allMatch(ReleaseBundleCheck::blank)) {
            problems.add(pomName + " has no " + what + ", neither itself nor from a parent in the bundle");
        }
    }

    /** The POM and its parents found in the bundle, nearest first. */
    private List<Element> lineage(String pomName) throws Exception {
        List<Element> lineage = new ArrayList<>();
        for (String name = pomName; name != null && files.containsKey(name); ) {
            Element project = parse(name).getDocumentElement();
            lineage.add(project);
            Element parent = child(project, "parent");
            name = parent == null ? null
                    : file(text(parent, "groupId"), text(parent, "artifactId"), text(parent, "version"), ".pom");
        }
        return lineage;
    }

    private boolean signed() {
        return files.keySet().stream().anyMatch(name -> name.endsWith(".asc"));
    }

    private Document parse(String name) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setNamespaceAware(true);
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        return factory.newDocumentBuilder().parse(new ByteArrayInputStream(files.get(name)));
    }

    private static String directory(String groupId, String artifactId) {
        return groupId.replace('.', '/') + "/" + artifactId + "/";
    }

    private static String file(String groupId, String artifactId, String version, String suffix) {
        return directory(groupId, artifactId) + version + "/" + artifactId + "-" + version + suffix;
    }

    private static Optional<Element> first(Element parent, String list, String item) {
        Element container = child(parent, list);
        return container == null ? Optional.empty() : children(container, item).stream().findFirst();
    }

    private static Element child(Element parent, String name) {
        List<Element> found = children(parent, name);
        return found.isEmpty() ? null : found.get(0);
    }

    private static List<Element> children(Element parent, String name) {
        List<Element> found = new ArrayList<>();
        for (Node node = parent.getFirstChild(); node != null; node = node.getNextSibling()) {
            if (node instanceof Element element && name.equals(element.getLocalName())) {
                found.add(element);
            }
        }
        return found;
    }

    private static String text(Element parent, String name) {
        Element element = child(parent, name);
        return element == null ? null : element.getTextContent().trim();
    }

    private static boolean blank(String value) {
        return value == null || value.isBlank();
    }

    private static String digest(String algorithm, byte[] content) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance(algorithm).digest(content));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(algorithm + " is a standard JDK algorithm", e);
        }
    }
}
