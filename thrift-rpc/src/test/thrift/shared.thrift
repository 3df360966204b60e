/*
 * The shared service of the Thrift tutorial: Calculator extends it, so a proxy
 * must route inherited methods as well as its own.
 */
namespace java dev.grizzlyboot.thrift.tutorial.shared

struct SharedStruct {
  1: i32 key
  2: string value
}

service SharedService {
  SharedStruct getStruct(1: i32 key)
}
