package dev.grizzlyboot.benchmarks.memcached;

import java.util.ArrayList;
import java.util.List;

/**
 * Opens the clients of one run against one memcached: ours with its defaults, any tuned variants
 * of ours, and the peers. All stay open for the whole run.
 */
final class Contenders implements AutoCloseable {

    static final String OURS = "grizzly-boot";

    private final List<BenchClient> clients = new ArrayList<>();

    Contenders(String address, BenchOptions options) throws Exception {
        try {
            if (options.wantsClient(OURS)) {
                clients.add(GrizzlyBootBench.defaults(address));
                for (GrizzlyBootBench.Knobs knobs : options.tuned()) {
                    clients.add(GrizzlyBootBench.tuned(address, knobs));
                }
            }
            if (options.wantsClient("spymemcached")) {
                clients.add(new SpyBench(address));
            }
            if (options.wantsClient("xmemcached")) {
                clients.add(new XmemcachedBench(address));
            }
            if (options.wantsClient("folsom")) {
                clients.add(new FolsomBench(address));
            }
        } catch (Exception e) {
            close();
            throw e;
        }
    }

    List<BenchClient> all() {
        return clients;
    }

    static boolean isOurs(BenchClient client) {
        return client.label().startsWith(OURS);
    }

    @Override
    public void close() throws Exception {
        for (BenchClient client : clients) {
            client.close();
        }
    }
}
