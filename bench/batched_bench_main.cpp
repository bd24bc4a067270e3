// tcgemm-batched-bench: the same benchmark as `tcgemm-bench batched` (batched_bench.cu).
#include "batched_bench.hpp"

int main(int argc, char** argv) { return tcgemm::bench::run_batched_bench(argc, argv); }
