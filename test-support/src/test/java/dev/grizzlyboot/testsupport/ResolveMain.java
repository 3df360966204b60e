package dev.grizzlyboot.testsupport;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * The child JVM of {@link HostsFileTest}: answers each host name it reads with the address it
 * resolves to now, or {@code UNKNOWN}. One lookup at a time, on the thread that reads the names.
 */
public final class ResolveMain {

    private ResolveMain() {
    }

    public static void main(String[] args) throws IOException {
        ChildJvm.serve(name -> {
            try {
                return InetAddress.getByName(name).getHostAddress();
            } catch (UnknownHostException e) {
                return "UNKNOWN";
            }
        });
    }
}
