/*
 * A newer version of the tutorial's Calculator, as a client built from a later IDL than the
 * server's sees it: the same service name and methods, plus a two-way and a oneway method the
 * server does not know. Tests use it to reproduce version skew.
 */
include "shared.thrift"

namespace java dev.grizzlyboot.thrift.tutorial.newer

service Calculator extends shared.SharedService {
  void ping(),

  i32 add(1: i32 num1, 2: i32 num2),

  oneway void zip(),

  /** Not in the server's IDL: the server answers UNKNOWN_METHOD. */
  i32 multiply(1: i32 num1, 2: i32 num2),

  /** Not in the server's IDL: the server answers UNKNOWN_METHOD to a call that expects no reply. */
  oneway void shout(1: string message)
}
