// mma.sync.aligned.m16n8k{4,8,16}.row.col.f64 (sm_90 only; DMMA.16x8x* in SASS): D = A B + D on one
// 16 x 8 tile, the fragments in the PTX ISA's register order (lane = 4 * groupID + threadID_in_group holds
// A rows {g, g + 8}, B column g and k values t + 4w). The sm90_mma family permutes which physical rows, columns
// and k each register holds (families/sm90/kernel.cuh); these wrappers only issue the instruction.
#pragma once

namespace tcgemm::detail::arch {

template <int kK>
struct Mma;
template <>
struct Mma<4> {
  static constexpr int kARegs = 2, kBRegs = 1;
  __device__ __forceinline__ static void run(double (&d)[4], const double (&a)[2], const double (&b)[1]) {
    asm("mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};\n"
        : "+d"(d[0]), "+d"(d[1]), "+d"(d[2]), "+d"(d[3])
        : "d"(a[0]), "d"(a[1]), "d"(b[0]));
  }
};
template <>
struct Mma<8> {
  static constexpr int kARegs = 4, kBRegs = 2;
  __device__ __forceinline__ static void run(double (&d)[4], const double (&a)[4], const double (&b)[2]) {
    asm("mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
        "{%0,%1,%2,%3};\n"
        : "+d"(d[0]), "+d"(d[1]), "+d"(d[2]), "+d"(d[3])
        : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(b[0]), "d"(b[1]));
  }
};
template <>
struct Mma<16> {
  static constexpr int kARegs = 8, kBRegs = 4;
  __device__ __forceinline__ static void run(double (&d)[4], const double (&a)[8], const double (&b)[4]) {
    asm("mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5,%6,%7,%8,%9,%10,%11}, "
        "{%12,%13,%14,%15}, {%0,%1,%2,%3};\n"
        : "+d"(d[0]), "+d"(d[1]), "+d"(d[2]), "+d"(d[3])
        : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(a[4]), "d"(a[5]), "d"(a[6]), "d"(a[7]),
          "d"(b[0]), "d"(b[1]), "d"(b[2]), "d"(b[3]));
  }
};

}  // namespace tcgemm::detail::arch
