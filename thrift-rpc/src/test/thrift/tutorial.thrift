/*
 * The Thrift tutorial's Calculator, plus a binary payload method used by the
 * tests and benchmarks to move frames of a chosen size.
 */
include "shared.thrift"

namespace java dev.grizzlyboot.thrift.tutorial

enum Operation {
  ADD = 1,
  SUBTRACT = 2,
  MULTIPLY = 3,
  DIVIDE = 4
}

struct Work {
  1: i32 num1 = 0,
  2: i32 num2,
  3: Operation op,
  4: optional string comment,
}

exception InvalidOperation {
  1: i32 whatOp,
  2: string why
}

service Calculator extends shared.SharedService {
  void ping(),

  i32 add(1: i32 num1, 2: i32 num2),

  i32 calculate(1: i32 logid, 2: Work w) throws (1: InvalidOperation ouch),

  /** Returns the payload unchanged: a round trip of a chosen size. */
  binary echo(1: binary payload),

  oneway void zip()
}
