package dev.grizzlyboot.examples.clusterdemo;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.grizzlyboot.testsupport.MemcachedOptions;
import dev.grizzlyboot.testsupport.MemcachedProcess;
import dev.grizzlyboot.testsupport.MemcachedServers;
import tools.jackson.databind.JsonNode;

/**
 * The cluster demo, start to finish: three local memcached processes, an embedded ZooKeeper, two
 * application instances on the first two memcached servers; a new list with all three is proposed
 * through instance B's {@code /actuator/memcached} over HTTP (instance A is read-only and refuses
 * it); both instances switch at the same commit time; then a {@code @Cacheable} value computed by
 * A on the new server is served to B from memcached.
 *
 * <p>One command: {@code ./mvnw -q -pl examples/cluster-demo -am -DskipTests verify exec:java}.
 */
public final class ClusterDemo {

    private static final Duration SWITCH_DEADLINE = Duration.ofSeconds(30);

    private ClusterDemo() {
    }

    public static void main(String[] args) throws Exception {
        if (!MemcachedProcess.installed()) {
            System.err.println("The demo needs the memcached binary (Debian/Ubuntu: apt-get install memcached; macOS: brew install memcached).");
            System.exit(1);
        }
        try (MemcachedServers memcached = MemcachedServers.start(3, MemcachedOptions.defaults());
                EmbeddedZooKeeper zooKeeper = EmbeddedZooKeeper.start()) {
            List<String> servers = memcached.addresses();
            System.out.println("memcached processes: " + servers);
            System.out.println("embedded ZooKeeper:  " + zooKeeper.connectString());
            String initial = servers.get(0) + "," + servers.get(1);
            try (Instance a = Instance.start("instance-a", initial, zooKeeper.connectString());
                    Instance b = Instance.start("instance-b", initial, zooKeeper.connectString(),
                            "management.endpoint.memcached.access=unrestricted")) {
                run(a, b, servers);
            }
        }
    }

    static void run(Instance a, Instance b, List<String> servers) throws InterruptedException {
        section("before: both instances on version 1");
        summary(a);
        summary(b);

        long committed = a.getJson("/actuator/memcached").path("serverList").path("zookeeper").path("committedVersion").asLong();
        Map<String, Object> proposal = Map.of("servers", String.join(",", servers), "expectedVersion", committed);
        section("POST /actuator/memcached " + proposal);
        HttpResponse<String> refused = a.post("/actuator/memcached", proposal);
        System.out.println(a.name + " (read-only by default): HTTP " + refused.statusCode());
        HttpResponse<String> accepted = b.post("/actuator/memcached", proposal);
        System.out.println(b.name + " (management.endpoint.memcached.access=unrestricted): HTTP " + accepted.statusCode()
                + " " + accepted.body());
        if (accepted.statusCode() != 200) {
            throw new IllegalStateException("the proposal was not accepted");
        }
        long proposed = Instance.parse(accepted.body()).path("proposedVersion").asLong();

        awaitVersion(List.of(a, b), proposed);
        section("after: GET /actuator/memcached on both instances");
        for (Instance instance : List.of(a, b)) {
            System.out.println("--- " + instance.name);
            System.out.println(Instance.pretty(instance.getJson("/actuator/memcached")));
        }
        section("after: GET /actuator/health on both instances (the memcached components)");
        for (Instance instance : List.of(a, b)) {
            JsonNode health = instance.getJson("/actuator/health");
            System.out.println("--- " + instance.name + ": " + health.path("status").asString());
            System.out.println("memcached: " + Instance.pretty(health.path("components").path("memcached")));
            System.out.println("memcachedZookeeper: " + Instance.pretty(health.path("components").path("memcachedZookeeper")));
        }
        section("the switch");
        JsonNode listA = a.getJson("/actuator/memcached").path("serverList");
        JsonNode listB = b.getJson("/actuator/memcached").path("serverList");
        System.out.println("commit time T:      " + a.name + " " + listA.path("commitAt").asString() + ", " + b.name + " "
                + listB.path("commitAt").asString() + (listA.path("commitAt").equals(listB.path("commitAt")) ? "  (the same)" : "  (DIFFERENT)"));
        System.out.println("switched at:        " + a.name + " " + listA.path("appliedAt").asString() + ", " + b.name + " "
                + listB.path("appliedAt").asString());

        section("@Cacheable through the new list");
        cacheableOnTheNewServer(a, b, servers.get(2));
    }

    /** Finds a name whose cache entry lands on the server that just joined, computed by A, then read by B. */
    private static void cacheableOnTheNewServer(Instance a, Instance b, String newServer) {
        for (String name : List.of("ada", "grace", "linus", "barbara", "ken", "dennis", "margaret", "edsger", "donald", "frances")) {
            long setsBefore = sets(a, newServer);
            String computed = a.get("/greetings/" + name).body();
            if (sets(a, newServer) > setsBefore) {
                System.out.println("GET " + a.name + "/greetings/" + name + " -> " + computed);
                System.out.println("   stored on " + newServer + " (the server the new list added; its cmd_set went up)");
                String served = b.get("/greetings/" + name).body();
                System.out.println("GET " + b.name + "/greetings/" + name + " -> " + served);
                System.out.println(served.equals(computed)
                        ? "   the same value: " + b.name + " read " + a.name + "'s entry from " + newServer + " through the new list"
                        : "   a different value: the instances do not agree where the key lives");
                return;
            }
        }
        System.out.println("no sample name landed on " + newServer + " (unlikely with a third of the ring)");
    }

    private static long sets(Instance instance, String server) {
        return instance.getJson("/actuator/memcached/" + server).path("cmd_set").asLong();
    }

    private static void awaitVersion(List<Instance> instances, long version) throws InterruptedException {
        long deadline = System.nanoTime() + SWITCH_DEADLINE.toNanos();
        while (!instances.stream().allMatch(instance -> instance.getJson("/actuator/memcached").path("serverList")
                .path("version").asLong() >= version)) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the instances did not switch to version " + version + " within " + SWITCH_DEADLINE);
            }
            Thread.sleep(100);
        }
    }

    private static void summary(Instance instance) {
        JsonNode body = instance.getJson("/actuator/memcached");
        JsonNode list = body.path("serverList");
        System.out.printf("%s: version %d, servers %s, phase %s%n", instance.name, list.path("version").asLong(),
                list.path("servers"), list.path("phase").asString());
    }

    private static void section(String title) {
        System.out.println();
        System.out.println("== " + title + " ==");
    }
}
