/*
 * The thrift-demo's service. The generated Java is committed under src/main/generated-java
 * (regenerate.sh next to this file makes it), so the build needs no Thrift compiler.
 */
namespace java dev.grizzlyboot.examples.thriftdemo.api

exception DivideByZero {
  1: i32 dividend
}

service Calculator {
  i32 add(1: i32 a, 2: i32 b),

  i32 divide(1: i32 dividend, 2: i32 divisor) throws (1: DivideByZero error),

  /** Fire and forget: the server counts the notes it got. */
  oneway void note(1: string text),

  i32 notesReceived()
}
