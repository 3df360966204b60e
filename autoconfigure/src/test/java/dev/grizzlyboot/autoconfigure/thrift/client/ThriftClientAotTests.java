package dev.grizzlyboot.autoconfigure.thrift.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import javax.tools.ToolProvider;

import dev.grizzlyboot.thrift.tutorial.Calculator;
import dev.grizzlyboot.thrift.tutorial.shared.SharedService;
import org.apache.thrift.protocol.TProtocol;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.aot.generate.ClassNameGenerator;
import org.springframework.aot.generate.DefaultGenerationContext;
import org.springframework.aot.generate.GeneratedFiles.Kind;
import org.springframework.aot.generate.InMemoryGeneratedFiles;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.boot.test.util.TestPropertyValues;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.aot.ApplicationContextAotGenerator;
import org.springframework.javapoet.ClassName;

/**
 * Spring AOT processing of a context with two Thrift clients of different services, as a native
 * image build runs it: the client beans are written out as code, and the hints a native image
 * needs to make their proxies and generated clients are registered. (Spring's {@code TestCompiler},
 * which would also run the generated code, is not published for this Spring version.)
 */
class ThriftClientAotTests {

    @Test
    void twoClientsAreWrittenOutWithTheirNativeHints(@TempDir Path output) throws Exception {
        InMemoryGeneratedFiles files = new InMemoryGeneratedFiles();
        DefaultGenerationContext generation = new DefaultGenerationContext(
                new ClassNameGenerator(ClassName.get("com.example", "ThriftApplication")), files);
        try (AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext()) {
            TestPropertyValues.of(
                    "grizzly.thrift.clients.calculator.service=" + Calculator.class.getName(),
                    "grizzly.thrift.clients.calculator.servers=127.0.0.1:9090",
                    "grizzly.thrift.clients.shared.service=" + SharedService.class.getName() + ".Iface",
                    "grizzly.thrift.clients.shared.servers=127.0.0.1:9091").applyTo(context);
            context.register(ThriftClientAutoConfiguration.class);
            new ApplicationContextAotGenerator().processAheadOfTime(context, generation);
        }
        generation.writeGeneratedContent();

        RuntimeHints hints = generation.getRuntimeHints();
        assertThat(RuntimeHintsPredicates.proxies().forInterfaces(Calculator.Iface.class)).accepts(hints);
        assertThat(RuntimeHintsPredicates.proxies().forInterfaces(SharedService.Iface.class)).accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onConstructorInvocation(Calculator.Client.class.getConstructor(TProtocol.class)))
                .accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onConstructorInvocation(SharedService.Client.class.getConstructor(TProtocol.class)))
                .accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(Calculator.Iface.class.getMethod("add", int.class, int.class)))
                .accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(SharedService.Iface.class.getMethod("getStruct", int.class)))
                .accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onType(ThriftClientProperties.class)).accepts(hints);
        assertThat(RuntimeHintsPredicates.proxies().forInterfaces(Runnable.class)).rejects(hints);

        String clients = source(files, "dev/grizzlyboot/autoconfigure/thrift/client/ThriftClients__BeanDefinitions.java");
        assertThat(clients).contains("forFactoryMethod(ThriftClients.class, \"proxy\"",
                "addIndexedArgumentValue(1, Calculator.Iface.class)", "addIndexedArgumentValue(1, SharedService.Iface.class)");
        assertThat(compile(files, output)).as("the generated code compiles").isTrue();
    }

    private static String source(InMemoryGeneratedFiles files, String path) throws IOException {
        try (InputStream in = files.getGeneratedFiles(Kind.SOURCE).get(path).getInputStream()) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** Compiles the generated sources against the test class path, as the native build would. */
    private static boolean compile(InMemoryGeneratedFiles files, Path output) throws IOException {
        Path sources = output.resolve("sources");
        List<String> arguments = new ArrayList<>(List.of("-proc:none", "-d", output.resolve("classes").toString(),
                "-cp", System.getProperty("java.class.path")));
        for (String path : files.getGeneratedFiles(Kind.SOURCE).keySet()) {
            Path file = sources.resolve(path);
            Files.createDirectories(file.getParent());
            Files.writeString(file, source(files, path));
            arguments.add(file.toString());
        }
        return ToolProvider.getSystemJavaCompiler().run(null, null, null, arguments.toArray(String[]::new)) == 0;
    }
}
