package dev.grizzlyboot.autoconfigure;

import java.net.URL;
import java.net.URLClassLoader;
import java.util.Set;

/**
 * A class loader that defines some of the test classes again, child first, and leaves everything
 * else to the test's own loader: what Spring Boot DevTools' restart loader does to application classes.
 */
public final class RestartClassLoader extends URLClassLoader {

    private final Set<String> reloaded;

    public RestartClassLoader(Class<?>... reloaded) {
        super(new URL[] {reloaded[0].getProtectionDomain().getCodeSource().getLocation()},
                RestartClassLoader.class.getClassLoader());
        this.reloaded = Set.of(java.util.Arrays.stream(reloaded).map(Class::getName).toArray(String[]::new));
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        if (!reloaded.contains(name)) {
            return super.loadClass(name, resolve);
        }
        synchronized (getClassLoadingLock(name)) {
            Class<?> loaded = findLoadedClass(name);
            return loaded != null ? loaded : findClass(name);
        }
    }

    /** A new instance of the reloaded copy of {@code type}, made with its constructor taking {@code args}. */
    public Object newInstance(Class<?> type, Class<?>[] parameterTypes, Object... args) throws ReflectiveOperationException {
        var constructor = loadClass(type.getName()).getDeclaredConstructor(parameterTypes);
        constructor.setAccessible(true);
        return constructor.newInstance(args);
    }
}
